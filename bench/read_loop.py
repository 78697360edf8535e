"""Read-only RPC costs: clients calling ``GetGame`` or ``ListLegalMoves`` in a loop.

Why apart from :mod:`bench.loadgen`: no move is made, so the figure is the
price of one read on a game that does not change, separate from the player
loop that mixes reads and writes.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench.loadgen import PAGE_SIZE, RPC_TIMEOUT, Player, Recorder, Table, auth
from ledger.v1 import game_service_pb2 as pb


async def run_read_loop(
    target: str,
    clients: int,
    duration: float,
    method: str,
    mix: list[tuple[str, dict[str, Any]]],
    on_window: Any = None,
) -> tuple[int, float, Any]:
    """``clients`` clients calling one read RPC on their own game for ``duration`` s.

    Returns (calls completed, seconds, on_window's result).
    """
    rec = Recorder()
    players = [Player(target, mix, 500 + i, rec) for i in range(clients)]
    calls = 0
    try:
        tables = [await p.create() for p in players]
        if any(t is None for t in tables):
            raise RuntimeError("could not create the games to read")
        start = time.perf_counter()
        end = start + duration

        async def reader(player: Player, table: Table) -> None:
            nonlocal calls
            seat = table.to_act[0] if table.to_act else min(table.tokens)
            metadata = auth(table.tokens[seat])
            for _ in range(10_000_000):
                if time.perf_counter() >= end:
                    return
                if method == "GetGame":
                    await player.stub.GetGame(
                        pb.GetGameRequest(game_id=table.game_id),
                        metadata=metadata,
                        timeout=RPC_TIMEOUT,
                    )
                else:
                    await player.stub.ListLegalMoves(
                        pb.ListLegalMovesRequest(
                            game_id=table.game_id, seat=seat, page_size=PAGE_SIZE
                        ),
                        metadata=metadata,
                        timeout=RPC_TIMEOUT,
                    )
                calls += 1

        readers = asyncio.gather(*(reader(p, t) for p, t in zip(players, tables)))  # type: ignore[arg-type]
        side = await on_window(end) if on_window is not None else None
        await asyncio.wait_for(readers, timeout=duration + RPC_TIMEOUT + 10)
        elapsed = time.perf_counter() - start
    finally:
        for p in players:
            await p.close()
    return calls, elapsed, side
