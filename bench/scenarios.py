"""Scenarios that drive a server process over gRPC: 1, 2, 5 and 6.

Baseline (c), which replays their captured responses, is :mod:`bench.canned_baseline`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import grpc

from bench import loadgen
from bench.cpu import CpuProbe, RetryPolicy, proc_rss_bytes
from bench.hot_game import run_hot_game
from bench.procs import ServerProcess
from bench.read_loop import run_read_loop
from bench.stats import cpu_ms_per, rate, summarize_ms
from bench.stream_latency import CommitClock, run_stream_latency
from bench.throughput_window import throughput_row, window_side
from ledger.v1 import game_service_pb2 as pb


def throughput(
    server: ServerProcess,
    clients: tuple[int, ...],
    warmup: float,
    window: float,
    mix: list[tuple[str, dict[str, Any]]],
    headline: int,
    lag: Any = None,
    policy: RetryPolicy | None = None,
    player: type[loadgen.Player] | None = None,
) -> tuple[dict[str, Any], dict[str, list[bytes]]]:
    """Scenario 1 at each concurrency; also returns captured real responses (for baseline c).

    ``player``: the client class (:class:`bench.session_player.SessionPlayer`
    plays the same mix over seat sessions); captured answers only from the
    unary client's, the null handler's baseline replays those."""
    runs = []
    captured: dict[str, list[bytes]] = {}
    lag_samples: list[float] = []
    policy = policy or RetryPolicy()
    for i, n in enumerate(clients):

        def once(n: int = n, first: bool = i == 0) -> tuple[Any, dict[str, Any]]:
            probe = CpuProbe(server.pids())
            rec, w0, w1, (cpu, lags) = asyncio.run(
                loadgen.run_players(
                    server.target,
                    n,
                    warmup,
                    window,
                    mix,
                    on_window=window_side(probe, lag if n == headline else None),
                    capture=first and player is None,
                    seed=n,
                    player=None
                    if player is None
                    else lambda s, r: player(server.target, mix, s, r),
                )
            )
            return (throughput_row(n, rec, w0, w1, cpu), rec, lags), cpu

        (row, rec, lags), attempts = policy.quietest(once)
        row["attempts_other_cpu_pct"] = attempts
        if rec.capture:
            captured = rec.capture
        if n == headline:
            lag_samples = lags
        runs.append(row)
    result: dict[str, Any] = {
        "status": "ok",
        "page_size": loadgen.PAGE_SIZE,
        "runs": runs,
    }
    if lag is not None:
        result["projection_lag_s"] = summarize_ms(lag_samples)  # values in s*1000 -> ms
    return result, captured


def throughput_over_sessions(
    server: ServerProcess,
    clients: tuple[int, ...],
    warmup: float,
    window: float,
    mix: list[tuple[str, dict[str, Any]]],
    policy: RetryPolicy | None = None,
) -> dict[str, Any]:
    """Scenario 1 at each concurrency, each move over a seat session
    (:class:`bench.session_player.SessionPlayer`): the ``s1_sessions`` section."""
    from bench.session_player import SessionPlayer

    section, _ = throughput(
        server, clients, warmup, window, mix, clients[-1], None, policy, SessionPlayer
    )
    for row in section["runs"]:
        row.pop("_latencies", None)
    return section


def throughput_watching(
    server: ServerProcess,
    clients: int,
    warmup: float,
    window: float,
    mix: list[tuple[str, dict[str, Any]]],
    policy: RetryPolicy | None = None,
) -> dict[str, Any]:
    """Scenario 1 at ``clients`` over unary calls, every seat also watching
    its game's events (:class:`bench.loadgen.WatchingPlayer`): what a seat
    session's CPU per move compares with (``s1_watching``)."""
    section, _ = throughput(
        server,
        (clients,),
        warmup,
        window,
        mix,
        clients,
        None,
        policy,
        loadgen.WatchingPlayer,
    )
    for row in section["runs"]:
        row.pop("_latencies", None)
    return section


def rpc_costs(
    server: ServerProcess,
    clients: int,
    seconds: float,
    mix: list[tuple[str, dict[str, Any]]],
) -> dict[str, Any]:
    """Server CPU per call of the read RPCs a move needs, each driven alone."""
    out: dict[str, Any] = {"status": "ok", "clients": clients}
    for method in ("GetGame", "ListLegalMoves"):
        probe = CpuProbe(server.pids())
        calls, elapsed, (cpu, _) = asyncio.run(
            run_read_loop(
                server.target, clients, seconds, method, mix, window_side(probe)
            )
        )
        pct = cpu.get("server_cpu_pct")
        out[method] = {
            "calls_per_s": rate(calls, elapsed),
            "server_cpu_pct": pct,
            "server_cpu_ms_per_call": cpu_ms_per(pct, cpu["wall_s"], calls),
            "cpu": cpu,
        }
    return out


def hot_game(
    server: ServerProcess,
    racers: int,
    seconds: float,
    mix: list[tuple[str, dict[str, Any]]],
) -> dict[str, Any]:
    probe = CpuProbe(server.pids()).start()
    out = asyncio.run(run_hot_game(server.target, racers, seconds, mix))
    cpu = probe.stop()
    accepted, rejected = out.pop("accepted"), out.pop("rejected")
    attempts = len(accepted) + len(rejected)
    return {
        "status": "ok",
        **out,
        "accepted_per_s": rate(len(accepted), out["elapsed_s"]),
        "rejected_per_s": rate(len(rejected), out["elapsed_s"]),
        "accept_ratio": len(accepted) / attempts if attempts else None,
        "accepted_latency_ms": summarize_ms(accepted),
        "rejected_latency_ms": summarize_ms(rejected),
        "cpu": cpu,
    }


def stream_latency(
    server: ServerProcess,
    seconds: float,
    moves: int,
    subscribers: int,
    mix: list[tuple[str, dict[str, Any]]],
    background_clients: int = 0,
    database_url: str | None = None,
) -> dict[str, Any]:
    # a short, sequential game with several seats keeps every stream busy
    stream_mix = [m for m in mix if m[0] == "thalara"] or mix

    async def go() -> tuple[dict[str, Any], Any]:
        background = None
        if background_clients:
            background = asyncio.create_task(
                loadgen.run_players(
                    server.target, background_clients, 0.0, seconds + 3.0, mix, seed=99
                )
            )
            await asyncio.sleep(1.5)
        try:
            result = await run_stream_latency(
                server.target,
                seconds,
                moves,
                subscribers,
                0.02,
                stream_mix,
                clock=clock,
            )
        finally:
            bg = await background if background is not None else None
        return result, bg

    probe = CpuProbe(server.pids()).start()
    with contextlib.ExitStack() as stack:
        clock = stack.enter_context(CommitClock(database_url)) if database_url else None
        result, bg = asyncio.run(go())
    cpu = probe.stop()
    delivered, after = result.pop("delivered"), result.pop("after_response")
    committed = result.pop("after_commit")
    out = {
        "status": "ok",
        "background_clients": background_clients,
        **result,
        "delivered_events": len(delivered),
        "event_to_receipt_ms": summarize_ms(delivered),
        "response_to_receipt_ms": summarize_ms(after) if after else None,
        # the target's "commit -> subscriber": receipt minus the commit's
        # notification as a LISTEN connection of the bench's own saw it
        "commit_to_receipt_ms": summarize_ms(committed) if committed else None,
        "cpu": cpu,
        "_latencies": delivered,
    }
    if bg is not None:
        rec = bg[0]
        out["background_moves_per_s"] = rate(len(rec.submit), seconds + 3.0)
    return out


def memory(
    server: ServerProcess,
    games: int,
    concurrency: int,
    mix: list[tuple[str, dict[str, Any]]],
) -> dict[str, Any]:
    """Create ``games`` open games (each also touched with its seat token); RSS before/after."""
    idle = proc_rss_bytes(server.pid) or {}

    async def go() -> tuple[int, int, float]:
        created = 0
        failed = 0
        counter = iter(range(games))
        t0 = time.perf_counter()

        async def worker(index: int) -> None:
            nonlocal created, failed
            rec = loadgen.Recorder()
            player = loadgen.Player(server.target, mix, index, rec)
            try:
                for _ in counter:
                    table = await player.create()
                    if table is None:
                        failed += 1
                        continue
                    seat = table.to_act[0] if table.to_act else min(table.tokens)
                    try:
                        await player.stub.ListLegalMoves(
                            pb.ListLegalMovesRequest(
                                game_id=table.game_id, seat=seat, page_size=1
                            ),
                            metadata=loadgen.auth(table.tokens[seat]),
                            timeout=loadgen.RPC_TIMEOUT,
                        )
                    except grpc.aio.AioRpcError:
                        failed += 1
                    created += 1
            finally:
                await player.close()

        await asyncio.wait_for(
            asyncio.gather(*(worker(i) for i in range(concurrency))), timeout=1800
        )
        return created, failed, time.perf_counter() - t0

    created, failed, elapsed = asyncio.run(go())
    time.sleep(1.0)
    after = proc_rss_bytes(server.pid) or {}
    rss_idle, rss_after = idle.get("VmRSS"), after.get("VmRSS")
    per_game = (
        (rss_after - rss_idle) / created if rss_idle and rss_after and created else None
    )
    return {
        "status": "ok",
        "games": created,
        "failed_calls": failed,
        "create_per_s": rate(created, elapsed),
        "rss_idle_mib": rss_idle / 2**20 if rss_idle else None,
        "rss_after_mib": rss_after / 2**20 if rss_after else None,
        "peak_rss_mib": after["VmHWM"] / 2**20 if after.get("VmHWM") else None,
        "kib_per_open_game": per_game / 1024 if per_game else None,
        "rss_at_10k_mib_extrapolated": (rss_idle + per_game * 10_000) / 2**20
        if per_game and rss_idle
        else None,
    }
