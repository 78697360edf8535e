"""Live fan-out through a NATS that requires credentials, survives restarts and cannot lie.

Each test starts its own ``nats-server`` (JetStream on file storage, a user
and password required) and two ``ledger serve`` processes sharing one
signing key: A records the moves, B serves spectators from the JetStream
tail.

- Nobody without credentials connects; a bus reader with them sees neither
  a record nor a nonce in clear.
- The forged publish (an earlier move's bytes relabelled as the next
  version, with the message id the ledger would use, which makes JetStream
  drop the genuine publish as a duplicate) never reaches a spectator: B
  rejects it with one log line and serves that version from PostgreSQL.  So
  are the same bytes in clear, and, sealed with the deployment's key as a
  compromised server could, an earlier record as a later version (the hash
  chain catches that one).
- NATS restarted mid-game, even with its store lost: B's streams keep every
  event (from PostgreSQL meanwhile), fan-out through the tail comes back by
  itself, each state
  change is one log line and no traceback; SIGTERM while NATS is down exits 0.
- NATS over TLS (certificates made here with ``cryptography``): a server
  given the CA (``LEDGER_NATS_TLS_CA``) fans out through it; one without it
  refuses the certificate, says so and streams from PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.ledger.receipts import Signer
from domain.ledger.records import load
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection, create, play_one
from services.live.nats_tail import STREAM
from services.live.sealed_records import PURPOSE, RecordSeal
from tests.faults.harness import serve_env
from tests.support.database import scratch_database
from tests.support.nats import setup_stream
from tests.support.scratch_postgres import free_port
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
USER, PASSWORD = "ledger", secrets.token_urlsafe(16)


@contextlib.contextmanager
def nats_server(store: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """Our own JetStream server on ``port``, requiring USER/PASSWORD."""
    process = subprocess.Popen(
        ["nats-server", "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", str(store)]
        + ["--user", USER, "--pass", PASSWORD],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: _answers(port), "nats-server did not start", 30)
        setup_stream(f"nats://127.0.0.1:{port}", USER, PASSWORD)  # the admin's step
        yield process
    finally:
        process.terminate()
        process.wait(10)


def _answers(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), 1) as s:
            return s.recv(4) == b"INFO"
    except OSError:
        return False


def _tail_events(port: int) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    for line in text.decode().splitlines():
        if line.startswith("ledger_stream_tail_events_total "):
            return float(line.split()[1])
    return 0.0


class Spectator:
    """A credential-less StreamGameEvents from version 0, in a thread."""

    def __init__(self, conn: Connection, game_id: str) -> None:
        self.events: list[pb.GameEvent] = []
        self._call = conn.stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=game_id, after_version=0), timeout=300
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(grpc.RpcError):
            for event in self._call:
                self.events.append(event)

    def at(self, version: int) -> bool:
        return bool(self.events) and self.events[-1].version >= version

    def close(self) -> None:
        self._call.cancel()


class Bus:
    """A NATS client on its own loop: the attacker (with credentials) in these tests."""

    def __init__(self, url: str, **credentials: Any) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.credentials = credentials
        self.url = url
        self.nc: Any = None

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def connect(self) -> None:
        import nats

        async def go() -> Any:
            return await nats.connect(
                self.url,
                allow_reconnect=False,
                max_reconnect_attempts=0,
                connect_timeout=3,
                error_cb=_quiet,
                **self.credentials,
            )

        self.nc = self.run(go())

    def stored(self, subject: str) -> list[Any]:
        """Every message JetStream holds on ``subject`` (what a consumer gets)."""

        async def go() -> list[Any]:
            js = self.nc.jetstream()
            info = await js.stream_info(STREAM)
            out = []
            for seq in range(info.state.first_seq, info.state.last_seq + 1):
                with contextlib.suppress(Exception):
                    msg = await js.get_msg(STREAM, seq)
                    if msg.subject == subject:
                        out.append(msg)
            return out

        return list(self.run(go()))

    def publish(self, subject: str, data: bytes, headers: dict[str, str]) -> Any:
        return self.run(self.nc.jetstream().publish(subject, data, headers=headers))

    def close(self) -> None:
        if self.nc is not None:
            self.run(self.nc.close())
        self.loop.call_soon_threadsafe(self.loop.stop)


async def _quiet(exc: Exception) -> None:
    pass


def _servers(
    url: str, tmp_path: Path, nats_url: str, key: str, count: int = 2
) -> list[dict[str, str]]:
    return [
        serve_env(
            url,
            tmp_path / f"s{i}",
            LEDGER_NATS_URL=nats_url,
            LEDGER_NATS_USER=USER,
            LEDGER_NATS_PASSWORD=PASSWORD,
            LEDGER_SIGNING_KEY=key,
            LEDGER_PROJECTIONS="false",
            LEDGER_METRICS_PORT=str(free_port()),
        )
        for i in range(count)
    ]


def test_a_forged_publish_never_reaches_a_spectator(server_url, tmp_path):
    key = secrets.token_hex(32)
    port = free_port()
    nats_url = f"nats://127.0.0.1:{port}"
    seal = RecordSeal(
        Signer(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(key))).derive_key(
            PURPOSE
        )
    )
    with (
        nats_server(tmp_path / "nats", port),
        scratch_database(server_url, "ledger_sealed") as url,
        contextlib.ExitStack() as stack,
    ):
        stranger = Bus(nats_url)
        with pytest.raises(Exception, match="Authorization Violation"):
            stranger.connect()
        stranger.close()
        a, b = (
            stack.enter_context(ledger_serve(env))
            for env in _servers(url, tmp_path, nats_url, key)
        )
        conn_a, conn_b = Connection.open(a.target), Connection.open(b.target)
        table = create(conn_a, "thalara", players=2, characters=["myrja", "canto"])
        watched = Spectator(conn_b, table.game_id)
        reference = Spectator(conn_a, table.game_id)
        wait_until(lambda: watched.at(1), "the stream did not start", 30)
        rnd = random.Random(7)
        for _ in range(4):
            assert play_one(conn_a, table, rnd) is not None
        head = conn_a.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id)
        ).game.version
        wait_until(lambda: watched.at(head), "B's spectator missed live events", 60)

        insider = Bus(nats_url, user=USER, password=PASSWORD)
        insider.connect()
        subject = seal.subject(table.game_id)
        on_bus = insider.stored(subject)
        assert on_bus, "nothing was published"
        # nothing in clear: no record, no nonce, no game id; only the opaque message id
        with psycopg_connect(url) as db:
            rows = db.execute(
                "SELECT originator_version, state FROM ledger_events WHERE originator_id = %s",
                (table.game_id,),
            ).fetchall()
            topics = db.execute(
                "SELECT originator_version, topic FROM ledger_events WHERE originator_id = %s",
                (table.game_id,),
            ).fetchall()
        secrets_in_records = [bytes(state) for _, state in rows] + [
            load(bytes(state))["nonce"].encode() for _, state in rows
        ]
        for msg in on_bus:
            assert table.game_id not in msg.subject
            assert set(msg.headers) == {"Nats-Msg-Id"}
            assert not any(s in msg.data for s in secrets_in_records)

        # the attack: move 1's bytes as the next version, with the ledger's message id
        forged_id = seal.message_id(table.game_id, head + 1)
        cleartext_id = seal.message_id(table.game_id, head + 2)
        insider.publish(subject, on_bus[0].data, {"Nats-Msg-Id": forged_id})
        # and the same in clear, as the ledger used to publish
        stored_one = {v: bytes(s) for v, s in rows}[1]
        insider.publish(
            subject,
            stored_one,
            {
                "Nats-Msg-Id": cleartext_id,
                "Ledger-Version": str(head + 2),
            },
        )
        answer = None
        while answer is None or answer.last_version < head + 2:
            answer = play_one(conn_a, table, rnd)
            assert answer is not None, "the game ended too soon for the test"
        head = answer.last_version
        wait_until(lambda: watched.at(head), "B's spectator missed forged versions", 60)
        # and, as a holder of the deployment's key would (a compromised server),
        # move 1's record sealed as the next version: only the hash chain tells
        chained_id = seal.message_id(table.game_id, head + 1)
        insider.publish(
            subject,
            seal.seal(table.game_id, head + 1, dict(topics)[1], stored_one),
            {"Nats-Msg-Id": chained_id},
        )
        answer = play_one(conn_a, table, rnd)
        assert answer is not None, "the game ended too soon for the test"
        new_head = answer.last_version
        wait_until(lambda: watched.at(new_head), "B's spectator missed events", 60)
        wait_until(lambda: reference.at(new_head), "A's spectator missed events", 60)
        held = insider.stored(subject)
        insider.close()
        watched.close()
        reference.close()
        forged_ids = [forged_id, cleartext_id, chained_id]
        forged = [m for m in held if m.headers["Nats-Msg-Id"] in forged_ids]
        # JetStream kept the three forgeries and dropped the genuine publishes
        assert [m.headers["Nats-Msg-Id"] for m in forged] == forged_ids
        assert [m.data for m in forged][:2] == [on_bus[0].data, stored_one]
    # what B's spectator saw is what A's saw (A recorded the moves), byte for byte
    assert [e.version for e in watched.events] == list(
        range(1, len(watched.events) + 1)
    )
    assert [e.SerializeToString() for e in watched.events[:new_head]] == [
        e.SerializeToString() for e in reference.events[:new_head]
    ]
    rejected = [line for line in b.output.splitlines() if "rejected" in line]
    assert len(rejected) == 3, b.output
    assert "its message id names another event" in rejected[0]
    assert "not sealed with this deployment's key" in rejected[1]
    assert "does not hash to the hash it claims" in rejected[2]
    assert "Traceback" not in b.output


def psycopg_connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url)


def test_fan_out_recovers_from_a_nats_restart_and_stops_cleanly_without_it(
    server_url, tmp_path
):
    key = secrets.token_hex(32)
    port = free_port()
    nats_url = f"nats://127.0.0.1:{port}"
    with (
        scratch_database(server_url, "ledger_natsrestart") as url,
        contextlib.ExitStack() as stack,
    ):
        envs = _servers(url, tmp_path, nats_url, key)
        metrics_b = int(envs[1]["LEDGER_METRICS_PORT"])
        nats = stack.enter_context(nats_server(tmp_path / "nats", port))
        a = stack.enter_context(ledger_serve(envs[0]))
        b_cm = ledger_serve(envs[1])
        b = b_cm.__enter__()
        try:
            conn_a, conn_b = Connection.open(a.target), Connection.open(b.target)
            table = create(conn_a, "thalara", players=2, characters=["myrja", "canto"])
            watched = Spectator(conn_b, table.game_id)
            wait_until(lambda: watched.at(1), "the stream did not start", 30)
            rnd = random.Random(9)

            def move() -> int:
                answer = play_one(conn_a, table, rnd)
                assert answer is not None, "the game ended too soon for the test"
                wait_until(
                    lambda: watched.at(answer.last_version),
                    "B's spectator missed an event",
                    60,
                )
                return answer.last_version

            move()
            before = _tail_events(metrics_b)
            move()
            wait_until(
                lambda: _tail_events(metrics_b) > before,
                "B served nothing from JetStream",
                30,
            )

            nats.terminate()
            nats.wait(10)
            for _ in range(3):  # NATS down: every event still arrives, from PostgreSQL
                move()
            # back with an empty store, as a NATS that lost its disk: the admin
            # makes the stream again (the fixture does; a restart on the same
            # store keeps it), and the servers pick it up by themselves
            stack.enter_context(nats_server(tmp_path / "nats-empty", port))
            restarted = time.monotonic()
            served = _tail_events(metrics_b)
            recovered = None
            for _ in range(60):
                move()
                if _tail_events(metrics_b) > served:
                    recovered = time.monotonic() - restarted
                    break
                time.sleep(0.5)
            assert recovered is not None, "fan-out through JetStream did not come back"
            print(f"\nfan-out recovered {recovered:.1f} s after NATS came back")

            # NATS down again, then SIGTERM: a clean exit
            stack.close()  # stops NATS (and A)
            time.sleep(1.5)  # let B notice; no assertion rests on it
            watched.close()
        finally:
            b_cm.__exit__(None, None, None)
    assert b.proc.returncode == 0, b.output
    assert "Traceback" not in b.output, b.output
    lost = [line for line in b.output.splitlines() if "NATS connection lost" in line]
    back = [line for line in b.output.splitlines() if "NATS connection back" in line]
    assert len(lost) == 2 and len(back) == 1, b.output


def _certificates(where: Path) -> tuple[Path, Path, Path]:
    """A CA and a certificate for 127.0.0.1 it signed (``cryptography``): ca, cert, key."""
    from datetime import UTC, datetime, timedelta
    from ipaddress import ip_address

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.now(UTC)

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("ledger test CA"))
        .issuer_name(name("ledger test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = where / "ca.pem", where / "nats.pem", where / "nats-key.pem"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths


def test_servers_reach_nats_over_tls_and_refuse_a_certificate_they_do_not_trust(
    server_url, tmp_path
):
    ca, cert, key = _certificates(tmp_path)
    port = free_port()
    nats_url = f"nats://127.0.0.1:{port}"
    process = subprocess.Popen(
        ["nats-server", "-a", "127.0.0.1", "-p", str(port), "-js", "-sd"]
        + [str(tmp_path / "nats"), "--user", USER, "--pass", PASSWORD]
        + ["--tls", "--tlscert", str(cert), "--tlskey", str(key)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: _answers(port), "nats-server did not start", 30)
        setup_stream(nats_url, USER, PASSWORD, tls_ca=ca)
        signing_key = secrets.token_hex(32)
        with scratch_database(server_url, "ledger_natstls") as url:
            envs = _servers(url, tmp_path, nats_url, signing_key, count=3)
            envs[1]["LEDGER_NATS_TLS_CA"] = envs[2]["LEDGER_NATS_TLS_CA"] = str(ca)
            metrics = int(envs[1]["LEDGER_METRICS_PORT"])
            # A trusts no CA for NATS: the handshake fails, it serves in-process
            with ledger_serve(envs[0]) as a, ledger_serve(envs[1]) as b:
                conn_a, conn_b = Connection.open(a.target), Connection.open(b.target)
                with ledger_serve(envs[2]) as trusted:
                    conn_t = Connection.open(trusted.target)
                    table = create(
                        conn_t, "thalara", players=2, characters=["myrja", "canto"]
                    )
                    watched = Spectator(conn_b, table.game_id)
                    wait_until(lambda: watched.at(1), "the stream did not start", 30)
                    rnd = random.Random(5)
                    for _ in range(3):
                        moved = play_one(conn_t, table, rnd)
                        assert moved is not None
                        wait_until(
                            lambda v=moved.last_version: watched.at(v),
                            "B's spectator missed an event",
                            60,
                        )
                    # B took them from JetStream, over TLS
                    wait_until(
                        lambda: _tail_events(metrics) > 0,
                        "nothing came through NATS",
                        30,
                    )
                    watched.close()
                    conn_t.channel.close()
                conn_a.channel.close()
                conn_b.channel.close()
    finally:
        process.terminate()
        process.wait(10)
    # A says why, and keeps trying (streams read PostgreSQL meanwhile)
    assert "NATS unreachable (" in a.output, a.output
    assert "CERTIFICATE_VERIFY_FAILED" in a.output, a.output
    assert "Traceback" not in b.output


def test_a_server_started_before_nats_connects_when_it_comes_up(server_url, tmp_path):
    """NATS as shipped (``deploy/nats/single.conf``: the servers' user and the
    admin) comes up after the servers: each failure is logged with its reason
    (refused connection, then a wrong password), and a server with the right
    password connects by itself and fans out through JetStream."""
    from tests.deploy.shipped import DEPLOY

    key = secrets.token_hex(32)
    port = free_port()
    nats_url = f"nats://127.0.0.1:{port}"
    admin_password = "n" + secrets.token_hex(16)
    servers_password = "n" + secrets.token_hex(16)
    with (
        scratch_database(server_url, "ledger_natslate") as url,
        contextlib.ExitStack() as stack,
    ):
        envs = _servers(url, tmp_path, nats_url, key, count=3)
        envs[0]["LEDGER_NATS_PASSWORD"] = envs[1]["LEDGER_NATS_PASSWORD"] = (
            servers_password
        )
        envs[2]["LEDGER_NATS_PASSWORD"] = "n" + secrets.token_hex(16)  # wrong
        metrics_b = int(envs[1]["LEDGER_METRICS_PORT"])
        b = stack.enter_context(ledger_serve(envs[1]))  # NATS is down
        wrong = stack.enter_context(ledger_serve(envs[2]))
        wait_until(lambda: "NATS unreachable (" in _so_far(b), "B said nothing", 30)
        nats = subprocess.Popen(
            ["/usr/sbin/nats-server", "-c", str(DEPLOY / "nats" / "single.conf")],
            env={
                "NATS_LISTEN": f"127.0.0.1:{port}",
                "NATS_STORE_DIR": str(tmp_path / "nats"),
                "LEDGER_NATS_PASSWORD": servers_password,
                "LEDGER_NATS_ADMIN_PASSWORD": admin_password,
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        stack.callback(nats.wait, 10)
        stack.callback(nats.terminate)
        wait_until(lambda: _answers(port), "nats-server did not start", 30)
        setup_stream(nats_url, "admin", admin_password)
        wait_until(lambda: "NATS connected" in _so_far(b), "B never connected", 30)
        a = stack.enter_context(ledger_serve(envs[0]))
        conn_a, conn_b = Connection.open(a.target), Connection.open(b.target)
        table = create(conn_a, "thalara", players=2, characters=["myrja", "canto"])
        watched = Spectator(conn_b, table.game_id)
        wait_until(lambda: watched.at(1), "the stream did not start", 30)
        rnd = random.Random(3)
        for _ in range(4):
            answer = play_one(conn_a, table, rnd)
            assert answer is not None
            wait_until(lambda v=answer.last_version: watched.at(v), "B missed one", 60)
        wait_until(lambda: _tail_events(metrics_b) > 0, "nothing came through NATS", 30)
        wait_until(
            lambda: "Authorization Violation" in _so_far(wrong),
            "the wrong password was not named",
            30,
        )
        watched.close()
        conn_a.channel.close()
        conn_b.channel.close()
    unreachable = [line for line in b.output.splitlines() if "NATS unreachable" in line]
    assert "ConnectionRefusedError" in unreachable[0], b.output
    assert len(unreachable) <= 2, b.output  # once per reason, not once a second
    assert "NATS connected" not in wrong.output, wrong.output
    assert "Traceback" not in b.output + wrong.output


def _so_far(served: Any) -> str:
    """What a running server has printed so far."""
    return "".join(served.lines)
