"""Automatic rounds start once, on time, whoever sweeps and whoever dies.

A 4-player Swiss with ``automatic_rounds`` plays each round by adjudication;
the results policy records the round's last result and, in the same
transaction, when the next round is due.  Then:

- two schedulers race: both sweep at once, over and over, while their
  leader locks are ignored, and the round starts exactly once;
- the lock holder is killed (its session terminated, as ``kill -9`` does)
  during the wait, and the scheduler of another server starts the round,
  not before it is due and within a sweep of it;
- after the last round the tournament is finished and nothing is scheduled.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from projections.runner import ViewRunner
from projections.tournament_results import TournamentResultsView
from services.tournaments.desk import TournamentDesk
from services.tournaments.results import ResultsDesk
from services.tournaments.round_scheduler import RoundScheduler

pytestmark = pytest.mark.postgres
GAP = 2
ROUNDS = 3


def finish_round(
    ledger: Any, desk: TournamentDesk, tid: uuid.UUID, results: Any
) -> None:
    state = desk.load(tid).state
    for table in state.round_records[-1].tables:
        asyncio.run(
            ledger.adjudicate(uuid.UUID(table.game_id), (1, 2), "quick", "admin")
        )
    results.catch_up()


def rounds_started(desk: TournamentDesk, tid: uuid.UUID) -> int:
    with desk.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT count(*) AS n FROM tournaments_events WHERE originator_id = %s"
            " AND topic = 'tournament.RoundStarted'",
            (tid,),
        )
        return int(curs.fetchone()["n"])


def test_automatic_rounds_start_exactly_once_on_time_across_schedulers(
    isolated_ledger: Any,
) -> None:
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    cup, _ = desk.create(
        "auto",
        "terralore",
        "swiss",
        ROUNDS,
        2,
        {},
        automatic_rounds={"gap_seconds": GAP},
    )
    for player in ("a", "b", "c", "d"):
        desk.register(cup.id, player)
    results = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    results.ensure_tables()
    desk.start_round(cup.id)  # the organiser starts round 1; nothing after
    first, second = RoundScheduler(desk), RoundScheduler(desk)

    # round 2: both schedulers sweep at once, again and again
    finish_round(ledger, desk, cup.id, results)
    due = desk.load(cup.id).next_round_at
    assert due is not None
    assert (desk.store.scheduled_round(cup.id) or {}).get("round") == 2
    assert first.sweep() == 0 and rounds_started(desk, cup.id) == 1  # not yet due
    started: list[int] = []

    def race(scheduler: RoundScheduler) -> None:
        for _ in range(40):
            started.append(scheduler.sweep())
            time.sleep(0.1)

    threads = [threading.Thread(target=race, args=(s,)) for s in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(started) == 1 and rounds_started(desk, cup.id) == 2
    record = desk.load(cup.id).state.round_records[-1]
    assert record.round == 2 and len(record.tables) == 2
    assert desk.store.scheduled_round(cup.id) is None

    # round 3: the lock holder dies during the wait; another server starts it
    finish_round(ledger, desk, cup.id, results)
    due = desk.load(cup.id).next_round_at
    assert due is not None
    assert first.lock.try_hold() and not second.lock.try_hold()
    assert first.lock._conn is not None
    pid = first.lock._conn.info.backend_pid
    with ledger.datastore.transaction(commit=True) as curs:
        curs.execute("SELECT pg_terminate_backend(%s)", (pid,))
    interval = 0.2
    survivor = RoundScheduler(desk, interval=interval)

    async def wait_for_round() -> datetime:
        survivor.start()
        try:
            while rounds_started(desk, cup.id) < 3:
                await asyncio.sleep(0.05)
            return datetime.now(UTC)
        finally:
            await survivor.stop()

    seen = asyncio.run(wait_for_round())
    assert rounds_started(desk, cup.id) == 3
    assert seen >= due
    assert seen - due < timedelta(seconds=interval + 1.5), seen - due

    # the last round: the tournament finishes, nothing waits
    finish_round(ledger, desk, cup.id, results)
    final = desk.load(cup.id)
    assert final.is_finished and final.next_round_at is None
    assert desk.store.scheduled_round(cup.id) is None
    assert first.sweep() == 0 and second.sweep() == 0
    first.lock.release()
    second.lock.release()


def test_a_tournament_whose_players_left_finishes_instead(isolated_ledger: Any) -> None:
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    cup, _ = desk.create(
        "thin", "terralore", "swiss", ROUNDS, 2, {}, automatic_rounds={"gap_seconds": 0}
    )
    for player in ("a", "b"):
        desk.register(cup.id, player)
    results = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    results.ensure_tables()
    desk.start_round(cup.id)
    desk.withdraw(cup.id, "b")
    finish_round(ledger, desk, cup.id, results)
    assert RoundScheduler(desk).sweep() == 0
    assert desk.load(cup.id).is_finished
    assert desk.store.scheduled_round(cup.id) is None


def test_a_round_of_byes_alone_schedules_the_next_round(isolated_ledger: Any) -> None:
    """A round robin whose player withdrew can deal a round with no table
    (every remaining player has a bye): no result comes to complete it, so
    starting it schedules the next one, and the tournament still finishes."""
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    cup, _ = desk.create(
        "byes",
        "terralore",
        "round_robin",
        0,
        2,
        {},
        automatic_rounds={"gap_seconds": 0},
    )
    for player in ("a", "b", "c"):
        desk.register(cup.id, player)
    results = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    results.ensure_tables()
    first = desk.start_round(cup.id).state.round_records[-1]
    desk.withdraw(cup.id, first.tables[0].players[1])
    scheduler = RoundScheduler(desk)
    tables_per_round = []
    for _ in range(3):
        finish_round(ledger, desk, cup.id, results)
        if desk.load(cup.id).is_finished:
            break
        assert (desk.store.scheduled_round(cup.id) or {}).get("round") == (
            desk.load(cup.id).state.current_round + 1
        )
        assert scheduler.sweep() == 1
        tables_per_round.append(len(desk.load(cup.id).state.round_records[-1].tables))
    assert 0 in tables_per_round  # the round of byes alone was dealt
    final = desk.load(cup.id)
    assert final.is_finished and final.state.current_round == 3
    assert desk.store.scheduled_round(cup.id) is None


def test_one_tournament_starting_or_finishing_never_cancels_anothers_wait(
    isolated_ledger: Any,
) -> None:
    """Two automatic tournaments at once: while one waits for its round 2,
    the other starts its own round 2 by itself and then finishes early; the
    first one's wait is untouched by either, and its round still starts."""
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    results = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    results.ensure_tables()
    cups = []
    for name, gap in (("waits", 3600), ("moves on", 0)):
        cup, _ = desk.create(
            name, "terralore", "swiss", ROUNDS, 2, {},
            automatic_rounds={"gap_seconds": gap},
        )  # fmt: skip
        for player in ("a", "b", "c", "d"):
            desk.register(cup.id, player)
        desk.start_round(cup.id)
        finish_round(ledger, desk, cup.id, results)
        cups.append(cup.id)
    waiting, other = cups
    assert desk.store.scheduled_round(waiting)["round"] == 2

    assert RoundScheduler(desk).sweep() == 1  # the other one's round 2 is due
    assert desk.load(other).state.current_round == 2
    assert desk.store.scheduled_round(waiting)["round"] == 2
    finish_round(ledger, desk, other, results)
    desk.finish(other)  # between rounds: the organiser ends it early
    assert desk.store.scheduled_round(other) is None
    assert desk.store.scheduled_round(waiting)["round"] == 2
    assert desk.load(waiting).state.current_round == 1
