"""A tournament's scoring of absent players and aborted games (docs/endings.md).

No point for a player who never moved, nobody wins a double forfeit, and an
aborted game is never a silent draw: it is not scored and its round waits
for the organiser to replay or reschedule it.
"""

from __future__ import annotations

import pytest

from domain.contract.core import IllegalCommandError
from domain.tournament.aggregate import Tournament
from domain.tournament.standings import GameResult, compute_standings
from domain.tournament.state import TableAssignment


def two_player_cup() -> tuple[Tournament, list[TableAssignment]]:
    t = Tournament.create("Absent cup", "thalara", "round_robin", 3)
    for p in "abcd":
        t.register(p)
    plan = t.plan_round()
    tables = [
        TableAssignment(table=i + 1, players=players, game_id=f"r1t{i + 1}")
        for i, players in enumerate(plan.tables)
    ]
    t.start_round(tables, plan.byes)
    return t, tables


def points(t: Tournament) -> dict[str, float]:
    return {row.player_id: row.points for row in t.state.standings()}


def test_a_double_forfeit_scores_nobody_a_point() -> None:
    t, tables = two_player_cup()
    t.record_result(tables[0].game_id, (1, 1), "forfeited", absent=(0, 1))
    a, b = tables[0].players
    rows = {r.player_id: r for r in t.state.standings()}
    assert (rows[a].points, rows[b].points) == (0.0, 0.0)
    assert (rows[a].losses, rows[b].losses) == (1, 1)
    assert (rows[a].forfeit_losses, rows[b].forfeit_losses) == (1, 1)
    assert rows[a].draws == rows[b].draws == 0


def test_the_player_who_was_there_wins_a_forfeit() -> None:
    t, tables = two_player_cup()
    t.record_result(tables[0].game_id, (2, 1), "forfeited", absent=(0,))
    a, b = tables[0].players
    rows = {r.player_id: r for r in t.state.standings()}
    assert (rows[a].points, rows[b].points) == (0.0, 3.0)
    assert (rows[a].forfeit_losses, rows[b].forfeit_wins) == (1, 1)


def test_an_absent_seat_scores_nothing_whatever_its_place_at_a_bigger_table() -> None:
    rows = compute_standings(
        "abcd",
        [
            GameResult(
                players=tuple("abcd"),
                ranks=(1, 2, 3, 4),
                termination="completed",
                absent=(2, 3),
            )
        ],
        table_size=4,
    )
    got = {r.player_id: r.points for r in rows}
    assert got == {"a": 3.0, "b": 2.0, "c": 0.0, "d": 0.0}


def test_an_aborted_game_is_not_scored_and_its_round_waits_for_the_organiser() -> None:
    t, tables = two_player_cup()
    t.record_result(tables[0].game_id, (1, 1), "aborted")
    t.record_result(tables[1].game_id, (1, 2), "completed")
    a, b = tables[0].players
    assert points(t)[a] == points(t)[b] == 0.0  # not a draw
    rows = {r.player_id: r for r in t.state.standings()}
    assert rows[a].games == 0
    record = t.state.round_records[-1]
    assert not record.is_complete
    assert record.awaiting_replay == (tables[0].game_id,)
    with pytest.raises(IllegalCommandError) as refused:
        t.plan_round()
    assert refused.value.rule == "tournament.round-incomplete"


def test_results_recorded_before_the_convention_still_score_as_recorded() -> None:
    """A stored result without ``absent`` (and an old 2-player no-show in
    which the other absent seat won) keeps its points."""
    t, tables = two_player_cup()
    t.record_result(tables[0].game_id, (2, 1), "forfeited")
    a, b = tables[0].players
    assert (points(t)[a], points(t)[b]) == (0.0, 3.0)


def test_a_tournament_refuses_an_abort_limit_its_smallest_table_cannot_take() -> None:
    """Refused when the tournament is created, not when a round's games are."""
    from domain.contract.core import InvalidCommandError
    from domain.ledger.clocks import TimeControl

    with pytest.raises(InvalidCommandError) as refused:
        Tournament.create(
            "Late aborts",
            "thalara",
            "swiss",
            3,
            time_control=TimeControl(abort_before_moves=20),
        )
    assert "abort_before_moves" in str(refused.value)
    Tournament.create(
        "Fine", "thalara", "swiss", 3, time_control=TimeControl(abort_before_moves=2)
    )
