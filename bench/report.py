"""results.json, results.md (headline table + details) and PNG charts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeGuard

from bench.stats import fmt, met, percentile, ratio

TARGETS = {
    "moves_vs_b": 3.0,
    "moves_vs_c": 0.5,
    "p99_ms": 25.0,
    "rebuild_vs_raw": 0.5,
    "catch_up": 20_000.0,
    "lag_p99_s": 1.0,
    "stream_p99_ms": 50.0,
    "rss_mib": 1024.0,
    "page_ratio": 2.0,
}


def public(data: Any) -> Any:
    """Drop raw sample lists (keys starting with ``_`` or named ``latencies``)."""
    if isinstance(data, dict):
        return {
            k: public(v)
            for k, v in data.items()
            if not k.startswith("_") and k != "latencies"
        }
    if isinstance(data, list):
        return [public(v) for v in data]
    if isinstance(data, float):
        return round(data, 4)
    return data


def _ok(section: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(section, dict) and section.get("status") == "ok"


def _not_run(section: Any, with_reason: bool = True) -> list[str]:
    """The lines a report section shows when its scenario did not run or failed."""
    part = section or {}
    why = (part.get("reason") if with_reason else None) or part.get("error", "")
    return [f"{part.get('status', 'not run')}: {why}", ""]


def _run_at(section: Any, key: str, value: int) -> dict[str, Any] | None:
    if not _ok(section):
        return None
    return next((r for r in section.get("runs", []) if r.get(key) == value), None)


def headline(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the target table: figure, measured, baseline, ratio, target, met."""
    n = results["config"]["headline_clients"]
    s1 = _run_at(results.get("s1_throughput"), "clients", n)
    es = _run_at(results.get("s7b_eventsourcing"), "threads", n)
    null = _run_at(results.get("s7c_null_grpc"), "clients", n)
    moves = s1["moves_per_s"] if s1 else None
    rows: list[dict[str, Any]] = []

    def row(
        figure: str,
        measured: Any,
        unit: str,
        baseline: Any,
        baseline_name: str,
        r: Any,
        target: str,
        ok: Any,
        digits: int = 0,
    ) -> None:
        rows.append(
            {
                "figure": figure,
                "measured": measured,
                "unit": unit,
                "baseline": baseline,
                "baseline_name": baseline_name,
                "ratio": r,
                "target": target,
                "met": ok,
                "digits": digits,
            }
        )

    es_rate = es["events_per_s"] if es else None
    r_b = ratio(moves, es_rate)
    row(
        f"moves/s at {n} clients vs (b) eventsourcing direct, {n} threads",
        moves,
        "moves/s",
        es_rate,
        "(b) events/s",
        r_b,
        "≥ 3× (b)",
        met(r_b, ">=", TARGETS["moves_vs_b"]),
    )
    null_rate = null["moves_per_s"] if null else None
    r_c = ratio(moves, null_rate)
    row(
        f"moves/s at {n} clients vs (c) null gRPC handler, same client",
        moves,
        "moves/s",
        null_rate,
        "(c) moves/s",
        r_c,
        "≥ 50% of (c)",
        met(r_c, ">=", TARGETS["moves_vs_c"]),
    )
    sw = _run_at(results.get("s1_workers"), "clients", n)
    if sw:
        workers = results["s1_workers"].get("workers")
        mw = sw["moves_per_s"]
        r_bw = ratio(mw, es_rate)
        row(
            f"moves/s at {n} clients, `--workers {workers}` (SO_REUSEPORT) vs (b)",
            mw,
            "moves/s",
            es_rate,
            "(b) events/s",
            r_bw,
            "≥ 3× (b)",
            met(r_bw, ">=", TARGETS["moves_vs_b"]),
        )
        r_cw = ratio(mw, null_rate)
        row(
            f"moves/s at {n} clients, `--workers {workers}` vs (c)",
            mw,
            "moves/s",
            null_rate,
            "(c) moves/s",
            r_cw,
            "≥ 50% of (c)",
            met(r_cw, ">=", TARGETS["moves_vs_c"]),
        )
    p99 = s1["submit_latency_ms"]["p99"] if s1 else None
    null_p99 = null["submit_latency_ms"]["p99"] if null else None
    row(
        f"p99 SubmitMove latency at {n} clients",
        p99,
        "ms",
        null_p99,
        "(c) p99 ms",
        ratio(p99, null_p99),
        "≤ 25 ms",
        met(p99, "<=", TARGETS["p99_ms"]),
        1,
    )
    if sw:
        p99w = sw["submit_latency_ms"]["p99"]
        row(
            f"p99 SubmitMove latency at {n} clients, `--workers {results['s1_workers'].get('workers')}`",
            p99w,
            "ms",
            null_p99,
            "(c) p99 ms",
            ratio(p99w, null_p99),
            "≤ 25 ms",
            met(p99w, "<=", TARGETS["p99_ms"]),
            1,
        )
    s3 = results.get("s3_rebuild")
    if _ok(s3) and s3["sizes"]:
        big = s3["sizes"][-1]
        r = ratio(big["rebuild_events_per_s"], big["raw_read_events_per_s"])
        row(
            f"rebuild, {big['events']:,} events, no snapshot",
            big["rebuild_events_per_s"],
            "events/s",
            big["raw_read_events_per_s"],
            "raw SELECT events/s",
            r,
            "≥ 50% of raw read",
            met(r, ">=", TARGETS["rebuild_vs_raw"]),
        )
        r2 = ratio(
            big["rebuild_snapshot_effective_events_per_s"], big["raw_read_events_per_s"]
        )
        row(
            f"rebuild, {big['events']:,} events, from a snapshot {big['replayed_after_snapshot']} behind (effective)",
            big["rebuild_snapshot_effective_events_per_s"],
            "events/s",
            big["raw_read_events_per_s"],
            "raw SELECT events/s",
            r2,
            "≥ 50% of raw read",
            met(r2, ">=", TARGETS["rebuild_vs_raw"]),
        )
    else:
        row("rebuild", None, "events/s", None, "", None, "≥ 50% of raw read", None)
    s4 = results.get("s4_projections") or {}
    catch = s4.get("slowest_events_per_s") if _ok(s4) else None
    row(
        "projection catch-up (slowest view)",
        catch,
        "events/s",
        None,
        "",
        None,
        "≥ 20,000 events/s",
        met(catch, ">=", TARGETS["catch_up"]),
    )
    lag = (results.get("s1_throughput") or {}).get("projection_lag_s")
    lag_p99 = lag["p99"] / 1000 if lag and lag.get("p99") is not None else None
    row(
        f"projection lag p99 under scenario 1 ({n} clients)",
        lag_p99,
        "s",
        None,
        "",
        None,
        "< 1 s",
        met(lag_p99, "<", TARGETS["lag_p99_s"]),
        2,
    )
    for key, label in (("s5_stream_idle", "idle"), ("s5_stream_loaded", "under load")):
        s5 = results.get(key)
        if _ok(s5):
            p = s5["event_to_receipt_ms"]["p99"]
            extra = (
                f", {s5['background_clients']} clients moving"
                if s5.get("background_clients")
                else ""
            )
            row(
                f"stream latency p99, {label}{extra}",
                p,
                "ms",
                None,
                "",
                None,
                "< 50 ms",
                met(p, "<", TARGETS["stream_p99_ms"]),
                1,
            )
    pages = results.get("legal_move_pages")
    if _ok(pages):
        for where in ("50%", "99%"):
            r = pages["ratio_to_first"].get(where)
            row(
                f"ListLegalMoves page at {where} of {pages['total_size']:,} hands vs the first page",
                pages["median_ms"][where],
                "ms",
                pages["median_ms"]["0%"],
                "first page ms",
                r,
                "≤ 2× first page",
                met(r, "<=", TARGETS["page_ratio"]),
                2,
            )
    s8 = results.get("s8_dashboard")
    if _ok(s8):
        row(
            f"dashboard page render p95, worst page ({s8['worst_page']}), "
            f"{s8['finished_games']:,} finished games",
            s8["worst_p95_ms"],
            "ms",
            None,
            "",
            None,
            "≤ 200 ms",
            s8["met"],
            1,
        )
    s6 = results.get("s6_memory")
    if _ok(s6):
        if s6["games"] >= 10_000:
            rss, label = s6["rss_after_mib"], f"server RSS, {s6['games']:,} open games"
        else:
            rss, label = (
                s6["rss_at_10k_mib_extrapolated"],
                f"server RSS at 10,000 open games (extrapolated from {s6['games']:,})",
            )
        row(
            label,
            rss,
            "MiB",
            None,
            "",
            None,
            "< 1 GiB",
            met(rss, "<", TARGETS["rss_mib"]),
        )
    return rows


def _met(value: Any) -> str:
    return {True: "yes", False: "**no**", None: "n/a"}[value]


def _ms(summary: Any, key: str) -> str:
    return fmt(summary.get(key) if summary else None, 1)


def dashboard_section(s8: Any) -> list[str]:
    """Dashboard page renders at N finished games (bench/dashboard.py)."""
    out = ["## Scenario 8: dashboard page renders", ""]
    if not _ok(s8):
        return out + _not_run(s8)
    out += [
        (
            f"{s8['finished_games']:,} finished games in the views: {s8['real_finished_games']:,} real (played "
            f"through the aggregate, views caught up from the log) and {s8['cloned_finished_games']:,} cloned view "
            f"rows of them (see bench/dashboard.py). Each page rendered {s8['repeats']} times in-process after "
            f"a warm-up (full ASGI app, queries and templates, no network). Target: p95 <= {s8['target_ms']:.0f} ms."
        ),
        "",
        "| page | p50 ms | p95 ms | bytes | met? |",
        "|---|---|---|---|---|",
    ]
    for name, page in s8["pages"].items():
        met = (
            "—"
            if name.startswith("audit")
            else ("yes" if page["p95_ms"] <= s8["target_ms"] else "**no**")
        )
        out.append(
            f"| {name} | {page['p50_ms']} | {page['p95_ms']} | {page['bytes']:,} | {met} |"
        )
    return [*out, ""]


def markdown(results: dict[str, Any], charts: list[str], chart_note: str | None) -> str:
    env = results["environment"]
    cfg = results["config"]
    out = [
        "# Benchmark results",
        "",
        (
            f"`ledger bench{' --quick' if cfg['name'] == 'quick' else ''}` on {env['cpu_count']} cores ({env.get('cpu_model', '?')}), "
            f"PostgreSQL {env.get('postgres', {}).get('server_version', '?')} on 127.0.0.1, Python {env['python']}, "
            f"grpcio {env.get('grpcio', '?')}; {results['started_at']}, {results['elapsed_s']:.0f} s. "
            f"Sizes: **{cfg['name']}**. The load generator, the server, PostgreSQL and the baselines share the same "
            "cores; CPU columns say who used them (100% = one core)."
        ),
        "",
        (
            "Reproduce: `pip install -e '.[bench]' && ledger bench` (about 10 minutes; "
            "`--quick` for a CI-sized run; `BENCH_WAIT_QUIET=900` waits for a quiet machine and "
            "re-runs noisy measurements; `BENCH_PROFILE=1` adds py-spy profiles). No timing is asserted anywhere."
        ),
        "",
        "## Targets",
        "",
        "| figure | measured | baseline | ratio | target | met? |",
        "|---|---|---|---|---|---|",
    ]
    for r in results["headline"]:
        base = (
            f"{fmt(r['baseline'], r['digits'])} {r['baseline_name']}"
            if r["baseline"] is not None
            else "—"
        )
        out.append(
            f"| {r['figure']} | {fmt(r['measured'], r['digits'])} {r['unit'] if r['measured'] is not None else ''} | {base} | "
            f"{fmt(r['ratio'], 2, '×') if r['ratio'] is not None else '—'} | {r['target']} | {_met(r['met'])} |"
        )
    out.append("")
    if chart_note:
        out += [f"_{chart_note}_", ""]
    for chart in charts:
        out += [f"![{chart}]({chart})", ""]

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
        if not _ok(section):
            out += _not_run(section)
            continue
        out += [
            "| clients | moves/s | SubmitMove p50 / p99 / p99.9 ms | ListLegalMoves p50 ms | errors | conflicts | server CPU | load gen CPU | PostgreSQL CPU | interrupts | other processes | machine busy | server CPU ms/move |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in section["runs"]:
            c = r["cpu"]
            lat = r["submit_latency_ms"]
            out.append(
                f"| {r['clients']} | {fmt(r['moves_per_s'])} | {_ms(lat, 'p50')} / {_ms(lat, 'p99')} / {_ms(lat, 'p999')} | "
                f"{_ms(r['list_latency_ms'], 'p50')} | {r['error_rate']:.2%} | {r['conflict_rate']:.2%} | "
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
                f"{(s1 or {}).get('page_size', '?')}) then one `SubmitMove` with a fresh command id; moves/s counts "
                "`SubmitMove` only. Each client plays its own game of the mixed rulesets to the end, then starts another."
            ),
            "",
        ]
        if section is null and _ok(null) and null.get("response_bytes"):
            out += [f"Canned responses (bytes): {null['response_bytes']}.", ""]

    costs = results.get("rpc_costs")
    if _ok(costs):
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
        head = _run_at(s1, "clients", cfg["headline_clients"])
        lm = costs["ListLegalMoves"]["server_cpu_ms_per_call"]
        if head and head.get("server_cpu_ms_per_move") and lm:
            out.append(
                f"| SubmitMove (derived, {cfg['headline_clients']} clients) | — | — | "
                f"{fmt(head['server_cpu_ms_per_move'] - lm, 2)} |"
            )
        nhead = _run_at(null, "clients", cfg["headline_clients"])
        if nhead and nhead.get("server_cpu_ms_per_move"):
            out.append(
                f"| null handler, any call ({cfg['headline_clients']} clients) | — | — | "
                f"{fmt(nhead['server_cpu_ms_per_move'] / 2, 2)} |"
            )
        out.append("")

    pages = results.get("legal_move_pages")
    if _ok(pages):
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

    a = results.get("s7a_pgbench")
    out += ["## Baseline (a): pgbench, one-row INSERT per transaction", ""]
    if _ok(a):
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
        out += _not_run(a)

    b = results.get("s7b_eventsourcing")
    out += [
        "## Baseline (b): eventsourcing `Application` directly, one event per transaction",
        "",
    ]
    if _ok(b):
        out += [
            "| threads | events/s | save p50 / p99 ms | errors | app (this process) CPU | PostgreSQL CPU | other processes |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in b["runs"]:
            c = r.get("cpu") or {}
            lat = r.get("latency_ms") or {}
            out.append(
                f"| {r['threads']} | {fmt(r['events_per_s'])} | {_ms(lat, 'p50')} / {_ms(lat, 'p99')} | {r['errors']} | "
                f"{fmt(c.get('loadgen_cpu_pct'), 0, '%')} | {fmt(c.get('postgres_cpu_pct'), 0, '%')} | "
                f"{fmt(c.get('other_processes_cpu_pct'), 0, '%')} |"
            )
        out.append("")
    else:
        out += _not_run(b)

    h = results.get("s2_hot_game")
    out += ["## Scenario 2: hot game (clients racing with `expected_version`)", ""]
    if _ok(h):
        out += [
            (
                f"{h['racers']} clients on one game for {h['elapsed_s']:.1f} s ({h['games']} game(s) played through): "
                f"{fmt(h['accepted_per_s'], 1)} accepted/s, {fmt(h['rejected_per_s'], 1)} rejected/s "
                f"(accept ratio {fmt(h['accept_ratio'], 2)}); outcomes {h['outcomes']}."
            ),
            (
                f"Accepted latency p50/p99 {_ms(h['accepted_latency_ms'], 'p50')}/{_ms(h['accepted_latency_ms'], 'p99')} ms; "
                f"rejected p50/p99 {_ms(h['rejected_latency_ms'], 'p50')}/{_ms(h['rejected_latency_ms'], 'p99')} ms."
            ),
            "",
        ]
    else:
        out += _not_run(h, with_reason=False)

    s3 = results.get("s3_rebuild")
    out += ["## Scenario 3: rebuild from PostgreSQL", ""]
    if _ok(s3):
        out += [
            f"Game: {s3['game']}; median of {s3['repeats']}; snapshot interval {s3['snapshot_interval']}.",
            "",
            "| events | raw SELECT events/s | + json.loads events/s | SELECT + decode to events/s | rebuild, no snapshot events/s | ms | rebuild from snapshot (effective) events/s | ms | snapshot bytes | ratio rebuild/raw |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in s3["sizes"]:
            out.append(
                f"| {r['events']:,} | {fmt(r['raw_read_events_per_s'])} | {fmt(r['raw_read_json_events_per_s'])} | "
                f"{fmt(r.get('read_decode_events_per_s'))} | {fmt(r['rebuild_events_per_s'])} | {fmt(r['rebuild_ms'], 1)} | {fmt(r['rebuild_snapshot_effective_events_per_s'])} | "
                f"{fmt(r['rebuild_snapshot_ms'], 1)} | {fmt(r['snapshot_bytes'])} | "
                f"{fmt(ratio(r['rebuild_events_per_s'], r['raw_read_events_per_s']), 2)} |"
            )
        out += [
            "",
            (
                "Long games are real Thorgal openings followed by real Thorgal events spliced back to back "
                "(no game runs to 5,000 events); the snapshot case replays a full interval of events on top of the snapshot (worst case)."
            ),
            "",
        ]
    else:
        out += _not_run(s3, with_reason=False)

    s4 = results.get("s4_projections") or {}
    out += ["## Scenario 4: projection catch-up", ""]
    if _ok(s4):
        out += [
            (
                f"Log pre-filled to {s4['events_after']:,} events ({s4['games_added']:,} complete random games added in "
                f"{s4['prefill_s']} s); each view reset and timed catching up from position 0."
            ),
            "",
            "| view | topics | log positions | seconds | positions/s |",
            "|---|---|---|---|---|",
        ]
        for name, v in s4["views"].items():
            topics = (
                v["topics"] if isinstance(v["topics"], str) else ", ".join(v["topics"])
            )
            out.append(
                f"| {name} | {topics} | {v['positions']:,} | {fmt(v['seconds'], 2)} | {fmt(v['events_per_s'])} |"
            )
        lag = (results.get("s1_throughput") or {}).get("projection_lag_s")
        if lag and lag.get("count"):
            out += [
                "",
                (
                    f"Lag during scenario 1 at {cfg['headline_clients']} clients (age of the oldest event the slowest view "
                    f"has not applied, {lag['count']} samples): p50 {fmt(lag['p50'] / 1000, 3)} s, p99 {fmt(lag['p99'] / 1000, 3)} s, "
                    f"max {fmt(lag['max'] / 1000, 3)} s (views run inside `ledger serve`)."
                ),
            ]
        out.append("")
    else:
        out += _not_run(s4)

    out += dashboard_section(results.get("s8_dashboard"))

    out += ["## Scenario 5: live stream latency", ""]
    for key in ("s5_stream_idle", "s5_stream_loaded"):
        s5 = results.get(key)
        if s5 is None:
            continue
        if not _ok(s5):
            out += [f"{key}: {s5.get('status')}: {s5.get('error', '')}", ""]
            continue
        e, r = s5["event_to_receipt_ms"], s5.get("response_to_receipt_ms") or {}
        out.append(
            f"- {'idle' if not s5['background_clients'] else str(s5['background_clients']) + ' clients moving in the background'}: "
            f"{s5['delivered_events']} events to {s5['subscribers']} subscribers over {s5['moves']} moves; "
            f"event timestamp → receipt p50 {_ms(e, 'p50')} ms, p99 {_ms(e, 'p99')} ms, max {_ms(e, 'max')} ms; "
            f"mover's SubmitMove response → receipt p50 {_ms(r, 'p50')} ms, p99 {_ms(r, 'p99')} ms"
            + (
                f"; background {fmt(s5.get('background_moves_per_s'))} moves/s"
                if s5.get("background_moves_per_s")
                else ""
            )
        )
    out += [
        "",
        (
            "The event timestamp is taken by the server when the move is decided, just before the commit, so "
            "timestamp → receipt bounds commit → receipt from above."
        ),
        "",
    ]

    s6 = results.get("s6_memory")
    out += ["## Scenario 6: memory", ""]
    if _ok(s6):
        out += [
            (
                f"{s6['games']:,} open games created over gRPC ({fmt(s6['create_per_s'])} games/s) and each touched with its seat token; "
                f"server with `LEDGER_CACHE_SIZE` ≥ games so all stay resident. RSS idle {fmt(s6['rss_idle_mib'])} MiB → "
                f"{fmt(s6['rss_after_mib'])} MiB (peak {fmt(s6['peak_rss_mib'])} MiB), {fmt(s6['kib_per_open_game'], 1)} KiB per open game."
            ),
            "",
        ]
    else:
        out += _not_run(s6, with_reason=False)

    an = results.get("anatomy")
    out += ["## Where a move's time goes (in-process, one thread, no gRPC)", ""]
    if _ok(an):
        out += [
            (
                f"{an['moves']} moves of the mixed games through `GameLedger` as `SubmitMove` calls it: "
                f"{fmt(an['moves_per_s_one_thread'])} moves/s on one thread. Nested rows are included in their parents."
            ),
            "",
            "| step | calls/move | wall ms/move | CPU ms/move |",
            "|---|---|---|---|",
        ]
        for r in an["steps"]:
            out.append(
                f"| {r['step'].strip()} | {r['per_move']} | {fmt(r['wall_ms_per_move'], 3)} | {fmt(r['cpu_ms_per_move'], 3)} |"
            )
        out.append("")
    else:
        out += _not_run(an, with_reason=False)

    prof = results.get("profile")
    out += ["## Server profile under scenario 1", ""]
    if _ok(prof):
        out += [
            (
                f"py-spy on the server process, {prof['clients']} clients, two separate runs "
                "from the measured one. *GIL holder only* shows where the one core a Python "
                "process can use goes; *all non-idle threads* also counts threads blocked "
                "in the database driver (a wall-clock view)."
            ),
            "",
        ]
        for key in ("gil", "threads"):
            p = prof.get(key) or {}
            if p.get("status") != "ok":
                continue
            out += [
                f"### {p['mode']} ({p['samples']} samples)",
                "",
                "| thread | share |",
                "|---|---|",
                *[f"| {k} | {v}% |" for k, v in p.get("thread_pct", [])],
                "",
                "| area (leaf-most match) | share |",
                "|---|---|",
                *[f"| {k} | {v}% |" for k, v in p["area_pct"]],
                "",
                "| function (self) | share |",
                "|---|---|",
                *[f"| `{k}` | {v}% |" for k, v in p["self_pct"][:12]],
                "",
            ]
    else:
        out += [
            f"{(prof or {}).get('status', 'not run')}: {(prof or {}).get('reason', 'set BENCH_PROFILE=1 with py-spy installed')}",
            "",
        ]

    out += ["## Environment", "", "```", json.dumps(env, indent=1), "```", ""]
    failures = [
        k
        for k, v in results.items()
        if isinstance(v, dict) and v.get("status") == "failed"
    ]
    if failures:
        out += (
            ["## Failed scenarios", ""]
            + [f"- {k}: {results[k].get('error')}" for k in failures]
            + [""]
        )
    return "\n".join(out)


def charts(
    results: dict[str, Any], raw: dict[str, Any], out_dir: Path
) -> tuple[list[str], str | None]:
    """PNG charts; skipped with a note when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return (
            [],
            "Charts skipped: matplotlib is not installed (pip install 'game-ledger[bench]').",
        )
    made: list[str] = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        fig.savefig(out_dir / name, dpi=110)
        plt.close(fig)
        made.append(name)

    s1, null = results.get("s1_throughput"), results.get("s7c_null_grpc")
    es, pgb = results.get("s7b_eventsourcing"), results.get("s7a_pgbench")
    if _ok(s1):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        xs = [r["clients"] for r in s1["runs"]]
        ax.plot(
            xs, [r["moves_per_s"] for r in s1["runs"]], "o-", label="ledger: moves/s"
        )
        sw = results.get("s1_workers")
        if _ok(sw):
            ax.plot(
                [r["clients"] for r in sw["runs"]],
                [r["moves_per_s"] for r in sw["runs"]],
                "o-",
                label=f"ledger --workers {sw.get('workers')}: moves/s",
            )
        if _ok(null):
            ax.plot(
                [r["clients"] for r in null["runs"]],
                [r["moves_per_s"] for r in null["runs"]],
                "s--",
                label="(c) null gRPC handler: moves/s",
            )
        if _ok(es):
            ax.plot(
                [r["threads"] for r in es["runs"]],
                [r["events_per_s"] for r in es["runs"]],
                "^--",
                label="(b) eventsourcing direct: events/s",
            )
        if _ok(pgb):
            for variant, marker in (("insert", "x"), ("insert+table lock", "+")):
                pts = [
                    (r["clients"], r["tps"])
                    for r in pgb["runs"]
                    if r["variant"] == variant and r["tps"]
                ]
                if pts:
                    ax.plot(
                        *zip(*pts), marker + ":", label=f"(a) pgbench {variant}: tps"
                    )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("concurrent clients / threads")
        ax.set_ylabel("per second (log)")
        ax.set_title("Throughput vs baselines (same run, same machine)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        save(fig, "throughput.png")

        fig, ax = plt.subplots(figsize=(7, 4.2))
        for key, label in (("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")):
            ax.plot(
                xs,
                [r["submit_latency_ms"][key] for r in s1["runs"]],
                "o-",
                label=f"ledger SubmitMove {label}",
            )
        if _ok(null):
            ax.plot(
                [r["clients"] for r in null["runs"]],
                [r["submit_latency_ms"]["p99"] for r in null["runs"]],
                "s--",
                label="(c) null handler p99",
            )
        ax.axhline(
            TARGETS["p99_ms"], color="red", lw=0.8, ls=":", label="target p99 25 ms"
        )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("concurrent clients")
        ax.set_ylabel("ms (log)")
        ax.set_title("SubmitMove latency")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        save(fig, "latency.png")

        fig, ax = plt.subplots(figsize=(7, 4.2))
        labels = [str(x) for x in xs]
        bottom = [0.0] * len(xs)
        for key, label in (
            ("server_cpu_pct", "ledger server"),
            ("postgres_cpu_pct", "PostgreSQL (this database)"),
            ("loadgen_cpu_pct", "load generator"),
            ("interrupts_cpu_pct", "interrupts (loopback, disk)"),
            ("other_processes_cpu_pct", "other processes on the machine"),
        ):
            vals = [r["cpu"].get(key) or 0.0 for r in s1["runs"]]
            ax.bar(labels, vals, bottom=bottom, label=label)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.axhline(
            results["environment"]["cpu_count"] * 100,
            color="black",
            lw=0.8,
            ls=":",
            label="all cores",
        )
        ax.set_xlabel("concurrent clients")
        ax.set_ylabel("CPU % (100 = one core)")
        ax.set_title("Who uses the CPU during scenario 1")
        ax.legend(fontsize=7)
        save(fig, "cpu.png")

    s3 = results.get("s3_rebuild")
    if _ok(s3):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        sizes = [r["events"] for r in s3["sizes"]]
        series = (
            ("raw_read_events_per_s", "raw SELECT"),
            ("raw_read_json_events_per_s", "SELECT + json.loads"),
            ("read_decode_events_per_s", "SELECT + decode to events"),
            ("rebuild_events_per_s", "rebuild, no snapshot"),
            (
                "rebuild_snapshot_effective_events_per_s",
                "rebuild from snapshot (effective)",
            ),
        )
        width = 0.16
        for i, (key, label) in enumerate(series):
            ax.bar(
                [j + (i - 2) * width for j in range(len(sizes))],
                [r[key] or 0 for r in s3["sizes"]],
                width,
                label=label,
            )
        ax.set_xticks(range(len(sizes)), [f"{s:,}" for s in sizes])
        ax.set_yscale("log")
        ax.set_xlabel("events in the game")
        ax.set_ylabel("events/s (log)")
        ax.set_title("Rebuild from PostgreSQL")
        ax.legend(fontsize=7)
        ax.grid(True, axis="y", which="both", alpha=0.3)
        save(fig, "rebuild.png")

    streams = [
        (k, raw[k]) for k in ("s5_stream_idle", "s5_stream_loaded") if raw.get(k)
    ]
    if streams:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for key, values in streams:
            data = sorted(v * 1000 for v in values)
            ax.plot(
                data,
                [(i + 1) / len(data) for i in range(len(data))],
                label="idle" if key.endswith("idle") else "under load",
            )
        ax.axvline(
            TARGETS["stream_p99_ms"],
            color="red",
            lw=0.8,
            ls=":",
            label="target p99 50 ms",
        )
        ax.set_xscale("log")
        ax.set_xlabel("event timestamp → stream receipt, ms (log)")
        ax.set_ylabel("fraction of events")
        ax.set_title("Live stream latency (CDF)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        save(fig, "stream.png")
    return made, None


def write(results: dict[str, Any], raw: dict[str, Any], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    results["headline"] = headline(results)
    made, note = charts(results, raw, out_dir)
    results["charts"] = made
    if note:
        results["charts_note"] = note
    (out_dir / "results.json").write_text(
        json.dumps(public(results), indent=1, default=str) + "\n"
    )
    (out_dir / "results.md").write_text(markdown(results, made, note))


__all__ = ["charts", "headline", "markdown", "percentile", "write"]
