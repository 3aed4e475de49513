"""The engine's tests: alone, they must cover the engine, every line and branch (CI's engine
part, `--cov`). A few property tests run untraced (pytest-cov's ``no_cover``): they try
hundreds of examples through the same code, which coverage's tracer makes three to six
times slower (the engine's tests: 49 CPU-seconds, 35 to 37 without tracing these on a 0.29 s
machine), and the other tests already reach every line and branch they reach."""

from pathlib import Path

import pytest

UNTRACED = {
    "test_draw.py": (
        "test_draw_property_same_seed_gives_same_draw",
        "test_draw_newcomer_rests_in_turn_with_everyone_once_all_rested",
        "test_draw_8_players_3_rounds_reaches_the_least_spread",
    ),
    "test_federation.py": ("test_ranking_equals_an_independent_computation",),
    "test_league.py": ("test_rate_is_bit_identical_to_openskill",),
    "test_properties.py": (
        "test_record_serialise_then_parse_is_the_identity",
        "test_failing_to_follow_while_holding_the_suit_is_a_revoke",
        "test_legal_play_out_has_no_revoke_and_the_strongest_card_wins",
    ),
    "test_seating.py": (
        "test_seat_round_keeps_every_property_or_names_an_impossible_pair",
        "test_seat_round_swiss_is_the_best_seating_of_a_small_round",
        "test_seat_round_swiss_is_never_worse_than_the_greedy",
    ),
    "test_settle_many.py": (
        "test_the_exact_split_is_as_good_as_trying_every_pairing_first",
        "test_any_number_of_players_settle_in_fewer_transfers_than_balances",
    ),
}
"""The tests run untraced, by file: a test that alone reaches a line or a branch stays out."""

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    named = {(name, test) for name, tests in UNTRACED.items() for test in tests}
    for item in items:
        path = Path(item.path)
        if path.parent == HERE and (path.name, item.originalname) in named:
            item.add_marker(pytest.mark.no_cover)
