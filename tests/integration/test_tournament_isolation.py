"""A result one tournament cannot take stops that tournament alone.

An adjudication stored by an older release with ranks no tournament takes
(``(1, 1, 2)``: two seats share first, and the third is ranked second)
stopped the one results policy, and with it every tournament on the server.
Now the tournament that refuses it raises an alarm (a row, one log line, a
counter, ``ledger projections status`` and the health list) and stops at its
round; another tournament's games, concluded after it, are recorded and that
tournament finishes.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import pytest
from grpc_health.v1 import health_pb2
from prometheus_client import REGISTRY
from typer.testing import CliRunner

from domain.contract import endings
from projections.runner import ViewRunner
from projections.tournament_results import TournamentResultsView
from services.api.health import HealthServicer
from services.api.read_rpc import ReadModels
from services.tournaments.desk import TournamentDesk
from services.tournaments.results import ResultsDesk, halted

pytestmark = pytest.mark.postgres
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def refused_count() -> float:
    return REGISTRY.get_sample_value("ledger_tournament_results_refused_total") or 0.0


def only_game(desk: TournamentDesk, tournament_id: uuid.UUID) -> uuid.UUID:
    started = desk.start_round(tournament_id)
    (table,) = started.state.round_records[-1].tables
    return uuid.UUID(table.game_id)


def test_a_refused_result_stops_its_own_tournament_and_no_other(
    isolated_ledger: Any, monkeypatch: pytest.MonkeyPatch, caplog: Any, settings: Any
) -> None:
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    broken, _ = desk.create("broken", "thalara", "swiss_ffa", 1, 3, {})
    for player in ("a", "b", "c"):
        desk.register(broken.id, player)
    healthy, _ = desk.create("healthy", "terralore", "round_robin", 0, 2, {})
    for player in ("d", "e"):
        desk.register(healthy.id, player)
    bad_game = only_game(desk, broken.id)
    good_game = only_game(desk, healthy.id)

    # as an older release stored it: the ranking check was not there
    with monkeypatch.context() as old_release:
        old_release.setattr(endings, "is_competition_ranking", lambda ranks: True)
        asyncio.run(ledger.adjudicate(bad_game, (1, 1, 2), "tied first", "admin"))
    asyncio.run(ledger.adjudicate(good_game, (2, 1), "arbiter", "admin"))

    runner = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    runner.ensure_tables()
    before = refused_count()
    with caplog.at_level(logging.INFO):
        runner.catch_up()
        runner.catch_up()  # again: the alarm is raised once

    assert runner.status().stalled is None and runner.status().lag == 0
    assert desk.load(healthy.id).is_finished
    assert not desk.load(broken.id).is_finished
    assert desk.load(broken.id).state.is_round_in_progress
    with ledger.datastore.transaction(commit=False) as curs:
        alarms = halted(curs)
    assert [(a["tournament_id"], a["game_id"]) for a in alarms] == [
        (broken.id, bad_game)
    ]
    assert "(1, 1, 2)" in alarms[0]["reason"] or "[1, 1, 2]" in alarms[0]["reason"]
    assert refused_count() == before + 1
    lines = [r.getMessage() for r in caplog.records if str(bad_game) in r.getMessage()]
    assert len(lines) == 1 and str(broken.id) in lines[0], lines

    health = HealthServicer(ReadModels(ledger.datastore, [runner], ledger.executor))
    listed = asyncio.run(health.List(health_pb2.HealthListRequest(), None))
    statuses = {name: answer.status for name, answer in listed.statuses.items()}
    assert statuses[f"ledger.v1.tournaments/{broken.id}"] == NOT_SERVING
    assert f"ledger.v1.tournaments/{healthy.id}" not in statuses

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
    said = " ".join(shown.output.split())
    assert f"tournament stopped {broken.id}" in said and str(bad_game) in said
