"""Live fan-out through NATS JetStream across 3 servers (``LEDGER_NATS_URL``).

A game is played through server 0; spectators stream it from all three,
from version 0 (catch-up from PostgreSQL, then live).  Every stream gets
every event exactly once, in order, and the same bytes on every server (the
same redaction, done by the serving process); servers 1 and 2, which record
none of the moves, serve live events from the JetStream tail (their
``ledger_stream_tail_events_total`` grows).  The servers share one signing
key, as a deployment does: records travel sealed with a key derived from it.
NATS runs on 127.0.0.1:4222.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import socket
import threading
import urllib.request

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection, create, play_one
from tests.faults.harness import serve_env
from tests.support.database import scratch_database
from tests.support.nats import setup_stream
from tests.support.scratch_postgres import free_port
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
NATS = "nats://127.0.0.1:4222"


def _nats_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 4222), 2) as s:
            return s.recv(4) == b"INFO"
    except OSError:
        return False


def _tail_events(port: int) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    for line in text.decode().splitlines():
        if line.startswith("ledger_stream_tail_events_total "):
            return float(line.split()[1])
    return 0.0


def test_streams_on_every_server_get_every_event_once(server_url, tmp_path):
    assert _nats_up(), "NATS with JetStream must answer on 127.0.0.1:4222"
    setup_stream(NATS)  # the admin's step (this NATS takes anonymous clients)
    with (
        scratch_database(server_url, "ledger_nats") as url,
        contextlib.ExitStack() as stack,
    ):
        metrics = [free_port() for _ in range(3)]
        signing_key = secrets.token_hex(32)
        servers = [
            stack.enter_context(
                ledger_serve(
                    serve_env(
                        url,
                        tmp_path / f"s{i}",
                        LEDGER_NATS_URL=NATS,
                        LEDGER_SIGNING_KEY=signing_key,
                        LEDGER_METRICS_PORT=str(metrics[i]),
                        LEDGER_PROJECTIONS="false",
                    )
                )
            )
            for i in range(3)
        ]
        conns = [Connection.open(s.target) for s in servers]
        table = create(conns[0], "thalara", players=2, characters=["myrja", "canto"])
        streams: list[list[pb.GameEvent]] = [[] for _ in range(6)]

        def follow(i: int) -> None:
            call = conns[i % 3].stub.StreamGameEvents(
                pb.StreamGameEventsRequest(game_id=table.game_id, after_version=0),
                timeout=120,
            )
            with contextlib.suppress(grpc.RpcError):
                for event in call:
                    streams[i].append(event)

        readers = [
            threading.Thread(target=follow, args=(i,), daemon=True) for i in range(6)
        ]
        for reader in readers:
            reader.start()
        wait_until(lambda: all(streams), "the streams did not catch up", 30)
        rnd = random.Random(4)
        for _ in range(12):
            assert play_one(conns[0], table, rnd) is not None
        head = (
            conns[0]
            .call("GetGame", pb.GetGameRequest(game_id=table.game_id))
            .game.version
        )
        wait_until(
            lambda: all(s and s[-1].version == head for s in streams),
            "a stream missed the live events",
            60,
        )
        served = [_tail_events(port) for port in metrics]
        for conn in conns:
            conn.channel.close()
    expected = list(range(1, head + 1))
    for stream in streams:
        assert [e.version for e in stream] == expected  # no gap, no duplicate
        assert [e.SerializeToString() for e in stream] == [
            e.SerializeToString() for e in streams[0]
        ]
    # servers 1 and 2 recorded no move: their live events came from JetStream
    assert served[1] > 0 and served[2] > 0, served


def test_a_server_whose_nats_is_unreachable_still_serves_streams(server_url, tmp_path):
    with scratch_database(server_url, "ledger_nonats") as url:
        env = serve_env(
            url,
            tmp_path,
            LEDGER_NATS_URL=f"nats://127.0.0.1:{free_port()}",
            LEDGER_SIGNING_KEY=secrets.token_hex(32),  # a server of several shares one
        )
        with ledger_serve(env) as served:
            conn = Connection.open(served.target)
            table = create(conn, "thalara", players=2, characters=["myrja", "canto"])
            assert play_one(conn, table, random.Random(2)) is not None
            events = list(
                conn.stub.StreamGameEvents(
                    pb.StreamGameEventsRequest(
                        game_id=table.game_id, stop_at_head=True
                    ),
                    timeout=30,
                )
            )
            head = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
            assert [e.version for e in events] == list(range(1, head.version + 1))
            conn.channel.close()
        # the reason, and it keeps trying (streams read PostgreSQL meanwhile)
        assert "NATS unreachable (ConnectionRefusedError" in served.output


def test_a_server_of_several_refuses_to_generate_its_own_signing_key(tmp_path):
    """With a bus, a server with no key configured or kept says so in one
    line and exits; it never makes a key of its own."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
        "LEDGER_DATA_DIR": str(tmp_path),
        "LEDGER_NATS_URL": NATS,
    }
    ledger = Path(sys.executable).with_name("ledger")
    done = subprocess.run(
        [str(ledger), "serve", "--listen", f"127.0.0.1:{free_port()}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "LEDGER_SIGNING_KEY_FILE" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "signing-key").exists()
