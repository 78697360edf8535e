"""Live subscribers against delivery latency, across 3 servers on one database.

``python -m bench.subscribers [--quick]``: three ``ledger serve`` processes (the
stateless tier of ``deploy/local/``), one mover playing a game on the first,
and N spectator streams of that game spread round-robin over all three (as
many streams per HTTP/2 connection as the server allows by default).  Per
delivered event: the receipt time minus the mover's ``SubmitMove`` response time (so the commit and the other
servers' LISTEN/NOTIFY wake-up are included, the mover's round trip is not),
and whether every subscriber got every event exactly once.

Each size runs twice: with the in-process fan-out (one LISTEN connection per
server; a stream on a server that did not record the move re-reads the
events from PostgreSQL) and through NATS JetStream (``LEDGER_NATS_URL``: one
consumer per game per server, streams served from its tail).  The load
generator shares the machine's cores with the servers and PostgreSQL, so at
thousands of subscribers the client's own receive loop is part of the figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc

from bench import db, procs, setups
from bench.cpu import proc_cpu_seconds
from bench.loadgen import RPC_TIMEOUT, Player, Recorder, channel
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.live.nats_options import NatsOptions
from services.live.nats_stream import set_up
from services.runtime.settings import Settings

FULL_COUNTS = (100, 1_000, 5_000)
QUICK_COUNTS = (20, 100)
#: Streams per HTTP/2 connection: the server's default cap
#: (``LEDGER_STREAMS_PER_CONNECTION``); more are refused with RESOURCE_EXHAUSTED
#: and would show as subscribers that got nothing.
STREAMS_PER_CHANNEL = int(Settings.model_fields["streams_per_connection"].default)


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _one(
    targets: list[str], pids: list[int], subscribers: int, moves: int
) -> dict[str, Any]:
    mix = [m for m in setups.game_mix() if m[0] == "thalara"] or setups.game_mix()
    mover = Player(targets[0], mix, 7, Recorder())
    table = None
    while table is None:
        table = await mover.create()
    head = (
        await mover.stub.GetGame(
            pb.GetGameRequest(game_id=table.game_id), timeout=RPC_TIMEOUT
        )
    ).game.version
    per_server = [
        [
            channel(t)
            for _ in range(
                max(1, -(-subscribers // (len(targets) * STREAMS_PER_CHANNEL)))
            )
        ]
        for t in targets
    ]
    received: dict[int, list[tuple[int, float]]] = {i: [] for i in range(subscribers)}
    errors: list[str] = []

    async def follow(i: int) -> None:
        chans = per_server[i % len(targets)]
        stub = pb_grpc.GameServiceStub(chans[(i // len(targets)) % len(chans)])
        call = stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=table.game_id, after_version=head),
            timeout=600,
        )
        try:
            async for event in call:
                received[i].append((event.version, time.time()))
        except grpc.aio.AioRpcError as exc:
            # our own cancel (below) arrives as asyncio.CancelledError, so a
            # CANCELLED status is the server's or grpc core's: an error
            errors.append(exc.code().name)

    cpu_before = sum(proc_cpu_seconds(pid) or 0.0 for pid in pids)
    started = time.monotonic()
    tasks = [asyncio.create_task(follow(i)) for i in range(subscribers)]
    await asyncio.sleep(1.0 + subscribers / 2_000)  # every stream subscribed
    answered: dict[int, float] = {}
    made = 0
    for _ in range(moves):
        mover.last_submit = None
        going = await mover.move(table)
        if mover.last_submit is not None:
            made += 1
            at, first, last = mover.last_submit
            for version in range(first, last + 1):
                answered[version] = at
        if not going:
            break
        await asyncio.sleep(0.5)  # a human pace; lets each move's fan-out finish
    deadline = (
        time.monotonic() + 90
    )  # drain: the client loop is the bottleneck at 5,000
    last_version = max(answered, default=head)
    while time.monotonic() < deadline and any(
        not r or r[-1][0] < last_version for r in received.values()
    ):
        await asyncio.sleep(0.1)
    server_cpu_s = sum(proc_cpu_seconds(pid) or 0.0 for pid in pids) - cpu_before
    row_s = time.monotonic() - started
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for chans in per_server:
        for ch in chans:
            await ch.close()
    await mover.close()
    latencies = [
        (stamp - answered[v]) * 1000
        for r in received.values()
        for v, stamp in r
        if v in answered
    ]
    expected = list(range(head + 1, last_version + 1))
    complete = sum(1 for r in received.values() if [v for v, _ in r] == expected)
    duplicates = sum(len(r) - len({v for v, _ in r}) for r in received.values())
    missing = sum(len(set(expected) - {v for v, _ in r}) for r in received.values())
    return {
        "subscribers": subscribers,
        "servers": len(targets),
        "moves": made,
        "events": len(expected),
        "deliveries": len(latencies),
        "subscribers_with_every_event_once": complete,
        "duplicates": duplicates,
        "missing_after_drain": missing,
        "stream_errors": len(errors),
        "stream_error_codes": dict(Counter(errors)),
        "row_s": round(row_s, 1),
        "server_cpu_s": round(server_cpu_s, 2),
        # the serving processes' CPU (not their views' children) while the
        # streams were open, per delivered message: the spectator cost
        "server_cpu_ms_per_delivery": round(1000 * server_cpu_s / len(latencies), 3)
        if latencies
        else None,
        "p50_ms": _round(_pct(latencies, 0.5)),
        "p99_ms": _round(_pct(latencies, 0.99)),
        "max_ms": _round(max(latencies, default=None)),
        "mean_ms": _round(statistics.fmean(latencies) if latencies else None),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def run(
    url: str, workdir: Path, counts: tuple[int, ...], moves: int, nats: str | None
) -> list[dict]:
    """Each count with the in-process fan-out, then (``nats``) through JetStream."""
    rows = []
    for fanout in ("in-process", "jetstream") if nats else ("in-process",):
        env = {}
        if fanout == "jetstream" and nats:
            # one key for the three, as a deployment shares it (records travel
            # sealed with it), and the stream made as the NATS admin makes it
            env = {"LEDGER_NATS_URL": nats, "LEDGER_SIGNING_KEY": secrets.token_hex(32)}
            asyncio.run(set_up(nats, NatsOptions(), 1, 10.0))
        servers = [
            procs.start_ledger_server(
                url, workdir, name=f"sub{i}-{fanout}", pool_size=4, extra_env=env
            )
            for i in range(3)
        ]
        try:
            targets = [s.target for s in servers]
            for n in counts:
                pids = [s.pid for s in servers]
                rows.append(
                    {"fanout": fanout, **asyncio.run(_one(targets, pids, n, moves))}
                )
        finally:
            for server in servers:
                server.stop()
    return rows


def markdown(rows: list[dict]) -> str:
    lines = [
        "| fan-out | live subscribers (3 servers) | moves | events | deliveries | every event exactly once | duplicates | missing | stream errors | p50 ms | p99 ms | max ms | server CPU ms per delivery |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['fanout']} | {r['subscribers']:,} | {r['moves']} | {r['events']} | {r['deliveries']:,} | "
            f"{r['subscribers_with_every_event_once']:,}/{r['subscribers']:,} | {r['duplicates']} | "
            f"{r['missing_after_drain']} | {r.get('stream_errors', '—')} | {r['p50_ms']} | "
            f"{r['p99_ms']} | {r['max_ms']} | {r.get('server_cpu_ms_per_delivery', '—')} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.subscribers")
    parser.add_argument("--quick", action="store_true", help="CI sizes")
    parser.add_argument("--out", default=None, help="write JSON rows here")
    parser.add_argument(
        "--nats",
        default="nats://127.0.0.1:4222",
        help="also measure the JetStream fan-out here; '' = in-process only",
    )
    args = parser.parse_args()
    counts = QUICK_COUNTS if args.quick else FULL_COUNTS
    moves = 4 if args.quick else 10
    workdir = procs.make_workdir()
    with db.bench_database() as url:
        rows = run(url, workdir, counts, moves, args.nats or None)
    print(markdown(rows))
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
