"""A tournament cannot be wedged: a stateful property over random tournaments.

Two tournaments run side by side on a database of their own, through the
same in-process pieces a server wires: the :class:`GameLedger`, the
:class:`TournamentDesk`, the results policy's runner, the round scheduler's
sweep and the timekeeper's sweep on a clock the machine moves by hand.  Each
is of a random format (round robin, Swiss, or Swiss for 3+ player tables),
with or without a clock and a no-show window, started by hand or running
its own rounds.  The machine then interleaves, at random:

- moves, games played to their end, resignations, draws agreed between the
  players, adjudications (tied ranks too, and invalid ranks that must be
  refused with nothing stored), aborts and the organiser's replay of them;
- time passing, so the timekeeper records timeouts and no-shows (absent
  players, double forfeits);
- pauses and resumes of a game or of a whole round, time added by the arbiter;
- withdrawals, rounds started by the organiser or by the scheduler, an early
  finish;
- server restarts: every in-process object dropped and rebuilt on the same
  database.

After every step: the results policy is neither stalled nor alarmed, every
ended game is recorded in its tournament with the game's own outcome, the
standings equal a re-derivation from the games' outcomes in the log, an
automatic tournament between rounds has its next round scheduled, and an
action on one tournament left the other exactly as it was.  At the end both
tournaments are driven to their finish (they must get there), the ratings
count exactly the rated games (docs/endings.md), and every game audits.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import sys
import tempfile
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, event
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from domain.contract.core import IllegalCommandError, RuleError
from domain.ledger.clocks import ClockKind, TimeControl
from domain.tournament.standings import GameResult, compute_standings
from projections.ratings import RatingsView
from projections.runner import ViewRunner
from projections.tournament_results import TournamentResultsView
from services.ledger.audit import audit_game
from services.ledger.timekeeper import Timekeeper
from services.tournaments.desk import UNPAIRABLE, TournamentDesk
from services.tournaments.results import ResultsDesk, halted
from services.tournaments.round_scheduler import RoundScheduler
from tests.support.database import _test_settings, scratch_database
from tests.support.manual_clock import ManualClock
from tests.support.random_moves import play_random
from tests.support.sizes import examples

pytestmark = pytest.mark.postgres

CLOCK = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=300, no_show_seconds=60)
NO_SHOW = 60
PER_MOVE = 300
STEPS = 20
"""Steps per example: two tournaments of a few rounds each get through
several rounds and most kinds of step."""
AHEAD = timedelta(minutes=14)
"""How far the machine's clock may run from the real time either way."""
ABORTED, FORFEITED = "aborted", "forfeited"
UNRATED = {ABORTED, FORFEITED}


@dataclass(frozen=True)
class Plan:
    """One tournament's configuration, drawn at the start."""

    format: str
    game_type: str
    table_size: int
    players: int
    rounds: int
    clocked: bool
    automatic: bool


PLANS = st.one_of(
    st.builds(
        Plan,
        format=st.just("round_robin"),
        game_type=st.just("terralore"),
        table_size=st.just(2),
        players=st.integers(3, 4),
        rounds=st.just(0),
        clocked=st.booleans(),
        automatic=st.booleans(),
    ),
    st.builds(
        Plan,
        format=st.just("swiss"),
        game_type=st.sampled_from(["terralore", "thalara"]),
        table_size=st.just(2),
        players=st.integers(3, 5),
        rounds=st.integers(1, 3),
        clocked=st.booleans(),
        automatic=st.booleans(),
    ),
    st.builds(
        Plan,
        format=st.just("swiss_ffa"),
        game_type=st.just("thalara"),
        table_size=st.integers(3, 4),
        players=st.integers(3, 6),
        rounds=st.integers(1, 2),
        clocked=st.booleans(),
        automatic=st.booleans(),
    ),
)
RANKS = st.lists(st.integers(1, 4), min_size=1, max_size=5).map(tuple)


def competition_ranking(ranks: tuple[int, ...]) -> bool:
    """ "1224": each rank is one more than the number of better ranks (written
    here again, not imported: the machine checks the ledger against it)."""
    return all(r == 1 + sum(o < r for o in ranks) for r in ranks)


def place_points(ranks: tuple[int, ...], seat: int, table_size: int) -> Fraction:
    """A seat's points by the documented scoring (docs: standings)."""
    rank = ranks[seat]
    if table_size == 2:
        if rank != 1:
            return Fraction(0)
        return Fraction(1 if ranks.count(1) > 1 else 3)
    shared = ranks.count(rank)
    return Fraction(sum(table_size - q for q in range(rank, rank + shared)), shared)


class Server:
    """The in-process pieces of one server on the machine's database."""

    def __init__(self, settings: Any, url: str, clock: ManualClock) -> None:
        from services.runtime.bootstrap import build_ledger

        self.ledger = build_ledger(settings, url)
        self.ledger.clock = clock
        self.desk = TournamentDesk(self.ledger.env_for_peers, self.ledger)
        self.results = ViewRunner(
            self.ledger.datastore,
            TournamentResultsView(ResultsDesk(self.ledger.datastore)),
        )
        self.results.ensure_tables()
        self.timekeeper = Timekeeper(self.ledger)
        self.scheduler = RoundScheduler(self.desk)

    def close(self) -> None:
        for lock in (self.timekeeper.lock, self.scheduler.lock):
            lock.release()
        self.desk.close()
        self.ledger.close()


class WedgeMachine(RuleBasedStateMachine):
    server_url: str = ""
    data_root: Path = Path(tempfile.gettempdir())

    def __init__(self) -> None:
        super().__init__()
        self.stack = contextlib.ExitStack()
        url = self.stack.enter_context(
            scratch_database(self.server_url, "ledger_wedge")
        )
        data_dir = Path(tempfile.mkdtemp(prefix="wedge-", dir=self.data_root))
        self.stack.callback(shutil.rmtree, data_dir, True)
        self.settings = _test_settings(url, data_dir)
        self.url = url
        # behind the real time, so that the clock can run ahead of it by
        # up to the audit's slack for a game's creation time
        self.clock = ManualClock(datetime.now(UTC) - AHEAD)
        self.server = Server(self.settings, url, self.clock)
        self.cups: list[uuid.UUID] = []
        self.plans: list[Plan] = []
        self.games: set[uuid.UUID] = set()
        self.rnd = random.Random(0)

    # ------------------------------------------------------------ helpers

    @property
    def ledger(self) -> Any:
        return self.server.ledger

    @property
    def desk(self) -> TournamentDesk:
        return self.server.desk

    def state(self, t: int) -> Any:
        return self.desk.load(self.cups[t]).state

    def open_games(self, t: int) -> list[uuid.UUID]:
        state = self.state(t)
        if not state.round_records:
            return []
        ids = [uuid.UUID(x.game_id) for x in state.round_records[-1].tables]
        return [g for g in ids if not self.ledger.load(g).is_over]

    def pick(self, t: int, k: int) -> uuid.UUID | None:
        games = self.open_games(t)
        return games[k % len(games)] if games else None

    def settle(self) -> None:
        """What the live server's results runner does right after any write."""
        self.server.results.catch_up()

    def snapshot(self, t: int) -> Any:
        """Everything an action on another tournament must leave alone."""
        tournament = self.desk.load(self.cups[t])
        games = [
            uuid.UUID(x.game_id)
            for r in tournament.state.round_records
            for x in r.tables
        ]
        return (
            tournament.version,
            tournament.state.model_dump(),
            [row.model_dump() for row in tournament.standings()],
            self.desk.store.scheduled_round(self.cups[t]),
            [(g, self.ledger.load(g).version) for g in games],
        )

    def on(self, t: int, action: Any) -> Any:
        """Run ``action`` on tournament ``t`` and settle; the other one must
        not change."""
        other = 1 - t
        before = self.snapshot(other)
        try:
            return action()
        finally:
            self.settle()
            assert self.snapshot(other) == before, f"acting on {t} changed {other}"

    def advance(self, seconds: int) -> bool:
        """Move the clock, unless it would run further ahead of the real time
        than :data:`AHEAD` (the audit checks each game's creation time against
        the database's); the timekeeper then sweeps."""
        if self.clock.now + timedelta(seconds=seconds) > datetime.now(UTC) + AHEAD:
            return False
        self.clock.advance(seconds)
        self.run(self.server.timekeeper.sweep())
        return True

    def run(self, call: Any) -> Any:
        return asyncio.run(call)

    # ------------------------------------------------------------ setup

    @initialize(first=PLANS, second=PLANS, seed=st.integers(0, 2**16))
    def create(self, first: Plan, second: Plan, seed: int) -> None:
        self.rnd = random.Random(seed)
        tag = uuid.uuid4().hex[:6]
        for n, plan in enumerate((first, second)):
            cup, _ = self.desk.create(
                f"cup-{n}",
                plan.game_type,
                plan.format,
                plan.rounds,
                plan.table_size,
                {},
                time_control=CLOCK if plan.clocked else None,
                automatic_rounds={"gap_seconds": 0} if plan.automatic else None,
            )
            for p in range(plan.players):
                self.desk.register(cup.id, f"{tag}-{n}-{p}")
            self.desk.start_round(cup.id)  # the organiser starts round 1
            self.cups.append(cup.id)
            self.plans.append(plan)
            event(f"format: {plan.format} {plan.game_type}")
        self.settle()

    # ------------------------------------------------------------ the players

    @rule(t=st.integers(0, 1), k=st.integers(0, 5), n=st.integers(1, 4))
    def move(self, t: int, k: int, n: int) -> None:
        game_id = self.pick(t, k)
        if game_id is None or self.ledger.load(game_id).paused:
            return
        self.on(t, lambda: play_random(self.ledger, game_id, self.rnd, n))

    @rule(t=st.integers(0, 1), k=st.integers(0, 5))
    def play_to_the_end(self, t: int, k: int) -> None:
        game_id = self.pick(t, k)
        if game_id is None or self.ledger.load(game_id).paused:
            return
        self.on(t, lambda: play_random(self.ledger, game_id, self.rnd, 400))

    @rule(t=st.integers(0, 1), k=st.integers(0, 5), seat=st.integers(0, 4))
    def resign(self, t: int, k: int, seat: int) -> None:
        game_id = self.pick(t, k)
        if game_id is None:
            return
        game = self.ledger.load(game_id)
        seat %= game.seat_count
        with contextlib.suppress(RuleError):  # a seat that left, a paused game
            self.on(t, lambda: self.run(self.ledger.resign(game_id, seat)))

    @rule(t=st.integers(0, 1), k=st.integers(0, 5))
    def agree_a_draw(self, t: int, k: int) -> None:
        game_id = self.pick(t, k)
        if game_id is None:
            return
        game = self.ledger.load(game_id)
        if game.seat_count != 2 or game.paused or not game.to_act():
            return
        offerer = game.to_act()[0]

        def draw() -> None:
            self.run(self.ledger.offer_draw(game_id, offerer))
            self.run(self.ledger.accept_draw(game_id, 1 - offerer))

        try:
            self.on(t, draw)
        except RuleError:
            return  # offered once already since its last move
        outcome = self.ledger.load(game_id).outcome
        assert outcome is not None and outcome.termination.value == "agreed"

    @rule(t=st.integers(0, 1), k=st.integers(0, 5), by=st.integers(-1, 4))
    def abort(self, t: int, k: int, by: int) -> None:
        game_id = self.pick(t, k)
        if game_id is None:
            return
        who = "admin" if by < 0 else f"seat:{by % self.ledger.load(game_id).seat_count}"
        with contextlib.suppress(RuleError):  # too late, after leaving, flagged
            self.on(t, lambda: self.run(self.ledger.abort(game_id, who, "test")))

    # ------------------------------------------------------------ the arbiter

    @rule(t=st.integers(0, 1), k=st.integers(0, 5), ranks=RANKS)
    def adjudicate(self, t: int, k: int, ranks: tuple[int, ...]) -> None:
        game_id = self.pick(t, k)
        if game_id is None:
            return
        game = self.ledger.load(game_id)
        valid = len(ranks) == game.seat_count and competition_ranking(ranks)
        call = self.ledger.adjudicate(game_id, ranks, "arbiter", "admin")
        if valid:
            self.on(t, lambda: self.run(call))
            outcome = self.ledger.load(game_id).outcome
            assert outcome is not None and outcome.ranks == ranks
            return
        with pytest.raises(RuleError):  # refused at the call, with the rule named
            self.on(t, lambda: self.run(call))
        assert self.ledger.load(game_id).version == game.version  # nothing stored

    @rule(t=st.integers(0, 1), k=st.integers(0, 5), whole_round=st.booleans())
    def pause_or_resume(self, t: int, k: int, whole_round: bool) -> None:
        game_id = self.pick(t, k)
        if game_id is None:
            return
        games = self.open_games(t) if whole_round else [game_id]
        pausing = not self.ledger.load(game_id).paused

        def control() -> None:
            for g in games:
                with contextlib.suppress(RuleError):  # already so
                    if pausing:
                        self.run(self.ledger.pause(g, "admin"))
                    else:
                        self.run(self.ledger.resume(g, "admin"))

        self.on(t, control)
        assert self.ledger.load(game_id).paused == pausing

    @rule(t=st.integers(0, 1), k=st.integers(0, 5), seat=st.integers(0, 4))
    def add_time(self, t: int, k: int, seat: int) -> None:
        game_id = self.pick(t, k)
        if game_id is None:
            return
        seat %= self.ledger.load(game_id).seat_count
        with contextlib.suppress(RuleError):  # no clock, not its turn
            self.on(
                t,
                lambda: self.run(self.ledger.add_time(game_id, seat, 30_000, "admin")),
            )

    # ------------------------------------------------------------ the organiser

    @rule(t=st.integers(0, 1), who=st.integers(0, 5))
    def withdraw(self, t: int, who: int) -> None:
        players = self.state(t).players
        player = players[who % len(players)]
        with contextlib.suppress(IllegalCommandError):  # already, or finished
            self.on(t, lambda: self.desk.withdraw(self.cups[t], player))

    @rule(t=st.integers(0, 1))
    def replay_aborted(self, t: int) -> None:
        for game_id in self.awaiting_replay(t):
            self.on(t, lambda g=game_id: self.desk.replay_aborted(self.cups[t], g))

    @rule(t=st.integers(0, 1))
    def start_round(self, t: int) -> None:
        with contextlib.suppress(IllegalCommandError):  # not now, or no more
            self.on(t, lambda: self.desk.start_round(self.cups[t]))

    @rule(t=st.integers(0, 1))
    def finish_early(self, t: int) -> None:
        with contextlib.suppress(IllegalCommandError):  # mid-round, or finished
            self.on(t, lambda: self.desk.finish(self.cups[t]))

    # ------------------------------------------------------------ the server

    @rule(seconds=st.sampled_from([5, 30, NO_SHOW + 1, 120, PER_MOVE + 1]))
    def time_passes(self, seconds: int) -> None:
        """The clock moves for everyone; the timekeeper's sweep records what ran out."""
        if not self.advance(seconds):
            return
        self.settle()
        assert self.ledger.due_games() == []

    @rule()
    def rounds_start_by_themselves(self) -> None:
        self.server.scheduler.sweep()
        self.settle()

    @rule()
    def restart(self) -> None:
        """Drop every in-process object and rebuild from the same database."""
        before = [self.snapshot(t) for t in (0, 1)]
        self.server.close()
        self.server = Server(self.settings, self.url, self.clock)
        self.settle()
        assert [self.snapshot(t) for t in (0, 1)] == before

    # ------------------------------------------------------------ invariants

    def awaiting_replay(self, t: int) -> list[uuid.UUID]:
        state = self.state(t)
        if not state.round_records or state.finished:
            return []
        return [uuid.UUID(g) for g in state.round_records[-1].awaiting_replay]

    @invariant()
    def results_flow(self) -> None:
        if not self.cups:
            return
        status = self.server.results.status()
        assert status.stalled is None, status.stalled
        assert status.stopped_count == 0, status.stopped_games
        assert status.lag == 0
        with self.ledger.datastore.transaction(commit=False) as curs:
            assert halted(curs) == []

    @invariant()
    def every_ended_game_is_recorded_as_it_ended(self) -> None:
        for t in range(len(self.cups)):
            state = self.state(t)
            for record in state.round_records:
                for replaced in record.replaced:
                    self.games.add(uuid.UUID(replaced))
                    outcome = self.ledger.load(uuid.UUID(replaced)).outcome
                    assert outcome is not None
                    assert outcome.termination.value == ABORTED
                for table in record.tables:
                    game_id = uuid.UUID(table.game_id)
                    self.games.add(game_id)
                    game = self.ledger.load(game_id)
                    assert tuple(game.player_ids) == table.players
                    result = record.result_of(table.game_id)
                    if game.outcome is None:
                        assert result is None
                        continue
                    assert result is not None, f"game {game_id} ended, not recorded"
                    assert result.ranks == game.outcome.ranks
                    assert result.termination == game.outcome.termination.value
                    assert result.absent == game.outcome.absent
            if state.finished:
                assert not state.is_round_in_progress

    @invariant()
    def standings_are_the_games(self) -> None:
        for t in range(len(self.cups)):
            tournament = self.desk.load(self.cups[t])
            state = tournament.state
            rows = {r.player_id: r for r in tournament.standings()}
            expected, results = self.rederive(state)
            for player, tally in expected.items():
                row = rows[player]
                got = (
                    Fraction(row.points),
                    row.games,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.byes,
                )
                want = tuple(tally[k] for k in ("points", "games", "wins", "draws"))
                want += (tally["losses"], tally["byes"])
                assert got == want, (player, got, want)
            again = compute_standings(
                state.players,
                results,
                state.byes(),
                state.table_size,
                state.withdrawn,
            )
            assert tuple(tournament.standings()) == again
            points = [r.points for r in tournament.standings()]
            assert points == sorted(points, reverse=True)

    @invariant()
    def automatic_rounds_wait_their_turn(self) -> None:
        for t in range(len(self.cups)):
            tournament = self.desk.load(self.cups[t])
            state = tournament.state
            scheduled = self.desk.store.scheduled_round(self.cups[t])
            if not self.plans[t].automatic or state.finished:
                assert scheduled is None
            elif not state.is_round_in_progress:
                assert scheduled is not None, "between rounds, nothing scheduled"
                assert scheduled["round"] == state.current_round + 1

    def rederive(
        self, state: Any
    ) -> tuple[dict[str, defaultdict[str, Fraction]], list[GameResult]]:
        """Each player's points and games from the games' outcomes in the log."""
        tally: dict[str, defaultdict[str, Fraction]] = {
            p: defaultdict(Fraction) for p in state.players
        }
        results: list[GameResult] = []
        size = state.table_size
        for record in state.round_records:
            for player in record.byes:
                tally[player]["points"] += 3 if size == 2 else size - 1
                tally[player]["byes"] += 1
            for table in record.tables:
                outcome = self.ledger.load(uuid.UUID(table.game_id)).outcome
                if outcome is None or outcome.termination.value == ABORTED:
                    continue
                results.append(
                    GameResult(
                        players=table.players,
                        ranks=outcome.ranks,
                        termination=outcome.termination.value,
                        absent=outcome.absent,
                    )
                )
                present = [
                    s for s in range(len(table.players)) if s not in outcome.absent
                ]
                firsts = [s for s in present if outcome.ranks[s] == 1]
                for seat, player in enumerate(table.players):
                    mine = tally[player]
                    mine["games"] += 1
                    if seat not in present:
                        mine["losses"] += 1  # absent: a loss, never a point
                        continue
                    mine["points"] += place_points(outcome.ranks, seat, size)
                    if seat not in firsts:
                        mine["losses"] += 1
                    else:
                        mine["wins" if len(firsts) == 1 else "draws"] += 1
        return tally, results

    # ------------------------------------------------------------ the end

    def end_game(self, game_id: uuid.UUID) -> None:
        """Some ending, at random, as players and arbiters would bring it."""
        game = self.ledger.load(game_id)
        if game.paused:
            self.run(self.ledger.resume(game_id, "admin"))
        choice = self.rnd.randrange(6)
        with contextlib.suppress(RuleError):  # then the arbiter adjudicates
            if choice == 0 and game.game_type == "terralore":
                play_random(self.ledger, game_id, self.rnd, 400)
            elif choice == 1:
                for _ in range(game.seat_count):
                    if self.ledger.load(game_id).is_over:
                        break
                    seat = self.ledger.load(game_id).to_act()[0]
                    self.run(self.ledger.resign(game_id, seat))
            elif choice == 2:  # one seat moves, the next never shows up
                play_random(self.ledger, game_id, self.rnd, 1)
                self.advance(NO_SHOW + 1)
            elif choice == 3 and game.seat_count == 2 and game.to_act():
                offerer = game.to_act()[0]
                self.run(self.ledger.offer_draw(game_id, offerer))
                self.run(self.ledger.accept_draw(game_id, 1 - offerer))
            elif choice == 4:  # the organiser calls it off; replayed later
                self.run(self.ledger.abort(game_id, "admin", "wrong board"))
        if not self.ledger.load(game_id).is_over:
            # an arbiter's ranks, ties too: the competition ranking of a draw
            drawn = [self.rnd.randint(1, 3) for _ in range(game.seat_count)]
            ranks = tuple(1 + sum(o < r for o in drawn) for r in drawn)
            self.run(self.ledger.adjudicate(game_id, ranks, "closing", "admin"))

    def drive_to_the_end(self) -> None:
        for _ in range(40):
            if all(self.state(t).finished for t in (0, 1)):
                return
            for t in (0, 1):
                state = self.state(t)
                if state.finished:
                    continue
                for game_id in self.open_games(t):
                    if not self.ledger.load(game_id).is_over:
                        self.end_game(game_id)
                self.settle()
                for game_id in self.awaiting_replay(t):
                    self.desk.replay_aborted(self.cups[t], game_id)
                state = self.state(t)
                if state.finished or state.is_round_in_progress:
                    continue
                if self.plans[t].automatic:
                    self.server.scheduler.sweep()
                    continue
                try:
                    self.desk.start_round(self.cups[t])
                except IllegalCommandError as refused:
                    assert refused.rule in UNPAIRABLE, refused
                    self.desk.finish(self.cups[t])
            self.settle()
        raise AssertionError(
            f"not finished: {[self.state(t).model_dump() for t in (0, 1)]}"
        )

    def check_ratings(self) -> None:
        runner = ViewRunner(self.ledger.datastore, RatingsView())
        runner.ensure_tables()
        runner.catch_up()
        expected: set[tuple[uuid.UUID, str]] = set()
        for game_id in self.games:
            game = self.ledger.load(game_id)
            outcome = game.outcome
            assert outcome is not None
            if outcome.termination.value in UNRATED:
                continue
            present = [
                p for s, p in enumerate(game.player_ids) if s not in outcome.absent
            ]
            if len(present) >= 2:
                expected.update((game_id, p) for p in present)
        with self.ledger.datastore.transaction(commit=False) as curs:
            curs.execute("SELECT game_id, player_id FROM ratings_history")
            rated = {(r["game_id"], r["player_id"]) for r in curs.fetchall()}
            curs.execute("SELECT player_id, games FROM ratings_current")
            counts = {r["player_id"]: r["games"] for r in curs.fetchall()}
        assert rated == expected
        assert counts == {p: n for p, n in Counter(p for _, p in expected).items()}

    def teardown(self) -> None:
        try:
            failing = sys.exc_info()[1] is not None  # a step failed: report it
            if self.cups and not failing:
                self.drive_to_the_end()
                self.every_ended_game_is_recorded_as_it_ended()
                self.standings_are_the_games()
                self.results_flow()
                self.check_ratings()
                for game_id in sorted(self.games):
                    outcome = self.ledger.load(game_id).outcome
                    assert outcome is not None
                    event(f"ended: {outcome.termination.value}")
                    if outcome.absent:
                        event(f"absent seats: {len(outcome.absent)}")
                    report = audit_game(self.ledger, game_id)
                    assert report.ok, (game_id, report.failures)
        finally:
            self.server.close()
            self.stack.close()


def test_no_tournament_can_be_wedged(server_url: str, tmp_path: Path) -> None:
    """The profile's examples (10 in CI, 100 at full size), 20 steps each.

    Without shrinking: an example is seconds of PostgreSQL work, and
    shrinking one spent over five minutes; a failure prints every step it
    took (and the seed to run it again), which is enough to read.
    """
    WedgeMachine.server_url = server_url
    WedgeMachine.data_root = tmp_path
    run_state_machine_as_test(
        WedgeMachine,
        settings=hypothesis_settings(
            examples(100),
            stateful_step_count=STEPS,
            phases=[Phase.explicit, Phase.reuse, Phase.generate],
        ),
    )
