"""Servers on one bus share the signer's record: a JetStream key-value bucket.

Each test starts its own ``nats-server`` as shipped (``deploy/nats/single.conf``
with ``users.conf``: the servers' user and the admin), runs the admin's
``ledger nats setup`` step, and serves two ledgers on one database with one
signing key and a data dir each, as hosts of a deployment would.

- Moves played through both servers leave each game's highest head in the
  bucket once, and no server keeps a file record of its own.
- The truncate-and-replay attack (``tests/e2e/test_truncate_and_replay.py``)
  after a restart of both servers, replayed through the server that never
  recorded the game, is refused with ``DATA_LOSS`` and an alarm there.
- With NATS down, a move gets ``UNAVAILABLE`` and nothing is stored (fail
  closed); once NATS is back the same seat plays on.
- The servers' NATS user cannot purge the bucket, and a deletion marker it
  writes makes the game unsignable rather than forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from pydantic import SecretStr

from domain.ledger.signed_heads import SignedHead
from ledger.v1 import game_service_pb2 as pb
from services.api.client import create, legal_moves, play_one
from services.storage.signed_heads import FILE
from services.storage.signed_heads_bucket import BUCKET, STREAM
from tests.deploy.shipped import DEPLOY
from tests.e2e.test_truncate_and_replay import play_out, roll_back, served
from tests.support.database import scratch_database
from tests.support.nats import setup_stream
from tests.support.scratch_postgres import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
SERVERS_PASSWORD = "n" + secrets.token_hex(16)
ADMIN_PASSWORD = "n" + secrets.token_hex(16)


class Nats:
    """``nats-server -c deploy/nats/single.conf`` on a port and store of its own."""

    def __init__(self, store: Path) -> None:
        self.port = free_port()
        self.url = f"nats://127.0.0.1:{self.port}"
        self.store = store
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["/usr/sbin/nats-server", "-c", str(DEPLOY / "nats" / "single.conf")],
            env={
                "NATS_LISTEN": f"127.0.0.1:{self.port}",
                "NATS_STORE_DIR": str(self.store),
                "LEDGER_NATS_PASSWORD": SERVERS_PASSWORD,
                "LEDGER_NATS_ADMIN_PASSWORD": ADMIN_PASSWORD,
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        setup_stream(self.url, "admin", ADMIN_PASSWORD)  # retried while it starts

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def as_user(self, user: str, password: str, work: Any) -> Any:
        async def session() -> Any:
            import nats

            nc = await nats.connect(
                self.url, user=user, password=password, connect_timeout=3
            )
            try:
                return await work(nc.jetstream(timeout=3))
            finally:
                await nc.close()

        return asyncio.run(session())

    def heads(self) -> dict[str, SignedHead]:
        """What the bucket holds, read as the admin."""

        async def read(js: Any) -> dict[str, SignedHead]:
            from nats.js.errors import NoKeysError

            kv = await js.key_value(BUCKET)
            found: dict[str, SignedHead] = {}
            try:
                keys = await kv.keys()
            except NoKeysError:
                return found
            for key in keys:
                entry = await kv.get(key)
                found[key] = SignedHead.from_json(json.loads(entry.value))
            return found

        return self.as_user("admin", ADMIN_PASSWORD, read)


@contextlib.contextmanager
def nats_as_shipped(store: Path) -> Iterator[Nats]:
    nats = Nats(store)
    nats.start()
    try:
        yield nats
    finally:
        nats.stop()


def host_settings(settings: Any, url: str, nats: Nats, data_dir: Path, key: str) -> Any:
    """One host of the deployment: the shared database, bus and key, its own data dir."""
    return settings.model_copy(
        update={
            "database_url": url,
            "data_dir": data_dir,
            "nats_url": nats.url,
            "nats_user": "ledger",
            "nats_password": SecretStr(SERVERS_PASSWORD),
            "signing_key": SecretStr(key),
            "checkpoint_interval": 0,
        }
    )


def test_a_game_rolled_back_and_replayed_through_the_other_server_is_refused(
    server_url: str, settings: Any, tmp_path: Path
) -> None:
    from services.observability.metrics import SIGNER_REFUSALS

    key = secrets.token_hex(32)
    with (
        nats_as_shipped(tmp_path / "nats") as nats,
        scratch_database(server_url, "ledger_sharedrecord") as url,
    ):
        a_settings, b_settings = (
            host_settings(settings, url, nats, tmp_path / host, key)
            for host in ("a", "b")
        )
        with served(a_settings) as (a, _), served(b_settings) as (b, _):
            table = create(a, "terralore", players=2)
            rnd = random.Random(3)
            moves: list[pb.SubmitMoveResponse] = []
            head = table.created.game.version if table.created else 1
            while True:  # the servers take turns, each once it has seen the last move
                server = (a, b)[len(moves) % 2]
                _sees(server, table, head)
                answer = play_one(server, table, rnd)
                if answer is None:
                    break
                moves.append(answer)
                head = answer.last_version
            final = moves[-1].last_version
        recorded = nats.heads().get(table.game_id)

        cut = moves[-1].first_version  # the ending: rewritten by the replay
        roll_back(url, table.game_id, cut)
        refusals = SIGNER_REFUSALS._value.get()

        # both servers restarted; the replay goes through B only
        with served(a_settings) as (a, _), served(b_settings) as (b, ledger_b):
            with pytest.raises(grpc.RpcError) as refused:
                play_out(b, table, seed=99)
            assert refused.value.code() == grpc.StatusCode.DATA_LOSS, refused.value
            assert SIGNER_REFUSALS._value.get() == refusals + 1
            alarm = str(ledger_b.head_signer.alarm)
            assert table.game_id in alarm and f"version {cut}" in alarm
            assert ledger_b.read_records(table.game_id)[-1][0] == cut - 1
            # the same through A: the record is the same for both
            with pytest.raises(grpc.RpcError) as refused_a:
                play_out(a, table, seed=98)
            assert refused_a.value.code() == grpc.StatusCode.DATA_LOSS
        # the bucket holds the game's final head, recorded by either server,
        # never lowered; no server kept a record of its own
        assert recorded is not None and recorded.version == final
        assert nats.heads()[table.game_id] == recorded
        for host in ("a", "b"):
            assert not (tmp_path / host / FILE).exists()


def _sees(server: Any, table: Any, version: int, within: float = 30.0) -> None:
    """Wait until ``server`` serves ``version`` of the game (another server
    stored it: this one learns of it through LISTEN/NOTIFY)."""
    deadline = time.monotonic() + within
    token = table.tokens[min(table.tokens)]
    request = pb.GetGameRequest(game_id=table.game_id)
    while server.call("GetGame", request, token).game.version < version:
        assert time.monotonic() < deadline, f"the server never saw version {version}"
        time.sleep(0.05)


def test_with_nats_down_a_move_is_refused_unavailable_and_nothing_is_stored(
    server_url: str, settings: Any, tmp_path: Path
) -> None:
    key = secrets.token_hex(32)
    with (
        nats_as_shipped(tmp_path / "nats") as nats,
        scratch_database(server_url, "ledger_recorddown") as url,
    ):
        own = host_settings(settings, url, nats, tmp_path / "a", key)
        with served(own) as (server, ledger):
            table = create(server, "terralore", players=2)
            rnd = random.Random(5)
            assert play_one(server, table, rnd) is not None
            before = ledger.read_records(table.game_id)[-1][0]
            nats.stop()
            game = server.call(
                "GetGame",
                pb.GetGameRequest(game_id=table.game_id),
                table.tokens[min(table.tokens)],
            ).game
            seat = min(game.to_act)
            move = legal_moves(server, table, seat)[0]
            request = pb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id="after-nats-died",
                move=move,
                seat=seat,
            )
            started = time.monotonic()
            with pytest.raises(grpc.RpcError) as refused:
                server.call("SubmitMove", request, table.tokens[seat])
            took = time.monotonic() - started
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value
            assert "signer's record" in str(refused.value.details())
            assert took < 6, took  # quickly, not after the client's deadline
            assert ledger.read_records(table.game_id)[-1][0] == before
            assert ledger.head_signer.alarm is None  # an outage, not an attack
            # NATS back (its store kept): the same command goes through
            nats.start()
            answer = _retried(
                lambda: server.call("SubmitMove", request, table.tokens[seat])
            )
            assert answer.first_version == before + 1
        assert nats.heads()[table.game_id].version == answer.last_version


def test_the_servers_user_cannot_purge_the_record_and_a_deleted_key_is_refused(
    server_url: str, settings: Any, tmp_path: Path
) -> None:
    key = secrets.token_hex(32)
    with (
        nats_as_shipped(tmp_path / "nats") as nats,
        scratch_database(server_url, "ledger_recordpurge") as url,
    ):
        own = host_settings(settings, url, nats, tmp_path / "a", key)
        with served(own) as (server, _ledger):
            table = create(server, "terralore", players=2)
            rnd = random.Random(7)
            assert play_one(server, table, rnd) is not None

            async def purge(js: Any) -> Any:
                return await js.purge_stream(STREAM)

            async def delete_bucket(js: Any) -> Any:
                return await js.delete_key_value(BUCKET)

            for attack in (purge, delete_bucket):
                with pytest.raises(Exception):  # noqa: B017 - a permissions violation: nats-py times out
                    nats.as_user("ledger", SERVERS_PASSWORD, attack)

            async def purge_key(js: Any) -> Any:
                kv = await js.key_value(BUCKET)
                return await kv.purge(table.game_id)  # a roll-up: the stream refuses it

            with pytest.raises(Exception):  # noqa: B017 - refused by the stream
                nats.as_user("ledger", SERVERS_PASSWORD, purge_key)
            assert table.game_id in nats.heads()

            async def delete_key(js: Any) -> Any:
                kv = await js.key_value(BUCKET)
                return await kv.delete(table.game_id)  # a marker: allowed, and read

            nats.as_user("ledger", SERVERS_PASSWORD, delete_key)
            with pytest.raises(grpc.RpcError) as refused:
                play_one(server, table, rnd)
            assert refused.value.code() == grpc.StatusCode.DATA_LOSS, refused.value


def _retried(call: Any, within: float = 30.0) -> Any:
    deadline = time.monotonic() + within
    while True:
        try:
            return call()
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_two_servers_never_record_two_heads_at_one_version(tmp_path: Path) -> None:
    """The record's compare-and-set, straight on the bucket: two servers'
    records of one game race, and what remains is the highest head; a head
    at a recorded version with another hash is refused by the other server;
    a lower head never lowers the record."""
    import threading

    from services.storage.signed_heads_bucket import SignedHeadsBucket

    with nats_as_shipped(tmp_path / "nats") as nats:
        login = {"user": "ledger", "password": SERVERS_PASSWORD}
        one, two = (SignedHeadsBucket([nats.url], login) for _ in range(2))
        try:
            game = "5f0c1d9e-0000-4000-8000-000000000001"
            racers = [
                threading.Thread(
                    target=lambda b=bucket, v=v: b.record(SignedHead(game, v, f"h{v}"))
                )
                for v in range(1, 21)
                for bucket in (one, two)
            ]
            random.Random(1).shuffle(racers)  # lower heads land after higher ones
            for racer in racers:
                racer.start()
            for racer in racers:
                racer.join(30)
            assert nats.heads()[game] == SignedHead(game, 20, "h20")
            assert two.check(game, 20, "h19", 20, "another") is not None
            assert one.check(game, 21, "h20", 21, "h21") is None
            one.record(SignedHead(game, 7, "h7"))
            assert two.last(game) == SignedHead(game, 20, "h20")
            # one read the game before two wrote: its write is a lost
            # compare-and-set, read again, and never lowers what two wrote
            other = "5f0c1d9e-0000-4000-8000-000000000002"
            one.record(SignedHead(other, 1, "g1"))
            assert one.last(other) == SignedHead(other, 1, "g1")
            two.record(SignedHead(other, 9, "g9"))
            one.record(SignedHead(other, 5, "g5"))
            assert nats.heads()[other] == SignedHead(other, 9, "g9")
        finally:
            one.close()
            two.close()


def test_every_servers_heads_reach_a_checkpoint_read_incrementally(
    tmp_path: Path,
) -> None:
    """``heads()`` (a checkpoint's leaves) holds what every server recorded,
    read again only from the revisions after what it already read."""
    from services.storage.signed_heads_bucket import SignedHeadsBucket

    with nats_as_shipped(tmp_path / "nats") as nats:
        login = {"user": "ledger", "password": SERVERS_PASSWORD}
        one, two = (SignedHeadsBucket([nats.url], login) for _ in range(2))
        try:
            games = [f"5f0c1d9e-0000-4000-8000-00000000000{i}" for i in range(4)]
            assert one.heads() == {}
            one.record(SignedHead(games[0], 3, "a3"))
            two.record(SignedHead(games[1], 5, "b5"))
            assert one.heads() == {
                games[0]: SignedHead(games[0], 3, "a3"),
                games[1]: SignedHead(games[1], 5, "b5"),
            }
            two.record(SignedHead(games[0], 4, "a4"))
            two.record(SignedHead(games[2], 1, "c1"))
            assert one.heads() == {
                games[0]: SignedHead(games[0], 4, "a4"),
                games[1]: SignedHead(games[1], 5, "b5"),
                games[2]: SignedHead(games[2], 1, "c1"),
            }
            assert one.heads() == two.heads()
        finally:
            one.close()
            two.close()
