"""results.json, results.md (target table + details) and PNG charts.

``targets`` holds the target table, ``document`` assembles results.md
from ``throughput``, ``sections`` and ``profile``, ``plots`` draws the charts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.report import profile
from bench.report.document import markdown
from bench.report.plots import charts
from bench.report.targets import headline, other_figures
from bench.stats import percentile


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


def write(results: dict[str, Any], raw: dict[str, Any], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    results["headline"] = headline(results)
    results["other_figures"] = other_figures(results)
    results["cpu_split_per_layer"] = profile.splits(results, [out_dir, out_dir.parent])
    made, note = charts(results, raw, out_dir)
    results["charts"] = made
    if note:
        results["charts_note"] = note
    (out_dir / "results.json").write_text(
        json.dumps(public(results), indent=1, default=str) + "\n"
    )
    (out_dir / "results.md").write_text(markdown(results, made, note, out_dir))


__all__ = ["charts", "headline", "markdown", "other_figures", "percentile", "write"]
