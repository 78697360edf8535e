"""The load generator: asyncio ``grpc.aio`` clients, rule-blind like ``services/api/client.py``.

Each simulated player plays its own game to the end with the public API only:
``ListLegalMoves`` (one small page, one random pick) then ``SubmitMove`` with a
fresh command id, and starts another game when one ends.  Only ``SubmitMove``
counts as a move; the listing is reported separately, because every honest
rule-blind client pays for it (the server decides what is legal).

Every loop is bounded twice: by a deadline and by a count.  All traffic stays
on 127.0.0.1.  The other client workloads build on the :class:`Player` here:
:mod:`bench.hot_game`, :mod:`bench.stream_latency` and :mod:`bench.read_loop`.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.proto import convert

RPC_TIMEOUT = 30.0
MAX_MOVES_PER_GAME = 3000
PAGE_SIZE = 20


def channel(target: str) -> grpc.aio.Channel:
    """One connection per simulated client (a local subchannel pool), like separate processes."""
    return grpc.aio.insecure_channel(
        target, options=[("grpc.use_local_subchannel_pool", 1)]
    )


def auth(token: str | None) -> tuple[tuple[str, str], ...] | None:
    return (("authorization", f"Bearer {token}"),) if token else None


def create_request(game_type: str, fields: dict[str, Any]) -> pb.CreateGameRequest:
    ruleset = find_game(game_type)
    return pb.CreateGameRequest(
        game_type=game_type,
        setup=convert.model_to_any(ruleset, ruleset.setup_model(**fields)),
    )


@dataclass
class Recorder:
    """What the clients saw: (completion time, latency) per call, and error codes."""

    submit: list[tuple[float, float]] = field(default_factory=list)
    listing: list[tuple[float, float]] = field(default_factory=list)
    create: list[tuple[float, float]] = field(default_factory=list)
    errors: list[tuple[float, str, str]] = field(
        default_factory=list
    )  # (time, method, code)
    games_finished: int = 0
    capture: dict[str, list[bytes]] | None = None

    def window(self, start: float, end: float) -> dict[str, Any]:
        def inside(rows: list[tuple[float, float]]) -> list[float]:
            return [lat for t, lat in rows if start <= t < end]

        submits = inside(self.submit)
        errors = [(m, c) for t, m, c in self.errors if start <= t < end]
        submit_errors = Counter(c for m, c in errors if m == "SubmitMove")
        return {
            "submit_latencies": submits,
            "list_latencies": inside(self.listing),
            "create_latencies": inside(self.create),
            "errors_by_method": dict(Counter(f"{m}:{c}" for m, c in errors)),
            "submit_errors": dict(submit_errors),
            "submit_ok": len(submits),
        }

    def keep(self, method: str, message: Any) -> None:
        if self.capture is not None:
            bucket = self.capture.setdefault(method, [])
            if len(bucket) < 400:
                bucket.append(message.SerializeToString())


WITHOUT_EVENTS = (
    "first_version",
    "last_version",
    "replayed",
    "game",
    "read_token",
    "receipt",
)
"""What a client asks of a ``SubmitMove`` answer: all of it but the events,
which it never reads (it learns who acts next from ``game``)."""


@dataclass
class Table:
    game_id: str
    tokens: dict[int, str]
    to_act: list[int]
    status: str
    moves: int = 0


class Player:
    """One simulated client: its own connection, its own games, one call at a time."""

    def __init__(
        self,
        target: str,
        mix: list[tuple[str, dict[str, Any]]],
        seed: int,
        rec: Recorder,
        requests: list[pb.CreateGameRequest] | None = None,
    ) -> None:
        self.channel = channel(target)
        self.stub = pb_grpc.GameServiceStub(self.channel)
        self.rnd = random.Random(seed)
        # given requests: a game this process has not registered (bench.peer_game)
        self.requests = requests or [create_request(g, f) for g, f in mix]
        self.next_game = seed % len(self.requests)
        self.rec = rec
        self.last_submit: tuple[float, int, int] | None = None
        self.response_paths: tuple[str, ...] = WITHOUT_EVENTS
        """``SubmitMoveRequest.response_mask`` paths; empty: the whole answer."""

    async def close(self) -> None:
        await self.channel.close()

    def _error(self, method: str, exc: grpc.aio.AioRpcError) -> None:
        self.rec.errors.append((time.perf_counter(), method, exc.code().name))

    async def create(self) -> Table | None:
        request = self.requests[self.next_game]
        self.next_game = (self.next_game + 1) % len(self.requests)
        t0 = time.perf_counter()
        try:
            resp = await self.stub.CreateGame(request, timeout=RPC_TIMEOUT)
        except grpc.aio.AioRpcError as exc:
            self._error("CreateGame", exc)
            return None
        t1 = time.perf_counter()
        self.rec.create.append((t1, t1 - t0))
        self.rec.keep("CreateGame", resp)
        tokens = {seat: t.token for t in resp.tokens for seat in t.seats}
        return Table(
            resp.game.game_id, tokens, list(resp.game.to_act), resp.game.status
        )

    async def refresh(self, table: Table) -> bool:
        """Re-read who must act after an error; False when the game is unusable."""
        try:
            got = await self.stub.GetGame(
                pb.GetGameRequest(game_id=table.game_id), timeout=RPC_TIMEOUT
            )
        except grpc.aio.AioRpcError as exc:
            self._error("GetGame", exc)
            return False
        table.to_act, table.status = list(got.game.to_act), got.game.status
        return table.status != "ended" and bool(table.to_act)

    async def move(self, table: Table) -> bool:
        """One listed-then-submitted move; False when the game cannot go on."""
        seat = self.rnd.choice(table.to_act)
        metadata = auth(table.tokens.get(seat))
        t0 = time.perf_counter()
        try:
            listed = await self.stub.ListLegalMoves(
                pb.ListLegalMovesRequest(
                    game_id=table.game_id, seat=seat, page_size=PAGE_SIZE
                ),
                metadata=metadata,
                timeout=RPC_TIMEOUT,
            )
        except grpc.aio.AioRpcError as exc:
            self._error("ListLegalMoves", exc)
            return await self.refresh(table)
        t1 = time.perf_counter()
        self.rec.listing.append((t1, t1 - t0))
        self.rec.keep("ListLegalMoves", listed)
        if not listed.moves:
            return await self.refresh(table)
        return await self.submit(table, seat, self.rnd.choice(listed.moves))

    async def submit(self, table: Table, seat: int, move: Any) -> bool:
        """``SubmitMove`` of ``move`` (a packed ``Any``) by ``seat``, recorded;
        False when the game cannot go on."""
        metadata = auth(table.tokens.get(seat))
        request = pb.SubmitMoveRequest(
            game_id=table.game_id,
            command_id=str(uuid.uuid4()),
            move=move,
            seat=seat,
        )
        if self.response_paths:
            request.response_mask.paths.extend(self.response_paths)
        t2 = time.perf_counter()
        try:
            resp = await self.stub.SubmitMove(
                request, metadata=metadata, timeout=RPC_TIMEOUT
            )
        except grpc.aio.AioRpcError as exc:
            self._error("SubmitMove", exc)
            return await self.refresh(table)
        t3 = time.perf_counter()
        self.last_submit = (time.time(), resp.first_version, resp.last_version)
        self.rec.submit.append((t3, t3 - t2))
        self.rec.keep("SubmitMove", resp)
        table.moves += 1
        table.to_act, table.status = self.after_move(table, seat, resp)
        if table.status == "ended":
            self.rec.games_finished += 1
            return False
        return bool(table.to_act) or await self.refresh(table)

    def after_move(
        self, table: Table, seat: int, resp: pb.SubmitMoveResponse
    ) -> tuple[list[int], str]:
        """Who acts next and the game's status, after ``seat``'s move: from the
        answer's game summary (a client that tracks the game may know it)."""
        return list(resp.game.to_act), resp.game.status

    async def play_until(self, deadline: float, max_games: int = 100_000) -> None:
        for _ in range(max_games):
            if time.perf_counter() >= deadline:
                return
            table = await self.create()
            if table is None:
                await asyncio.sleep(0.05)
                continue
            await self.play(table, deadline)

    async def play(self, table: Table, deadline: float) -> None:
        """``table``'s game, a move at a time, until it ends (or ``deadline``)."""
        for _ in range(MAX_MOVES_PER_GAME):
            if time.perf_counter() >= deadline or not await self.move(table):
                return


class WatchingPlayer(Player):
    """:class:`Player`, each seat of its game also watching ``StreamGameEvents``.

    Why: a seat over unary calls sees its opponent move only on such a
    stream, and a seat session pushes the same events to every seat, so the
    session's server CPU per move compares with this client's, not with a
    client that never looks at the game.  One stream per token, from the
    start, dropped when the game ends or the window closes.
    """

    async def play(self, table: Table, deadline: float) -> None:
        watchers = [
            asyncio.create_task(self._watch(table.game_id, token))
            for token in dict.fromkeys(table.tokens.values())
        ]
        try:
            await super().play(table, deadline)
        finally:
            for watcher in watchers:
                watcher.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)

    async def _watch(self, game_id: str, token: str) -> None:
        call = self.stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=game_id), metadata=auth(token)
        )
        try:
            async for _ in call:
                pass
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.CANCELLED:
                self._error("StreamGameEvents", exc)
        finally:
            call.cancel()


async def run_players(
    target: str,
    clients: int,
    warmup: float,
    duration: float,
    mix: list[tuple[str, dict[str, Any]]],
    on_window: Any = None,
    capture: bool = False,
    seed: int = 0,
    player: Callable[[int, Recorder], Player] | None = None,
) -> tuple[Recorder, float, float, Any]:
    """``clients`` players for ``warmup + duration`` seconds; returns the measured window.

    ``on_window(start_event)`` (optional) is awaited as a side task during the
    window, e.g. to sample CPU or run a probe; its result is returned.
    ``player(seed, recorder)`` (optional) makes each client instead of
    :class:`Player` (``mix`` is then unused).
    """
    rec = Recorder(capture={} if capture else None)
    make = player or (lambda s, r: Player(target, mix, s, r))
    players = [make(seed * 1000 + i, rec) for i in range(clients)]
    start = time.perf_counter()
    window_start = start + warmup
    window_end = window_start + duration
    try:
        tasks = [asyncio.create_task(p.play_until(window_end)) for p in players]
        side = None
        if on_window is not None:
            await asyncio.sleep(max(0.0, window_start - time.perf_counter()))
            side = await on_window(window_end)
        await asyncio.wait_for(
            asyncio.gather(*tasks), timeout=warmup + duration + 2 * RPC_TIMEOUT + 10
        )
    finally:
        for p in players:
            await p.close()
    return rec, window_start, window_end, side
