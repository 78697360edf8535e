"""One measured window of a load run: server CPU and projection lag beside it, then its row.

Why a module of its own: scenario 1 (:mod:`bench.scenarios`) and baseline (c)
(:mod:`bench.canned_baseline`) must measure a window the same way, or their
ratio (the ledger against bare Python gRPC) compares different things.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench import loadgen
from bench.cpu import CpuProbe
from bench.stats import cpu_ms_per, error_rate, rate, summarize_ms


def window_side(probe: CpuProbe, lag: Any = None, every: float = 0.25) -> Any:
    async def side(window_end: float) -> tuple[dict[str, Any], list[float]]:
        probe.start()
        lags: list[float] = []
        for _ in range(100_000):
            now = time.perf_counter()
            if now >= window_end:
                break
            if lag is not None:
                try:
                    value = await lag.sample()
                    if value is not None:
                        lags.append(float(value))
                except Exception:  # noqa: BLE001 - a failing probe must not stop the load
                    pass
            await asyncio.sleep(min(every, max(0.0, window_end - time.perf_counter())))
        if lag is not None:
            await lag.close()
        return probe.stop(), lags

    return side


def throughput_row(
    clients: int, rec: loadgen.Recorder, w0: float, w1: float, cpu: dict[str, Any]
) -> dict[str, Any]:
    w = rec.window(w0, w1)
    seconds = w1 - w0
    moves = w["submit_ok"]
    failed = sum(w["submit_errors"].values())
    attempts = moves + failed
    server_pct = cpu.get("server_cpu_pct")
    return {
        "clients": clients,
        "window_s": round(seconds, 3),
        "moves": moves,
        "moves_per_s": rate(moves, seconds),
        "list_calls_per_s": rate(len(w["list_latencies"]), seconds),
        "games_created_in_window": len(w["create_latencies"]),
        "submit_latency_ms": summarize_ms(w["submit_latencies"]),
        "list_latency_ms": summarize_ms(w["list_latencies"]),
        "move_latency_note": "SubmitMove only; each move is also preceded by one ListLegalMoves (list_latency_ms)",
        "error_rate": error_rate(failed, attempts),
        "conflict_rate": error_rate(w["submit_errors"].get("ABORTED", 0), attempts),
        "errors": w["errors_by_method"],
        "cpu": cpu,
        "server_cpu_ms_per_move": cpu_ms_per(server_pct, seconds, moves),
        "postgres_cpu_ms_per_move": cpu_ms_per(
            cpu.get("postgres_cpu_pct"), seconds, moves
        ),
        "_latencies": w["submit_latencies"],
    }
