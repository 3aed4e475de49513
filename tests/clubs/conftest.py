"""The clubs' tests' shared fixtures."""

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def admin(db):
    """Amina's account, without a password: the club's first admin where a test makes one."""
    return get_user_model().objects.create_user("amina")
