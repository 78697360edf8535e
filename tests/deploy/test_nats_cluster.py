"""Losing one node of the three-node NATS cluster under load costs nothing.

``deploy/local/up.sh`` with ``LEDGER_LOCAL_NATS=3``: three ledger servers,
three ``nats-server`` nodes (``deploy/nats/nats.conf``) and the stream in 3
replicas, made by the admin.  Clients play on every server; spectators
follow watched games on all three servers.  The node that leads the stream
is killed with ``kill -9`` mid-load.  Then:

- every spectator got every event of its game exactly once, in order;
- every server keeps serving live events from JetStream (its tail counter
  grows again within 30 s of the stream's new leader: the fan-out went
  on, it did not just fall back to PostgreSQL), and how long that took is
  reported; the watched games move once a second from the kill until then,
  so they still make events when the consumers are back.  A server that
  does not resume is reported with what its consumers delivered
  (``ledger_stream_tail_received_total``), what its streams took from them
  and its log lines about NATS;
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
from tests.faults.harness import SIZE, Figures, Load, check_ledger
from tests.support.database import scratch_database
from tests.support.server import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
WATCHED = 3
"""Games followed by a spectator on each of the three servers."""
BEFORE_KILL = 12
"""Moves each watched game makes before the node is killed (a 2-player
Thalara game lasts 60-110): the rest come after, so every server has events
to resume with however long the load took to reach the kill."""
DURING = 6
"""Moves each watched game makes between the kill and the stream's new
leader (committed while the stream cannot take them: published late)."""
PACE = 1.0
"""Seconds between two moves of a watched game from the kill until every
server serves from JetStream again.

Why: played as fast as the servers answer, the watched games end 10-14 s
after the kill, about when the stream has its new leader, and a server
whose consumers come back a few seconds later has nothing left to show its
resumption with.  One move a second leaves 40 s of moves or more after
the leader (a game makes 18 of its 60 or more before it), more than
:data:`RESUME_WITHIN`."""
NATS_PORT = 5
"""up.sh's cluster: clients on BASE+5..+7, monitoring on BASE+11..+13."""


SERVED = "ledger_stream_tail_events_total"
"""Events a server's streams took from its JetStream tail."""
RECEIVED = "ledger_stream_tail_received_total"
"""Records a server's JetStream consumers delivered, in time or late."""
RESUME_WITHIN = 30.0
"""Seconds after the stream's new leader within which every server serves
from JetStream again (0.4-6 s measured, two busy loops beside), while the
watched games still move (:data:`PACE`)."""


def _counters(port: int) -> dict[str, float]:
    """A server's :data:`SERVED` and :data:`RECEIVED` counters."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    found = dict.fromkeys((SERVED, RECEIVED), 0.0)
    for line in text.decode().splitlines():
        name, _, value = line.partition(" ")
        if name in found:
            found[name] = float(value)
    return found


def _tail_events(port: int) -> float:
    return _counters(port)[SERVED]


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

    def run(self, work: Any, within: float = 45.0, timeout: float = 5.0) -> Any:
        """``work`` against JetStream (each request waiting ``timeout``),
        retried while the cluster cannot answer.

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
                        return await work(nc.jetstream(timeout=timeout))
                    except (TimeoutError, NoRespondersError):
                        if time.monotonic() > deadline:
                            raise
                        await asyncio.sleep(1.0)
            finally:
                await nc.close()

        return asyncio.run(session())


def _leader_logged(run: Path, killed: float) -> float | None:
    """Seconds from ``killed`` (``time.time()``) to the first line a NATS node
    logged on becoming the stream's leader after it, or None."""
    from datetime import datetime

    found: list[float] = []
    for path in run.glob("nats-*.log"):
        for line in path.read_text().splitlines():
            if "new stream leader for" not in line or "LEDGER_GAMES" not in line:
                continue
            stamp = " ".join(line.split()[1:3])  # [pid] 2026/11/29 08:44:41.813171
            try:
                at = datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S.%f").timestamp()
            except ValueError:
                continue
            if at > killed:
                found.append(at - killed)
    return min(found, default=None)


class _Seen:
    """The servers' counters and the watched games' heads at each moment the
    test looks (the kill, the new leader, the end of the wait for
    resumption): what tells a consumer that delivers nothing from one that
    delivers late, and either from watched games that made no move to
    resume with."""

    def __init__(self, metrics: int, watched: list[Watched]) -> None:
        self.metrics, self.watched = metrics, watched
        self.at: dict[str, tuple[float, list[dict[str, float]], list[int]]] = {}
        """moment -> (``time.monotonic()``, each server's counters, each game's head)."""
        self.wall = 0.0
        """``time.time()`` at the kill, to find it in the logs."""

    def take(self, moment: str) -> None:
        counters = [_counters(self.metrics + i) for i in range(3)]
        self.at[moment] = (time.monotonic(), counters, [g.head for g in self.watched])

    def served(self, moment: str, server: int) -> float:
        return self.at[moment][1][server][SERVED]

    def figures(self) -> dict[str, Any]:
        """What each server's consumers delivered and its streams took from
        JetStream between the new leader and the end of the wait, and how
        many events the watched games made meanwhile."""
        _, lead, heads_lead = self.at["leader"]
        _, end, heads_end = self.at["end"]
        return {
            f"{name}_after_leader_per_server": {
                i: int(end[i][key] - lead[i][key]) for i in range(3)
            }
            for name, key in (("received", RECEIVED), ("served", SERVED))
        } | {
            "watched_events_after_leader": sum(heads_end) - sum(heads_lead),
        }

    def report(self, killed: float, run: Path) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(self.wall))
        lines = [f"killed at {stamp}"]
        for moment, (at, _, heads) in self.at.items():
            lines.append(f"{moment} at +{at - killed:.1f} s: watched heads {heads}")
        for game in self.watched:
            if game.ended_at is not None:
                lines.append(
                    f"game {game.table.game_id} over at +{game.ended_at - killed:.1f} s"
                )
        for i in range(3):
            for name, key in (("served", SERVED), ("received", RECEIVED)):
                values = " -> ".join(
                    f"{counters[i][key]:.0f}" for _, counters, _ in self.at.values()
                )
                lines.append(f"serve-{i} {name} ({', '.join(self.at)}): {values}")
            said = [
                line
                for line in (run / f"serve-{i}.log").read_text().splitlines()
                if "NATS" in line or "JetStream" in line
            ]
            lines += [f"  {line}" for line in said[-40:]]
        for node in (1, 2, 3):
            path = run / f"nats-{node}.log"
            if path.exists():
                lines += [
                    f"  nats-{node}: {line}"
                    for line in path.read_text().splitlines()
                    if "leader" in line and "consumer" not in line
                ][-8:]
        return "\n".join(lines)


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
        self.ended_at: float | None = None
        """When the game was seen over (``time.monotonic()``)."""
        self.moves = 0
        self.spans: set[tuple[int, int]] = set()
        """(first_version, last_version) of each acknowledged move."""

    def move(self) -> None:
        if self.over:
            return
        answer = play_one(self.conn, self.table, self.rnd)
        if answer is None:
            self.over, self.ended_at = True, time.monotonic()
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
            leader_seen = threading.Event()
            waited = threading.Event()  # the wait for every server's resumption is over
            errors: list[BaseException] = []

            def play() -> None:
                # the watched games keep moves for after the kill, and play
                # them slowly until every server has resumed: a game that
                # ended before a server's consumers came back shows nothing
                try:
                    while not stop_playing.is_set() and not all(
                        g.over for g in watched
                    ):
                        limit = (
                            BEFORE_KILL
                            if not node_killed.is_set()
                            else BEFORE_KILL + DURING
                            if not leader_seen.is_set()
                            else None
                        )
                        for game in watched:
                            if limit is None or game.moves < limit:
                                game.move()
                        paced = node_killed.is_set() and not waited.is_set()
                        time.sleep(PACE if paced else 0.05)
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
            seen = _Seen(metrics, watched)
            seen.take("kill")
            killed, seen.wall = time.monotonic(), time.time()
            os.kill(int((run / f"nats-{node}.pid").read_text()), signal.SIGKILL)
            node_killed.set()
            figures.faults += 1
            elected: list[float] = []

            def election() -> None:
                # events served before the stream has a leader again were
                # published before the kill: only what comes after counts
                try:
                    while admin.run(leader, within=60, timeout=1.0) == victim:
                        time.sleep(0.2)
                    elected.append(time.monotonic())
                except BaseException as exc:  # noqa: BLE001 - re-raised below
                    errors.append(exc)

            threading.Thread(target=election, daemon=True).start()
            wait_until(
                lambda: elected or errors,
                "the stream had no leader again within 60 s",
                60,
            )
            assert not errors, errors
            leader_seen.set()
            seen.take("leader")
            resumed: dict[int, float] = {}
            while (
                len(resumed) < 3
                and time.monotonic() - elected[0] < RESUME_WITHIN
                and not errors
            ):
                for i in range(3):
                    if i not in resumed and _tail_events(metrics + i) > seen.served(
                        "leader", i
                    ):
                        resumed[i] = time.monotonic() - killed
                time.sleep(0.1)
            waited.set()
            assert not errors, errors
            seen.take("end")
            figures.extra["seconds_to_stream_leader"] = round(elected[0] - killed, 2)
            logged = _leader_logged(run, seen.wall)
            if logged is not None:  # the new leader's own line, to the millisecond
                figures.extra["seconds_to_stream_leader_logged"] = round(logged, 2)
            figures.extra["resumed_servers"] = len(resumed)
            figures.extra.update(seen.figures())
            figures.extra["seconds_to_resume_after_leader_per_server"] = {
                i: round(t - (elected[0] - killed), 2)
                for i, t in sorted(resumed.items())
            }
            assert len(resumed) == 3, (
                f"JetStream fan-out did not resume within {RESUME_WITHIN:.0f} s of "
                f"the new leader on every server: {resumed}\n"
                + seen.report(killed, run)
            )
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
