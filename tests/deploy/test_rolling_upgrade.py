"""A rolling upgrade: the previous release's database is migrated while its server runs.

The previous release (``PREVIOUS``, checked out with ``git archive``) builds
the database with its own ``ledger db setup`` and plays games through its own
``ledger serve``.  Then this release's ``ledger db setup`` migrates it while
that server keeps serving, a server of this release starts on the same
database, and both take moves and answer reads for every game, whichever
server wrote it.  As in production, the owner runs each ``ledger db setup
--service-role`` and both servers connect as the service role, which runs no
DDL (``LEDGER_CREATE_TABLES=false``).  Every game audits OK, and every acknowledged move is stored
as acknowledged (tests/faults' checks).
"""

from __future__ import annotations

import io
import os
import secrets
import subprocess
import sys
import tarfile
from pathlib import Path

import grpc
import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from projections.runner import SetupRequiredError
from services.storage import migrations, roles
from tests.faults.harness import Figures, Load, Size, check_ledger, serve_env
from tests.support.database import scratch_database
from tests.support.server import ledger_serve

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
ROOT = Path(__file__).resolve().parents[2]
PREVIOUS = "b04c540"
"""The release before versioned migrations: its schema is what an operator upgrades from."""
ROUND = Size(clients=2, moves=24, faults=0)


def previous_release(into: Path) -> Path:
    archive = subprocess.run(
        ["git", "archive", PREVIOUS], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def ledger_cli(code: Path, env: dict[str, str], *args: str) -> str:
    """``ledger ARGS`` of the code checked out at ``code``."""
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", *args],
        cwd=code,
        env={**os.environ, **env, "PYTHONPATH": str(code)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def play(target: str, seed: int) -> Load:
    load = Load(target, ROUND, seed=seed)
    load.start()
    load.finish(timeout=300)
    return load


def read_everywhere(targets: dict[str, str], games: dict[str, int]) -> dict[str, int]:
    """GetGame of every game on every server: the same version and status from each."""
    served = dict.fromkeys(targets, 0)
    for game_id in games:
        answers = {}
        for name, target in targets.items():
            with grpc.insecure_channel(target) as channel:
                game = (
                    pb_grpc.GameServiceStub(channel)
                    .GetGame(pb.GetGameRequest(game_id=game_id), timeout=15)
                    .game
                )
            answers[name] = (game.version, game.status)
            served[name] += 1
        assert len(set(answers.values())) == 1, (game_id, answers)
    return served


def test_old_and_new_servers_share_a_migrated_database(server_url, tmp_path):
    previous = previous_release(tmp_path / "previous")
    figures = Figures("rolling upgrade", ROUND.clients)
    role = f"ledger_svc_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        with scratch_database(server_url, "ledger_upgrade") as url:
            served, loads, games = upgrade(previous, url, role, tmp_path, figures)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP ROLE IF EXISTS "{role}"')
    before, during_old, during_new = loads
    assert figures.games_audited_ok == figures.games == len(games)
    assert served == {"old": len(games), "new": len(games)}
    print(
        f"upgrade: {before.moves} moves in {len(before.games)} games before it on the old server; "
        f"during it {during_old.moves} moves ({len(during_old.games)} games) on the old and "
        f"{during_new.moves} ({len(during_new.games)} games) on the new server; "
        f"GetGame of all {len(games)} games answered alike by both; "
        f"{figures.games_audited_ok}/{figures.games} games audit OK"
    )


def upgrade(
    previous: Path, url: str, role: str, tmp_path: Path, figures: Figures
) -> tuple[dict[str, int], tuple[Load, Load, Load], dict[str, int]]:
    owner = serve_env(url, tmp_path)
    service_url = make_conninfo(url, user=role)
    env = {**owner, "LEDGER_DATABASE_URL": service_url, "LEDGER_CREATE_TABLES": "false"}
    old_env = {**env, "PYTHONPATH": str(previous)}
    ledger_cli(previous, owner, "db", "setup", "--service-role", role)
    with psycopg.connect(url) as conn:
        assert migrations.schema_version(conn) == 0  # built before versions
    # this release's service refuses the unmigrated database, naming the fix
    with pytest.raises(SetupRequiredError, match="ledger db setup"):
        roles.check_ready(service_url)

    with ledger_serve(old_env, cwd=str(previous)) as old:
        before = play(old.target, seed=1)
        setup = ledger_cli(ROOT, owner, "db", "setup", "--service-role", role)
        assert "applied migration 1 baseline" in setup
        assert "applied migration 2" in setup
        with psycopg.connect(url) as conn:
            assert migrations.schema_version(conn) == migrations.SCHEMA_VERSION
        roles.check_ready(service_url)  # migrated: ready for this release's service
        with ledger_serve(env) as new:
            during_old = Load(old.target, ROUND, seed=2)
            during_new = Load(new.target, ROUND, seed=3)
            during_old.start()
            during_new.start()
            during_old.finish(timeout=300)
            during_new.finish(timeout=300)
            loads = (before, during_old, during_new)
            games = {g: v for load in loads for g, v in load.games.items()}
            served = read_everywhere({"old": old.target, "new": new.target}, games)
    everything = Load("", Size(ROUND.clients, 0, 0))
    for load in loads:
        everything.acks.update(load.acks)
        everything.games.update(load.games)
    check_ledger(url, everything, figures)
    return served, loads, games
