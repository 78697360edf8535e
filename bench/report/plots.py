"""PNG charts of a run: throughput, latency, CPU, rebuild and stream latency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.report.lookup import ok, run_at
from bench.report.targets import TARGETS


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
    headline_n = results["config"]["headline_clients"]
    es, pgb = results.get("s7b_eventsourcing"), results.get("s7a_pgbench")
    if ok(s1):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        xs = [r["clients"] for r in s1["runs"]]
        ax.plot(
            xs, [r["moves_per_s"] for r in s1["runs"]], "o-", label="ledger: moves/s"
        )
        sw = results.get("s1_workers")
        if ok(sw):
            ax.plot(
                [r["clients"] for r in sw["runs"]],
                [r["moves_per_s"] for r in sw["runs"]],
                "o-",
                label=f"ledger --workers {sw.get('workers')}: moves/s",
            )
        if ok(null):
            ax.plot(
                [r["clients"] for r in null["runs"]],
                [r["moves_per_s"] for r in null["runs"]],
                "s--",
                label="(c) null gRPC handler: moves/s",
            )
        if ok(es):
            ax.plot(
                [r["threads"] for r in es["runs"]],
                [r["events_per_s"] for r in es["runs"]],
                "^--",
                label="(b) eventsourcing direct: events/s",
            )
        if ok(pgb):
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
        if ok(null):
            ax.plot(
                [r["clients"] for r in null["runs"]],
                [r["submit_latency_ms"]["p99"] for r in null["runs"]],
                "s--",
                label="(c) null handler p99",
            )
        if null_head := (ok(null) and run_at(null, "clients", headline_n)):
            ax.axhline(
                TARGETS["p99_vs_null"] * null_head["submit_latency_ms"]["p99"],
                color="red",
                lw=0.8,
                ls=":",
                label=f"target: p99 at {headline_n} ≤ 2× null handler p99",
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
    if ok(s3):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        sizes = [r["events"] for r in s3["sizes"]]
        series = (
            ("raw_read_events_per_s", "raw SELECT"),
            ("raw_read_json_events_per_s", "SELECT + parse (orjson)"),
            ("read_decode_events_per_s", "SELECT + decode to events (no evolve)"),
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
