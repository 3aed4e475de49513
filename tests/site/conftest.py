import pytest
from django.core.management import call_command


@pytest.fixture(scope="session", autouse=True)
def _collected_static():
    """Pages link hashed static files, as in production: collect them once."""
    call_command("collectstatic", "--no-input", verbosity=0)
