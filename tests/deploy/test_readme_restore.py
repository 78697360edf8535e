"""deploy/README.md's backup and restore, run from the README's own text.

The ```sh blocks of its section "Backups and point-in-time recovery
(pgBackRest)" are read from the page and run in order, as written, as the
user PostgreSQL runs as, on the cluster of ``deploy/local/pg-ha-up.sh``
(Patroni, pgBackRest backing up from a replica).  Between them, players
play: before the backup, between the backup and the named point, and after
the point (moves on games that existed, and a game created after it, whose
receipts the player keeps).

Asserted: the restore reaches the named point (no "recovery ended before
configured recovery target was reached"), every move acknowledged before
the point is there as acknowledged, the README's audit loop passes on every
game, the receipts of moves after the point are reported as truncated
history, and the game created after the point is reported as created after
the restore point, with the time its first receipt was signed.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection
from services.proto import convert
from tests.deploy.patroni import Cluster, patroni_cluster
from tests.deploy.shipped import BIN, DEPLOY, free_port
from tests.deploy.test_point_in_time_recovery import kept, play_on
from tests.faults.harness import Figures, Load, Size, check_ledger, serve_env
from tests.support.server import ledger_serve

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
SECTION = "## Backups and point-in-time recovery (pgBackRest)"
ROUND = Size(clients=2, moves=30, faults=0)
TERRALORE = find_game("terralore")
TWO_PLAYERS: dict[str, object] = {"players": 2}  # setup_model's fields vary by game


def readme_blocks() -> list[str]:
    """The section's ```sh blocks, in order."""
    text = (DEPLOY / "README.md").read_text()
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [
        re.sub(r"^ {3}", "", block, flags=re.MULTILINE)
        for block in re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    ]


def run_block(code: str, env: dict[str, str], run: Path) -> str:
    """One block, exactly as written, in ``sh -e``, as PostgreSQL's user."""
    command = ["sh", "-ec", code]
    if os.geteuid() == 0:
        command = [
            "setpriv",
            "--reuid=postgres",
            "--regid=postgres",
            "--init-groups",
            "--",
            *command,
        ]
    done = subprocess.run(
        command,
        env=env,
        cwd=run,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{code}\n---\n{done.stdout}{done.stderr}"
    return done.stdout


def new_game_with_receipts(target: str, moves: int) -> tuple[str, list[pb.Receipt]]:
    """A game created now, ``moves`` moves played on it, the receipts kept."""
    conn = Connection.open(target)
    try:
        created = conn.call(
            "CreateGame",
            pb.CreateGameRequest(
                game_type="terralore",
                setup=convert.model_to_any(
                    TERRALORE, TERRALORE.setup_model(**TWO_PLAYERS)
                ),
            ),
            timeout=15,
        )
        game_id = created.game.game_id
        tokens = {seat: t.token for t in created.tokens for seat in t.seats}
    finally:
        conn.channel.close()
    load = Load(target, ROUND)
    load.tokens = {game_id: tokens}
    return game_id, play_on(target, load, per_game=moves)


def test_the_readme_restore_reaches_its_point_and_every_game_audits(
    tmp_path: Any,
) -> None:
    blocks = readme_blocks()
    assert len(blocks) == 4, blocks  # backup, name a point, restore, audit
    figures = Figures("restore as deploy/README.md says", ROUND.clients)
    key = secrets.token_hex(32)
    with patroni_cluster() as cluster:
        run = cluster.run
        audit_dir = run / "audit"
        audit_dir.mkdir()
        if os.geteuid() == 0:
            subprocess.run(["chown", "-R", "postgres:", str(run)], check=True)
        restore_port = free_port()
        env = {
            "PATH": f"{BIN}:/usr/bin:/bin:/usr/sbin:/sbin",
            "HOME": str(run),
            "RUN": str(run),
            "RESTORE_PORT": str(restore_port),
            "LEDGER_SIGNING_KEY": key,
            "LEDGER_DATA_DIR": str(audit_dir),
            "XDG_RUNTIME_DIR": str(audit_dir),
        }
        admin = cluster.env["LEDGER_DATABASE_URL"]
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute("CREATE DATABASE ledger")
        url = admin.rsplit("/", 1)[0] + "/ledger"
        try:
            with ledger_serve(
                serve_env(url, tmp_path, LEDGER_SIGNING_KEY=key)
            ) as server:
                load = Load(server.target, ROUND, seed=3)
                load.start()
                load.finish(timeout=300)
                started = time.monotonic()
                backup_out = run_block(blocks[0], env, run)  # 1. full backup
                backup_seconds = time.monotonic() - started
                before = play_on(server.target, load, per_game=1)
                load.receipts.extend(before)
                run_block(blocks[1], env, run)  # 2. name the point, switch
                after = play_on(server.target, load, per_game=2)
                late_game, late = new_game_with_receipts(server.target, 2)
            assert after and late, "nothing was played after the point"
            run_block(blocks[2], env, run)  # 3. restore, start
            restored = f"{admin.rsplit('@', 1)[0]}@127.0.0.1:{restore_port}/ledger"
            run_block(blocks[3], env, run)  # 4. audit every game

            # acknowledged before the point == restored, every game audits OK
            # (the moves of play_on before the point count as acknowledged)
            check_before_point(restored, load, figures, before)
            verdicts = audit_with_receipts(env, restored, after, late_game, late)
        finally:
            stop_restored(run)
        backup_log = backup_from_standby(cluster)
    truncated, created_after = verdicts
    assert truncated == len({r.game_id for r in after})
    first = min(late, key=lambda r: r.version)
    assert "created after the restore point" in created_after
    assert first.timestamp in created_after.replace("\n", "")
    assert backup_log, "pgBackRest did not back up from a standby"
    figures.extra.update(
        backup_seconds=round(backup_seconds, 2),
        receipts_after_point_reported=len(after) + len(late),
    )
    figures.publish()
    print(backup_out)


def check_before_point(
    url: str, load: Load, figures: Figures, before: list[pb.Receipt]
) -> None:
    """check_ledger, with play_on's moves before the point as acknowledged."""
    with psycopg.connect(url) as db:
        for receipt in before:
            row = db.execute(
                "SELECT command_id, first_version, last_version FROM ledger_commands"
                " WHERE game_id = %s AND %s BETWEEN first_version AND last_version",
                (uuid.UUID(receipt.game_id), receipt.version),
            ).fetchone()
            if row is None:  # say what the restored copy holds of that game
                held = db.execute(
                    "SELECT max(originator_version) FROM ledger_events"
                    " WHERE originator_id = %s",
                    (uuid.UUID(receipt.game_id),),
                ).fetchone()
                commands = db.execute(
                    "SELECT first_version, last_version FROM ledger_commands"
                    " WHERE game_id = %s ORDER BY first_version DESC LIMIT 3",
                    (uuid.UUID(receipt.game_id),),
                ).fetchall()
                raise AssertionError(
                    f"a move before the point is missing: event {receipt.version}; "
                    f"the copy's log ends at {held}, its last commands {commands}"
                )
            load.acks[(receipt.game_id, str(row[0]))] = (row[1], row[2])
    check_ledger(url, load, figures)
    assert figures.games_audited_ok == figures.games > 0


def audit_with_receipts(
    env: dict[str, str],
    url: str,
    after: list[pb.Receipt],
    late_game: str,
    late: list[pb.Receipt],
) -> tuple[int, str]:
    """``ledger audit GAME --receipts FILE`` on the restored copy: how many
    games report truncated history, and what it says of the late game."""
    environment = {**os.environ, **env, "LEDGER_DATABASE_URL": url}

    def audit(
        game: str, receipts: list[pb.Receipt]
    ) -> subprocess.CompletedProcess[str]:
        path = Path(env["LEDGER_DATA_DIR"]) / f"{game}.jsonl"
        path.write_text("".join(json.dumps(kept(r).to_json()) + "\n" for r in receipts))
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "services.cli",
                "audit",
                game,
                "--receipts",
                str(path),
            ],
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    truncated = 0
    for game in sorted({r.game_id for r in after}):
        done = audit(game, [r for r in after if r.game_id == game])
        assert done.returncode == 1, done.stdout + done.stderr
        truncated += "history was truncated" in done.stdout
    done = audit(late_game, late)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return truncated, done.stdout + done.stderr


def backup_from_standby(cluster: Cluster) -> bool:
    """Whether pgBackRest's log says the backup read from a standby (it
    waits for the standby to replay the backup's start before copying)."""
    logs = list((cluster.run / "pgbackrest").glob("ledger-backup*.log"))
    return any("replay on the standby reached" in p.read_text() for p in logs)


def stop_restored(run: Path) -> None:
    data = run / "restored"
    if (data / "postmaster.pid").exists():
        command = [
            "/usr/lib/postgresql/15/bin/pg_ctl",
            "-D",
            str(data),
            "-m",
            "immediate",
            "stop",
        ]
        if os.geteuid() == 0:
            command = [
                "setpriv",
                "--reuid=postgres",
                "--regid=postgres",
                "--init-groups",
                "--",
                *command,
            ]
        subprocess.run(command, capture_output=True, timeout=60, check=False)
