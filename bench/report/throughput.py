"""Scenario 1, the null handler (c), per-call CPU, legal-move pages and baselines (a), (b)."""

from __future__ import annotations

from typing import Any

from bench.report.lookup import ms, not_run, ok, run_at
from bench.stats import fmt


def throughput_tables(results: dict[str, Any]) -> list[str]:
    """Scenario 1, with ``--workers``, and baseline (c), in one table layout."""

    out: list[str] = []
    s1 = results.get("s1_throughput")
    null = results.get("s7c_null_grpc")
    sw_section = results.get("s1_workers")
    for title, section in (
        ("Scenario 1: move throughput (ledger server)", s1),
        (
            f"Scenario 1 with `--workers {(sw_section or {}).get('workers', '?')}` (one process per core, SO_REUSEPORT)",
            sw_section,
        ),
        ("Baseline (c): null gRPC handler, same client code", null),
    ):
        out += [f"## {title}", ""]
        if not ok(section):
            out += not_run(section)
            continue
        out += [
            "| clients | moves/s | SubmitMove p50 / p99 / p99.9 ms | ListLegalMoves p50 ms | errors | conflicts | server CPU | load gen CPU | PostgreSQL CPU | interrupts | other processes | machine busy | server CPU ms/move |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in section["runs"]:
            c = r["cpu"]
            lat = r["submit_latency_ms"]
            out.append(
                f"| {r['clients']} | {fmt(r['moves_per_s'])} | {ms(lat, 'p50')} / {ms(lat, 'p99')} / {ms(lat, 'p999')} | "
                f"{ms(r['list_latency_ms'], 'p50')} | {r['error_rate']:.2%} | {r['conflict_rate']:.2%} | "
                f"{fmt(c.get('server_cpu_pct'), 0, '%')} | {fmt(c.get('loadgen_cpu_pct'), 0, '%')} | "
                f"{fmt(c.get('postgres_cpu_pct'), 0, '%')} | {fmt(c.get('interrupts_cpu_pct'), 0, '%')} | "
                f"{fmt(c.get('other_processes_cpu_pct'), 0, '%')} | "
                f"{fmt(c.get('machine_busy_pct'), 0, '%')} | "
                f"{fmt(r.get('server_cpu_ms_per_move'), 2)} |"
            )
        out += [
            "",
            (
                "A move is one `ListLegalMoves` (page of "
                f"{(s1 or {}).get('page_size', '?')}) then one `SubmitMove` with a fresh command id, asking "
                "(`response_mask`) for all of the answer but the events, which the client never reads; moves/s counts "
                "`SubmitMove` only. Each client plays its own game of the mixed rulesets to the end, then starts another."
            ),
            "",
        ]
        if section is null and ok(null) and null.get("response_bytes"):
            out += [f"Canned responses (bytes): {null['response_bytes']}.", ""]

    return out


def rpc_costs(results: dict[str, Any]) -> list[str]:
    """Server CPU per read RPC, and SubmitMove derived from scenario 1."""
    cfg = results["config"]
    s1 = results.get("s1_throughput")
    null = results.get("s7c_null_grpc")
    out: list[str] = []
    costs = results.get("rpc_costs")
    if ok(costs):
        out += [
            "## Server CPU per call",
            "",
            (
                f"Each read RPC driven alone by {costs['clients']} clients on their own games; "
                "SubmitMove is derived from scenario 1 (server CPU per move minus one ListLegalMoves)."
            ),
            "",
            "| call | calls/s | server CPU | server CPU ms/call |",
            "|---|---|---|---|",
        ]
        for method in ("GetGame", "ListLegalMoves"):
            c = costs[method]
            out.append(
                f"| {method} | {fmt(c['calls_per_s'])} | {fmt(c['server_cpu_pct'], 0, '%')} | "
                f"{fmt(c['server_cpu_ms_per_call'], 2)} |"
            )
        head = run_at(s1, "clients", cfg["headline_clients"])
        lm = costs["ListLegalMoves"]["server_cpu_ms_per_call"]
        if head and head.get("server_cpu_ms_per_move") and lm:
            out.append(
                f"| SubmitMove (derived, {cfg['headline_clients']} clients) | — | — | "
                f"{fmt(head['server_cpu_ms_per_move'] - lm, 2)} |"
            )
        nhead = run_at(null, "clients", cfg["headline_clients"])
        if nhead and nhead.get("server_cpu_ms_per_move"):
            out.append(
                f"| null handler, any call ({cfg['headline_clients']} clients) | — | — | "
                f"{fmt(nhead['server_cpu_ms_per_move'] / 2, 2)} |"
            )
        out.append("")

    return out


def legal_pages(results: dict[str, Any]) -> list[str]:
    """ListLegalMoves pages at offsets into the Thalara hand selection."""
    out: list[str] = []
    pages = results.get("legal_move_pages")
    if ok(pages):
        out += [
            "## ListLegalMoves: a page anywhere in the Thalara hand selection",
            "",
            (
                f"Median client-observed latency of a {pages['page_size']}-move page "
                f"({pages['repeats']} calls each) at offsets into {pages['total_size']:,} "
                "legal hands, and of a `sample` of the same size."
            ),
            "",
            "| where | median ms | vs first page |",
            "|---|---|---|",
        ]
        for where, value in pages["median_ms"].items():
            out.append(
                f"| {where} | {fmt(value, 2)} | {fmt(pages['ratio_to_first'].get(where), 2)}× |"
            )
        out.append("")

    return out


def baselines_ab(results: dict[str, Any]) -> list[str]:
    """Baselines (a) pgbench and (b) eventsourcing used directly."""
    out: list[str] = []
    a = results.get("s7a_pgbench")
    out += ["## Baseline (a): pgbench, one-row INSERT per transaction", ""]
    if ok(a):
        out += [
            f"Events-shaped table (uuid, version, topic, bytea state of {a['payload_bytes']} bytes, bigserial notification id, same keys); {a['seconds']} s per run.",
            "",
            "| variant | clients | tps | latency avg ms | pgbench CPU | PostgreSQL CPU | other processes | machine busy |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in a["runs"]:
            c = r.get("cpu") or {}
            out.append(
                f"| {r['variant']} | {r['clients']} | {fmt(r['tps'])} | {fmt(r['latency_avg_ms'], 2)} | "
                f"{fmt(c.get('server_cpu_pct'), 0, '%')} | {fmt(c.get('postgres_cpu_pct'), 0, '%')} | "
                f"{fmt(c.get('other_processes_cpu_pct'), 0, '%')} | {fmt(c.get('machine_busy_pct'), 0, '%')} |"
            )
        out.append("")
    else:
        out += not_run(a)

    b = results.get("s7b_eventsourcing")
    out += [
        "## Baseline (b): eventsourcing `Application` directly, one event per transaction",
        "",
    ]
    if ok(b):
        out += [
            "| threads | events/s | save p50 / p99 ms | errors | app (this process) CPU | PostgreSQL CPU | other processes |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in b["runs"]:
            c = r.get("cpu") or {}
            lat = r.get("latency_ms") or {}
            out.append(
                f"| {r['threads']} | {fmt(r['events_per_s'])} | {ms(lat, 'p50')} / {ms(lat, 'p99')} | {r['errors']} | "
                f"{fmt(c.get('loadgen_cpu_pct'), 0, '%')} | {fmt(c.get('postgres_cpu_pct'), 0, '%')} | "
                f"{fmt(c.get('other_processes_cpu_pct'), 0, '%')} |"
            )
        out.append("")
    else:
        out += not_run(b)

    return out
