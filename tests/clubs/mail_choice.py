"""A member's address verified, and his choice of the club's mail made on its page: for
the tests of club mail."""

from scoring.accounts import services as account_services
from tests.clubs.factories import signed_in


def verified(user, address):
    account_services.change_email(user=user, address=address)
    account_services.verify_email(user_id=user.pk, address=address)


def opt_in(user, club, language="en", **choice):
    browser = signed_in(user)
    response = browser.post(
        f"/clubs/{club.slug}/mail",
        {key: "on" for key, wanted in choice.items() if wanted},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 302
    return browser
