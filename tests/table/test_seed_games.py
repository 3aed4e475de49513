"""``manage.py seed_games``: games written in bulk that read back as the engine scores them."""

import io
import re

import pytest
from django.core.management import CommandError, call_command

from scoring.table.models import Change, Game, Summary
from scoring.table.state import columns, load_games, summary_of


def seed(*args):
    out = io.StringIO()
    call_command("seed_games", *args, stdout=out)
    return out.getvalue()


def dealt(games):
    """What the seed decides of each game: seats, rules, and every hand as stored."""
    return [
        (
            state.names,
            state.game.first_dealer,
            state.game.target,
            state.game.failed_taker,
            state.game.stake,
            [columns(hand) for hand in state.record.hands],
        )
        for state in load_games(games)
    ]


@pytest.mark.django_db
def test_seeded_games_read_back_as_the_engine_scores_them():
    printed = seed("--games", "3", "--hands", "5", "--seed", "1")

    assert re.fullmatch(r"seeded 3 games, 15 hands in \d+\.\d s\n", printed)
    states = load_games(Game.objects.order_by("pk"))
    assert [len(state.hands) for state in states] == [5, 5, 5]
    for state in states:
        summary = Summary.objects.get(game=state.game)
        assert {name: getattr(summary, name) for name in summary_of(state)} == summary_of(state)
        assert len(set(state.names)) == 4
        # The history as the services write it: the game started, then each hand recorded.
        actions = list(state.game.changes.order_by("at", "pk").values_list("action", flat=True))
        assert actions == [Change.Action.CREATED] + [Change.Action.RECORDED] * 5


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_hands():
    seed("--games", "3", "--hands", "5", "--seed", "1")
    seed("--games", "3", "--hands", "5", "--seed", "1")
    seed("--games", "3", "--hands", "5", "--seed", "2")

    games = dealt(Game.objects.order_by("pk"))
    assert games[0:3] == games[3:6]
    assert games[0:3] != games[6:9]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0", "--hands", "5"), "--games 0: give 1 or more"),
        (("--games", "1", "--hands", "-1"), "--hands -1: give 0 to 1000"),
        (("--games", "1", "--hands", "5", "--jobs", "0"), "--jobs 0: give 1 or more"),
    ],
)
def test_bad_arguments_are_refused_plainly(args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        seed(*args)
    assert not Game.objects.exists()
