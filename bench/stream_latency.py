"""Live-stream latency: one mover, several ``StreamGameEvents`` subscribers on its game.

Why apart from :mod:`bench.loadgen`: it measures delivery (event timestamp to
receipt, and receipt against the mover's own response), not throughput; it
reuses the simulated :class:`~bench.loadgen.Player` as the mover.

Where the commit happens is seen from outside the server: a LISTEN
connection of the bench's own (:class:`CommitClock`, a thread) receives the
ledger's notification, which PostgreSQL sends when the move's transaction
commits.  Receipt minus that is the target's "commit → subscriber"; the
event's own timestamp (taken when the move is decided, before it waits for
the group commit) is kept as the upper bound it always was.
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from collections import Counter
from typing import Any, Self

import grpc
import psycopg

from bench.loadgen import (
    MAX_MOVES_PER_GAME,
    RPC_TIMEOUT,
    Player,
    Recorder,
    auth,
    channel,
)
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.storage.recorder import NOTIFY_CHANNEL


class CommitClock:
    """When each ``(game, version)`` was seen committed: the first ledger
    notification naming that game at that version or later."""

    def __init__(self, database_url: str) -> None:
        self._url = database_url
        self._seen: dict[str, list[tuple[int, float]]] = {}
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def _listen(self) -> None:
        with psycopg.connect(self._url, autocommit=True) as conn:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            self._ready.set()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=0.2):
                    game, _, version = note.payload.partition(":")
                    self._seen.setdefault(game, []).append((int(version), time.time()))

    def committed_at(self, game_id: str, version: int) -> float | None:
        return next((t for v, t in self._seen.get(game_id, ()) if v >= version), None)


async def run_stream_latency(
    target: str,
    duration: float,
    max_moves: int,
    subscribers: int,
    pause: float,
    mix: list[tuple[str, dict[str, Any]]],
    seed: int = 11,
    clock: CommitClock | None = None,
) -> dict[str, Any]:
    """One mover, ``subscribers`` live streams on its game (players and spectators).

    Latency per delivered event: the stream client's clock at receipt minus the
    event's own timestamp (stamped by the server when the move was decided,
    before the commit; same machine clock), so it bounds commit->receive from
    above.  Also: receipt minus the mover's SubmitMove response (negative when
    the stream beats the response).
    """
    rec = Recorder()
    mover = Player(target, mix, seed, rec)
    delivered: list[float] = []
    after_response: list[float] = []
    responses: dict[tuple[str, int], float] = {}
    received: dict[tuple[str, int], list[float]] = {}
    stream_errors: Counter[str] = Counter()
    moves = 0
    games = 0
    deadline = time.perf_counter() + duration

    async def follow(stub: Any, game_id: str, after: int, token: str | None) -> None:
        call = stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=game_id, after_version=after),
            metadata=auth(token),
            timeout=duration + RPC_TIMEOUT,
        )
        try:
            async for event in call:
                now = time.time()
                stamp = event.timestamp.seconds + event.timestamp.nanos / 1e9
                delivered.append(now - stamp)
                received.setdefault((game_id, event.version), []).append(now)
        except grpc.aio.AioRpcError as exc:
            # our own cancel arrives as asyncio.CancelledError (below), so a
            # CANCELLED status here is the server's or grpc core's: an error
            stream_errors[exc.code().name] += 1
        except asyncio.CancelledError:
            call.cancel()
            raise

    channels = [channel(target) for _ in range(subscribers)]
    stubs = [pb_grpc.GameServiceStub(ch) for ch in channels]
    try:
        while time.perf_counter() < deadline and moves < max_moves:
            table = await mover.create()
            if table is None:
                await asyncio.sleep(0.05)
                continue
            games += 1
            seats = sorted(table.tokens)
            got = await mover.stub.GetGame(
                pb.GetGameRequest(game_id=table.game_id), timeout=RPC_TIMEOUT
            )
            head = got.game.version
            followers = [
                asyncio.create_task(
                    follow(
                        stubs[i],
                        table.game_id,
                        head,
                        table.tokens[seats[i]] if i < len(seats) else None,
                    )
                )
                for i in range(subscribers)
            ]
            await asyncio.sleep(0.2)  # let the streams subscribe before the first move
            for _ in range(MAX_MOVES_PER_GAME):
                if time.perf_counter() >= deadline or moves >= max_moves:
                    break
                mover.last_submit = None
                going = await mover.move(table)
                if mover.last_submit is not None:
                    moves += 1
                    done, first, last = mover.last_submit
                    for v in range(first, last + 1):
                        responses[(table.game_id, v)] = done
                if not going:
                    break
                await asyncio.sleep(pause)
            await asyncio.sleep(0.3)  # stragglers
            for task in followers:
                task.cancel()
            await asyncio.gather(*followers, return_exceptions=True)
    finally:
        await mover.close()
        for ch in channels:
            await ch.close()
    after_commit: list[float] = []
    for key, times in received.items():
        if key in responses:
            after_response.extend(t - responses[key] for t in times)
        committed = clock.committed_at(*key) if clock is not None else None
        if committed is not None:
            after_commit.extend(t - committed for t in times)
    return {
        "subscribers": subscribers,
        "moves": moves,
        "games": games,
        "delivered": delivered,
        "after_response": after_response,
        "after_commit": after_commit,
        "stream_errors": dict(stream_errors),
        "mover_submit_median_ms": round(
            1000 * statistics.median([l for _, l in rec.submit]), 3
        )
        if rec.submit
        else None,
    }
