"""Standings: points, Buchholz, head-to-head and shared ranks on hand-made events."""

from __future__ import annotations

import pytest

from domain.contract.core import InvalidCommandError
from domain.tournament.standings import (
    GameResult,
    compute_standings,
    head_to_head,
    table_points,
)


def won(winner: str, loser: str) -> GameResult:
    return GameResult(players=(winner, loser), ranks=(1, 2))


def drew(a: str, b: str) -> GameResult:
    return GameResult(players=(a, b), ranks=(1, 1))


def table(rows) -> list[tuple[int, str, float, float]]:
    return [(r.rank, r.player_id, r.points, r.buchholz) for r in rows]


def test_buchholz_breaks_a_points_tie_and_unmet_equals_share_a_rank() -> None:
    round_1 = [won("a", "b"), won("c", "d"), won("e", "f")]
    round_2 = [won("a", "c"), won("e", "d"), won("b", "f")]
    results = round_1 + round_2
    rows = compute_standings(list("abcdef"), results)
    assert table(rows) == [
        (1, "a", 6.0, 6.0),  # beat b (3) and c (3)
        (2, "e", 6.0, 0.0),  # beat f (0) and d (0)
        (3, "b", 3.0, 6.0),  # b and c never met: shared rank
        (3, "c", 3.0, 6.0),
        (5, "d", 0.0, 9.0),
        (5, "f", 0.0, 9.0),
    ]


def test_head_to_head_decides_between_exactly_two_tied_players_who_met() -> None:
    round_1 = [won("a", "b"), won("c", "d")]
    round_2 = [won("a", "c"), won("b", "d")]
    round_3 = [won("d", "a"), won("b", "c")]
    results = round_1 + round_2 + round_3
    rows = compute_standings(list("abcd"), results)
    # a and b: 6 points, Buchholz 12 each; a beat b.  d and c: 3 points,
    # Buchholz 15 each; c beat d, and d registered after c anyway.
    assert table(rows) == [
        (1, "a", 6.0, 12.0),
        (2, "b", 6.0, 12.0),
        (3, "c", 3.0, 15.0),
        (4, "d", 3.0, 15.0),
    ]
    swapped = compute_standings(list("bacd"), results)
    assert [r.player_id for r in swapped][:2] == ["a", "b"]  # not registration order


def test_a_three_way_tie_shares_the_rank_in_registration_order() -> None:
    results = [won("a", "b"), won("b", "c"), won("c", "a")]
    rows = compute_standings(["c", "a", "b"], results)
    assert table(rows) == [(1, "c", 3.0, 6.0), (1, "a", 3.0, 6.0), (1, "b", 3.0, 6.0)]


def test_a_drawn_head_to_head_leaves_two_players_sharing_a_rank() -> None:
    rows = compute_standings(["a", "b"], [drew("a", "b")])
    assert [(r.rank, r.draws, r.points) for r in rows] == [(1, 1, 1.0), (1, 1, 1.0)]


def test_byes_score_as_a_win_but_are_not_games() -> None:
    rows = compute_standings(["a", "b", "c"], [won("a", "b")], byes=["c"])
    by_id = {r.player_id: r for r in rows}
    assert (by_id["c"].points, by_id["c"].games, by_id["c"].byes) == (3.0, 0, 1)
    assert by_id["c"].buchholz == 0.0
    assert (by_id["a"].wins, by_id["b"].losses) == (1, 1)
    # a and c: 3 points; a's Buchholz 0 (b) equals c's 0, never met -> shared.
    assert [(r.rank, r.player_id) for r in rows] == [(1, "a"), (1, "c"), (3, "b")]


def test_multi_player_points_by_place_with_shared_places_averaged() -> None:
    assert table_points((1, 2, 3, 4), 4) == (3, 2, 1, 0)
    assert table_points((2, 1, 2), 3) == (0.5, 2, 0.5)
    assert table_points((1, 2), 3) == (2, 1)  # short table: same place values


def test_multi_player_standings_count_wins_draws_and_buchholz() -> None:
    results = [
        GameResult(players=("a", "b", "c"), ranks=(1, 2, 3)),
        GameResult(players=("d", "e", "f"), ranks=(1, 1, 3)),
    ]
    rows = compute_standings(list("abcdefg"), results, byes=["g"], table_size=3)
    by_id = {r.player_id: r for r in rows}
    assert (by_id["a"].points, by_id["a"].wins, by_id["a"].buchholz) == (2.0, 1, 1.0)
    assert (by_id["d"].points, by_id["d"].draws, by_id["d"].buchholz) == (1.5, 1, 1.5)
    assert (by_id["g"].points, by_id["g"].byes) == (2.0, 1)
    assert (by_id["c"].losses, by_id["c"].points) == (1, 0.0)
    assert [r.player_id for r in rows][:2] == ["a", "g"]  # Buchholz 1.0 beats 0.0


def test_head_to_head_counts_relative_places_at_shared_tables() -> None:
    games = [GameResult(players=("a", "b", "c"), ranks=(3, 1, 2)), won("a", "b")]
    assert head_to_head("a", "b", games) == 0
    assert head_to_head("c", "a", games) == 1


def test_withdrawn_players_keep_their_results_and_are_flagged() -> None:
    rows = compute_standings(["a", "b"], [won("b", "a")], withdrawn=["b"])
    assert [(r.player_id, r.withdrawn, r.points) for r in rows] == [
        ("b", True, 3.0),
        ("a", False, 0.0),
    ]


@pytest.mark.parametrize(
    "result",
    [
        GameResult(players=("a", "x"), ranks=(1, 2)),
        GameResult(players=("a", "b"), ranks=(1,)),
        GameResult(players=("a", "b"), ranks=(2, 2)),
        GameResult(players=("a", "a"), ranks=(1, 2)),
    ],
)
def test_malformed_results_are_rejected(result: GameResult) -> None:
    with pytest.raises(InvalidCommandError):
        compute_standings(["a", "b"], [result])
