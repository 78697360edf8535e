"""Truncate and replay: a database superuser rolls a finished game back and
the seat tokens play it to a new end.

The attack, as a DBA would run it against a real server: in one transaction
with the append-only triggers off (``session_replication_role = replica``),
delete a finished game's events from version N on, with its snapshots,
receipts and commands from N on, and set the game row back to ``active`` at
version N-1 with that event's head hash.  After a restart, the players'
tokens play on: the seed is public since the first ending, so every future
shuffle is known.  The database alone is self-consistent again; only
evidence kept outside it can tell: the signer's record of the heads it
signed, and the checkpoints it published before.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from typer.testing import CliRunner

from domain.ledger.checkpoints import Checkpoint, Consistency
from ledger.v1 import checkpoint_service_pb2 as cpb
from ledger.v1 import checkpoint_service_pb2_grpc as cpb_grpc
from services.api.client import Table, create, play_one
from tests.support.database import scratch_database
from tests.support.server import serve_in_process

pytestmark = pytest.mark.postgres


@contextlib.contextmanager
def served(settings: Any) -> Iterator[Any]:
    """A server process's worth of state: a fresh ledger, its gRPC server."""
    from services.runtime.bootstrap import build_ledger

    ledger = build_ledger(settings)
    ledger.signer  # noqa: B018 - as `wire` does: the key from the start
    try:
        with serve_in_process(settings, ledger) as server:
            yield server, ledger
    finally:
        ledger.close()


def roll_back(url: str, game_id: str, cut: int) -> None:
    """The superuser's transaction: the log, its side rows and the game row
    back to version ``cut - 1``, as if the game had never got further."""
    with psycopg.connect(url, autocommit=True) as dba, dba.transaction():
        dba.execute("SET LOCAL session_replication_role = replica")
        row = dba.execute(
            "SELECT state FROM ledger_events WHERE originator_id = %s"
            " AND originator_version = %s",
            (game_id, cut - 1),
        ).fetchone()
        assert row is not None
        head_hash = json.loads(bytes(row[0]))["hash"]
        for sql in (
            "DELETE FROM ledger_events WHERE originator_id = %s AND originator_version >= %s",
            "DELETE FROM ledger_snapshots WHERE originator_id = %s AND originator_version >= %s",
            "DELETE FROM ledger_receipts WHERE game_id = %s AND version >= %s",
            "DELETE FROM ledger_commands WHERE game_id = %s AND last_version >= %s",
        ):
            dba.execute(sql, (game_id, cut))
        dba.execute(
            "UPDATE ledger_games SET status = 'active', version = %s, head_hash = %s,"
            " ended_at = NULL, winners = NULL WHERE game_id = %s",
            (cut - 1, head_hash, game_id),
        )


def play_out(server: Any, table: Table, seed: int) -> list[Any]:
    rnd = random.Random(seed)
    answers = []
    while (answer := play_one(server, table, rnd)) is not None:
        answers.append(answer)
    return answers


def checkpoint_file(server: Any, path: Path, tree_size: int = 0) -> Any:
    """What a player or operator keeps: a checkpoint fetched over gRPC."""
    stub = cpb_grpc.CheckpointServiceStub(server.channel)
    answer = stub.GetCheckpoint(cpb.GetCheckpointRequest(tree_size=tree_size))
    path.write_text(answer.json)
    return answer


@pytest.mark.parametrize(
    ("game_type", "back"),
    [("terralore", 3), ("thalara", 1)],
    ids=["terralore-three-moves-back", "thalara-the-ending-only"],
)
def test_a_rolled_back_game_replayed_to_a_new_end_is_refused_and_detected(
    server_url: str,
    settings: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game_type: str,
    back: int,
) -> None:
    from services.cli import app
    from services.observability.metrics import SIGNER_REFUSALS

    kept = tmp_path / "checkpoint.json"
    with scratch_database(server_url, "ledger_replay") as url:
        own = settings.model_copy(
            update={"database_url": url, "data_dir": tmp_path / "data"}
        )
        monkeypatch.setenv("LEDGER_DATABASE_URL", url)
        monkeypatch.setenv("LEDGER_DATA_DIR", str(own.data_dir))
        with served(own) as (server, ledger):
            table = create(server, game_type, players=2)
            moves = play_out(server, table, seed=3)
            final = moves[-1].last_version
            original = ledger.read_records(table.game_id)[-1]
            earlier = checkpoint_file(server, kept)  # signed at the game's end
            key = ledger.signer.public_key.hex()
        # the first event of a move ``back`` from the end: the history to rewrite
        cut = moves[-back].first_version
        roll_back(url, table.game_id, cut)
        refusals = SIGNER_REFUSALS._value.get()

        with served(own) as (server, ledger):
            refusal = None
            try:
                replayed = play_out(server, table, seed=99)
            except grpc.RpcError as exc:
                refusal = exc
            else:
                head = ledger.read_records(table.game_id)[-1]
                runner = CliRunner()
                audit = runner.invoke(app, ["audit", table.game_id])
                pytest.fail(
                    f"the ledger signed a new ending after a rollback to {cut - 1}: "
                    f"{len(replayed)} moves replayed, head {head[0]} "
                    f"(was {original[0]} at {final}), "
                    f"`ledger audit` exit {audit.exit_code}: "
                    f"{audit.output.strip().splitlines()[-1]}"
                )
            # the signer refused the first move of the new history, with an alarm
            assert refusal.code() == grpc.StatusCode.DATA_LOSS, refusal
            assert "another history" in str(refusal.details())
            assert SIGNER_REFUSALS._value.get() == refusals + 1
            alarm = str(ledger.head_signer.alarm)
            assert table.game_id in alarm and f"version {cut}" in alarm
            health = health_pb2_grpc.HealthStub(server.channel).List(
                health_pb2.HealthListRequest()
            )
            signer = health.statuses["ledger.v1.signer"].status
            assert signer == health_pb2.HealthCheckResponse.NOT_SERVING
            stored = ledger.read_records(table.game_id)
            assert stored[-1][0] == cut - 1  # nothing of the new history stored
            # other games are served as before; a later checkpoint (signed at
            # that game's end) still pins the old ending and extends the kept one
            other = create(server, game_type, players=2)
            assert play_out(server, other, seed=5)
            later = ledger.head_signer.checkpoints.latest()
            assert later is not None and later.tree_size > earlier.tree_size
            stub = cpb_grpc.CheckpointServiceStub(server.channel)
            proof = stub.GetInclusionProof(
                cpb.GetInclusionProofRequest(game_id=table.game_id),
                metadata=(("authorization", f"Bearer {server.admin_token}"),),
            )
            old_head = json.loads(original[2])["hash"]
            assert (proof.version, proof.head_hash) == (final, old_head)
            consistency = stub.GetConsistencyProof(
                cpb.GetConsistencyProofRequest(prior_size=earlier.tree_size)
            )
            extends = Consistency(
                consistency.prior_size,
                consistency.tree_size,
                tuple(consistency.path),
                tuple(consistency.rule),
                tuple(consistency.subset),
            ).problem(Checkpoint.from_json(json.loads(earlier.json)), later)
            assert extends is None, extends

        runner = CliRunner()
        against = runner.invoke(app, ["audit", "--against", str(kept)])
        assert against.exit_code == 1, against.output
        assert f"game {table.game_id} version {final}" in against.output
        assert "rolled back" in against.output
        audit = runner.invoke(app, ["audit", table.game_id])
        assert audit.exit_code == 1, audit.output
        assert f"event {cut}: signer" in audit.output
        export = tmp_path / "game.ndjson"
        exported = runner.invoke(app, ["export", table.game_id, "-o", str(export)])
        assert exported.exit_code == 0, exported.output
        verify = runner.invoke(app, ["verify", str(export), "--public-key", key])
        assert verify.exit_code == 1, verify.output
        assert f"event {final}: checkpoint" in verify.output
        assert f"pins version {final}" in verify.output
