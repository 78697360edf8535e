"""Point-in-time recovery with PostgreSQL's own tools: deploy/README.md's
single-PostgreSQL variant (the Patroni one is test_readme_restore.py).

A private cluster archives its WAL (``archive_command``); ``pg_basebackup``
takes a base backup while clients play; they play on, the operator names a
restore point (``pg_create_restore_point``), and play more, a player keeping
the receipts of those last moves.  The base backup plus the archive restored
to the named point (the segment holding it switched and archived first, as
the README says) on another private cluster holds every move acknowledged
before the point, exactly as acknowledged, every game audits OK, and every
receipt a player holds for a move after the point is reported missing from
the restored ledger: the server signed events that are not in its log.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from domain.ledger.receipts import Receipt
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection
from services.ledger.audit import audit_game
from services.runtime.bootstrap import build_ledger
from services.runtime.settings import Settings
from tests.faults.harness import Figures, Load, Size, check_ledger, serve_env
from tests.support.scratch_postgres import ScratchPostgres
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
ROUND = Size(clients=2, moves=30, faults=0)
POINT = "before-the-loss"


class ArchivingPostgres(ScratchPostgres):
    """A cluster that copies each finished WAL segment into ``archive``."""

    def __init__(self) -> None:
        super().__init__()
        self.archive = self.root / "archive"
        self.archive.mkdir()
        self._own(self.archive)
        self.extra_options = (
            " -c wal_level=replica -c archive_mode=on"
            f" -c archive_command='test ! -f {self.archive}/%f && cp %p {self.archive}/%f'"
        )

    def _own(self, path: Path) -> None:
        if self.user is not None:
            subprocess.run(["chown", "-R", f"{self.user}:", str(path)], check=True)

    def base_backup(self) -> Path:
        target = self.root / "base"
        self._run(
            "pg_basebackup",
            *("-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"),
            *("-D", str(target), "-X", "stream", "-c", "fast", "--no-sync"),
        )
        return target


class RestoredPostgres(ScratchPostgres):
    """``base`` on a cluster of its own, replaying ``archive`` up to restore point ``name``."""

    def __init__(self, source: ArchivingPostgres, base: Path, name: str) -> None:
        self.bin, self.user = source.bin, source.user
        self._make_root("ledger-restore-pg-")
        shutil.copytree(base, self.data)
        with (self.data / "postgresql.auto.conf").open("a") as conf:
            conf.write(
                f"restore_command = 'cp {source.archive}/%f %p'\n"
                f"recovery_target_name = '{name}'\n"
                "recovery_target_action = 'promote'\n"
            )
        (self.data / "recovery.signal").touch()
        source._own(self.data)
        self.data.chmod(0o700)


def play_on(target: str, load: Load, per_game: int) -> list[pb.Receipt]:
    """``per_game`` more moves in each game still running, keeping their receipts."""
    conn = Connection.open(target)
    held = []
    try:
        for game_id, tokens in load.tokens.items():
            for _ in range(per_game):
                game = conn.call(
                    "GetGame", pb.GetGameRequest(game_id=game_id), None, timeout=15
                ).game
                if game.status == "ended":
                    break
                seat = game.to_act[0]
                listed = conn.call(
                    "ListLegalMoves",
                    pb.ListLegalMovesRequest(game_id=game_id, seat=seat, page_size=200),
                    tokens[seat],
                    timeout=15,
                )
                answer = conn.call(
                    "SubmitMove",
                    pb.SubmitMoveRequest(
                        game_id=game_id,
                        command_id=str(uuid.uuid4()),
                        move=listed.moves[0],
                        seat=seat,
                    ),
                    tokens[seat],
                    timeout=15,
                )
                held.append(answer.receipt)
    finally:
        conn.channel.close()
    return held


def kept(receipt: pb.Receipt) -> Receipt:
    """A receipt as a player stores it."""
    return Receipt(
        receipt.game_id,
        receipt.version,
        receipt.head_hash,
        receipt.timestamp,
        receipt.key_id,
        receipt.signature,
    )


def test_restore_to_a_named_point_keeps_every_acknowledged_move_before_it(tmp_path):
    figures = Figures("point-in-time recovery", ROUND.clients)
    primary = ArchivingPostgres()
    restored: RestoredPostgres | None = None
    try:
        primary.start()
        with psycopg.connect(primary.url, autocommit=True) as admin:
            admin.execute("CREATE DATABASE ledger")
        url = primary.url.rsplit("/", 1)[0] + "/ledger"
        env = serve_env(url, tmp_path)
        with ledger_serve(env) as server:
            load = Load(server.target, ROUND, seed=7)
            load.start()
            load.wait_for(ROUND.moves // 3)
            started = time.monotonic()
            base = primary.base_backup()  # online: the clients keep playing
            backup_seconds = time.monotonic() - started
            load.finish(timeout=300)
            with psycopg.connect(url, autocommit=True) as db:
                point_lsn = db.execute(
                    "SELECT pg_create_restore_point(%s)", (POINT,)
                ).fetchone()[0]
            after = play_on(server.target, load, per_game=2)
            with psycopg.connect(url, autocommit=True) as db:
                segment = db.execute(
                    "SELECT pg_walfile_name(pg_switch_wal())"
                ).fetchone()[0]
                wait_until(
                    lambda: (primary.archive / segment).exists(),
                    "the last WAL segment archived",
                )
        primary.stop()
        assert after, "no game was left running to play on"

        restored = RestoredPostgres(primary, base, POINT)
        restored.start()
        restored_url = restored.url.rsplit("/", 1)[0] + "/ledger"
        with psycopg.connect(restored_url, autocommit=True) as db:
            wait_until(
                lambda: not db.execute("SELECT pg_is_in_recovery()").fetchone()[0],
                "recovery reached the restore point and promoted",
            )
        # every move acknowledged before the point, as acknowledged; every game audits OK
        check_ledger(restored_url, load, figures)

        held = [kept(r) for r in after]
        ledger = build_ledger(
            Settings(database_url=restored_url, data_dir=tmp_path, pool_size=2),
            restored_url,
        )
        try:
            before_point = [kept(r) for r in load.receipts]
            missing = []
            lost = set()
            for game_id in load.games:
                gid = uuid.UUID(game_id)
                # older receipts hold; the signer's record (the server's data
                # dir) names each game whose signed heads the restore lost
                older = audit_game(ledger, gid, before_point)
                assert {f.check for f in older.failures} <= {"signer"}, older.failures
                if older.failures:
                    lost.add(game_id)
                report = audit_game(ledger, gid, held)
                missing += [f for f in report.failures if f.check == "receipt (held)"]
        finally:
            ledger.close()
        assert lost == {r.game_id for r in held}
        assert len(missing) == len(held)
        assert all("history was truncated" in f.detail for f in missing)

        # what an operator sees: `ledger audit --receipts` on a game played on
        receipts = tmp_path / "receipts.jsonl"
        game = held[0].game_id
        receipts.write_text(
            "".join(json.dumps(r.to_json()) + "\n" for r in held if r.game_id == game)
        )
        audit = subprocess.run(
            [
                sys.executable,
                "-m",
                "services.cli",
                "audit",
                game,
                "--receipts",
                str(receipts),
            ],
            env={**os.environ, **env, "LEDGER_DATABASE_URL": restored_url},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert audit.returncode == 1, audit.stdout + audit.stderr
        assert "history was truncated" in audit.stdout
    finally:
        if restored is not None:
            restored.close()
        primary.close()
    print(
        f"restore: base backup {backup_seconds:.2f} s while playing; restore point {POINT!r} "
        f"at {point_lsn}; {figures.moves} moves before it, all restored as acknowledged; "
        f"{figures.games_audited_ok}/{figures.games} games audit OK; "
        f"{len(missing)}/{len(held)} receipts held for moves after the point reported missing"
    )
