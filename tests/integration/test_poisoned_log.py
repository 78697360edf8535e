"""A poisoned log is an alarm, not a crash loop.

A superuser appends a second ``GameConcluded`` to a finished game, with the
hash chain recomputed so the chain itself still links.  No view may apply
it (the ratings view rated the game twice): the view stops applying that
game with one log line naming the game, the event and the reason, shows the
stop in ``ledger projections status``, the health list and a Prometheus
gauge, and goes on applying every other game; ``ledger audit`` must name the
tampering.  A view stopped altogether never holds back the reads of another.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import uuid
import weakref
from typing import Any

import psycopg
import pytest
from grpc_health.v1 import health_pb2
from prometheus_client import REGISTRY
from typer.testing import CliRunner

from domain.games import find_game
from domain.ledger.records import canonical_json, event_hash
from projections.ratings import RatingsView
from projections.runner import ALARMS, ViewRunner, wait_for_position
from projections.stats import StatsView
from services.api.health import HealthServicer
from services.api.read_rpc import ReadModels
from services.ledger.audit import audit_game
from services.storage.read_replica import ReadSide
from tests.support.database import scratch_database

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING

pytestmark = pytest.mark.postgres


@pytest.fixture
def isolated_ledger(server_url: str, settings: Any) -> Any:
    """A database of each test's own: the tests count stopped games, and a
    game another test poisoned would be one more."""
    from services.runtime.bootstrap import build_ledger

    with scratch_database(server_url) as url:
        app = build_ledger(settings, url)
        try:
            yield app
        finally:
            app.close()


def finish(ledger: Any, seed: int) -> uuid.UUID:
    ruleset = find_game("terralore")
    created = ledger.create_game("terralore", {"players": 2})
    rnd = random.Random(seed)
    while not (game := ledger.load(created.game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(
            created.game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
    return created.game_id


def append_second_conclusion(ledger: Any, game_id: uuid.UUID) -> int:
    """As a superuser would: triggers off, the copy chained to the head."""
    env = ledger.env_for_peers
    conninfo = psycopg.conninfo.make_conninfo(
        dbname=env["POSTGRES_DBNAME"],
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env.get("POSTGRES_PASSWORD", ""),
    )
    with psycopg.connect(conninfo, autocommit=True) as conn:
        head = conn.execute(
            "SELECT originator_version, topic, state FROM ledger_events"
            " WHERE originator_id = %s ORDER BY originator_version DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        assert head is not None
        version, topic, state = head
        record = json.loads(bytes(state))
        record["prev_hash"] = record["hash"]
        record["hash"] = event_hash(
            game_id=str(game_id),
            version=version + 1,
            type_=topic,
            timestamp=record["timestamp"],
            prev_hash=record["prev_hash"],
            body=record["body"],
            alg=record["alg"],
            nonce=record.get("nonce"),
        )
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            inserted = conn.execute(
                "INSERT INTO ledger_events (originator_id, originator_version, topic,"
                " state) VALUES (%s, %s, %s, %s) RETURNING notification_id",
                (game_id, version + 1, topic, canonical_json(record)),
            ).fetchone()
    assert inserted is not None
    return int(inserted[0])


async def health_list(ledger: Any, runner: ViewRunner) -> dict[str, int]:
    health = HealthServicer(ReadModels(ledger.datastore, [runner], ledger.executor))
    await health.set("", SERVING)
    listed = await health.List(health_pb2.HealthListRequest(), None)
    return {name: answer.status for name, answer in listed.statuses.items()}


def stalled_gauge(view: str) -> float | None:
    return REGISTRY.get_sample_value("ledger_projection_stalled", {"view": view})


def games_stopped_gauge(view: str) -> float | None:
    return REGISTRY.get_sample_value("ledger_projection_games_stopped", {"view": view})


def finish_rated(ledger: Any, seed: int, players: tuple[str, str]) -> uuid.UUID:
    ruleset = find_game("terralore")
    created = ledger.create_game("terralore", {"players": 2}, player_ids=players)
    rnd = random.Random(seed)
    while not (game := ledger.load(created.game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(
            created.game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
    return created.game_id


def test_a_second_conclusion_stops_that_game_with_one_line_and_the_rest_go_on(
    isolated_ledger, caplog, monkeypatch, settings
):
    ledger = isolated_ledger
    runner = ViewRunner(ledger.datastore, StatsView(), batch_size=50)
    runner.ensure_tables()
    poisoned_game = finish(ledger, seed=1)
    runner.catch_up()
    position = append_second_conclusion(ledger, poisoned_game)
    later_game = finish(ledger, seed=2)  # after the poison: applied all the same

    with caplog.at_level(logging.INFO, logger="projections"):
        for _ in range(5):  # the projector steps again and again
            runner.step()
    status = runner.status()
    assert status.stalled is None and status.position == status.head
    assert status.stopped_count == 1
    (stop,) = status.stopped_games
    assert (stop.game_id, stop.position) == (poisoned_game, position)
    assert "follows its conclusion" in stop.reason
    lines = [r for r in caplog.records if r.name.startswith("projections")]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    (line,) = lines
    assert line.exc_info is None  # one line, no traceback
    message = line.getMessage()
    assert str(poisoned_game) in message and "GameConcluded" in message
    assert f"log position {position}" in message
    monkeypatch.setitem(ALARMS.runners, "stats", weakref.WeakSet([runner]))
    assert stalled_gauge("stats") == 0
    assert games_stopped_gauge("stats") == 1

    with ledger.datastore.transaction(commit=False) as curs:  # still serving
        curs.execute("SELECT game_id FROM stats_games WHERE ended_at IS NOT NULL")
        finished = {row["game_id"] for row in curs.fetchall()}
    assert {poisoned_game, later_game} <= finished

    # read-your-writes past the poisoned event is answered
    assert wait_for_position([runner], status.head, timeout=600)

    # ``ledger projections status`` names the game
    env = ledger.env_for_peers
    monkeypatch.setenv(
        "LEDGER_DATABASE_URL",
        f"postgresql://{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:"
        f"{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}",
    )
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))
    from services.cli import app

    shown = CliRunner().invoke(app, ["projections", "status"], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    (row,) = [line for line in shown.output.splitlines() if "│ stats " in line]
    assert "1 game(s) stopped" in row
    assert str(poisoned_game) in shown.output

    # and the audit names the tampering
    report = audit_game(ledger, poisoned_game)
    assert [(f.version, f.check) for f in report.failures if f.check == "conclusion"]
    assert any("second GameConcluded" in f.detail for f in report.failures), (
        report.failures
    )

    # the health service's list names the stopped game; the view serves on
    statuses = asyncio.run(health_list(ledger, runner))
    assert statuses["ledger.v1.views/stats"] == SERVING
    assert statuses[f"ledger.v1.views/stats/games/{poisoned_game}"] == NOT_SERVING
    assert statuses[""] == SERVING

    # a rebuild (after the log is repaired, or to retry) clears the stop
    runner.reset()
    assert runner.status().stopped_count == 0
    assert games_stopped_gauge("stats") == 0


def test_a_second_conclusion_changes_no_rating_twice(
    isolated_ledger, caplog, monkeypatch
):
    ledger = isolated_ledger
    runner = ViewRunner(ledger.datastore, RatingsView(), batch_size=50)
    runner.ensure_tables()
    ann, bob, cid = (f"{name}-{uuid.uuid4().hex[:6]}" for name in ("ann", "bob", "cid"))
    poisoned = finish_rated(ledger, 1, (ann, bob))
    append_second_conclusion(ledger, poisoned)
    later = finish_rated(ledger, 2, (ann, cid))
    with caplog.at_level(logging.INFO, logger="projections"):
        runner.catch_up()
        runner.catch_up()
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT player_id, game_id FROM ratings_history WHERE player_id = ANY(%s)",
            ([ann, bob, cid],),
        )
        changes = [(r["player_id"], r["game_id"]) for r in curs.fetchall()]
        curs.execute("SELECT games FROM ratings_current WHERE player_id = %s", (ann,))
        (rated,) = curs.fetchall()
    assert sorted(changes) == sorted(
        [(ann, poisoned), (bob, poisoned), (ann, later), (cid, later)]
    )
    assert rated["games"] == 2
    status = runner.status()
    assert status.stalled is None
    assert poisoned in {g.game_id for g in status.stopped_games}
    lines = [
        r
        for r in caplog.records
        if r.name.startswith("projections") and str(poisoned) in r.getMessage()
    ]
    assert len(lines) == 1  # once, however often the view steps
    # the scrape reads the first live runner of the view: here, this one (other
    # tests' runners on other databases may still be alive in this process)
    monkeypatch.setitem(ALARMS.runners, "ratings", weakref.WeakSet([runner]))
    assert games_stopped_gauge("ratings") == status.stopped_count


def test_a_stopped_view_does_not_hold_back_the_reads_of_another(isolated_ledger):
    ledger = isolated_ledger
    stats = ViewRunner(ledger.datastore, StatsView())
    ratings = ViewRunner(ledger.datastore, RatingsView())
    for runner in (stats, ratings):
        runner.ensure_tables()
    finish(ledger, seed=3)
    ratings.catch_up()
    head = ratings.status().head
    with ledger.datastore.transaction(commit=True) as curs:  # stats stopped early
        curs.execute(
            "UPDATE projection_tracking SET position = 0, stalled_at = 1,"
            " stalled_reason = 'poison' WHERE view = 'stats'"
        )
    models = ReadModels(ledger.datastore, [stats, ratings], ledger.executor)

    class Context:
        aborted: tuple[Any, ...] = ()

        def time_remaining(self) -> float:
            return 5.0

        async def abort(self, code: Any, details: str) -> None:
            self.aborted = (code, details)
            raise RuntimeError(details)

    context = Context()
    asyncio.run(models.catch_up_to(head, context, ("ratings",)))
    assert context.aborted == ()
    with pytest.raises(RuntimeError, match="view stats stopped"):
        asyncio.run(models.catch_up_to(head, context, ("stats",)))
    # the dashboard's pages, which wait on every view, are not held back either
    side = ReadSide(ledger.datastore, [stats, ratings], ratings, owned=False)
    assert side.wait_for(head, timeout=5)


def test_a_tracking_table_from_before_stops_gets_their_columns(isolated_ledger):
    runner = ViewRunner(isolated_ledger.datastore, StatsView())
    runner.ensure_tables()
    with isolated_ledger.datastore.transaction(commit=True) as curs:
        curs.execute(
            "ALTER TABLE projection_tracking DROP COLUMN stalled_at,"
            " DROP COLUMN stalled_reason"
        )
    runner.ensure_tables()
    assert runner.status().stalled is None  # reads both columns


def test_an_event_a_view_fails_on_stops_the_view_with_one_line(isolated_ledger, caplog):
    """Any other failure to apply (the view's own, on a strange event) still
    stops the whole view just before the event: stopping is late and says
    why, skipping would be silently wrong."""
    from domain.ledger.records import CONCLUDED_TYPE
    from projections.base import View

    ledger = isolated_ledger
    poisoned = finish(ledger, seed=4)

    class Picky(View):
        name = "picky_test_view"
        topics = (CONCLUDED_TYPE,)

        def apply(self, curs: Any, events: Any) -> None:
            if any(e.game_id == poisoned for e in events):
                raise ValueError("cannot take this game")

    runner = ViewRunner(ledger.datastore, Picky())
    runner.ensure_tables()
    with caplog.at_level(logging.INFO, logger="projections"):
        for _ in range(3):
            runner.step()
    status = runner.status()
    assert status.stalled is not None and str(poisoned) in status.stalled.reason
    assert status.position == status.stalled.position - 1
    # the module's database also holds the games earlier tests poisoned, which
    # this new view stops one by one: those lines are about other games
    lines = [
        r
        for r in caplog.records
        if r.name.startswith("projections")
        and "stopped applying game" not in r.getMessage()
    ]
    assert len(lines) == 1 and "ValueError" in lines[0].getMessage(), [
        r.getMessage() for r in lines
    ]
    assert stalled_gauge("picky_test_view") == 1
    runner.reset()
    assert stalled_gauge("picky_test_view") == 0
