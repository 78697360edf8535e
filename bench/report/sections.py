"""Scenarios 2 to 6 and the in-process anatomy of a move: one function per section."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.report.lookup import ms, not_run, ok
from bench.stats import fmt, ratio
from bench.subscribers import markdown as subscriber_table


def hot_game(results: dict[str, Any]) -> list[str]:
    """Scenario 2."""
    out: list[str] = []
    h = results.get("s2_hot_game")
    out += ["## Scenario 2: hot game (clients racing with `expected_version`)", ""]
    if ok(h):
        out += [
            (
                f"{h['racers']} clients on one game for {h['elapsed_s']:.1f} s ({h['games']} game(s) played through): "
                f"{fmt(h['accepted_per_s'], 1)} accepted/s, {fmt(h['rejected_per_s'], 1)} rejected/s "
                f"(accept ratio {fmt(h['accept_ratio'], 2)}); outcomes {h['outcomes']}."
            ),
            (
                f"Accepted latency p50/p99 {ms(h['accepted_latency_ms'], 'p50')}/{ms(h['accepted_latency_ms'], 'p99')} ms; "
                f"rejected p50/p99 {ms(h['rejected_latency_ms'], 'p50')}/{ms(h['rejected_latency_ms'], 'p99')} ms."
            ),
            "",
        ]
    else:
        out += not_run(h, with_reason=False)

    return out


def rebuild(results: dict[str, Any]) -> list[str]:
    """Scenario 3."""
    out: list[str] = []
    s3 = results.get("s3_rebuild")
    out += ["## Scenario 3: rebuild from PostgreSQL", ""]
    if ok(s3):
        out += [
            f"Game: {s3['game']}; median of {s3['repeats']}; snapshot interval {s3['snapshot_interval']}.",
            "",
            "| events | raw SELECT events/s | + parse (orjson) events/s | SELECT + decode to events, no evolve events/s | rebuild, no snapshot events/s | ms | bound: SELECT + parse + evolve alone events/s | bound ÷ raw | rebuild from snapshot (effective) events/s | ms | snapshot bytes | ratio rebuild/raw |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in s3["sizes"]:
            out.append(
                f"| {r['events']:,} | {fmt(r['raw_read_events_per_s'])} | {fmt(r['raw_read_json_events_per_s'])} | "
                f"{fmt(r.get('read_decode_events_per_s'))} | {fmt(r['rebuild_events_per_s'])} | {fmt(r['rebuild_ms'], 1)} | "
                f"{fmt(r.get('bound_read_parse_evolve_events_per_s'))} | {fmt(ratio(r.get('bound_read_parse_evolve_events_per_s'), r['raw_read_events_per_s']), 2)} | "
                f"{fmt(r['rebuild_snapshot_effective_events_per_s'])} | "
                f"{fmt(r['rebuild_snapshot_ms'], 1)} | {fmt(r['snapshot_bytes'])} | "
                f"{fmt(ratio(r['rebuild_events_per_s'], r['raw_read_events_per_s']), 2)} |"
            )
        out += [
            "",
            (
                "Long games are real Thorgal openings followed by real Thorgal events spliced back to back "
                "(no game runs to 5,000 events); the snapshot case replays a full interval of events on top of the snapshot (worst case). "
                "The bound adds the time of the parse rung to that of the rules' `evolve` alone over the same payloads already decoded "
                "(no event objects, no aggregate): what a rebuild whose decoding cost nothing would still take."
            ),
            "",
        ]
    else:
        out += not_run(s3, with_reason=False)

    return out


def catch_up(results: dict[str, Any]) -> list[str]:
    """Scenario 4."""
    cfg = results["config"]
    out: list[str] = []
    s4 = results.get("s4_projections") or {}
    out += ["## Scenario 4: projection catch-up", ""]
    if ok(s4):
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
        out += not_run(s4)

    return out


def stream(results: dict[str, Any]) -> list[str]:
    """Scenario 5."""
    out: list[str] = []
    out += ["## Scenario 5: live stream latency", ""]
    for key in ("s5_stream_idle", "s5_stream_loaded"):
        s5 = results.get(key)
        if s5 is None:
            continue
        if not ok(s5):
            out += [f"{key}: {s5.get('status')}: {s5.get('error', '')}", ""]
            continue
        e, r = s5["event_to_receipt_ms"], s5.get("response_to_receipt_ms") or {}
        out.append(
            f"- {'idle' if not s5['background_clients'] else str(s5['background_clients']) + ' clients moving in the background'}: "
            f"{s5['delivered_events']} events to {s5['subscribers']} subscribers over {s5['moves']} moves; "
            f"event timestamp → receipt p50 {ms(e, 'p50')} ms, p99 {ms(e, 'p99')} ms, max {ms(e, 'max')} ms; "
            f"mover's SubmitMove response → receipt p50 {ms(r, 'p50')} ms, p99 {ms(r, 'p99')} ms"
            + (
                f"; commit (seen by the bench's LISTEN connection) → receipt p50 {ms(c, 'p50')} ms, "
                f"p99 {ms(c, 'p99')} ms, max {ms(c, 'max')} ms"
                if (c := s5.get("commit_to_receipt_ms"))
                else ""
            )
            + (
                f"; background {fmt(s5.get('background_moves_per_s'))} moves/s"
                if s5.get("background_moves_per_s")
                else ""
            )
        )
    out += [
        "",
        (
            "The event timestamp is taken by the server when the move is decided, before it waits for the "
            "group commit, so timestamp → receipt bounds commit → receipt from above. The commit itself is "
            "dated by a LISTEN connection of the bench's own (bench/stream_latency.py `CommitClock`): "
            "PostgreSQL sends the ledger's notification when the move's transaction commits."
        ),
        "",
    ]

    return out


def memory(results: dict[str, Any]) -> list[str]:
    """Scenario 6."""
    out: list[str] = []
    s6 = results.get("s6_memory")
    out += ["## Scenario 6: memory", ""]
    if ok(s6):
        out += [
            (
                f"{s6['games']:,} open games created over gRPC ({fmt(s6['create_per_s'])} games/s) and each touched with its seat token; "
                f"server with `LEDGER_CACHE_SIZE` ≥ games so all stay resident. RSS idle {fmt(s6['rss_idle_mib'])} MiB → "
                f"{fmt(s6['rss_after_mib'])} MiB (peak {fmt(s6['peak_rss_mib'])} MiB), {fmt(s6['kib_per_open_game'], 1)} KiB per open game. "
                'These are the serving process alone (the target\'s "server RSS").'
            ),
            "",
        ]
        if s6.get("children_rss_after_mib") is not None:
            out += [
                (
                    "Its child processes (the views' child and multiprocessing's resource "
                    f"tracker, each its own interpreter): {fmt(s6['children_rss_idle_mib'])} MiB idle → "
                    f"{fmt(s6['children_rss_after_mib'])} MiB; serving process with its children "
                    f"{fmt(s6['rss_with_children_mib'])} MiB."
                ),
                "",
            ]
    else:
        out += not_run(s6, with_reason=False)

    return out


def anatomy(results: dict[str, Any]) -> list[str]:
    """Where a move's time goes, in-process."""
    out: list[str] = []
    an = results.get("anatomy")
    out += ["## Where a move's time goes (in-process, one thread, no gRPC)", ""]
    if ok(an):
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
        out += not_run(an, with_reason=False)

    return out


def dashboard(s8: Any) -> list[str]:
    """Dashboard page renders at N finished games (bench/dashboard.py)."""
    out = ["## Scenario 8: dashboard page renders", ""]
    if not ok(s8):
        return out + not_run(s8)
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


def subscribers(section: Any, standalone: Path | None = None) -> list[str]:
    """Scenario 9: live subscribers vs delivery latency across 3 servers.

    From this run (``s9_subscribers``) or, when it did not run here, from the
    last ``ledger bench --scenario subscribers`` (``subscribers.json``).
    """
    out = ["## Scenario 9: live subscribers across 3 servers", ""]
    source = "this run"
    if not ok(section) and standalone is not None and standalone.exists():
        doc = json.loads(standalone.read_text())
        # older files hold the bare rows
        section = doc if isinstance(doc, dict) else {"status": "ok", "rows": doc}
        source = f"`ledger bench --scenario subscribers` ({standalone.name})"
    if not ok(section):
        return out + not_run(section)
    out += [
        (
            f"Source: {source}. Three `ledger serve` processes on one database; one mover "
            "plays a game on the first server, the subscribers stream it round-robin from all "
            "three. Latency is subscriber receipt minus the mover's SubmitMove response, per "
            "delivered event (bench/subscribers.py)."
        ),
        "",
    ]
    if section.get("jetstream_note"):
        out += [f"_{section['jetstream_note']}_", ""]
    return [*out, subscriber_table(section["rows"]), ""]


def storage(results: dict[str, Any]) -> list[str]:
    """The ledger tables' size on disk after the run (``bench.storage_size``)."""
    st = results.get("storage")
    out = ["## Storage: bytes per stored event", ""]
    if not ok(st):
        return out + not_run(st)
    ev = st["events_table"]
    out += [
        (
            f"`ledger_events` after the run: {st['events']:,} rows, {fmt(ev['total_bytes'] / 2**20, 1)} MiB "
            f"(`pg_total_relation_size`): **{fmt(st['bytes_per_event'])} B per event**, of which rows and "
            f"TOAST {fmt(st['table_bytes_per_event'])} B, indexes {fmt(st['index_bytes_per_event'])} B; "
            f"the stored payload averages {fmt(st['payload_bytes_per_event'])} B. Dead rows (lost races): "
            f"{st['dead_event_rows']}."
        ),
        "",
        "| table | rows | total bytes | indexes |",
        "|---|---|---|---|",
        f"| ledger_events | {ev['rows']:,} | {ev['total_bytes']:,} | "
        + ", ".join(f"{k} {v:,}" for k, v in ev["indexes"].items())
        + " |",
    ]
    for name, t in st["side_tables"].items():
        out.append(
            f"| {name} | {t['rows']:,} | {t['total_bytes']:,} | "
            + ", ".join(f"{k} {v:,}" for k, v in t["indexes"].items())
            + " |"
        )
    out += [
        "",
        f"Side rows per event of the log: {fmt(st['side_bytes_per_event'])} B.",
        "",
    ]
    return out
