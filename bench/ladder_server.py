"""One rung of the cost ladder (:mod:`bench.ladder`): a gRPC server built from
the service's real parts, up to a chosen layer.

Run: ``python -m bench.ladder_server --rung NAME --port P [--canned FILE]
[--database-url URL]``.  Each rung adds one layer to the rung below it:

- ``null``: canned bytes, no interceptor (:mod:`bench.nullserver`'s handler);
- ``interceptors``: the real interceptor of
  :func:`services.api.grpc_server.start`
  (:class:`~services.api.call_gate.CallGate`: metrics, drain, guard) with no
  token resolver, and its transport options, in front of the same canned bytes;
- ``auth``: plus authentication, the real
  :class:`~services.api.auth.TokenResolver` (the canned game's seat tokens are
  its grants; unknown tokens are refused);
- ``convert``: plus the real :class:`~services.api.game_servicer.GameServicer`:
  requests decoded to domain commands, real responses presented from real
  games, but a move decides nothing: every game stays at its first position
  (its legal moves computed once), and ``SubmitMove`` answers the result of
  one move decided once per game, never committed;
- ``rules``: plus decide and evolve: the real ``LogTail.extend``, game
  cache and ``Game.act``, with no storage (the commit answers at once; the
  store keeps seeds and grants in dicts);
- ``commit``: the real :class:`~services.ledger.application.GameLedger` on
  PostgreSQL (recorder, group commit on the event loop as the server's,
  snapshots).  No LISTEN connection:
  the cache is trusted by fiat (``Heads.listening`` once), which is correct
  for a lone writer and keeps cache misses out of the commit's price;
- ``notify``: plus the LISTEN/NOTIFY :class:`~services.live.listen_hub.EventHub`
  feeding ``Heads``, as ``ledger serve`` runs it.

The full server (``ledger serve``) is the ladder's last rung; the harness
starts it itself (:func:`bench.procs.start_ledger_server`).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, TypeVar, cast
from uuid import UUID

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from bench.nullserver import NullHandler, read_canned
from domain.contract.core import Seat
from domain.contract.viewers import SeatGrant
from domain.ledger.aggregate import Game
from domain.ledger.receipts import Signer
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc

RUNGS = ("null", "interceptors", "auth", "convert", "rules", "commit", "notify")
"""The rungs this module serves, cheapest first."""
CANNED_RUNGS = ("null", "interceptors", "auth")
"""Rungs that answer with canned real responses (no game is played)."""
DATABASE_RUNGS = ("commit", "notify")
ADMIN_TOKEN = "ladder-admin-token"
T = TypeVar("T")


def _interceptors(rung: str, lookup: Any) -> list[grpc.aio.ServerInterceptor]:
    """The real interceptor of :func:`services.api.grpc_server.start`: without
    authentication at ``interceptors``, whole from ``auth`` on."""
    from services.api.auth import TokenResolver
    from services.api.call_gate import CallGate
    from services.api.drain import Drain
    from services.runtime.settings import Settings

    if rung == "null":
        return []
    resolver = None if rung == "interceptors" else TokenResolver(ADMIN_TOKEN, lookup)
    return [CallGate(Drain(), Settings().streams_per_connection, resolver)]


def _options(rung: str) -> list[tuple[str, Any]]:
    from services.api import transport
    from services.runtime.settings import Settings

    if rung == "null":
        return []
    settings = Settings()
    return list(transport.server_options(settings.workers, settings.pending_calls))


# ------------------------------------------------------------ in memory


class MemoryStore:
    """What the game cache and the move ask of the store, kept in dicts."""

    def __init__(self) -> None:
        self.seeds: dict[UUID, bytes] = {}
        self.grants: dict[str, SeatGrant] = {}

    def snapshot(self, snapshot: Any) -> None:
        """Snapshots are taken (on the loop) and dropped."""

    def seed(self, game_id: UUID) -> bytes:
        return self.seeds[game_id]

    def events(self, game_id: UUID, *args: Any, **kwargs: Any) -> list[Any]:
        return []


class MemoryCommitter:
    """``GroupCommitter.commit`` with nothing to write: positions at once."""

    def __init__(self) -> None:
        self._positions = itertools.count(1)

    async def commit(self, append: Any) -> list[Any]:
        return [
            SimpleNamespace(notification=SimpleNamespace(id=next(self._positions)))
            for _ in append.events
        ]


class MemoryLedger:
    """The part of :class:`~services.ledger.application.GameLedger` the game
    loop calls, with the real cache, heads and move over memory.

    ``decide=False`` (rung ``convert``): games never move; ``submit_move``
    answers one move decided once per game on a private copy.
    """

    def __init__(self, decide: bool, snapshot_interval: int = 50) -> None:
        from services.ledger.game_cache import GameCache
        from services.ledger.head_signer import HeadSigner
        from services.ledger.heads import Heads
        from services.ledger.io_pool import IoPool
        from services.ledger.log_tail import LogTail

        self.decide = decide
        self.heads = Heads()
        self.heads.listening()  # one process, no other writer: memory vouches
        self.store = MemoryStore()
        self.cache = GameCache(2000, self.heads, cast(Any, self.store), self._rebuild)
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="io")
        self.signer = Signer.generate()
        self.head_signer = HeadSigner(lambda: self.signer)
        self._frozen: dict[UUID, Any] = {}
        self.io = IoPool(self.executor)
        self.log_tail = LogTail(
            self.cache,
            cast(Any, self.store),
            cast(Any, MemoryCommitter()),
            self.heads,
            self.io,
            self.head_signer,
            snapshot_interval,
            self.clock,
        )

    def clock(self) -> datetime:
        return datetime.now(UTC)

    def _rebuild(self, game_id: UUID, version: int | None) -> Game:
        from services.ledger.game_cache import GameNotFoundError

        raise GameNotFoundError(str(game_id))

    def create_game(self, game_type: str, setup: Any, **options: Any) -> Any:
        from services.ledger.creation import new_game
        from services.ledger.game_cache import shell

        game, seed, created, rows = new_game(
            self.head_signer, game_type, setup, self.clock(), **options
        )
        events = list(game.collect_events())
        self.store.seeds[game.id] = seed
        for token, player, seats in rows.tokens:
            self.store.grants[token] = SeatGrant(game.id, player, tuple(seats))
        self.cache.remember_seed(game.id, seed)
        self.cache.committed(game, self.heads.epoch, events)
        return replace(created, game=shell(game))

    async def game(self, game_id: UUID, at: int | None = None) -> Game:
        from services.ledger.game_cache import GameNotFoundError

        held = self.cache.vouched(game_id)
        if held is None:
            raise GameNotFoundError(str(game_id))
        return held

    async def game_at_least(self, game_id: UUID, version: int) -> Game:
        return await self.game(game_id)

    def game_row(self, game_id: UUID) -> dict[str, Any] | None:
        return {"created_at": self.clock()}

    def grant_for_token(self, token: str) -> SeatGrant | None:
        return self.store.grants.get(token)

    async def submit_move(
        self,
        game_id: UUID,
        command: Any,
        actor: Seat,
        command_id: str,
        expected_version: int | None = None,
        signed: Any = None,
        game: Any = None,
    ) -> Any:
        from services.ledger.log_tail import move

        if self.decide:
            return await self.log_tail.extend(
                game_id,
                move(command, actor, command_id, expected_version, signed),
                game,
            )
        frozen = self._frozen.get(game_id)
        if frozen is None:
            frozen = self._frozen[game_id] = self._decided_once(
                await self.game(game_id), command, actor, command_id
            )
        return frozen

    def _decided_once(
        self, game: Game, command: Any, actor: Seat, command_id: str
    ) -> Any:
        """The result of one move decided on a private copy and never kept."""
        from services.ledger.game_cache import shell
        from services.ledger.log_tail import Recorded

        seed = self.store.seeds[game.id]
        events = shell(game).act(
            command, actor, seed, command_id, None, now=self.clock()
        )
        last = events[-1]
        receipt = self.signer.sign(
            str(game.id),
            last.originator_version,
            last.hash,
            last.timestamp.isoformat(),
        )
        return Recorded(
            game.id,
            events[0].originator_version,
            last.originator_version,
            replayed=False,
            log_position=1,
            events=tuple(events),
            game=game,  # the head stays where it was: the loop keeps moving from it
            receipt=receipt,
        )


# ------------------------------------------------------------ composition


def canned_grants(canned: dict[str, bytes]) -> dict[str, SeatGrant]:
    """The canned game's seat tokens as grants: what the store would find."""
    created = pb.CreateGameResponse.FromString(
        canned["/ledger.v1.GameService/CreateGame"]
    )
    game_id = UUID(created.game.game_id)
    return {
        t.token: SeatGrant(game_id, t.player, tuple(t.seats)) for t in created.tokens
    }


async def build(
    rung: str, port: int, canned_path: str | None, database_url: str | None
) -> tuple[grpc.aio.Server, Any]:
    """The rung's server, started; and what to close after it stops."""
    from services.ledger.callers import Principal

    if rung not in RUNGS:
        raise ValueError(f"unknown rung {rung!r}; one of {', '.join(RUNGS)}")
    ledger: Any = None
    hub: Any = None
    committer: Any = None
    grants: dict[str, SeatGrant] = {}
    if rung in CANNED_RUNGS:
        if canned_path is None:
            raise ValueError(f"rung {rung!r} needs --canned")
        canned = read_canned(canned_path)
        grants = canned_grants(canned)
    elif rung in DATABASE_RUNGS:
        if database_url is None:
            raise ValueError(f"rung {rung!r} needs --database-url")
        ledger = _postgres_ledger(database_url)
        committer = ledger.commit_on_this_loop()  # as the server commits
        if rung == "notify":
            from services.live.listen_hub import EventHub

            hub = EventHub(database_url, heads=ledger.heads)
            await hub.start()
        else:
            ledger.heads.listening()  # a lone writer: memory vouches, no LISTEN
    else:
        ledger = MemoryLedger(decide=rung == "rules")

    async def lookup(token: str) -> Principal | None:
        if ledger is None:
            grant = grants.get(token)
        else:  # the store's lookup, in the ledger's executor as the server does
            grant = await ledger.io(ledger.grant_for_token, token)
        return Principal(grant=grant) if grant is not None else None

    server = grpc.aio.server(
        interceptors=_interceptors(rung, lookup), options=_options(rung)
    )
    if ledger is None:
        server.add_generic_rpc_handlers((NullHandler(canned),))
    else:
        from services.api.game_servicer import GameServicer

        pb_grpc.add_GameServiceServicer_to_server(
            GameServicer(ledger, cast(Any, hub)), server
        )
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)

    async def close() -> None:
        if committer is not None:
            await committer.close()
        if hub is not None:
            await hub.stop()
        if ledger is not None and hasattr(ledger, "close"):
            ledger.close()
        elif ledger is not None:
            ledger.executor.shutdown(wait=False, cancel_futures=True)

    return server, close


def _postgres_ledger(database_url: str) -> Any:
    from services.runtime.bootstrap import build_ledger
    from services.runtime.settings import Settings

    return build_ledger(Settings(database_url=database_url), database_url)


async def main(
    rung: str, port: int, canned_path: str | None, database_url: str | None
) -> None:
    server, close = await build(rung, port, canned_path, database_url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1)
    await close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rung", required=True, choices=RUNGS)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--canned")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    asyncio.run(main(args.rung, args.port, args.canned, args.database_url))
