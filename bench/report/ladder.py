"""The cost ladder's section of results.md: one row per rung and its chart.

Why a module of its own: the ladder is re-run alone (``ledger bench
--scenario ladder``) while costs are being cut, and its report is the same
whether it stands alone or inside the full run's document.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.report.lookup import ok
from bench.stats import fmt

CHART = "ladder.png"


def _signed(value: float | None, digits: int) -> str:
    if value is None:
        return "—"
    return f"{value:+.{digits}f}"


def table(section: dict[str, Any] | None) -> list[str]:
    """The ladder as a markdown table (empty when it did not run)."""
    if not ok(section):
        return []
    lo, hi = section["clients"][0], section["clients"][-1]
    header = (
        f"| rung | moves/s at {lo} | moves/s at {hi} | server CPU ms/move at {lo} "
        f"| server CPU ms/move at {hi} | price: CPU ms/move at {lo} / {hi} "
        f"| price: moves/s lost at {lo} / {hi} | other processes' CPU at {lo} / {hi} |"
    )
    out = [
        header,
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in section["rows"]:
        out.append(
            f"| {row['label']} "
            f"| {fmt(row.get(f'moves_per_s_{lo}'))} | {fmt(row.get(f'moves_per_s_{hi}'))} "
            f"| {fmt(row.get(f'cpu_ms_per_move_{lo}'), 2)} "
            f"| {fmt(row.get(f'cpu_ms_per_move_{hi}'), 2)} "
            f"| {_signed(row.get(f'price_cpu_ms_{lo}'), 2)} / "
            f"{_signed(row.get(f'price_cpu_ms_{hi}'), 2)} "
            f"| {_signed(row.get(f'price_moves_per_s_{lo}'), 0)} / "
            f"{_signed(row.get(f'price_moves_per_s_{hi}'), 0)} "
            f"| {fmt(row.get(f'other_cpu_pct_{lo}'), 0, '%')} / "
            f"{fmt(row.get(f'other_cpu_pct_{hi}'), 0, '%')} |"
        )
    return [*out, ""]


def chart(section: dict[str, Any] | None, out_dir: Path) -> str | None:
    """Server CPU per move per rung, one bar per client count; the file's name."""
    if not ok(section):
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = section["rows"]
    labels = [r["label"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
    width = 0.8 / len(section["clients"])
    for i, n in enumerate(section["clients"]):
        ys = [j + i * width for j in range(len(rows))]
        axes[0].barh(
            ys,
            [r.get(f"cpu_ms_per_move_{n}") or 0 for r in rows],
            height=width,
            label=f"{n} clients",
        )
        axes[1].barh(
            ys,
            [r.get(f"moves_per_s_{n}") or 0 for r in rows],
            height=width,
            label=f"{n} clients",
        )
    axes[0].set_yticks([j + width / 2 for j in range(len(rows))])
    axes[0].set_yticklabels(labels, fontsize=8)
    axes[0].invert_yaxis()
    axes[0].set_xlabel("server CPU ms per move")
    axes[1].set_xlabel("moves/s")
    axes[0].legend(fontsize=8)
    axes[0].set_title("Cost ladder: each rung adds one layer", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_dir / CHART, dpi=110)
    plt.close(fig)
    return CHART


def section(section: dict[str, Any] | None, out_dir: Path | None = None) -> list[str]:
    """The ladder's part of results.md; draws its chart into ``out_dir``."""
    if not section:
        return []
    if not ok(section):
        return ["## Cost ladder", "", f"Not measured: {section.get('error')}", ""]
    out = [
        "## Cost ladder",
        "",
        (
            "Scenario 1's load (ListLegalMoves + SubmitMove over the same game mix) "
            "against servers built up one layer at a time from the service's real "
            "parts (`bench/ladder_server.py`); each rung's price is the measured "
            "difference against the rung above it in this table. The three lowest "
            "rungs answer with real responses captured from the full server in the "
            f"same run. Windows: {section['warmup_s']:.1f} s warm-up, "
            f"{section['window_s']:.1f} s measured per rung and client count. "
            "Server CPU counts the server and its children (the views' child of "
            "`ledger serve`); the last column is what other processes on the machine "
            "used meanwhile (100% = one core): a rung measured beside a busy "
            "neighbour is less trustworthy than its price suggests. "
            f"{_views_wait(section)}"
            "`ledger bench --scenario ladder` runs it alone."
        ),
        "",
        *table(section),
    ]
    failed = section.get("failed_rungs") or {}
    out += [f"- rung {k} not measured: {v}" for k, v in failed.items()]
    if failed:
        out.append("")
    name = chart(section, out_dir) if out_dir is not None else None
    if name:
        out += [f"![{name}]({name})", ""]
    return out


def _views_wait(section: dict[str, Any]) -> str:
    """How long the full server's views took to catch up before it was measured."""
    if "views_caught_up_after_s" not in section:
        return ""
    waited = section["views_caught_up_after_s"]
    if waited is None:
        return (
            "The full server's views had not caught up with the log when its "
            "windows started: its rows include their catch-up. "
        )
    return (
        f"The full server's windows started once its views had caught up with "
        f"the log ({waited:.1f} s after it was up). "
    )
