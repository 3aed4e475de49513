import pytest


@pytest.fixture(autouse=True)
def _mail_sent_at_once(immediate_jobs):
    """An account's mail (a link that verifies an address, a password reset) is a job: it
    runs as it is queued here, so that each test reads it in the outbox."""
