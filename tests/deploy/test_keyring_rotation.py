"""One signing identity per deployment, rotated under load.

``deploy/local/up.sh`` starts 3 servers sharing one receipt key.  While
clients play, each server in turn is stopped and started again with a new
key, the old one kept in ``LEDGER_KEYRING`` with the window it signed in.
Games that were running span the rotation: their receipts come from both
keys.  Every game then audits OK against the keyring (receipts included),
``GetLedgerKey`` lists both keys, and ``ledger audit`` says OK for a game
that spans the rotation; with the new key alone, the old receipts fail.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest

from domain.ledger.receipts import Keyring
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection
from services.ledger.audit import audit_game
from services.runtime.bootstrap import build_ledger
from services.runtime.settings import Settings
from services.storage.signing_key import load_signer
from tests.deploy.test_local_scale_out import LOCAL, _free_base
from tests.faults.harness import SIZE, Figures, Load, Size
from tests.support.database import scratch_database
from tests.support.server import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def _environ(pid: int) -> dict[str, str]:
    """A running server's exact environment, to start it again the same way."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


def _serving(target: str) -> bool:
    try:
        Connection.open(target).call(
            "GetLedgerKey", pb.GetLedgerKeyRequest(), None, timeout=1
        )
    except grpc.RpcError:
        return False
    return True


def _restart_with(run: Path, index: int, target: str, changes: dict[str, str]) -> None:
    """Stop serve-``index`` and start it again with ``changes`` to its environment.

    ``kill -9``: clients resend on UNAVAILABLE; the graceful drain on
    SIGTERM has its own test.
    """
    pid = int((run / f"serve-{index}.pid").read_text())
    env = {**_environ(pid), **changes}
    command = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
    os.kill(pid, signal.SIGKILL)
    wait_until(
        lambda: not Path(f"/proc/{pid}").exists() or _zombie(pid), "server stopped", 60
    )
    log = open(run / f"serve-{index}.log", "ab")  # noqa: SIM115 - the server owns it now
    process = subprocess.Popen(
        [c.decode() for c in command],
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    (run / f"serve-{index}.pid").write_text(f"{process.pid}\n")
    wait_until(
        lambda: _serving(target) or process.poll() is not None,
        f"serve-{index} did not come back",
        120,
        lambda: (run / f"serve-{index}.log").read_text(errors="replace")[-3000:],
    )
    assert process.poll() is None, (run / f"serve-{index}.log").read_text()[-3000:]


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


def test_three_servers_one_keyring_audit_ok_across_a_rotation(server_url, tmp_path):
    figures = Figures(
        "3 servers, signing-key rotation", SIZE.clients, fault_kind="rotation"
    )
    run = tmp_path / "run"
    with scratch_database(server_url, "ledger_keyring") as url:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_BIN": str(Path(sys.executable).with_name("ledger")),
            "PYTHON": sys.executable,
            "LEDGER_POOL_SIZE": "3",
            "LEDGER_HEALTH_INTERVAL": "0.5",
        }
        base = _free_base(5)
        targets = [f"127.0.0.1:{base + i}" for i in range(3)]
        try:
            up = subprocess.run(
                [str(LOCAL / "up.sh"), str(run), str(base)],
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
                check=False,
            )
            assert up.returncode == 0, up.stdout + up.stderr
            old = load_signer(None, tmp_path, run / "signing-key")
            first = [
                Connection.open(t).call("GetLedgerKey", pb.GetLedgerKeyRequest(), None)
                for t in targets
            ]
            assert {k.key_id for k in first} == {old.key_id}  # one identity, not three

            # played until stopped: the rotation must land mid-game, whatever its pace
            load = Load(",".join(targets), Size(SIZE.clients, 10**9, 0), seed=11)
            load.start()
            load.wait_for(SIZE.moves // 3)
            rotated_at = datetime.now(UTC)
            new_file = run / "signing-key.next"
            new_file.write_text(secrets.token_hex(32) + "\n")
            new = load_signer(None, tmp_path, new_file)
            retire_by = rotated_at + timedelta(
                minutes=10
            )  # every server rotated by then
            ring_setting = json.dumps(
                [
                    {
                        "public_key": old.public_key.hex(),
                        "not_after": retire_by.isoformat(),
                    }
                ]
            )
            for index, target in enumerate(targets):
                _restart_with(
                    run,
                    index,
                    target,
                    {
                        "LEDGER_SIGNING_KEY_FILE": str(new_file),
                        "LEDGER_KEYRING": ring_setting,
                    },
                )
                figures.faults += 1
            listed = Connection.open(targets[1]).call(
                "GetLedgerKey", pb.GetLedgerKeyRequest(), None
            )
            load.wait_for(load.moves + SIZE.moves // 3)  # and more moves after it
            load.stop()
        finally:
            subprocess.run([str(LOCAL / "down.sh"), str(run)], timeout=60, check=False)

        assert listed.key_id == new.key_id
        assert [(k.key_id, k.signing) for k in listed.keys] == [
            (new.key_id, True),
            (old.key_id, False),
        ]
        assert listed.keys[1].not_after.ToDatetime(UTC) == retire_by
        assert not listed.keys[0].HasField("not_after")

        settings = Settings(
            database_url=url,
            pool_size=2,
            signing_key_file=new_file,
            keyring=ring_setting,
            data_dir=tmp_path / "auditor",
        )
        ledger = build_ledger(settings, url)
        try:
            games = [uuid.UUID(g) for g in load.games]
            reports = {g: audit_game(ledger, g) for g in games}
            signed_by = {
                g: {r.key_id for r in ledger.stored_receipts(g)} for g in games
            }
            new_only = {
                g: audit_game(ledger, g, keys=Keyring.of(new.public_key)) for g in games
            }
        finally:
            ledger.close()
        spanning = [
            g for g, ids in signed_by.items() if ids == {old.key_id, new.key_id}
        ]
        assert spanning, signed_by  # the rotation happened mid-game
        # the CLI, as an operator runs it, with the deployment's settings
        cli = subprocess.run(
            [str(Path(sys.executable).with_name("ledger")), "audit", str(spanning[0])],
            env={
                **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
                "LEDGER_DATABASE_URL": url,
                "LEDGER_SIGNING_KEY_FILE": str(new_file),
                "LEDGER_KEYRING": ring_setting,
                "LEDGER_DATA_DIR": str(tmp_path / "auditor"),
            },
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert cli.returncode == 0, cli.stdout + cli.stderr
        assert "OK" in cli.stdout
        # an export carries the keyring: `ledger verify` checks it offline
        exported = tmp_path / "spanning.ndjson"
        ledger_cli = [str(Path(sys.executable).with_name("ledger"))]
        run_env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_SIGNING_KEY_FILE": str(new_file),
            "LEDGER_KEYRING": ring_setting,
            "LEDGER_DATA_DIR": str(tmp_path / "auditor"),
        }
        subprocess.run(
            [*ledger_cli, "export", str(spanning[0]), "-o", str(exported)],
            env=run_env,
            check=True,
            timeout=120,
            capture_output=True,
        )
        verified = {}
        for name, pins in {
            "from the export": [],
            "both pinned": [new.public_key.hex(), old.public_key.hex()],
            "new key only": [new.public_key.hex()],
        }.items():
            flags = [f for key in pins for f in ("--public-key", key)]
            verified[name] = subprocess.run(
                [*ledger_cli, "verify", str(exported), *flags],
                env=run_env,
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            ).returncode
        assert verified == {"from the export": 0, "both pinned": 0, "new key only": 1}
    figures.games = len(games)
    figures.games_audited_ok = sum(r.ok for r in reports.values())
    figures.moves = load.moves
    figures.retried_answers = dict(load.answers)
    figures.extra["failovers"] = sum(c.failovers for c in load.connections)
    figures.extra["games_spanning_rotation"] = len(spanning)
    figures.extra["receipts_checked"] = sum(
        r.receipts_verified for r in reports.values()
    )
    figures.extra["games_failing_with_new_key_only"] = sum(
        not r.ok for r in new_only.values()
    )
    figures.publish()
    assert figures.games_audited_ok == figures.games > 0, [
        str(r) for r in reports.values() if not r.ok
    ][:3]
    assert all(ids <= {old.key_id, new.key_id} for ids in signed_by.values())
    # the keyring is what makes them pass: the new key alone refuses the old receipts
    for game in spanning:
        assert not new_only[game].ok
        assert "not in the keyring" in str(new_only[game])
