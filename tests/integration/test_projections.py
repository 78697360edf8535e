"""Projections: exactly-once under crashes and concurrent runners, rebuildable, and
ratings equal to openskill called directly on the same results."""

from __future__ import annotations

import random
import threading
import uuid

import pytest
from openskill.models import PlackettLuce

from domain.games import find_game
from projections.base import View
from projections.ratings import RatingsView, history, leaderboard
from projections.runner import ViewRunner, wait_for_position

pytestmark = pytest.mark.postgres


@pytest.fixture
def ledger(isolated_ledger):  # type: ignore[no-untyped-def]
    return isolated_ledger


def finish_game(ledger, game_type: str, setup: dict, player_ids: tuple[str, ...], seed: int) -> uuid.UUID:
    ruleset = find_game(game_type)
    created = ledger.create_game(game_type, setup, player_ids=player_ids)
    rnd = random.Random(seed)
    while not (game := ledger.load(created.game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(created.game_id, ruleset.pick_random_command(game.state, seat, rnd), seat, str(uuid.uuid4()))
    return created.game_id


def dump(ledger, tables: tuple[str, ...]) -> dict[str, list]:
    out = {}
    with ledger.datastore.transaction(commit=False) as curs:
        for table in tables:
            curs.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3")
            out[table] = [tuple(r.values()) for r in curs.fetchall()]
    return out


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
        games.append((finish_game(ledger, "terralore", {"players": 2}, tuple(table), seed=i), table))
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
    for name in {p for _, t in games for p in t}:
        assert board[name]["mu"] == pytest.approx(expected[name].mu)
        assert board[name]["sigma"] == pytest.approx(expected[name].sigma)
    assert [r["game_id"] for r in rows] == [g for g, t in games if table[0] in t]
    assert all(r["event_version"] == ledger.load(r["game_id"]).version for r in rows)


def test_a_cooperative_game_rates_the_team_against_the_scenario(ledger, names):
    runner = ViewRunner(ledger.datastore, RatingsView())
    runner.ensure_tables()
    game_id = finish_game(ledger, "thorgal", {"players": 2}, tuple(names[:2]), seed=3)
    runner.catch_up()
    won = ledger.load(game_id).outcome.termination.value == "team_won"
    with ledger.datastore.transaction(commit=False) as curs:
        mine = history(curs, "thorgal", names[0], 10, 0)
        scenario = [r for r in history(curs, "thorgal", "scenario:thorgal", 10_000, 0) if r["game_id"] == game_id]
    assert len(mine) == 1 and len(scenario) == 1
    assert (mine[0]["mu"] > mine[0]["mu_before"]) == won
    assert (scenario[0]["mu"] > scenario[0]["mu_before"]) == (not won)


def test_a_runner_killed_mid_batch_applies_nothing_and_a_restart_equals_a_rebuild(ledger, names):
    runner = ViewRunner(ledger.datastore, RatingsView(), batch_size=3)
    runner.ensure_tables()
    runner.catch_up()
    for i in range(4):
        finish_game(ledger, "terralore", {"players": 2}, (names[i % 4], names[(i + 1) % 4]), seed=10 + i)
    before = runner.status().position

    def crash() -> None:
        raise KeyboardInterrupt("killed mid-batch")

    with pytest.raises(KeyboardInterrupt):
        runner.step(before_commit=crash)
    assert runner.status().position == before
    restarted = ViewRunner(ledger.datastore, RatingsView(), batch_size=3)
    restarted.catch_up()
    caught_up = dump(ledger, RatingsView.tables)
    restarted.reset()
    restarted.catch_up()
    assert dump(ledger, RatingsView.tables) == caught_up


def test_two_runners_at_once_never_double_apply(ledger, names):
    first = ViewRunner(ledger.datastore, RatingsView(), batch_size=2)
    first.ensure_tables()
    first.catch_up()
    for i in range(5):
        finish_game(ledger, "terralore", {"players": 2}, (names[0], names[1 + i % 3]), seed=20 + i)
    second = ViewRunner(ledger.datastore, RatingsView(), batch_size=2)
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
    concurrent = dump(ledger, RatingsView.tables)
    first.reset()
    first.catch_up()
    assert dump(ledger, RatingsView.tables) == concurrent
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute("SELECT games FROM ratings_current WHERE game_type = 'terralore' AND player_id = %s", (names[0],))
        assert curs.fetchone()["games"] == 5


class CountingView(View):
    """A private view no background projector runs, so the test controls its pace."""

    name = "test_counting"
    tables = ("test_counting",)
    ddl = "CREATE TABLE IF NOT EXISTS test_counting (events bigint NOT NULL)"

    def apply(self, curs, events):  # type: ignore[no-untyped-def]
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
