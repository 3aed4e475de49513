"""Two requests giving one address at once (issue 18), then verifying it at once (issue 39):
two sign-ups, or two accounts changing theirs, in two cases of one address. An address is
only claimed until verified, so both are answered alike; when both open their links at
once, one is verified (the database's constraint: one verified owner per address), the
other's claim goes with it and its link is refused (400), never a 500 nor a deadlock. A
claim given again while the daily job lapses it stays, claimed anew.
Threads need PostgreSQL (concurrent connections); skipped on SQLite."""

from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scoring.accounts import services
from scoring.accounts.models import LINK_DAYS, AccountEmail
from scoring.accounts.verification import make_token
from scoring.infra.throttles import VERIFY_MAIL_COOL_DOWN, VERIFY_MAIL_RECIPIENT
from tests.clubs.races import at_once, racing, report, signed_in
from tests.factories import account

pytestmark = [racing, pytest.mark.django_db(transaction=True)]

ROUNDS = 10
PASSWORD = "felt-and-trumps-21"


def signup(username, email):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return lambda: Client().post("/accounts/signup/", data)


def change_email(browser, email):
    return lambda: browser.post("/accounts/email/", {"email": email})


def verify(username, address):
    user_id = User.objects.get(username=username).pk
    path = f"/accounts/email/verify/{make_token(user_id, address)}/"
    return lambda: Client().post(path)


def one_owner(address):
    """The address's rows, whatever its case: one, verified (the other claim went)."""
    rows = AccountEmail.objects.filter(address__iexact=address)
    return ([row.verified for row in rows], User.objects.filter(email__iexact=address).count())


# The site's real password hash keeps each sign-up as long as production's: they overlap.
@pytest.mark.usefixtures("site_password_hashing")
def test_two_signups_then_two_links_for_one_address_at_once_make_one_owner():
    for round_ in range(ROUNDS):
        address = f"amina{round_}@example.com"
        one, other = f"amina{round_}", f"bilal{round_}"

        signed_up = at_once(signup(one, address), signup(other, address.upper()))
        verified = at_once(verify(one, address), verify(other, address.upper()))

        assert [response.status_code for response in signed_up] == [302, 302]
        # The second waits for the first, then finds its claim gone: the link is refused.
        assert sorted(response.status_code for response in verified) == [200, 400]
        assert one_owner(address) == ([True], 1)
    assert User.objects.count() == 2 * ROUNDS


@pytest.fixture
def mail_unthrottled():
    """The email address's cool-down out of the way: its mails are not what is tried here."""
    limits = [(limit, limit.count) for limit in (VERIFY_MAIL_COOL_DOWN, VERIFY_MAIL_RECIPIENT)]
    for limit, _ in limits:
        object.__setattr__(limit, "count", 1000)  # Limit is frozen: the test alone sets it
    yield
    for limit, count in limits:
        object.__setattr__(limit, "count", count)


@pytest.mark.usefixtures("mail_unthrottled")
def test_two_accounts_taking_then_verifying_one_address_at_once_get_it_once():
    for round_ in range(ROUNDS):
        address = f"club{round_}@example.com"
        one = signed_in(account(f"amina{round_}", f"amina{round_}@example.com"))
        other = signed_in(account(f"bilal{round_}"))

        taken = at_once(change_email(one, address), change_email(other, address.title()))
        verified = at_once(
            verify(f"amina{round_}", address), verify(f"bilal{round_}", address.title())
        )

        assert [response.status_code for response in taken] == [302, 302]
        assert sorted(response.status_code for response in verified) == [200, 400]
        assert one_owner(address) == ([True], 1)


@pytest.mark.usefixtures("mail_unthrottled")
def test_claim_given_again_while_the_daily_job_lapses_it_stays_claimed_anew():
    """The account gives its address again (a new link, three days more) while
    ``expire_email_claims`` lapses the old claim: whichever locks the row first, the account
    ends with the address claimed anew, never lapsed, in its row and in Django's field."""
    outcomes = Counter()
    for round_ in range(ROUNDS):
        address = f"late{round_}@example.com"
        user = account(f"late{round_}", address, verified=False)
        old = timezone.now() - timedelta(days=LINK_DAYS, minutes=1)
        AccountEmail.objects.filter(user=user).update(claimed_at=old)

        again, lapsed = at_once(change_email(signed_in(user), address), services.expire_claims)

        row = AccountEmail.objects.get(user=user)
        user.refresh_from_db()
        outcomes[f"lapsed {lapsed}"] += 1
        assert (again.status_code, lapsed in (0, 1)) == (302, True)
        assert (row.address, row.verified, row.claimed_at > old, user.email) == (
            address,
            False,
            True,
            address,
        )
    report(outcomes)
