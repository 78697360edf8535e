"""A six-player Swiss tournament with a clock finishes with two players gone silent.

``p5`` makes one move in each game from round 2 on and then stops (it loses
on time: a rated loss); ``p6`` never moves again after round 1 (it forfeits
by not showing up within the no-show window: unrated).  Nobody adjudicates
and nobody touches the database: the timekeeper ends those games, the results
policy records them, and the organiser only starts each round.  The ledger's
clock is one the test moves by hand, so nothing waits for real seconds.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from typing import Any

import pytest

from domain.games import find_game
from domain.ledger.clocks import ABSENT_PLAYER_RULES, ClockKind, TimeControl
from projections.ratings import RatingsView
from projections.runner import ViewRunner
from projections.tournament_results import TournamentResultsView
from services.ledger.timekeeper import Timekeeper
from services.tournaments.desk import TournamentDesk
from services.tournaments.results import ResultsDesk
from tests.support.manual_clock import ManualClock

pytestmark = pytest.mark.postgres
PLAYERS = [f"p{n}" for n in range(1, 7)]
ROUNDS = 3
CONTROL = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=60, no_show_seconds=30)


@pytest.fixture
def ledger(isolated_ledger: Any) -> Any:
    before, isolated_ledger.clock = isolated_ledger.clock, ManualClock()
    yield isolated_ledger
    isolated_ledger.clock = before


def play_round(
    ledger: Any, round_: int, games: list[uuid.UUID], log: list[str]
) -> None:
    """Everyone but the silent players moves; when only they are to act, time
    passes until the timekeeper ends the game."""
    ruleset, rnd = find_game("terralore"), random.Random(round_)
    keeper = Timekeeper(ledger)
    moved: Counter[tuple[uuid.UUID, str]] = Counter()
    for _ in range(20_000):
        running = [g for g in games if not ledger.load(g).is_over]
        if not running:
            return
        progressed = False
        for game_id in running:
            game = ledger.load(game_id)
            for seat in game.to_act():
                player = game.player_ids[seat]
                silent = round_ > 1 and (
                    player == "p6" or (player == "p5" and moved[(game_id, player)])
                )
                if silent:
                    continue
                ledger.clock.advance(1)
                command = ruleset.random_command(game.state, seat, rnd)
                ledger.submit(game_id, command, seat, str(uuid.uuid4()))
                moved[(game_id, player)] += 1
                progressed = True
                break
        if not progressed:
            ledger.clock.advance(90)  # past every deadline of a silent seat
            asyncio.run(keeper.sweep())
            for game_id in running:
                outcome = ledger.load(game_id).outcome
                if outcome is not None:
                    log.append(f"round {round_}: {game_id} {outcome.reason}")
    raise AssertionError(f"round {round_} never finished: {log}")


def test_a_swiss_tournament_with_two_silent_players_finishes_on_its_own(
    ledger: Any,
) -> None:
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    cup, _ = desk.create(
        "clocked", "terralore", "swiss", ROUNDS, 2, {}, time_control=CONTROL
    )
    for player in PLAYERS:
        desk.register(cup.id, player)
    results = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    results.ensure_tables()
    log: list[str] = []
    for round_ in range(1, ROUNDS + 1):
        started = desk.start_round(cup.id)
        tables = started.state.round_records[-1].tables
        games = [uuid.UUID(t.game_id) for t in tables]
        stored = {**CONTROL.to_record(), "rules": ABSENT_PLAYER_RULES}
        assert all(ledger.load(g).time_control == stored for g in games)
        play_round(ledger, round_, games, log)
        results.catch_up()
    final = desk.load(cup.id)
    assert final.state.finished, log
    endings: dict[str, Counter[str]] = {p: Counter() for p in PLAYERS}
    for record in final.state.round_records:
        for table, result in zip(
            sorted(record.tables, key=lambda t: t.game_id),
            sorted(record.results, key=lambda r: r.game_id),
        ):
            for player, rank in zip(table.players, result.ranks):
                endings[player][f"{result.termination}:{rank}"] += 1
    # p6 forfeited every game after round 1; p5 lost on time unless its
    # opponent was p6, who forfeits first (the no-show window is shorter)
    assert endings["p6"]["forfeited:2"] == ROUNDS - 1
    assert endings["p5"]["timed_out:2"] + endings["p5"]["forfeited:1"] == ROUNDS - 1
    rows = {r.player_id: r for r in final.standings()}
    assert rows["p6"].forfeit_losses == ROUNDS - 1
    assert sum(r.forfeit_wins for r in rows.values()) == ROUNDS - 1
    assert rows["p6"].losses >= ROUNDS - 1 and rows["p5"].losses >= ROUNDS - 1
    ratings = ViewRunner(ledger.datastore, RatingsView())
    ratings.ensure_tables()
    ratings.catch_up()
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT player_id, games FROM ratings_current WHERE game_type = 'terralore'"
        )
        rated = {r["player_id"]: r["games"] for r in curs.fetchall()}
    # a no-show forfeit is unrated (for both seats); a timeout is a rated loss
    forfeits = {
        p: sum(n for k, n in c.items() if k.startswith("forfeited"))
        for p, c in endings.items()
    }
    for player in PLAYERS:
        assert rated.get(player, 0) == ROUNDS - forfeits[player], (player, endings)
