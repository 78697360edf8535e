"""The hot-game race: many clients submitting to one game with ``expected_version``.

Why apart from :mod:`bench.loadgen`: it measures contention on one stream
(how many racing submits are accepted, how many are refused as stale), not
throughput, and it shares only the client helpers with the player loop.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

import grpc

from bench.loadgen import (
    PAGE_SIZE,
    RPC_TIMEOUT,
    Player,
    Recorder,
    Table,
    auth,
    channel,
)
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc


@dataclass
class HotTable:
    table: Table | None = None
    generation: int = 0
    games: int = 0


async def run_hot_game(
    target: str,
    racers: int,
    duration: float,
    mix: list[tuple[str, dict[str, Any]]],
    seed: int = 7,
) -> dict[str, Any]:
    """``racers`` clients race on one game with ``expected_version``; a new game when it ends."""
    rec = Recorder()
    creator = Player(target, mix, seed, rec)
    shared = HotTable()
    lock = asyncio.Lock()
    outcomes: Counter[str] = Counter()
    accepted: list[float] = []
    rejected: list[float] = []

    async def replace(generation: int) -> None:
        async with lock:
            if shared.generation != generation:
                return
            for _ in range(20):
                table = await creator.create()
                if table is not None:
                    shared.table, shared.generation, shared.games = (
                        table,
                        generation + 1,
                        shared.games + 1,
                    )
                    return
                await asyncio.sleep(0.05)
            raise RuntimeError("could not create a hot game")

    async def racer(index: int, deadline: float) -> None:
        ch = channel(target)
        stub = pb_grpc.GameServiceStub(ch)
        rnd = random.Random(seed * 7919 + index)
        try:
            for _ in range(1_000_000):
                if time.perf_counter() >= deadline:
                    return
                generation, table = shared.generation, shared.table
                assert table is not None
                try:
                    got = await stub.GetGame(
                        pb.GetGameRequest(game_id=table.game_id), timeout=RPC_TIMEOUT
                    )
                    if got.game.status == "ended" or not got.game.to_act:
                        await replace(generation)
                        continue
                    seat = rnd.choice(list(got.game.to_act))
                    listed = await stub.ListLegalMoves(
                        pb.ListLegalMovesRequest(
                            game_id=table.game_id, seat=seat, page_size=PAGE_SIZE
                        ),
                        metadata=auth(table.tokens[seat]),
                        timeout=RPC_TIMEOUT,
                    )
                except grpc.aio.AioRpcError as exc:
                    outcomes[f"read:{exc.code().name}"] += 1
                    continue
                if not listed.moves:
                    outcomes["listed_nothing"] += 1
                    continue
                request = pb.SubmitMoveRequest(
                    game_id=table.game_id,
                    command_id=str(uuid.uuid4()),
                    move=rnd.choice(listed.moves),
                    seat=seat,
                    expected_version=listed.version,
                )
                t0 = time.perf_counter()
                try:
                    await stub.SubmitMove(
                        request, metadata=auth(table.tokens[seat]), timeout=RPC_TIMEOUT
                    )
                except grpc.aio.AioRpcError as exc:
                    rejected.append(time.perf_counter() - t0)
                    outcomes[exc.code().name] += 1
                    continue
                accepted.append(time.perf_counter() - t0)
                outcomes["OK"] += 1
        finally:
            await ch.close()

    try:
        await replace(0)
        start = time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(*(racer(i, start + duration) for i in range(racers))),
            timeout=duration + 2 * RPC_TIMEOUT + 10,
        )
        elapsed = time.perf_counter() - start
    finally:
        await creator.close()
    return {
        "racers": racers,
        "elapsed_s": round(elapsed, 3),
        "games": shared.games,
        "outcomes": dict(outcomes),
        "accepted": accepted,
        "rejected": rejected,
    }
