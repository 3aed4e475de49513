"""An account's email address (issue 18): it belongs to one account whatever its case, on
signing up and on changing it, down to the database; it is verified by a signed link whose
GET only asks to confirm; and a password reset goes to a verified address only, the page
answering the same whether or not it sent anything."""

import re
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail, signing
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from scoring.accounts import services
from scoring.accounts.models import AccountEmail
from scoring.accounts.verification import SALT, make_token
from tests.factories import account

pytestmark = pytest.mark.django_db

PASSWORD = "felt-and-trumps-21"


@pytest.fixture
def amina():
    return account("amina", "amina@example.com")


@pytest.fixture
def bilal():
    """An account whose address is not verified yet."""
    return account("bilal", "bilal@example.com", verified=False)


def signup_data(**changes):
    data = {
        "username": "chafik",
        "email": "chafik@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(changes)
    return data


def field_errors(response, name):
    """The errors shown beside the field ``name``."""
    html = response.content.decode()
    box = next(part for part in html.split('<div class="field">') if f'name="{name}"' in part)
    found = re.search(rf'<ul class="errorlist" id="id_{name}_error">(.*?)</ul>', box)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def verify_path(message):
    return re.search(r"https?://testserver(/accounts/email/verify/\S+/)", message.body).group(1)


def emails():
    """Every stored address: the account, the address, whether verified; and Django's copy."""
    return sorted(
        (row.user.username, row.address, row.verified, row.user.email)
        for row in AccountEmail.objects.select_related("user")
    )


def h1(response):
    return re.search(r"<h1>(.*?)</h1>", response.content.decode()).group(1)


def aged_token(user_id, address, days):
    """A link made ``days`` days ago, signed as the site signs it."""

    class Earlier(signing.TimestampSigner):
        def timestamp(self):
            return signing.b62_encode(int(time.time() - days * 24 * 3600))

    return Earlier(salt=SALT).sign_object([user_id, address])


# --- One verified owner per address (issue 39 finding 11) -----------------------------------


def signup_answer(response):
    """What the page says to a sign-up: its status, where it goes, the errors it shows."""
    return (
        response.status_code,
        response.get("Location"),
        "errorlist" in response.content.decode(),
    )


@pytest.mark.parametrize("address", ["amina@example.com", "AMINA@Example.COM"])
def test_signup_with_a_verified_address_answers_as_a_new_one_does(client, amina, address):
    known = client.post("/accounts/signup/", signup_data(email=address))
    new = Client().post("/accounts/signup/", signup_data(username="zied", email="zied@example.com"))

    assert signup_answer(known) == signup_answer(new) == (302, "/", False)


def test_signup_with_a_verified_address_mails_its_owner_what_happened(client, amina):
    client.post("/accounts/signup/", signup_data(email="Amina@example.com"))

    [message] = mail.outbox
    assert (message.to, message.subject) == (
        ["Amina@example.com"],
        "Your email address already has a Boulmous account",
    )
    assert "already belongs to your account amina" in message.body
    assert ("/accounts/login/" in message.body, "/accounts/password_reset/" in message.body) == (
        True,
        True,
    )
    assert "/accounts/email/verify/" not in message.body


def test_signup_with_a_verified_address_never_gives_it_to_the_new_account(client, amina):
    client.post("/accounts/signup/", signup_data(email="amina@example.com"))
    chafik = User.objects.get(username="chafik")
    link = make_token(chafik.pk, "amina@example.com")

    verifying = client.post(f"/accounts/email/verify/{link}/")

    assert (
        verifying.status_code,
        "Another account verified this address first" in verifying.content.decode(),
    ) == (400, True)
    assert [row[:3] for row in emails()] == [
        ("amina", "amina@example.com", True),
        ("chafik", "amina@example.com", False),
    ]


def test_signup_with_an_unverified_address_of_another_account_is_not_blocked(client, bilal):
    response = client.post("/accounts/signup/", signup_data(email="Bilal@example.com"))

    assert (response.status_code, [message.to for message in mail.outbox]) == (
        302,
        [["Bilal@example.com"]],
    )
    assert "/accounts/email/verify/" in mail.outbox[0].body


def test_verifying_an_address_makes_it_this_accounts_alone(client, bilal):
    client.post("/accounts/signup/", signup_data(email="BILAL@example.com"))
    chafik = User.objects.get(username="chafik")

    verified = client.post(verify_path(mail.outbox[0]))
    bilal_link = Client().post(
        f"/accounts/email/verify/{make_token(bilal.pk, 'bilal@example.com')}/"
    )

    assert (verified.status_code, bilal_link.status_code) == (200, 400)
    assert emails() == [("chafik", "BILAL@example.com", True, "BILAL@example.com")]
    assert chafik.pk != bilal.pk


@pytest.mark.parametrize("language", ["fr", "ar"])
def test_signup_with_a_verified_address_mail_in_the_page_language(client, amina, language):
    client.post(
        "/accounts/signup/", signup_data(email="amina@example.com"), HTTP_ACCEPT_LANGUAGE=language
    )

    expected = {
        "fr": "Votre adresse e-mail a déjà un compte Boulmous",
        "ar": "لبريدك الإلكتروني حساب في بولموس بالفعل",
    }
    assert mail.outbox[0].subject == expected[language]


def test_create_account_with_a_verified_address_makes_an_unverified_claim(amina):
    services.create_account(username="chafik", email="Amina@example.com", password=PASSWORD)

    assert [row[:3] for row in emails()] == [
        ("amina", "amina@example.com", True),
        ("chafik", "Amina@example.com", False),
    ]


def test_database_refuses_one_address_verified_by_two_accounts_in_two_cases(amina, bilal):
    AccountEmail.objects.filter(user=bilal).update(address="AMINA@EXAMPLE.COM")

    with pytest.raises(IntegrityError), transaction.atomic():
        AccountEmail.objects.filter(user=bilal).update(verified_at=timezone.now())

    assert emails()[1][:3] == ("bilal", "AMINA@EXAMPLE.COM", False)


def test_verify_email_of_an_address_another_account_verified_raises(amina, bilal):
    services.change_email(user=bilal, address="AMINA@example.com")

    with pytest.raises(services.EmailTaken):
        services.verify_email(user_id=bilal.pk, address="AMINA@example.com")

    assert [row[2] for row in emails()] == [True, False]


@pytest.mark.parametrize("address", ["amina@example.com", "Amina@Example.com"])
def test_email_change_to_another_accounts_address_answers_as_any_change(
    client, amina, bilal, address
):
    client.force_login(bilal)

    response = client.post("/accounts/email/", {"email": address})

    assert (response.status_code, response["Location"]) == (302, "/accounts/email/sent/")
    assert ([message.to for message in mail.outbox], "already belongs" in mail.outbox[0].body) == (
        [[address]],
        True,
    )
    assert emails() == [
        ("amina", "amina@example.com", True, "amina@example.com"),
        ("bilal", address, False, address),
    ]


@pytest.mark.parametrize("address", ["", "not-an-email", "a" * 250 + "@example.com"])
def test_email_change_bad_address_is_refused_beside_the_field(client, bilal, address):
    client.force_login(bilal)

    response = client.post("/accounts/email/", {"email": address})

    assert (response.status_code, len(field_errors(response, "email"))) == (422, 1)
    assert emails() == [("bilal", "bilal@example.com", False, "bilal@example.com")]


# --- Giving and changing an address -----------------------------------------------------------


def test_signup_with_an_address_keeps_it_unverified_and_mails_its_link(client):
    response = client.post("/accounts/signup/", signup_data())

    assert response.status_code == 302
    assert emails() == [("chafik", "chafik@example.com", False, "chafik@example.com")]
    assert [(message.to, message.subject) for message in mail.outbox] == [
        (["chafik@example.com"], "Verify your Boulmous email address")
    ]


def test_signup_without_an_address_stores_none_and_mails_nothing(client):
    client.post("/accounts/signup/", signup_data(email=""))

    assert (emails(), len(mail.outbox), User.objects.get().email) == ([], 0, "")


@pytest.mark.parametrize(
    ("language", "subject", "opening"),
    [
        ("en", "Verify your Boulmous email address", "Hello chafik,"),
        ("fr", "Vérifiez votre adresse e-mail Boulmous", "Bonjour chafik,"),
        ("ar", "تحقّق من بريدك الإلكتروني في بولموس", "مرحبًا chafik،"),
    ],
)
def test_verification_email_is_in_the_language_of_the_request(client, language, subject, opening):
    client.post("/accounts/signup/", signup_data(), HTTP_ACCEPT_LANGUAGE=language)

    message = mail.outbox[0]
    assert (message.subject, message.body.splitlines()[0]) == (subject, opening)


def test_email_change_makes_the_new_address_unverified_and_mails_it(client, amina):
    client.force_login(amina)

    response = client.post("/accounts/email/", {"email": "amina@club.example"})

    assert response.headers["Location"] == "/accounts/email/sent/"
    assert emails() == [("amina", "amina@club.example", False, "amina@club.example")]
    assert [message.to for message in mail.outbox] == [["amina@club.example"]]


def test_email_change_in_another_case_of_ones_own_is_a_change(client, amina):
    client.force_login(amina)

    client.post("/accounts/email/", {"email": "Amina@Example.com"})

    assert emails() == [("amina", "Amina@Example.com", False, "Amina@Example.com")]


def test_email_change_to_the_same_verified_address_changes_nothing(client, amina):
    client.force_login(amina)

    response = client.post("/accounts/email/", {"email": "amina@example.com"})

    assert (response.headers["Location"], len(mail.outbox)) == ("/accounts/", 0)
    assert emails() == [("amina", "amina@example.com", True, "amina@example.com")]


def test_email_given_by_an_account_without_one(client):
    user = account("dalila")
    client.force_login(user)

    client.post("/accounts/email/", {"email": "dalila@example.com"})

    assert emails() == [("dalila", "dalila@example.com", False, "dalila@example.com")]
    assert len(mail.outbox) == 1


def test_email_change_by_get_or_without_login_changes_nothing(client, amina):
    got = client.get("/accounts/email/")
    anonymous = client.post("/accounts/email/", {"email": "x@example.com"})

    assert (got.status_code, anonymous.headers["Location"]) == (
        405,
        "/accounts/login/?next=/accounts/email/",
    )
    assert emails() == [("amina", "amina@example.com", True, "amina@example.com")]


def test_sent_page_names_the_address(client, bilal):
    client.force_login(bilal)

    response = client.get("/accounts/email/sent/")

    assert (response.status_code, "<bdi>bilal@example.com</bdi>" in response.content.decode()) == (
        200,
        True,
    )


# --- The account page ---------------------------------------------------------------------------


def test_account_page_says_a_verified_address_is_verified(client, amina):
    client.force_login(amina)

    html = client.get("/accounts/").content.decode()

    assert ("(verified)" in html, 'action="/accounts/email/resend/"' in html) == (True, False)
    assert 'name="email" value="amina@example.com"' in html


def test_account_page_offers_the_link_again_for_an_unverified_address(client, bilal):
    client.force_login(bilal)

    html = client.get("/accounts/").content.decode()

    assert ("(verified)" in html, 'action="/accounts/email/resend/"' in html) == (False, True)
    assert "(not verified yet:" in html


def test_resend_mails_the_link_again(client, bilal):
    client.force_login(bilal)

    response = client.post("/accounts/email/resend/")

    assert response.headers["Location"] == "/accounts/email/sent/"
    assert [message.to for message in mail.outbox] == [["bilal@example.com"]]


def test_resend_for_a_verified_address_mails_nothing(client, amina):
    client.force_login(amina)

    response = client.post("/accounts/email/resend/")

    assert (response.headers["Location"], len(mail.outbox)) == ("/accounts/", 0)


# --- The link -------------------------------------------------------------------------------------


def test_link_opened_asks_to_confirm_and_changes_nothing(client, bilal):
    client.force_login(bilal)
    client.post("/accounts/email/resend/")

    response = client.get(verify_path(mail.outbox[0]))

    html = response.content.decode()
    assert (response.status_code, h1(response)) == (200, "Verify your email address")
    assert ('<form method="post">' in html, "<bdi>bilal@example.com</bdi>" in html) == (True, True)
    assert emails() == [("bilal", "bilal@example.com", False, "bilal@example.com")]


def test_link_confirmed_verifies_the_address_even_logged_out(client, watcher):
    client.post("/accounts/signup/", signup_data())

    # Opened on another device, where nobody is logged in.
    response = watcher.post(verify_path(mail.outbox[0]))

    assert (response.status_code, h1(response)) == (200, "Email address verified")
    assert emails() == [("chafik", "chafik@example.com", True, "chafik@example.com")]


def test_link_confirmed_twice_keeps_the_first_time(bilal, watcher):
    path = f"/accounts/email/verify/{make_token(bilal.pk, 'bilal@example.com')}/"
    watcher.post(path)
    first = AccountEmail.objects.get().verified_at

    again = watcher.post(path)

    assert (again.status_code, AccountEmail.objects.get().verified_at) == (200, first)


def test_link_two_days_old_still_works(bilal, watcher):
    token = aged_token(bilal.pk, "bilal@example.com", days=2)

    response = watcher.post(f"/accounts/email/verify/{token}/")

    assert (response.status_code, emails()[0][2]) == (200, True)


@pytest.mark.parametrize("method", ["get", "post"])
def test_link_expired_is_refused_and_changes_nothing(bilal, watcher, method):
    token = aged_token(bilal.pk, "bilal@example.com", days=4)

    response = getattr(watcher, method)(f"/accounts/email/verify/{token}/")

    assert (response.status_code, h1(response)) == (400, "This link does not work")
    assert "It is more than 3 days old" in response.content.decode()
    assert emails()[0][2] is False


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),
        lambda token: token[:10],
        lambda token: "nonsense",
        lambda token: signing.dumps([1, "x@example.com"], salt="another.salt"),
        lambda token: signing.dumps("just text", salt=SALT),
        lambda token: signing.dumps(["1", 2], salt=SALT),
    ],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_link_tampered_is_refused_and_changes_nothing(bilal, watcher, tamper, method):
    token = tamper(make_token(bilal.pk, "bilal@example.com"))

    response = getattr(watcher, method)(f"/accounts/email/verify/{token}/")

    assert (response.status_code, h1(response)) == (400, "This link does not work")
    assert "It was not made by this site" in response.content.decode()
    assert emails()[0][2] is False


@pytest.mark.parametrize("method", ["get", "post"])
def test_link_for_an_address_since_changed_is_refused(client, bilal, method):
    client.force_login(bilal)
    client.post("/accounts/email/resend/")
    old = verify_path(mail.outbox[0])
    client.post("/accounts/email/", {"email": "bilal@club.example"})

    response = getattr(client, method)(old)

    assert (response.status_code, h1(response)) == (400, "This link does not work")
    assert "It is for an address the account no longer has." in response.content.decode()
    assert emails() == [("bilal", "bilal@club.example", False, "bilal@club.example")]


def test_link_of_a_deleted_account_is_refused(bilal, watcher):
    token = make_token(bilal.pk, "bilal@example.com")
    bilal.delete()

    response = watcher.post(f"/accounts/email/verify/{token}/")

    assert response.status_code == 400


@pytest.mark.parametrize(
    ("language", "title"),
    [("fr", "Ce lien ne fonctionne pas"), ("ar", "هذا الرابط لا يعمل")],
)
def test_link_refused_is_said_in_the_page_language(watcher, language, title):
    response = watcher.get("/accounts/email/verify/nonsense/", HTTP_ACCEPT_LANGUAGE=language)

    assert (response.status_code, h1(response)) == (400, title)


# --- A password reset goes to a verified address only -------------------------------------------


def reset(client, address):
    """The answer to a reset asked for ``address``, and the page it leads to but for its
    CSRF tokens (masked anew on every page)."""
    response = client.post("/accounts/password_reset/", {"email": address})
    page = client.get(response.headers["Location"]).content.decode()
    unmasked = re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")\w+', r"\1", page)
    return response.status_code, response.headers["Location"], unmasked


def test_password_reset_goes_to_a_verified_address_only(client, amina, bilal):
    client.post("/accounts/password_reset/", {"email": "AMINA@example.com"})
    client.post("/accounts/password_reset/", {"email": "bilal@example.com"})

    assert [message.to for message in mail.outbox] == [["amina@example.com"]]


def test_password_reset_answers_the_same_whatever_the_address(client, amina, bilal):
    verified = reset(client, "amina@example.com")
    unverified = reset(client, "bilal@example.com")
    unknown = reset(client, "nobody@example.com")

    assert verified == unverified == unknown
    assert verified[:2] == (302, "/accounts/password_reset/done/")
    assert len(mail.outbox) == 1


def test_password_reset_after_a_change_goes_nowhere_until_verified(client, amina):
    client.force_login(amina)
    client.post("/accounts/email/", {"email": "amina@club.example"})
    mail.outbox.clear()
    client.logout()

    client.post("/accounts/password_reset/", {"email": "amina@example.com"})
    client.post("/accounts/password_reset/", {"email": "amina@club.example"})

    assert mail.outbox == []


def test_password_reset_never_goes_to_an_address_set_around_the_app(client, amina):
    # Django's own field changed by hand (a shell, another tool): not the verified one.
    User.objects.filter(pk=amina.pk).update(email="someone@else.example")

    client.post("/accounts/password_reset/", {"email": "amina@example.com"})
    client.post("/accounts/password_reset/", {"email": "someone@else.example"})

    assert mail.outbox == []


def test_password_reset_of_an_inactive_account_sends_nothing(client, amina):
    User.objects.filter(pk=amina.pk).update(is_active=False)

    client.post("/accounts/password_reset/", {"email": "amina@example.com"})

    assert mail.outbox == []


def test_verified_then_reset_link_sets_a_password(client, bilal, watcher):
    watcher.post(f"/accounts/email/verify/{make_token(bilal.pk, 'bilal@example.com')}/")

    client.post("/accounts/password_reset/", {"email": "bilal@example.com"})

    assert [message.to for message in mail.outbox] == [["bilal@example.com"]]
    assert "/accounts/reset/" in mail.outbox[0].body


def test_verified_at_is_the_time_of_the_confirmation(bilal, watcher):
    before = timezone.now()

    watcher.post(f"/accounts/email/verify/{make_token(bilal.pk, 'bilal@example.com')}/")

    verified_at = AccountEmail.objects.get().verified_at
    assert (before <= verified_at, verified_at - before < timedelta(seconds=5)) == (True, True)
