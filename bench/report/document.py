"""results.md: the header, the target table, then one section per scenario."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.report import aged, ladder, peer, profile, sections, throughput
from bench.report.lookup import run_at, verdict
from bench.stats import fmt


def _table(rows: list[dict[str, Any]]) -> list[str]:
    out = [
        "| figure | measured | baseline (same run) | ratio | target | met? |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        base = (
            f"{fmt(r['baseline'], r['digits'])} {r['baseline_name']}"
            if r["baseline"] is not None
            else "—"
        )
        measured = fmt(r["measured"], r["digits"])
        unit = r["unit"] if r["measured"] is not None else ""
        rat = fmt(r["ratio"], 2, "×") if r["ratio"] is not None else "—"
        met = verdict(r["met"]) if r["target"] != "—" else "—"
        out.append(
            f"| {r['figure']} | {f'{measured} {unit}'.strip()} | {base} | {rat} | {r['target']} | {met} |"
        )
    return [*out, ""]


def busy_line(results: dict[str, Any]) -> str:
    """How busy the machine was: before the run, and during scenario 1's headline run."""
    env = results.get("environment") or {}
    cores = 100 * (env.get("cpu_count") or 1)
    before = env.get("machine_busy_before_start_pct")
    waited = env.get("waited_for_quiet_s") or 0
    n = results["config"]["headline_clients"]
    s1 = run_at(results.get("s1_throughput"), "clients", n) or {}
    cpu = s1.get("cpu") or {}
    during = cpu.get("other_processes_cpu_pct")
    return (
        f"Machine load: {fmt(before, 0, '%')} of {cores:.0f}% busy before the run started "
        f"(waited {waited:.0f} s for quiet; `BENCH_WAIT_QUIET=S` waits up to S s and re-runs "
        f"noisy throughput runs); other processes used {fmt(during, 0, '%')} during scenario 1 "
        f"at {n} clients, and every CPU table below has an *other processes* column."
    )


def markdown(
    results: dict[str, Any],
    charts: list[str],
    chart_note: str | None,
    out_dir: Path | None = None,
) -> str:
    env = results["environment"]
    cfg = results["config"]
    profile_dirs = [out_dir, out_dir.parent] if out_dir else []
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
        busy_line(results),
        "",
        (
            "Reproduce: `pip install -e '.[bench]' && ledger bench` (about 10 minutes; "
            "`--quick` for a CI-sized run; `BENCH_WAIT_QUIET=900` waits for a quiet machine and "
            "re-runs noisy measurements; `BENCH_PROFILE=1` adds py-spy profiles; "
            "`ledger bench --profile-only --label before|after` takes only the profile; "
            "`ledger bench --scenario subscribers` only the subscriber scaling). No timing is asserted anywhere."
        ),
        "",
        "## Targets",
        "",
        *_table(results["headline"]),
        (
            "Every baseline is from this run. The peer is boardgame.io with its PostgreSQL "
            "adapter, run right after scenario 1 on its own database (100-move games; it "
            "acknowledges a move before it writes it): see the peer section below."
        ),
        "",
        "## Other figures (reported, not targets)",
        "",
        *_table(results.get("other_figures", [])),
    ]
    if chart_note:
        out += [f"_{chart_note}_", ""]
    for chart in charts:
        out += [f"![{chart}]({chart})", ""]
    out += profile.split_table(results, profile_dirs)
    out += throughput.throughput_tables(results)
    out += peer.peer_section(results)
    out += throughput.rpc_costs(results)
    out += throughput.legal_pages(results)
    out += throughput.baselines_ab(results)
    out += ladder.section(results.get("ladder"), out_dir)
    out += sections.hot_game(results)
    out += sections.rebuild(results)
    out += sections.catch_up(results)
    out += sections.dashboard(results.get("s8_dashboard"))
    out += aged.lines(results.get("aged"))
    out += sections.stream(results)
    out += sections.subscribers(
        results.get("s9_subscribers"),
        out_dir / "subscribers.json" if out_dir else None,
    )
    out += sections.memory(results)
    out += sections.storage(results)
    out += sections.anatomy(results)
    out += profile.details(results)
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
