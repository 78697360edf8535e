"""Losing one node of the three-node NATS cluster under load costs nothing.

``deploy/local/up.sh`` with ``LEDGER_LOCAL_NATS=3``: three ledger servers,
three ``nats-server`` nodes (``deploy/nats/nats.conf``) and the stream in 3
replicas, made by the admin.  Clients play on every server; spectators
follow watched games on all three servers.  The node that leads the stream
is killed with ``kill -9`` mid-load.  Then:

- every spectator got every event of its game exactly once, in order;
- every server keeps serving live events from JetStream (its tail counter
  grows again once the stream has a leader again: the fan-out went on, it
  did not just fall back to PostgreSQL), and how long that took is reported;
- every event the watched games committed is in the stream once (published
  vs committed), and every acknowledged move is stored once and audits.

The servers' NATS user cannot purge the stream, and a server started while
NATS is down connects when it comes up (``test_sealed_fanout.py`` has the
reasons it logs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection, Table, create, play_one
from services.live.nats_stream import TAIL
from tests.deploy.shipped import BIN, DEPLOY, free_ports
from tests.faults.harness import FULL, SIZE, Figures, Load, check_ledger
from tests.support.database import scratch_database
from tests.support.server import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
WATCHED = 3
"""Games followed by a spectator on each of the three servers."""
BEFORE_KILL = 12
"""Moves each watched game makes before the node is killed (a 2-player
Thalara game lasts 60-110): the rest come after, so every server has events
to resume with however long the load took to reach the kill."""
NATS_PORT = 5
"""up.sh's cluster: clients on BASE+5..+7, monitoring on BASE+11..+13."""


def _tail_events(port: int) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    for line in text.decode().splitlines():
        if line.startswith("ledger_stream_tail_events_total "):
            return float(line.split()[1])
    return 0.0


def _ledger_clients(monitor: int) -> int:
    with urllib.request.urlopen(
        f"http://127.0.0.1:{monitor}/connz", timeout=5
    ) as answer:
        conns = json.load(answer).get("connections") or []
    return sum(1 for c in conns if c.get("name") == "ledger")


class Admin:
    """The NATS admin (``RUN_DIR/nats-admin-password``), on a loop of its own."""

    def __init__(self, urls: list[str], user: str, password: str) -> None:
        self.urls, self.user, self.password = urls, user, password

    def run(self, work: Any, within: float = 45.0) -> Any:
        """``work`` against JetStream, retried while the cluster cannot answer.

        Why retry: after a node dies, JetStream's API answers nothing until
        the meta group and the stream have elected leaders again (seconds,
        longer on a loaded machine).  What this test asserts is the events,
        not how fast an admin's request is answered meanwhile.
        """

        async def session() -> Any:
            import nats
            from nats.errors import NoRespondersError, TimeoutError

            nc = await nats.connect(
                self.urls, user=self.user, password=self.password, connect_timeout=3
            )
            try:
                deadline = time.monotonic() + within
                while True:
                    try:
                        return await work(nc.jetstream(timeout=5))
                    except (TimeoutError, NoRespondersError):
                        if time.monotonic() > deadline:
                            raise
                        await asyncio.sleep(1.0)
            finally:
                await nc.close()

        return asyncio.run(session())


class Spectator:
    """One live stream of one game on one server: the versions, as they come."""

    def __init__(self, target: str, game_id: str) -> None:
        self.channel = grpc.insecure_channel(target)
        self.versions: list[int] = []
        self.ended: grpc.StatusCode | None = None
        self._call = pb_stub(self.channel).StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=game_id, after_version=0)
        )
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        try:
            for event in self._call:
                self.versions.append(event.version)
        except grpc.RpcError as exc:
            self.ended = exc.code()

    def close(self) -> None:
        self._call.cancel()
        self._thread.join(10)
        self.channel.close()


def pb_stub(channel: grpc.Channel) -> Any:
    from ledger.v1 import game_service_pb2_grpc

    return game_service_pb2_grpc.GameServiceStub(channel)


class Watched:
    """A game played move by move through one server, and followed on all three."""

    def __init__(self, conn: Connection, targets: list[str], seed: int) -> None:
        self.conn, self.rnd = conn, random.Random(seed)
        self.table: Table = create(
            conn, "thalara", players=2, characters=["myrja", "canto"]
        )
        self.spectators = [Spectator(t, self.table.game_id) for t in targets]
        self.head = self.table.created.game.version if self.table.created else 0
        self.first_move_version: int | None = None
        self.over = False
        self.moves = 0
        self.spans: set[tuple[int, int]] = set()
        """(first_version, last_version) of each acknowledged move."""

    def move(self) -> None:
        if self.over:
            return
        answer = play_one(self.conn, self.table, self.rnd)
        if answer is None:
            self.over = True
            return
        if self.first_move_version is None:
            self.first_move_version = answer.first_version
        self.moves += 1
        self.head = answer.last_version
        self.spans.add((answer.first_version, answer.last_version))


def test_one_nats_node_lost_under_load_costs_no_event(server_url, tmp_path):
    size = replace(SIZE, clients=max(SIZE.clients, 4), moves=max(SIZE.moves, 240))
    figures = Figures("3 servers, 3 NATS nodes, kill -9 of one", size.clients)
    figures.fault_kind = "kill -9 of the NATS node leading the stream"
    run = tmp_path / "run"
    base = free_ports(18)
    metrics = base + 14
    with scratch_database(server_url, "ledger_natscluster") as url:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_BIN": str(BIN / "ledger"),
            "PYTHON": str(BIN / "python"),
            "LEDGER_POOL_SIZE": "3",
            "LEDGER_LOCAL_NATS": "3",
            "LEDGER_METRICS_PORT": str(metrics),
            "LEDGER_DRAIN_SECONDS": "5",
        }
        watched: list[Watched] = []
        try:
            up = subprocess.run(
                [str(DEPLOY / "local" / "up.sh"), str(run), str(base)],
                env=env,
                capture_output=True,
                text=True,
                timeout=240,
                check=False,
            )
            assert up.returncode == 0, up.stdout + up.stderr
            urls = [f"nats://127.0.0.1:{base + NATS_PORT + i}" for i in range(3)]
            assert f"nats: {','.join(urls)}" in up.stdout
            admin = Admin(
                urls, "admin", (run / "nats-admin-password").read_text().strip()
            )
            servers_user = Admin(
                urls, "ledger", (run / "nats-password").read_text().strip()
            )

            async def purge(js: Any) -> Any:
                return await js.purge_stream("LEDGER_GAMES")

            with pytest.raises(Exception):  # noqa: B017 - a permissions violation: nats-py times out
                servers_user.run(purge, within=0)

            targets = [f"127.0.0.1:{base + i}" for i in range(3)]
            conns = [Connection.open(t) for t in targets]
            watched = [Watched(conns[i % 3], targets, seed=i) for i in range(WATCHED)]
            load = Load(",".join(targets), size, seed=23)
            load.start()

            stop_playing = threading.Event()
            node_killed = threading.Event()
            errors: list[BaseException] = []

            def play() -> None:
                # until the kill, each watched game makes a few moves only: a
                # game that ended before the election could show no resumption
                try:
                    while not stop_playing.is_set() and not all(
                        g.over for g in watched
                    ):
                        for game in watched:
                            if node_killed.is_set() or game.moves < BEFORE_KILL:
                                game.move()
                        time.sleep(0.05)
                except BaseException as exc:  # noqa: BLE001 - re-raised below
                    errors.append(exc)

            player = threading.Thread(target=play, daemon=True)
            player.start()
            load.wait_for(size.moves // 3)
            tails = [_tail_events(metrics + i) for i in range(3)]
            assert all(tails), f"a server served nothing from JetStream: {tails}"

            async def leader(js: Any) -> str:
                info = await js.stream_info("LEDGER_GAMES")
                return str(info.cluster.leader)

            victim = admin.run(leader)
            node = int(victim.rsplit("-", 1)[1])
            clients_on_victim = _ledger_clients(base + 10 + node)
            killed = time.monotonic()
            os.kill(int((run / f"nats-{node}.pid").read_text()), signal.SIGKILL)
            node_killed.set()
            figures.faults += 1
            elected: list[float] = []

            def election() -> None:
                # events served before the stream has a leader again were
                # published before the kill: only what comes after counts
                try:
                    while admin.run(leader, within=60) == victim:
                        time.sleep(0.2)
                    elected.append(time.monotonic() - killed)
                except BaseException as exc:  # noqa: BLE001 - re-raised below
                    errors.append(exc)

            threading.Thread(target=election, daemon=True).start()
            resumed: dict[int, float] = {}
            since: list[float] = []
            while len(resumed) < 3 and time.monotonic() - killed < 60 and not errors:
                if not since and elected:
                    since = [_tail_events(metrics + i) for i in range(3)]
                for i in range(3 if since else 0):
                    if i not in resumed and _tail_events(metrics + i) > since[i]:
                        resumed[i] = time.monotonic() - killed
                time.sleep(0.1)
            assert not errors, errors
            assert elected, "the stream had no leader again within 60 s"
            figures.extra["seconds_to_stream_leader"] = round(elected[0], 2)
            figures.extra["resumed_servers"] = len(resumed)
            if FULL:  # under a whole suite's load, not every run resumes in time
                assert len(resumed) == 3, f"JetStream fan-out did not resume: {resumed}"
            load.finish()
            time.sleep(1.0)  # a few more watched moves on the two nodes left
            stop_playing.set()
            player.join(60)
            assert not errors, errors
            wait_until(
                lambda: all(
                    s.versions and s.versions[-1] == g.head
                    for g in watched
                    for s in g.spectators
                ),
                "a spectator missed an event",
                60,
            )
            new_leader = admin.run(leader)

            async def published(js: Any) -> dict[str, list[int]]:
                return await _published_versions(
                    js, run, [g.table.game_id for g in watched]
                )

            in_stream = admin.run(published)
            _acknowledge(url, load, watched)
            check_ledger(url, load, figures)
            for conn in conns:
                conn.channel.close()
        finally:
            for game in watched:
                for spectator in game.spectators:
                    spectator.close()
            subprocess.run(
                [str(DEPLOY / "local" / "down.sh"), str(run)], timeout=120, check=False
            )

    events = sum(g.head for g in watched)
    received = [s.versions for g in watched for s in g.spectators]
    gaps = doubles = 0
    for game in watched:
        for spectator in game.spectators:
            expected = list(range(1, game.head + 1))
            doubles += len(spectator.versions) - len(set(spectator.versions))
            gaps += len(set(expected) - set(spectator.versions))
    moved = {
        g.table.game_id: set(range(g.first_move_version or 1, g.head + 1))
        for g in watched
    }
    # the stream keeps each game's last TAIL messages (by arrival: events
    # published late, after the election, may push out newer ones)
    missing_in_stream = sum(
        min(TAIL, len(versions)) - len(versions & set(in_stream.get(game_id, [])))
        for game_id, versions in moved.items()
    )
    strangers_in_stream = sum(
        len(set(in_stream.get(game_id, [])) - versions)
        for game_id, versions in moved.items()
    )
    doubled_in_stream = sum(len(v) - len(set(v)) for v in in_stream.values())
    figures.extra.update(
        killed_node=victim,
        new_stream_leader=new_leader,
        ledger_clients_on_killed_node=clients_on_victim,
        watched_events=events,
        spectator_streams=len(received),
        events_received_by_spectators=sum(len(v) for v in received),
        spectator_gaps=gaps,
        spectator_doubles=doubles,
        moved_events=sum(len(v) for v in moved.values()),
        published_in_stream=sum(len(v) for v in in_stream.values()),
        missing_in_stream=missing_in_stream,
        published_after_the_election=sum(
            int(n)
            for i in range(3)
            for n in re.findall(
                r"published (\d+) events kept", (run / f"serve-{i}.log").read_text()
            )
        ),
        doubled_in_stream=doubled_in_stream,
        seconds_to_resume_per_server={
            i: round(t, 2) for i, t in sorted(resumed.items())
        },
    )
    figures.publish()
    assert new_leader != victim
    assert gaps == 0 and doubles == 0
    for game in watched:
        for spectator in game.spectators:
            assert spectator.versions == list(range(1, game.head + 1))
    assert doubled_in_stream == 0
    assert missing_in_stream == 0 and strangers_in_stream == 0, in_stream
    assert figures.moves_lost == 0 and figures.duplicates == 0
    assert figures.games_audited_ok == figures.games > 0
    for i in range(3):
        log = (run / f"serve-{i}.log").read_text()
        assert "Traceback" not in log, log[-3000:]


async def _published_versions(
    js: Any, run: Path, games: list[str]
) -> dict[str, list[int]]:
    """Each watched game's versions in the stream, opened with the deployment's key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from domain.ledger.receipts import Signer
    from services.live.sealed_records import PURPOSE, RecordSeal

    key = bytes.fromhex((run / "signing-key").read_text().strip())
    seal = RecordSeal(
        Signer(Ed25519PrivateKey.from_private_bytes(key)).derive_key(PURPOSE)
    )
    found: dict[str, list[int]] = {}
    info = await js.stream_info("LEDGER_GAMES")
    by_subject = {seal.subject(g): g for g in games}
    for seq in range(info.state.first_seq, info.state.last_seq + 1):
        with contextlib.suppress(Exception):  # a sequence the stream no longer has
            msg = await js.get_msg("LEDGER_GAMES", seq)
            game_id = by_subject.get(msg.subject)
            if game_id is not None:
                version, _, _ = seal.open(game_id, msg.data)
                found.setdefault(game_id, []).append(version)
    return found


def _acknowledge(url: str, load: Load, watched: list[Watched]) -> None:
    """Hand the watched games' acknowledged moves to ``load``, whose check
    counts any stored move no client was answered for as a duplicate."""
    import psycopg

    with psycopg.connect(url) as db:
        for game in watched:
            load.games[game.table.game_id] = game.table.created.game.version  # type: ignore[union-attr]
            for command_id, first, last in db.execute(
                "SELECT command_id, first_version, last_version FROM ledger_commands"
                " WHERE game_id = %s",
                (game.table.game_id,),
            ):
                if (first, last) in game.spans:
                    load.acks[(game.table.game_id, command_id)] = (first, last)
