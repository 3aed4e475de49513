"""A club game played for money under a confirmation rule (issue 40.4): its result is
provisional until the four have agreed to its settlement; the club's games, the season's
standings (on screen, on paper) and the API say provisional or final, and the league
counts it once final."""

import io
import re
import uuid
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db.models import F
from django.test import Client

from scoring.clubs import services as club_services
from scoring.clubs.models import Club, ClubResult
from scoring.engine import Rules
from scoring.table import services
from scoring.table.forms import HandForm
from scoring.table.models import Change, Game, Hand, Summary
from tests.factories import hand_data

pytestmark = pytest.mark.django_db

NAMES = ("Amina", "Bilal", "Chafik", "Dalila")
WON = {"taker": 1, "bid": 5, "trump": "S", "tricks": (0, 5, 1)}


def won_club_game(club, mode="whole_game"):
    """A game of the club's, played for its stake (0.50 EUR) under ``mode``, won by Bilal."""
    Club.objects.filter(pk=club.pk).update(confirmation=mode, public=True)
    club.refresh_from_db()
    club_services.create_season(
        club=club,
        name="Now",
        slug="now",
        first_day=date(2000, 1, 1),
        last_day=date(2999, 12, 31),
        points=(3, 2, 1, 0),
    )
    game = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=None).game
    for number in range(1, 6):
        form = HandForm(hand_data(number, **WON), names=NAMES)
        assert form.is_valid(), form.errors
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=form.cleaned_data["hand"],
            token=uuid.uuid4(),
        )
    return game


def text_of(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", response.content.decode()))


def marks(club, game):
    """What the club's games list, the season's page, its print and the API say."""
    phone = Client()
    listed = text_of(phone.get(f"/clubs/{club.slug}/games/"))
    season = text_of(phone.get(f"/clubs/{club.slug}/seasons/now/"))
    printed = text_of(phone.get(f"/clubs/{club.slug}/seasons/now/print"))
    one = phone.get(f"/api/v1/games/{game.public_id}").json()
    lines = phone.get(f"/api/v1/clubs/{club.slug}/games").json()["games"]
    standings = phone.get(f"/api/v1/clubs/{club.slug}/seasons/now/standings").json()
    provisional = "1 game won this season is provisional"
    return (
        "provisional result" in listed,
        "final result" in listed,
        provisional in season,
        provisional in printed,
        one["finality"],
        [line["finality"] for line in lines],
        standings["provisional_games"],
        ClubResult.objects.filter(game=game).count(),
    )


def test_club_game_is_provisional_until_the_four_agree_then_final_and_counted(club):
    game = won_club_game(club)
    for seat in range(3):
        services.agree_settlement(public_id=game.public_id, seat=seat)

    before = marks(club, game)
    services.agree_settlement(public_id=game.public_id, seat=3)
    after = marks(club, game)

    assert before == (True, False, True, True, "provisional", ["provisional"], 1, 0)
    assert after == (False, True, False, False, "final", ["final"], 0, 4)


def test_club_game_without_confirmation_is_final_without_its_settlement_agreed(club):
    game = won_club_game(club, mode="off")

    assert marks(club, game) == (False, True, False, False, "final", ["final"], 0, 4)


def test_club_game_counted_is_provisional_again_after_a_correction_voids_the_agreements(club):
    game = won_club_game(club)
    for seat in range(4):
        services.agree_settlement(public_id=game.public_id, seat=seat)
    form = HandForm(hand_data(5, taker=1, bid=5, trump="S", tricks=(0, 6, 0)), names=NAMES)
    assert form.is_valid(), form.errors

    services.edit_hand(
        public_id=game.public_id,
        number=5,
        hand=form.cleaned_data["hand"],
        discard_after_end=False,
        referee=True,  # a confirmed hand: its referee corrects it (another's is proposed)
    )

    assert marks(club, game)[4:] == ("provisional", ["provisional"], 1, 0)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "1 partie gagnée cette saison est provisoire"),
        ("ar", "مباراة واحدة فُصل فيها هذا الموسم نتيجتها مؤقتة"),
    ],
)
def test_season_says_its_provisional_games_in_french_and_arabic(club, language, said):
    won_club_game(club)

    page = Client(headers={"accept-language": language}).get(f"/clubs/{club.slug}/seasons/now/")

    assert said in text_of(page)


def test_club_page_recent_games_say_provisional_then_final(club):
    game = won_club_game(club)

    before = text_of(Client().get(f"/clubs/{club.slug}/"))
    for seat in range(4):
        services.agree_settlement(public_id=game.public_id, seat=seat)
    after = text_of(Client().get(f"/clubs/{club.slug}/"))

    assert ("provisional result" in before, "final result" in before) == (True, False)
    assert ("provisional result" in after, "final result" in after) == (False, True)


def played_an_hour_ago(game):
    """The game as if played an hour ago: its minutes to confirm have run out since."""
    back = F("entered_at") - timedelta(hours=1), F("recorded_at") - timedelta(hours=1)
    Hand.objects.filter(game=game).update(entered_at=back[0], recorded_at=back[1])
    Game.objects.filter(pk=game.pk).update(finished_at=F("finished_at") - timedelta(hours=1))
    Summary.objects.filter(game=game).update(changed_at=F("changed_at") - timedelta(hours=1))
    Change.objects.filter(game=game).update(at=F("at") - timedelta(hours=1))


def confirm_due():
    out = io.StringIO()
    call_command("confirm_due", stdout=out)
    return out.getvalue()


def test_confirm_due_counts_a_club_game_final_by_time_alone_once(club):
    game = won_club_game(club)
    played_an_hour_ago(game)
    lines = Change.objects.filter(game=game).count()

    before = marks(club, game)
    said = confirm_due(), confirm_due()

    assert before == (True, False, True, True, "final", ["provisional"], 1, 0)
    assert said == ("1 game(s) final by time counted.\n", "0 game(s) final by time counted.\n")
    assert marks(club, game) == (False, True, False, False, "final", ["final"], 0, 4)
    assert Change.objects.filter(game=game).count() == lines


def test_confirm_due_leaves_a_game_still_waiting_or_counted_as_it_is(club):
    waiting = won_club_game(club)
    off = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    changed = list(Summary.objects.order_by("game_id").values_list("changed_at", flat=True))

    said = confirm_due()

    assert (said, ClubResult.objects.filter(game=waiting).count()) == (
        "0 game(s) final by time counted.\n",
        0,
    )
    assert list(Summary.objects.order_by("game_id").values_list("changed_at", flat=True)) == changed
    assert off.confirmation == "off"
