"""An unverified address lapses (issue 39, item 6): given and not verified within its
link's 3 days, it is no longer the account's, as if he had given none; the account page
says when it lapsed, and that he may give it again. Verified, it never lapses. Time is a
stopped clock: ``django.utils.timezone.now`` answers the moment the test names."""

import io
import re
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from unittest.mock import patch

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command

from scoring.accounts import services
from scoring.accounts.models import AccountEmail
from scoring.accounts.verification import make_token
from tests.factories import account

pytestmark = pytest.mark.django_db

CLAIMED = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
"""When the addresses of these tests are given."""
LAPSED = CLAIMED + timedelta(days=3, minutes=1)
"""A minute after the link's 3 days."""
STILL = CLAIMED + timedelta(days=3, minutes=-1)
"""A minute before."""


@contextmanager
def clock(moment):
    """The clock stopped at ``moment``, for whatever asks Django the time."""
    with patch("django.utils.timezone.now", return_value=moment):
        yield


@pytest.fixture
def bilal():
    """An account whose address, given at CLAIMED, is not verified."""
    with clock(CLAIMED):
        return account("bilal", "bilal@example.com", verified=False)


@pytest.fixture
def amina():
    """An account whose address, given at CLAIMED, is verified."""
    with clock(CLAIMED):
        return account("amina", "amina@example.com")


def stored(user):
    """The account's row (its address, whether verified) and Django's copy of the address."""
    row = AccountEmail.objects.get(user=user)
    return (row.address, row.verified, User.objects.get(pk=user.pk).email)


def expire():
    out = io.StringIO()
    call_command("expire_email_claims", stdout=out)
    return out.getvalue()


def facts(response):
    """What the account page says of the address, and the heading of its form."""
    html = response.content.decode()
    said = re.findall(r"<dd>(.*?)</dd>", html)[1]
    return re.sub(r"<[^>]+>", "", said), re.search(r"<h2>(.*?)</h2>", html).group(1)


def log_in(client, user, moment=CLAIMED):
    """Signed in at ``moment``: the session lasts from then on."""
    with clock(moment):
        client.force_login(user)


def page(client, user, moment, language="en"):
    log_in(client, user, moment)
    with clock(moment):
        return client.get("/accounts/", HTTP_ACCEPT_LANGUAGE=language)


# --- The account page ------------------------------------------------------------------------


def test_claim_younger_than_three_days_shows_until_when_its_link_works(client, bilal):
    assert facts(page(client, bilal, STILL)) == (
        "bilal@example.com (not verified yet: a forgotten password cannot be reset until you "
        "open the link we sent it, which works until Dec 4, 2026, 10:00\u202fAM; unopened by "
        "then, the address lapses)",
        "Change your email address",
    )


def test_claim_older_than_three_days_is_no_address_on_the_account_page(client, bilal):
    assert facts(page(client, bilal, LAPSED)) == (
        "None: the address you gave lapsed on Dec 4, 2026, 10:00\u202fAM, unverified, as its "
        "link was not opened within 3 days. You may give it again: we send it a new link.",
        "Give an email address",
    )
    assert stored(bilal) == ("", False, "")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "fr",
            "Aucune\u00a0: l’adresse que vous aviez donnée a expiré le 4 déc. 2026, 10:00, sans "
            "avoir été vérifiée, son lien n’ayant pas été ouvert en 3 jours. Vous pouvez la "
            "donner de nouveau\u00a0: nous lui enverrons un nouveau lien.",
        ),
        (
            "ar",
            "لا يوجد: انتهت صلاحية العنوان الذي قدّمته في 4 ديسمبر 2026، 10:00 ص دون التحقق "
            "منه، إذ لم يُفتح رابطه خلال 3 أيام. يمكنك تقديمه من جديد: سنرسل إليه رابطًا "
            "جديدًا.",
        ),
    ],
)
def test_claim_older_than_three_days_lapsed_says_so_in_each_language(client, bilal, language, said):
    assert facts(page(client, bilal, LAPSED, language))[0] == said


def test_verified_address_never_lapses(client, amina):
    later = CLAIMED + timedelta(days=400)

    with clock(later):
        assert expire() == "0 unverified address(es) lapsed.\n"
    assert facts(page(client, amina, later))[0] == "amina@example.com (verified)"
    assert stored(amina) == ("amina@example.com", True, "amina@example.com")


# --- No mail to a lapsed address ---------------------------------------------------------------


def test_claim_older_than_three_days_gets_no_link_again(client, bilal):
    log_in(client, bilal)

    with clock(LAPSED):
        response = client.post("/accounts/email/resend/")

    assert (response.headers["Location"], mail.outbox) == ("/accounts/", [])


def test_claim_younger_than_three_days_gets_its_link_again_and_lasts_three_days_more(client, bilal):
    log_in(client, bilal)

    with clock(STILL):
        client.post("/accounts/email/resend/")
    with clock(LAPSED):
        kept = services.email_of(bilal.pk)

    assert ([message.to for message in mail.outbox], kept.claimed_at) == (
        [["bilal@example.com"]],
        STILL,
    )


def test_link_of_a_lapsed_claim_verifies_nothing(client, bilal):
    with clock(CLAIMED + timedelta(days=2)):
        token = make_token(bilal.pk, "bilal@example.com")  # a link resent, still good
    log_in(client, bilal)

    with clock(LAPSED):
        response = client.post(f"/accounts/email/verify/{token}/")

    assert (response.status_code, stored(bilal)) == (400, ("", False, ""))


def test_lapsed_claim_given_again_is_claimed_anew(client, bilal):
    log_in(client, bilal)

    with clock(LAPSED):
        response = client.post("/accounts/email/", {"email": "bilal@example.com"})
        kept = services.email_of(bilal.pk)

    assert (response.headers["Location"], [m.to for m in mail.outbox], kept.claimed_at) == (
        "/accounts/email/sent/",
        [["bilal@example.com"]],
        LAPSED,
    )


# --- The command -------------------------------------------------------------------------------


def test_expire_email_claims_lapses_claims_older_than_three_days_only(bilal):
    with clock(CLAIMED + timedelta(days=1)):
        chafik = account("chafik", "chafik@example.com", verified=False)

    with clock(LAPSED):
        said = expire()

    assert (said, stored(bilal), stored(chafik)) == (
        "1 unverified address(es) lapsed.\n",
        ("", False, ""),
        ("chafik@example.com", False, "chafik@example.com"),
    )


def test_expire_email_claims_again_changes_nothing(bilal):
    with clock(LAPSED):
        expire()
        again = expire()

    assert (again, stored(bilal)) == ("0 unverified address(es) lapsed.\n", ("", False, ""))


def test_claim_younger_than_three_days_stays(bilal):
    with clock(STILL):
        said = expire()

    assert (said, stored(bilal)) == (
        "0 unverified address(es) lapsed.\n",
        ("bilal@example.com", False, "bilal@example.com"),
    )


def test_my_data_of_a_lapsed_claim_has_no_address_only_when_it_was_given(client, bilal):
    log_in(client, bilal)

    with clock(LAPSED):
        data = client.get("/accounts/my-data.json").json()["account"]

    assert (data["email"], data["email_verified_at"], data["email_given_at"]) == (
        "",
        None,
        "2026-12-01T10:00:00+00:00",
    )
