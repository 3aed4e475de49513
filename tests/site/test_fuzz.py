"""Bad input of any kind, to any form or URL: a 4xx or the form with its errors, never a 500.

Each example posts random form data (the real field names and random ones, with
plausible values, random text, huge numbers, very long strings, unicode and NUL
bytes) or asks for random paths, against a game or two accounts set up through the
services. A request the app accepted may store something; any other must leave every
table as it was.
"""

import functools
import json
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from scoring.accounts.models import AccountEmail
from scoring.accounts.verification import make_token
from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Member
from scoring.common.rights import COOKIE
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Change, Game, Player, Seat
from scoring.table.models import Hand as HandRow
from tests.conftest import scorer_cookie
from tests.factories import account

fuzz = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

NAMES = ("Amina", "Bilal", "Chafik", "Dalila")
PASSWORD = "felt-and-trumps-21"
# Text the database or the forms may choke on.
NASTY = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "a\x00b",
        "3\x00",
        "-1",
        "+3",
        " 3 ",
        "3.0",
        "1e3",
        "0x3",
        "٣",  # an Arabic-Indic three: int() reads it
        "NaN",
        "inf",
        "-0",
        "9" * 40,
        str(2**63),
        str(10**30),
        "null",
        "true",
        "[]",
        "{}",
        "<script>alert(1)</script>",
        "'; DROP TABLE scoring_game; --",
        "\u202e",
        "🂡",
        "İpek",
        "ß",
        "\r\n",
    ]
)
TEXT = st.text(st.characters(codec="utf-8"), max_size=30)
LONG_TEXT = st.builds(
    lambda char, length: char * length, st.characters(codec="utf-8"), st.integers(41, 5000)
)
RANDOM = st.one_of(
    NASTY,
    TEXT,
    LONG_TEXT,
    st.integers().map(str),
    st.integers(-2, 8).map(str),
    st.uuids().map(str),
    st.decimals(places=5).map(str),
)


def field(*plausible: str) -> st.SearchStrategy:
    """A value for a real field: mostly one it expects, else anything; sometimes several."""
    one = st.one_of(st.sampled_from(plausible), RANDOM) if plausible else RANDOM
    return st.one_of(one, one, one, st.lists(one, min_size=2, max_size=3))


SEAT = ("0", "1", "2", "3")
TRICKS = ("", "0", "1", "2", "3", "4", "5", "6")
CALLS = ("", "pass", "3", "4", "5", "6")


def form_data(fields: dict[str, st.SearchStrategy]) -> st.SearchStrategy:
    """Any subset of the real fields, and a few random keys."""
    return st.builds(
        lambda real, extra: {**extra, **real},
        st.fixed_dictionaries({}, optional=fields),
        st.dictionaries(st.one_of(TEXT, *[st.just(name) for name in fields]), RANDOM, max_size=3),
    )


def tricks() -> st.SearchStrategy:
    """Four counts adding to six."""
    return (
        st.lists(st.integers(0, 6), min_size=3, max_size=3)
        .map(sorted)
        .map(lambda cut: [cut[0], cut[1] - cut[0], cut[2] - cut[1], 6 - cut[2]])
    )


def changed(valid: st.SearchStrategy, fields: dict[str, st.SearchStrategy]) -> st.SearchStrategy:
    """A valid form with a field or two dropped or given another value."""
    return st.builds(
        lambda form, dropped, changes: {
            **{name: value for name, value in form.items() if name not in dropped},
            **changes,
        },
        valid,
        st.sets(st.sampled_from(sorted(fields)), max_size=2),
        st.sampled_from(sorted(fields)).flatmap(
            lambda name: st.dictionaries(st.just(name), fields[name], max_size=1)
        ),
    )


def valid_hand(number: str, token: str, contract: tuple | None, blank: int | None) -> dict:
    """A hand form as the page sends it: all passed, or a contract with one count left blank."""
    form = {"number": number, "token": token}
    if contract is None:
        return {**form, "void": "1"}
    taker, bid, trump, counts = contract
    form.update(taker=str(taker), bid=str(bid), trump=trump)
    form.update({f"tricks_{seat}": str(count) for seat, count in enumerate(counts)})
    if blank is not None:
        form[f"tricks_{blank}"] = ""
    return form


def hand_data(numbers: tuple[str, ...]) -> st.SearchStrategy:
    """Hand forms: valid ones, valid ones with a few fields changed, and anything."""
    fields = {
        "number": field(*numbers),
        "token": st.one_of(st.uuids().map(str), RANDOM),
        "void": field("1", "on", "true", "false"),
        "taker": field(*SEAT),
        "bid": field("3", "4", "5", "6"),
        "trump": field("S", "H", "D", "C", "NT"),
        **{f"tricks_{seat}": field(*TRICKS) for seat in range(4)},
        **{f"call_{position}": field(*CALLS) for position in range(4)},
        "discard_after_end": field("1", "on"),
    }
    valid = st.builds(
        valid_hand,
        st.sampled_from(numbers),
        st.uuids().map(str),
        st.none()
        | st.tuples(
            st.integers(0, 3),
            st.integers(3, 6),
            st.sampled_from(["S", "H", "D", "C", "NT"]),
            tricks(),
        ),
        st.none() | st.integers(0, 3),
    )
    return st.one_of(valid, changed(valid, fields), form_data(fields))


# Names a table may already have used: upper case beyond ASCII is where databases differ.
KNOWN_NAMES = (*NAMES, "Émile", "İpek", "Öykü", "Zoé")
NEW_GAME_FIELDS = {
    **{f"player_{seat}": field(*KNOWN_NAMES, "émile", "ipek") for seat in range(4)},
    "first_dealer": field("random", *SEAT),
    "target": field("1", "21", "999", "1000"),
    "failed_taker": field("tricks_minus_bid", "minus_bid"),
    "stake": field("", "0", "0.50", "0.001", "999999999999"),
    "currency": field("EUR", "TND", "JPY", "XXX"),
}


def new_game_form(*names: str, **rules: str) -> dict[str, str]:
    """A valid new game form."""
    return {
        **{f"player_{seat}": name for seat, name in enumerate(names)},
        "first_dealer": "random",
        "target": "21",
        "failed_taker": "tricks_minus_bid",
        "currency": "EUR",
        **rules,
    }


VALID_NEW_GAME = st.builds(
    lambda names, **rules: new_game_form(*names, **rules),
    st.lists(st.sampled_from(KNOWN_NAMES), min_size=4, max_size=4, unique=True),
    first_dealer=st.sampled_from(["random", *SEAT]),
    target=st.integers(1, 999).map(str),
    failed_taker=st.sampled_from(["tricks_minus_bid", "minus_bid"]),
    stake=st.sampled_from(["", "0", "0.50", "2"]),
    currency=st.sampled_from(["EUR", "TND", "JPY"]),
)
NEW_GAME_DATA = st.one_of(
    VALID_NEW_GAME, changed(VALID_NEW_GAME, NEW_GAME_FIELDS), form_data(NEW_GAME_FIELDS)
)

# Tables at the game: not finished, or finished at its last hand.
TABLES = st.tuples(st.integers(0, 3), st.booleans())
HTMX = st.sampled_from([{}, {"HTTP_HX_REQUEST": "true"}])


def apart(test):
    """Each example from the test's own rows, with no form counted by the throttles (the
    import's would refuse the 31st example) and no mail sent: its writes are undone, in a
    savepoint rolled back at its end. Emptying the tables instead, at each example's start,
    cost a third of these tests' time in deletes."""

    @functools.wraps(test)
    def example(*args, **kwargs):
        cache.clear()
        mail.outbox.clear()
        with transaction.atomic():
            test(*args, **kwargs)
            transaction.set_rollback(True)

    return example


def make_game(hands: int, finished: bool, names: tuple[str, ...] = NAMES) -> Game:
    """A game with ``hands`` hands; when ``finished``, the last one won it (target 1)."""
    game = services.create_game(
        names=names, rules=Rules(target=1 if finished else 21), first_dealer=0
    ).game
    for number in range(1, hands + 1):
        if number == hands and finished:
            hand = Hand(Contract(taker=0, bid=3, trump=Trump.SPADES), tricks=(3, 1, 1, 1))
        else:
            hand = Hand()
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


@pytest.fixture
def tables(db) -> dict[tuple[int, bool], Game]:
    """A game of each shape :data:`TABLES` draws, by (hands, finished), made once for the
    test's examples, which each undo their writes (``apart``): making a game in each
    example was a third of these tests' time."""
    return {
        (hands, finished): make_game(hands, finished)
        for hands in range(4)
        for finished in (False, True)
    }


def scorer(game: Game) -> Client:
    """The phone that started ``game``: its writes reach the forms, not a 403."""
    phone = Client()
    phone.cookies[COOKIE] = scorer_cookie([game.public_id])
    return phone


def rows() -> dict[str, list[dict]]:
    """Every row of every table, to tell whether a request stored anything."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Player, Game, Seat, HandRow, Change)
    }


def check(response, before: dict[str, list[dict]], *, accepted: tuple[int, ...] = (302,)) -> None:
    """Never a 500; and unless the app accepted the request, nothing stored."""
    event(f"status {response.status_code}")
    assert response.status_code < 500
    if response.status_code not in accepted:
        assert rows() == before


def numbers_of(game: Game) -> tuple[str, ...]:
    """Hand numbers worth trying: each recorded one, the next, and one beyond."""
    return tuple(str(number) for number in range(1, game.hands.count() + 3))


@fuzz
@given(
    known=st.lists(st.sampled_from(KNOWN_NAMES), min_size=4, max_size=4, unique=True),
    data=NEW_GAME_DATA,
)
# The same players again, at a new game.
@example(known=NAMES, data=new_game_form(*NAMES))
@example(known=["Émile", *NAMES[1:]], data=new_game_form("Émile", *NAMES[1:]))
@example(known=["İpek", *NAMES[1:]], data=new_game_form("İpek", *NAMES[1:]))
@apart
def test_new_game_form_never_fails(db, known, data):
    make_game(0, finished=False, names=tuple(known))
    before = rows()

    response = Client().post("/games/new", data)

    check(response, before)


@fuzz
@given(table=TABLES, htmx=HTMX, data=st.data())
@apart
def test_hand_form_never_fails(tables, table, htmx, data):
    game = tables[table]
    form = data.draw(hand_data(numbers_of(game)))
    before = rows()

    response = scorer(game).post(f"/games/{game.public_id}/hands", form, **htmx)

    check(response, before, accepted=(200,) if htmx else (302,))


@fuzz
@given(table=st.tuples(st.integers(1, 3), st.booleans()), htmx=HTMX, data=st.data())
@apart
def test_edit_form_never_fails(tables, table, htmx, data):
    game = tables[table]
    numbers = numbers_of(game)
    number = data.draw(
        st.one_of(
            st.sampled_from(numbers[: table[0]]),
            st.sampled_from(numbers),
            st.integers(0, 10**30).map(str),
        )
    )
    form = data.draw(hand_data((number,) if number in numbers else numbers))
    before = rows()

    response = scorer(game).post(f"/games/{game.public_id}/hands/{number}/edit", form, **htmx)

    check(response, before)


@fuzz
@given(table=TABLES, htmx=HTMX, data=st.data())
@apart
def test_undo_never_fails(tables, table, htmx, data):
    game = tables[table]
    last = game.hands.count()
    number = data.draw(st.one_of(st.sampled_from(numbers_of(game)), st.integers(0, 10**30)))
    form = data.draw(form_data({"number": field(*numbers_of(game))}))
    before = rows()

    response = scorer(game).post(f"/games/{game.public_id}/hands/{number}/undo", form, **htmx)

    check(response, before, accepted=(200, 302) if int(number) == last else ())


@fuzz
@given(table=TABLES, data=form_data({}))
@apart
def test_rematch_never_fails(tables, table, data):
    game = tables[table]
    before = rows()

    response = scorer(game).post(f"/games/{game.public_id}/rematch", data)

    check(response, before)


# The record's own values, so that some records are valid and others nearly so.
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
    NASTY,
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8,
)


RECORD_HAND = st.fixed_dictionaries(
    {},
    optional={
        "calls": st.one_of(
            st.lists(st.sampled_from(["pass", 3, 4, 5, 6, "boulmous"]), min_size=4, max_size=4),
            JSON,
        ),
        "taker": st.one_of(st.integers(0, 3), JSON),
        "bid": st.one_of(st.integers(3, 6), JSON),
        "trump": st.one_of(st.sampled_from(["S", "H", "D", "C", "NT"]), JSON),
        "tricks": st.one_of(tricks(), JSON),
        "dealer": st.one_of(st.integers(0, 3), JSON),
    },
)
PLAYER_NAME = st.one_of(st.sampled_from(["Amina", "Émile", "İpek"]), NASTY, TEXT, LONG_TEXT)
RECORD = st.fixed_dictionaries(
    {"format": st.one_of(st.just("boulmous/1"), JSON)},
    optional={
        "players": st.one_of(st.lists(PLAYER_NAME, min_size=4, max_size=4), JSON),
        "first_dealer": st.one_of(st.integers(0, 3), JSON),
        "rules": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "target": st.one_of(st.integers(1, 30), st.integers(), JSON),
                    "failed_taker": st.one_of(st.sampled_from(["minus_bid"]), JSON),
                    "stake": st.one_of(st.sampled_from(["0.50", "1e20", "-1"]), JSON),
                    "currency": st.one_of(st.sampled_from(["EUR", "TND", "JPY"]), JSON),
                },
            ),
            JSON,
        ),
        "hands": st.one_of(st.lists(RECORD_HAND, max_size=4), JSON),
        "extra": JSON,
    },
)
VALID_RECORD = st.fixed_dictionaries(
    {
        "format": st.just("boulmous/1"),
        "players": st.lists(st.sampled_from(KNOWN_NAMES), min_size=4, max_size=4, unique=True),
        "hands": st.lists(
            st.one_of(
                st.just({"calls": ["pass"] * 4}),
                st.fixed_dictionaries(
                    {
                        "taker": st.integers(0, 3),
                        "bid": st.integers(3, 6),
                        "trump": st.sampled_from(["S", "H", "D", "C", "NT"]),
                        "tricks": tricks(),
                    }
                ),
            ),
            max_size=4,
        ),
    },
    optional={
        "first_dealer": st.integers(0, 3),
        "rules": st.fixed_dictionaries(
            {"target": st.integers(1, 999)},
            optional={
                "failed_taker": st.sampled_from(["tricks_minus_bid", "minus_bid"]),
                "stake": st.sampled_from(["0", "0.50", "2"]),
                "currency": st.sampled_from(["EUR", "TND", "JPY"]),
            },
        ),
    },
)
RECORD_FIELDS = dict.fromkeys(["format", "players", "first_dealer", "rules", "hands"], JSON)
IMPORT_TEXT = st.one_of(
    VALID_RECORD.map(json.dumps),
    changed(VALID_RECORD, RECORD_FIELDS).map(json.dumps),
    RECORD.map(json.dumps),
    RECORD.map(lambda record: json.dumps(record, ensure_ascii=False)),
    RANDOM,
    JSON.map(json.dumps),
)


def record_text(**fields: object) -> str:
    """A valid record of one hand, but for ``fields``."""
    record = {
        "format": "boulmous/1",
        "players": ["Amina", "Bilal", "Chafik", "Dalila"],
        "rules": {"target": 21},
        "hands": [{"taker": 0, "bid": 3, "trump": "S", "tricks": [3, 1, 1, 1]}],
    }
    return json.dumps({**record, **fields})


@fuzz
@given(text=IMPORT_TEXT, extra=form_data({}))
@example(text=record_text(), extra={})
# Braces in a value the error message quotes.
@example(text=record_text(format="{}"), extra={})
@example(text=record_text(**{"{": 1}), extra={})
# Beyond what the columns hold: a target past a small integer, a long name, a NUL.
@example(text=record_text(rules={"target": 10**30}), extra={})
@example(text=record_text(rules={"target": 32768}), extra={})
@example(text=record_text(players=["A" * 41, "Bilal", "Chafik", "Dalila"]), extra={})
@example(text=record_text(players=["A\x00", "Bilal", "Chafik", "Dalila"]), extra={})
@apart
def test_import_text_never_fails(tables, text, extra):
    before = rows()

    response = Client().post("/games/import", {**extra, "text": text})

    check(response, before)


@fuzz
@given(
    content=st.one_of(
        IMPORT_TEXT.map(str.encode),
        st.binary(max_size=200),
        RECORD.map(lambda record: json.dumps(record).encode("utf-16")),
    ),
    name=st.one_of(st.just("record.json"), TEXT),
    text=st.one_of(st.just(""), RANDOM),
)
@apart
def test_import_file_never_fails(tables, content, name, text):
    before = rows()
    # What a browser's file name can be once Django's multipart parser has read it: its
    # last part, and never empty, "." or "..".
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    upload = SimpleUploadedFile(name if name not in {"", ".", ".."} else "record.json", content)

    response = Client().post("/games/import", {"file": upload, "text": text})

    check(response, before)


@fuzz
@given(data=form_data({"username": field("amina", "bilal", ""), "password": field(PASSWORD, "")}))
def test_login_form_never_fails_even_once_locked(db, data):
    # The examples share the cache: after ten failures the address is locked, and the rest
    # get the 429 page, which must not fail either.
    User.objects.get_or_create(username="amina", defaults={"password": make_password(PASSWORD)})

    response = Client().post("/accounts/login/", data)

    event(f"status {response.status_code}")
    assert response.status_code < 500


@fuzz
@given(
    data=form_data(
        {
            "username": field("bilal", ""),
            "email": field("bilal@example.com", ""),
            "password1": field(PASSWORD),
            "password2": field(PASSWORD),
        }
    )
)
def test_signup_form_never_fails_even_once_throttled(db, data):
    # As above: the 51st post from this address gets the 429 page.
    response = Client().post("/accounts/signup/", data)

    event(f"status {response.status_code}")
    assert response.status_code < 500


SEGMENT = st.one_of(
    st.sampled_from(["1", "2", "3"]),
    NASTY,
    TEXT,
    st.integers().map(str),
    st.integers(0, 10**30).map(str),
    st.just("0"),
)


@fuzz
@given(table=TABLES, segments=st.lists(SEGMENT, min_size=2, max_size=2), shape=st.integers(0, 6))
@apart
def test_game_urls_never_fail(tables, table, segments, shape):
    game = tables[table]
    one, two = (quote(segment, safe="") for segment in segments)
    path = [
        f"/games/{one}/",
        f"/games/{game.public_id}/hands/{one}/edit",
        f"/games/{one}/hands/{two}/edit",
        f"/games/{game.public_id}/record.json",
        f"/games/{one}/record.json",
        f"/games/{one}/hands/1/edit",
        f"/{one}/{two}",
    ][shape]
    before = rows()

    response = Client().get(path)

    check(response, before, accepted=())


URLS = (
    "/",
    "/healthz",
    "/games/new",
    "/games/import",
    "/games/{pk}/",
    "/games/{pk}/hands",
    "/games/{pk}/hands/{last}/edit",
    "/games/{pk}/hands/{last}/undo",
    "/games/{pk}/rematch",
    "/games/{pk}/record.json",
)


@fuzz
@given(
    table=TABLES,
    url=st.sampled_from(URLS),
    method=st.sampled_from(["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]),
    data=form_data({}),
)
@apart
def test_other_methods_never_fail(tables, table, url, method, data):
    game = tables[table]
    path = url.format(pk=game.public_id, last=max(1, game.hands.count()))
    body = urlencode(data, doseq=True)
    before = rows()

    response = Client().generic(
        method, path, body, "application/x-www-form-urlencoded", query_params=data
    )

    check(response, before, accepted=())


# --- Accounts: signing up, one's email address, its link, a password reset ----------------

ADDRESSES = ("amina@example.com", "AMINA@EXAMPLE.COM", "bilal@example.com", "x@y", "İpek@örnek.tr")


@pytest.fixture
def two_accounts(db) -> tuple[User, User]:
    """Two accounts, Amina's address verified, Bilal's not: made once per test, each example
    starting from them (``apart``)."""
    return (
        account("amina", "amina@example.com", PASSWORD),
        account("bilal", "bilal@example.com", PASSWORD, verified=False),
    )


def account_rows() -> dict[str, list[dict]]:
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (User, AccountEmail)
    }


def check_accounts(response, before, *, accepted: tuple[int, ...] = (302,)) -> None:
    event(f"status {response.status_code}")
    assert response.status_code < 500
    if response.status_code not in accepted:
        assert account_rows() == before


SIGNUP_FIELDS = {
    "username": field("chafik", "amina", "Amina", "émile", "a" * 150),
    "email": field("", "chafik@example.com", *ADDRESSES),
    "password1": field(PASSWORD),
    "password2": field(PASSWORD),
}
VALID_SIGNUP = st.fixed_dictionaries(
    {
        "username": st.sampled_from(["chafik", "dalila"]),
        "email": st.sampled_from(["", "chafik@example.com", *ADDRESSES]),
        "password1": st.just(PASSWORD),
        "password2": st.just(PASSWORD),
    }
)


@fuzz
@given(data=st.one_of(VALID_SIGNUP, changed(VALID_SIGNUP, SIGNUP_FIELDS), form_data(SIGNUP_FIELDS)))
@example(
    data={
        "username": "chafik",
        "email": "Amina@Example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
)
@apart
def test_signup_form_never_fails(two_accounts, data):
    before = account_rows()

    response = Client().post("/accounts/signup/", data)

    check_accounts(response, before)
    # Any number of accounts may claim an address; one only may have verified it.
    addresses = list(
        AccountEmail.objects.filter(verified_at__isnull=False).values_list("address", flat=True)
    )
    assert len({address.lower() for address in addresses}) == len(addresses)


EMAIL_FIELDS = {"email": field(*ADDRESSES)}


@fuzz
@given(who=st.integers(0, 1), data=form_data(EMAIL_FIELDS))
@example(who=1, data={"email": "Amina@example.com"})
@apart
def test_email_form_never_fails(two_accounts, who, data):
    phone = signed_in(two_accounts[who])
    before = account_rows()

    response = phone.post("/accounts/email/", data)

    check_accounts(response, before)
    # Any number of accounts may claim an address; one only may have verified it.
    addresses = list(
        AccountEmail.objects.filter(verified_at__isnull=False).values_list("address", flat=True)
    )
    assert len({address.lower() for address in addresses}) == len(addresses)


@fuzz
@given(
    token=st.one_of(SEGMENT, st.just("valid"), st.just("other")),
    method=st.sampled_from(["get", "post"]),
    data=form_data({}),
)
@apart
def test_verify_link_never_fails(two_accounts, token, method, data):
    _, bilal = two_accounts
    valid = token == "valid" and method == "post"
    if token == "valid":
        token = make_token(bilal.pk, "bilal@example.com")
    elif token == "other":  # signed, for an address the account does not have
        token = make_token(bilal.pk, "amina@example.com")
    before = account_rows()

    response = getattr(Client(), method)(f"/accounts/email/verify/{quote(token, safe='')}/", data)

    check_accounts(response, before, accepted=(200,) if valid else ())


@fuzz
@given(data=form_data({"email": field(*ADDRESSES)}))
@example(data={"email": "bilal@example.com"})
@apart
def test_password_reset_form_never_fails(two_accounts, immediate_jobs, data):
    before = account_rows()

    response = Client().post("/accounts/password_reset/", data)

    check_accounts(response, before, accepted=())
    assert {tuple(message.to) for message in mail.outbox} <= {("amina@example.com",)}


# Privacy (issue 18): deleting one's account, a member's name in public, his removal.


@pytest.fixture
def privacy(db) -> tuple[User, Member, Member]:
    """An account, admin of a club as Amina Belhaj, with a member Bilal Chebbi: made once per
    test, each example starting from them (``apart``)."""
    amina = get_user_model().objects.create_user("amina", "", PASSWORD)
    club = club_services.create_club(
        name="Café",
        slug="cafe",
        time_zone="Europe/Paris",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=True,
        invite_admits=True,
        admin_user_id=amina.pk,
        admin_name="Amina Belhaj",
    )
    admin = Member.objects.get(club=club)
    return amina, admin, member_services.add_member(club=club, name="Bilal Chebbi")


def signed_in(user: User) -> Client:
    """A phone of its own for each example: a deletion that went through signs it out."""
    phone = Client()
    phone.force_login(user)
    return phone


def people() -> dict[str, list[dict]]:
    """Every account and member, to tell whether a request changed one."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (get_user_model(), Member)
    }


def check_people(response, before: dict[str, list[dict]], accepted: tuple[int, ...]) -> None:
    event(f"status {response.status_code}")
    assert response.status_code < 500
    if response.status_code not in accepted:
        assert people() == before


DELETE_FIELDS = {"password": field(PASSWORD), "names": field("keep", "anonymous")}


@fuzz
@given(
    data=st.one_of(
        form_data(DELETE_FIELDS),
        changed(st.just({"password": PASSWORD, "names": "anonymous"}), DELETE_FIELDS),
    )
)
@apart
def test_delete_account_form_never_fails(privacy, data):
    phone = signed_in(privacy[0])
    before = people()

    response = phone.post("/accounts/delete/", data)

    check_people(response, before, accepted=(302,))


@fuzz
@given(
    data=form_data({"shown": field("full", "short")}),
    whom=st.one_of(st.sampled_from(["admin", "member"]), SEGMENT),
)
@apart
def test_public_name_form_never_fails(privacy, data, whom):
    amina, admin, member = privacy
    phone = signed_in(amina)
    target = {"admin": admin.pk, "member": member.pk}.get(whom, quote(whom, safe=""))
    before = people()

    response = phone.post(f"/clubs/cafe/players/{target}/public-name", data)

    check_people(response, before, accepted=(302,))


@fuzz
@given(
    data=form_data({}),
    whom=st.one_of(st.sampled_from(["admin", "member"]), SEGMENT),
    method=st.sampled_from(["get", "post"]),
)
@apart
def test_remove_member_and_member_data_never_fail(privacy, data, whom, method):
    amina, admin, member = privacy
    phone = signed_in(amina)
    target = {"admin": admin.pk, "member": member.pk}.get(whom, quote(whom, safe=""))
    before = people()

    removed = getattr(phone, method)(f"/clubs/cafe/members/{target}/remove", data)
    check_people(removed, before, accepted=(302,))
    downloaded = phone.get(f"/clubs/cafe/members/{target}/data.json", data)
    check_people(downloaded, before if removed.status_code != 302 else people(), accepted=())
