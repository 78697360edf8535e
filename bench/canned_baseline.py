"""Baseline (c): the client load of scenario 1 against real responses replayed by a null server.

Why here and not in :mod:`bench.scenarios`: this part turns one run's
captured responses into the canned set :mod:`bench.nullserver` replays, and
drives that server; it shares only the window measurement
(:mod:`bench.throughput_window`) with the ledger's scenarios.
"""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

from bench import loadgen
from bench.cpu import CpuProbe, RetryPolicy
from bench.procs import ServerProcess
from bench.throughput_window import throughput_row, window_side
from ledger.v1 import game_service_pb2 as pb

SERVICE = "/ledger.v1.GameService/"


def median_answer(
    captured: dict[str, list[bytes]],
    method: str,
    cls: Any,
    keep: Any = lambda m: True,
) -> Any:
    """The median-sized captured answer of ``method`` that ``keep`` accepts.

    :raises RuntimeError: when none was captured.
    """
    messages = [
        m for m in (cls.FromString(b) for b in captured.get(method, [])) if keep(m)
    ]
    if not messages:
        raise RuntimeError(f"no {method} response was captured")
    messages.sort(key=lambda m: m.ByteSize())
    return messages[len(messages) // 2]


def canned_responses(captured: dict[str, list[bytes]]) -> dict[str, bytes]:
    """Median-sized real responses, made consistent so a client can loop on them forever."""
    created = median_answer(
        captured,
        "CreateGame",
        pb.CreateGameResponse,
        lambda m: m.game.status == "active",
    )
    seat = created.tokens[0].seats[0]
    del created.game.to_act[:]
    created.game.to_act.append(seat)
    listed = median_answer(
        captured,
        "ListLegalMoves",
        pb.ListLegalMovesResponse,
        lambda m: len(m.moves) > 0,
    )
    submitted = median_answer(
        captured,
        "SubmitMove",
        pb.SubmitMoveResponse,
        lambda m: m.game.status == "active",
    )
    del submitted.game.to_act[:]
    submitted.game.to_act.append(seat)
    got = pb.GetGameResponse(game=submitted.game)
    return {
        SERVICE + "CreateGame": created.SerializeToString(),
        SERVICE + "ListLegalMoves": listed.SerializeToString(),
        SERVICE + "SubmitMove": submitted.SerializeToString(),
        SERVICE + "GetGame": got.SerializeToString(),
    }


def write_canned(path: Path, canned: dict[str, bytes]) -> None:
    path.write_text(
        json.dumps({k: base64.b64encode(v).decode() for k, v in canned.items()})
    )


def null_baseline(
    server: ServerProcess,
    clients: tuple[int, ...],
    warmup: float,
    window: float,
    mix: list[tuple[str, dict[str, Any]]],
    canned: dict[str, bytes],
    policy: RetryPolicy | None = None,
) -> dict[str, Any]:
    runs = []
    policy = policy or RetryPolicy()
    for n in clients:

        def once(n: int = n) -> tuple[Any, dict[str, Any]]:
            probe = CpuProbe(server.pids())
            rec, w0, w1, (cpu, _) = asyncio.run(
                loadgen.run_players(
                    server.target,
                    n,
                    warmup,
                    window,
                    mix,
                    on_window=window_side(probe),
                    seed=n,
                )
            )
            return throughput_row(n, rec, w0, w1, cpu), cpu

        row, attempts = policy.quietest(once)
        row["attempts_other_cpu_pct"] = attempts
        row["rpc_per_s"] = (row["moves_per_s"] or 0) + (row["list_calls_per_s"] or 0)
        runs.append(row)
    sizes = {k.rsplit("/", 1)[1]: len(v) for k, v in canned.items()}
    return {"status": "ok", "response_bytes": sizes, "runs": runs}
