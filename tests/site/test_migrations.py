"""The migrations say what the models say: a change of a model comes with its migration."""

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db  # it checks the history applied is consistent
def test_migrations_hold_every_change_of_the_models():
    out = io.StringIO()

    call_command("makemigrations", "--check", "--dry-run", stdout=out)

    assert out.getvalue() == "No changes detected\n"
