"""Scenarios with a process of their own: ``--workers``, memory, baselines (b) and (c).

Each takes the retry policy of :func:`bench.machine.retry_policy` (``BENCH_WAIT_QUIET``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench import baselines, canned_baseline, cpu, procs, scenarios
from bench.config import Sizes
from bench.stats import summarize_ms


def workers(
    url: str,
    workdir: Path,
    sizes: Sizes,
    mix: list[tuple[str, dict[str, Any]]],
    policy: cpu.RetryPolicy,
) -> dict[str, Any]:
    """Scenario 1 again against ``ledger serve`` with one process per core
    (``LEDGER_WORKERS``, SO_REUSEPORT), when this tree supports it."""
    from services.runtime.settings import Settings

    if "workers" not in Settings.model_fields:
        return {
            "status": "not available",
            "reason": "this tree has no LEDGER_WORKERS setting",
        }
    # one per core, but bounded: every worker holds its own connection pool
    workers = min(os.cpu_count() or 2, 4)
    server = procs.start_ledger_server(
        url,
        workdir,
        snapshot_interval=sizes.snapshot_interval,
        workers=workers,
        name="workers",
    )
    try:
        section, _ = scenarios.throughput(
            server,
            sizes.workers_clients,
            sizes.warmup_s,
            sizes.window_s,
            mix,
            sizes.headline_clients,
            None,
            policy,
        )
    finally:
        server.stop()
    section["workers"] = workers
    return section


def memory(
    url: str, workdir: Path, sizes: Sizes, mix: list[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """Scenario 6.  ``scenarios.memory`` reads the serving process alone (the
    target's "server RSS"); the children ``ledger serve`` starts (the views'
    child, multiprocessing's resource tracker) have their own interpreters and
    are read here, before and after, and reported beside it."""
    server = procs.start_ledger_server(
        url, workdir, cache_size=sizes.memory_games + 100, name="memory"
    )
    try:
        idle = children_rss_mib(server.pid)
        section = scenarios.memory(
            server, sizes.memory_games, sizes.memory_concurrency, mix
        )
        after = children_rss_mib(server.pid)
    finally:
        server.stop()
    if section.get("status") == "ok":
        section["children_rss_idle_mib"] = idle
        section["children_rss_after_mib"] = after
        if after is not None and section.get("rss_after_mib") is not None:
            section["rss_with_children_mib"] = section["rss_after_mib"] + after
    return section


def children_rss_mib(pid: int) -> float | None:
    """Summed ``VmRSS`` of every process below ``pid`` (None when there is none)."""
    readings = [cpu.proc_rss_bytes(child) for child in cpu.descendants(pid)]
    sizes = [r["VmRSS"] for r in readings if r and "VmRSS" in r]
    return sum(sizes) / 2**20 if sizes else None


def eventsourcing(
    es_env: dict[str, str], sizes: Sizes, payload: int, policy: cpu.RetryPolicy
) -> dict[str, Any]:
    section = baselines.run_eventsourcing_direct(
        es_env,
        sizes.es_threads,
        sizes.es_s,
        payload,
        probe=lambda: cpu.CpuProbe(()),
        policy=policy,
    )
    for run in section["runs"]:
        run["latency_ms"] = summarize_ms(run["latencies"])
    return section


def null(
    raw: dict[str, Any],
    workdir: Path,
    sizes: Sizes,
    mix: list[tuple[str, dict[str, Any]]],
    policy: cpu.RetryPolicy,
) -> dict[str, Any]:
    captured = raw.get("captured")
    if not captured:
        return {
            "status": "not available",
            "reason": "scenario 1 captured no responses to replay",
        }
    canned = canned_baseline.canned_responses(captured)
    path = workdir / "canned.json"
    canned_baseline.write_canned(path, canned)
    server = procs.start_null_server(workdir, path)
    try:
        return canned_baseline.null_baseline(
            server,
            sizes.clients,
            sizes.null_warmup_s,
            sizes.null_window_s,
            mix,
            canned,
            policy,
        )
    finally:
        server.stop()
