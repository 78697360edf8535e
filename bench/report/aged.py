"""The aged-log scenario's report: young beside aged, figure by figure.

Why a module of its own: the scenario is re-run alone (``ledger bench
--scenario aged``) while a query is being fixed, and its section reads the
same whether it stands alone (``aged.md``) or inside the full run's document.
"""

from __future__ import annotations

from typing import Any

from bench.report.lookup import not_run, ok


def _f(value: Any, digits: int = 1) -> str:
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def _mib(value: Any) -> str:
    return "—" if value is None else f"{value / 2**20:,.1f} MiB"


def lines(section: dict[str, Any] | None) -> list[str]:
    """The section as markdown lines (what went wrong when it failed; nothing
    when the run had no such step)."""
    if section is None:
        return []
    if not ok(section):
        return [
            "## Aged log: a year of play beside a young database",
            "",
            *not_run(section),
        ]
    young, aged, cmp = section["young"], section["aged"], section["compare"]
    built = aged["built"]
    out = [
        "## Aged log: a year of play beside a young database",
        "",
        (
            f"Young: {_f(young['storage']['events'])} events of real games. "
            f"Aged: {_f(aged['storage']['events'])} events "
            f"({_f(built.get('real_events'))} played, the rest copies of those games; "
            f"cached as `{built.get('cached_as')}`, "
            f"{'reused' if built.get('reused') else 'built in ' + _f(built.get('build_s')) + ' s'})."
        ),
        "",
        "| figure | young | aged | aged / young |",
        "|---|---:|---:|---:|",
    ]
    for name, row in cmp["s1"].items():
        out.append(
            f"| scenario 1 ({name}) moves/s | {_f(row['moves_per_s'][0])} |"
            f" {_f(row['moves_per_s'][1])} | {_f(row['moves_per_s_ratio'], 3)} |"
        )
        out.append(
            f"| scenario 1 ({name}) submit p99 ms | {_f(row['submit_p99_ms'][0])} |"
            f" {_f(row['submit_p99_ms'][1])} | {_f(row['submit_p99_ratio'], 3)} |"
        )
    y, a = cmp["cold_load_p50_ms"]
    out.append(f"| cold load p50 ms | {_f(y, 2)} | {_f(a, 2)} | |")
    y, a = cmp["cold_load_ms_per_event"]
    out.append(f"| cold load ms per event (median) | {_f(y, 4)} | {_f(a, 4)} | |")
    for name, (y, a) in cmp["reads_p95_ms"].items():
        out.append(f"| {name} p95 ms | {_f(y, 2)} | {_f(a, 2)} | |")
    y, a = cmp["projection_rebuild_whole_log_s"]
    out.append(
        f"| projection rebuild, every view from position 0, s | {_f(y, 2)} | {_f(a, 2)} |"
        f" {_f(a / y if y and a else None, 1)} |"
    )
    y, a = cmp["bytes_per_event"]
    out.append(f"| bytes per event (events table) | {_f(y)} | {_f(a)} | |")
    out += [
        "",
        (
            f"Dashboard pages, p95 ms (target ≤ 200 ms on the aged database: "
            f"{'met' if cmp['dashboard_met'] else 'NOT met'}):"
        ),
        "",
        "| page | young | aged |",
        "|---|---:|---:|",
    ]
    for name, (y, a) in cmp["dashboard_p95_ms"].items():
        out.append(f"| {name} | {_f(y)} | {_f(a)} |")
    store = aged["storage"]
    out += [
        "",
        f"Aged database: {_mib(store['database_bytes'])} in all. Largest tables:"
        " " + ", ".join(f"`{k}` {_mib(v)}" for k, v in store["tables"].items()) + ".",
        "Largest indexes: "
        + ", ".join(f"`{k}` {_mib(v)}" for k, v in store["indexes"].items())
        + ".",
        "",
    ]
    return out


def markdown(section: dict[str, Any]) -> str:
    env = section.get("environment", {})
    head = [
        "# Aged-log scenario",
        "",
        (
            f"Commit {env.get('git_commit')}; machine busy before start:"
            f" {_f(env.get('machine_busy_before_start_pct'))}% of {env.get('cpu_count')} cores;"
            f" load average {env.get('load_average')}; scenario took"
            f" {_f(section.get('scenario_s'))} s."
        ),
        "",
    ]
    return "\n".join(head + lines(section)) + "\n"
