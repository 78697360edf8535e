"""Projections: every view is exactly-once under crashes and concurrent runners
and rebuildable, and ratings equal openskill called directly on the same results."""

from __future__ import annotations

import random
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from openskill.models import PlackettLuce

from domain.games import find_game
from domain.ledger.aggregate import Game
from projections import registry
from projections.base import View
from projections.ratings import RatingsView, history, leaderboard
from projections.runner import ViewRunner, ledger_head, wait_for_position
from services.tournaments.desk import TournamentDesk
from services.tournaments.results import ResultsDesk
from tests.support.random_moves import play_random
from tests.support.views import dump, dump_with

pytestmark = pytest.mark.postgres


@pytest.fixture
def ledger(isolated_ledger):
    return isolated_ledger


def finish_game(
    ledger, game_type: str, setup: dict, player_ids: tuple[str, ...], seed: int
) -> uuid.UUID:
    created = ledger.create_game(game_type, setup, player_ids=player_ids)
    play_random(ledger, created.game_id, random.Random(seed))
    return created.game_id


@pytest.fixture
def names():
    tag = uuid.uuid4().hex[:6]
    return [f"{tag}-{n}" for n in ("ann", "bob", "cyd", "dee")]


def test_ratings_equal_openskill_on_the_same_results(ledger, names):
    runner = ViewRunner(ledger.datastore, RatingsView(), batch_size=7)
    runner.ensure_tables()
    runner.catch_up()
    rnd = random.Random(1)
    games = []
    for i in range(6):
        table = rnd.sample(names, 2)
        games.append(
            (
                finish_game(ledger, "terralore", {"players": 2}, tuple(table), seed=i),
                table,
            )
        )
    runner.catch_up()
    model = PlackettLuce()
    expected = {n: model.rating(name=n) for n in names}
    for game_id, table in games:
        outcome = ledger.load(game_id).outcome
        new = model.rate([[expected[p]] for p in table], ranks=list(outcome.ranks))
        for p, (r,) in zip(table, new):
            expected[p] = r
    with ledger.datastore.transaction(commit=False) as curs:
        board = {r["player_id"]: r for r in leaderboard(curs, "terralore", 1000, 0)}
        rows = history(curs, "terralore", table[0], 100, 0)
        newest_two = history(curs, "terralore", table[0], 2, newest=True)
    for name in {p for _, t in games for p in t}:
        assert board[name]["mu"] == pytest.approx(expected[name].mu)
        assert board[name]["sigma"] == pytest.approx(expected[name].sigma)
    assert [r["game_id"] for r in rows] == [g for g, t in games if table[0] in t]
    assert all(r["event_version"] == ledger.load(r["game_id"]).version for r in rows)
    assert newest_two == rows[-2:]  # the newest changes, oldest first


def test_a_cooperative_game_rates_the_team_against_the_scenario(ledger, names):
    runner = ViewRunner(ledger.datastore, RatingsView())
    runner.ensure_tables()
    game_id = finish_game(ledger, "thorgal", {"players": 2}, tuple(names[:2]), seed=3)
    runner.catch_up()
    won = ledger.load(game_id).outcome.termination.value == "team_won"
    with ledger.datastore.transaction(commit=False) as curs:
        mine = history(curs, "thorgal", names[0], 10, 0)
        scenario = [
            r
            for r in history(curs, "thorgal", "scenario:thorgal", 10_000, 0)
            if r["game_id"] == game_id
        ]
    assert len(mine) == 1 and len(scenario) == 1
    assert (mine[0]["mu"] > mine[0]["mu_before"]) == won
    assert (scenario[0]["mu"] > scenario[0]["mu_before"]) == (not won)


VIEWS = sorted(registry.VIEWS)
POLICY_TABLES = {"tournament_results": ("tournaments_events",)}
"""Views without tables of their own, and the tables their ``apply`` writes."""


def wired(ledger, name: str):
    """The view as ``services.runtime.bootstrap`` wires it (the policy with its desk)."""
    return registry.view(name, ResultsDesk(ledger.datastore))


def tables_of(name: str) -> tuple[str, ...]:
    return registry.view(name).tables or POLICY_TABLES[name]


@dataclass(frozen=True)
class Workload:
    """Finished games every view has work for: a round-robin round of two
    Terralore games (ratings, stats, fairness, tournament results) and a solo
    Thorgal adventure (a cooperative rating, Thorgal's stats and chance hooks)."""

    tournament_id: uuid.UUID
    games: dict[uuid.UUID, str]


def play_workload(ledger, names, seed: int) -> Workload:
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    tournament, _ = desk.create(
        f"projections-{seed}", "terralore", "round_robin", 0, 2, {}
    )
    for name in names:
        desk.register(tournament.id, name)
    started = desk.start_round(tournament.id)
    games = {
        uuid.UUID(t.game_id): "terralore" for t in started.state.round_records[0].tables
    }
    ruleset, rnd = find_game("terralore"), random.Random(seed)
    for game_id in games:
        while not (game := ledger.load(game_id)).is_over:
            seat = rnd.choice(game.to_act())
            ledger.submit(
                game_id,
                ruleset.random_command(game.state, seat, rnd),
                seat,
                str(uuid.uuid4()),
            )
    games[finish_game(ledger, "thorgal", {"players": 1}, (names[0],), seed)] = "thorgal"
    assert len(games) == 3
    return Workload(tournament.id, games)


def measure(ledger, name: str, work: Workload) -> Counter:
    """What the view holds about the workload, counted so that applying an event twice shows."""
    ids = list(work.games)
    with ledger.datastore.transaction(commit=False) as curs:
        if (
            name == "ratings"
        ):  # one history row per rated player (and the scenario) per game
            curs.execute(
                "SELECT game_id AS k, count(*) AS n FROM ratings_history WHERE game_id = ANY(%s)"
                " GROUP BY game_id",
                (ids,),
            )
        elif name == "stats":  # one result row per seat per game
            curs.execute(
                "SELECT game_id AS k, count(*) AS n FROM stats_seat_results WHERE game_id = ANY(%s)"
                " GROUP BY game_id",
                (ids,),
            )
        elif (
            name == "fairness"
        ):  # chance draws per game type (a delta: other games add to them too)
            curs.execute(
                "SELECT game_type AS k, sum(count)::bigint AS n FROM fairness_counts GROUP BY game_type"
            )
        elif name == "tournament_results":
            curs.execute(
                "SELECT topic AS k, count(*) AS n FROM tournaments_events WHERE originator_id = %s"
                " AND topic = 'tournament.ResultRecorded' GROUP BY topic",
                (work.tournament_id,),
            )
        else:
            raise AssertionError(f"say what view {name!r} keeps about a game")
        return Counter({r["k"]: r["n"] for r in curs.fetchall()})


def expected(ledger, name: str, work: Workload) -> Counter:
    """The same counts derived from the ledger's games, never from a view."""
    out: Counter[Any] = Counter()
    for game_id, game_type in work.games.items():
        game, ruleset = ledger.load(game_id), find_game(game_type)
        if name == "ratings":
            out[game_id] = len(ruleset.player_seats(game.setup)) + (
                game_type == "thorgal"
            )  # + scenario
        elif name == "stats":
            out[game_id] = len(game.outcome.ranks)
        elif name == "fairness":
            outcomes = ruleset.chance_outcomes
            assert outcomes is not None, f"{game_type} has chance to count"
            out[game_type] += sum(
                len(outcomes(e.payload))
                for e in ledger.store.events(game_id)
                if isinstance(e, Game.Decided)
            )
        elif name == "tournament_results" and game_type == "terralore":
            out["tournament.ResultRecorded"] += 1
    return +out


def applied(before: Counter, after: Counter) -> Counter:
    delta = Counter(after)
    delta.subtract(before)
    return Counter({k: n for k, n in delta.items() if n})


def crash_on_first_write(
    runner: ViewRunner, tables: tuple[str, ...]
) -> tuple[Callable[[], None], dict]:
    """A ``before_commit`` that kills the runner in the first batch that changed the
    view's tables, and the rows those tables had when that batch began."""
    real = runner.view.apply
    seen: dict[str, Any] = {}

    def apply(curs, events):
        rows = dump_with(curs, tables)
        real(curs, events)
        if dump_with(curs, tables) != rows:
            seen.setdefault("rows", rows)

    def crash() -> None:
        if seen:
            raise KeyboardInterrupt("killed mid-batch")

    runner.view.apply = apply  # type: ignore[method-assign]
    return crash, seen


@pytest.mark.parametrize("name", VIEWS)
def test_a_runner_killed_mid_batch_applies_nothing_and_a_restart_equals_a_rebuild(
    ledger, names, name
):
    tables = tables_of(name)
    runner = ViewRunner(ledger.datastore, wired(ledger, name), batch_size=5)
    runner.ensure_tables()
    runner.catch_up()
    work = play_workload(ledger, names, seed=10 + VIEWS.index(name))
    baseline = measure(ledger, name, work)
    crash, seen = crash_on_first_write(runner, tables)
    with pytest.raises(KeyboardInterrupt):
        while True:
            before = runner.status().position
            assert runner.step(before_commit=crash) > 0, "no batch wrote to the view"
    assert runner.status().position == before
    assert dump(ledger, tables) == {
        t: sorted(rows, key=repr) for t, rows in seen["rows"].items()
    }
    restarted = ViewRunner(ledger.datastore, wired(ledger, name), batch_size=5)
    restarted.catch_up()
    caught_up = dump(ledger, tables)
    assert (
        applied(baseline, measure(ledger, name, work))
        == expected(ledger, name, work)
        != Counter()
    )
    restarted.reset()
    restarted.catch_up()
    assert dump(ledger, tables) == caught_up


@pytest.mark.parametrize("name", VIEWS)
def test_two_runners_at_once_never_double_apply(ledger, names, name):
    tables = tables_of(name)
    first = ViewRunner(ledger.datastore, wired(ledger, name), batch_size=4)
    first.ensure_tables()
    first.catch_up()
    work = play_workload(ledger, names, seed=20 + VIEWS.index(name))
    baseline = measure(ledger, name, work)
    second = ViewRunner(ledger.datastore, wired(ledger, name), batch_size=4)
    errors: list[BaseException] = []

    def run(r: ViewRunner) -> None:
        try:
            r.catch_up()
        except BaseException as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(r,)) for r in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    concurrent = dump(ledger, tables)
    assert (
        applied(baseline, measure(ledger, name, work))
        == expected(ledger, name, work)
        != Counter()
    )
    first.reset()
    first.catch_up()
    assert dump(ledger, tables) == concurrent


class CountingView(View):
    """A private view no background projector runs, so the test controls its pace."""

    name = "test_counting"
    tables = ("test_counting",)
    ddl = "CREATE TABLE IF NOT EXISTS test_counting (events bigint NOT NULL)"

    def apply(self, curs, events):
        curs.execute("INSERT INTO test_counting VALUES (%s)", (len(events),))


def test_wait_for_position_is_read_your_writes(ledger, names):
    runner = ViewRunner(ledger.datastore, CountingView())
    runner.ensure_tables()
    runner.catch_up()
    finish_game(ledger, "terralore", {"players": 2}, tuple(names[:2]), seed=30)
    head = runner.status().head
    assert not wait_for_position([runner], head, timeout=0.05)
    threading.Timer(0.1, runner.catch_up).start()
    assert wait_for_position([runner], head, timeout=10)


class TypesView(View):
    """Records the type name of every event it is given (a private view)."""

    name = "test_types"
    tables = ("test_types",)
    ddl = "CREATE TABLE IF NOT EXISTS test_types (position bigint NOT NULL, type text NOT NULL)"

    def apply(self, curs, events):
        curs.executemany(
            "INSERT INTO test_types VALUES (%s, %s)",
            [(e.position, e.type) for e in events],
        )


@pytest.mark.parametrize(
    "topics",
    [
        ("ledger.GameCreated", "ledger.GameConcluded"),
        ("terralore.TurnStarted", "ledger.GameConcluded"),
    ],
    ids=["ledger-only", "with-game-events"],
)
def test_a_view_gets_exactly_the_events_of_its_topics(ledger, names, topics):
    """The runner narrows a view of ``ledger.*`` topics to the log's partial
    index of ledger events; a view of a game's own events must still get them."""
    finish_game(ledger, "terralore", {"players": 2}, tuple(names[:2]), seed=31)
    view = type("View", (TypesView,), {"topics": topics})()
    runner = ViewRunner(ledger.datastore, view, batch_size=3)
    runner.ensure_tables()
    runner.reset()
    runner.catch_up()
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute("SELECT position, type FROM test_types ORDER BY position")
        got = [(r["position"], r["type"]) for r in curs.fetchall()]
        curs.execute(
            "SELECT notification_id, topic FROM ledger_events WHERE topic = ANY(%s)"
            " ORDER BY notification_id",
            (list(topics),),
        )
        expected = [(r["notification_id"], r["topic"]) for r in curs.fetchall()]
        curs.execute("SELECT to_regclass('ledger_events_ledger_topics') AS found")
        assert curs.fetchone()["found"] is not None
    assert got == expected
    assert {t for _, t in got} == set(topics)


def _tracked(ledger, view: str) -> tuple[int, Any]:
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT position, updated_at FROM projection_tracking WHERE view = %s",
            (view,),
        )
        row = curs.fetchone()
    return row["position"], row["updated_at"]


def test_a_view_of_ledger_events_takes_no_transaction_while_only_moves_arrive(
    ledger, names
):
    """Moves are not a ratings view's events: a round writes nothing for it,
    yet its status (and a read waiting for a move's position) sees it at the
    head, and a game's conclusion is applied at the next step."""
    created = ledger.create_game(
        "terralore", {"players": 2}, player_ids=tuple(names[:2])
    )
    runner = ViewRunner(ledger.datastore, RatingsView())
    runner.ensure_tables()
    runner.catch_up()
    tracked = _tracked(ledger, "ratings")
    rnd = random.Random(40)
    assert play_random(ledger, created.game_id, rnd, moves=3) == 3
    assert runner.step(ledger_head=ledger_head(ledger.datastore)) == 0
    assert _tracked(ledger, "ratings") == tracked  # no UPDATE: no transaction wrote
    status = runner.status()
    assert status.position == status.head > tracked[0]
    assert wait_for_position([runner], status.head, timeout=0.05)

    play_random(ledger, created.game_id, rnd)
    status = runner.status()
    assert status.position < status.head  # the conclusion waits for the view
    assert not wait_for_position([runner], status.head, timeout=0.05)
    assert runner.step(ledger_head=ledger_head(ledger.datastore)) > 0
    assert runner.status().position == status.head
    assert _tracked(ledger, "ratings")[0] == status.head
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT player_id FROM ratings_current WHERE player_id = ANY(%s)",
            (names[:2],),
        )
        assert {r["player_id"] for r in curs.fetchall()} == set(names[:2])


def test_an_idle_view_still_moves_its_tracked_position_once_a_second(
    ledger, names, monkeypatch
):
    """What ``projection_tracking`` shows stays near the head for readers of
    the table itself (an operator, a replica's reader)."""
    from projections import runner as runner_module

    created = ledger.create_game(
        "terralore", {"players": 2}, player_ids=tuple(names[:2])
    )
    runner = ViewRunner(ledger.datastore, RatingsView())
    runner.ensure_tables()
    runner.catch_up()
    assert play_random(ledger, created.game_id, random.Random(41), moves=1) == 1
    head = runner.status().head
    assert runner.step(ledger_head=ledger_head(ledger.datastore)) == 0
    assert _tracked(ledger, "ratings")[0] < head
    monkeypatch.setattr(runner_module, "IDLE_ADVANCE_S", 0.0)
    assert runner.step(ledger_head=ledger_head(ledger.datastore)) > 0
    assert _tracked(ledger, "ratings")[0] == head
