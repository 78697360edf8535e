"""The cost ladder's arithmetic and report: each rung priced against the one below."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.ladder import LADDER, _row, prices
from bench.report import ladder as ladder_report


def _rows() -> list[dict[str, Any]]:
    runs: dict[str, list[tuple[int, float, float | None]]] = {
        "null": [(1, 800.0, 1.2), (32, 1000.0, 0.9)],
        "interceptors": [(1, 700.0, 1.5), (32, 900.0, 1.1)],
        "auth": [(1, 720.0, 1.45), (32, 880.0, None)],
    }
    return [
        _row(
            rung,
            label,
            [
                {"clients": n, "moves_per_s": rate, "server_cpu_ms_per_move": cost}
                for n, rate, cost in runs[rung]
            ],
        )
        for rung, label in LADDER
        if rung in runs
    ]


def test_each_rung_is_priced_against_the_rung_below_it():
    rows = _rows()
    prices(rows, (1, 32))
    first, second, third = rows
    assert first["price_cpu_ms_1"] is None and first["price_moves_per_s_32"] is None
    assert second["price_cpu_ms_1"] == 0.3 and second["price_cpu_ms_32"] == 0.2
    assert second["price_moves_per_s_1"] == 100.0
    # a faster rung has a negative price; a missing figure prices nothing
    assert third["price_moves_per_s_1"] == -20.0
    assert third["price_cpu_ms_1"] == -0.05
    assert third["price_cpu_ms_32"] is None


def test_the_table_has_a_row_per_rung_with_its_figures_and_price():
    rows = _rows()
    prices(rows, (1, 32))
    section = {
        "status": "ok",
        "clients": [1, 32],
        "warmup_s": 0.5,
        "window_s": 2.5,
        "rows": rows,
    }
    lines = ladder_report.table(section)
    assert lines[0].startswith("| rung | moves/s at 1 | moves/s at 32 |")
    body = [line for line in lines[2:] if line]
    assert len(body) == 3
    assert body[1] == (
        "| + interceptors (metrics, drain, guard), server options | 700 | 900 | 1.50 | 1.10 "
        "| +0.30 / +0.20 | +100 / +100 | n/a / n/a |"
    )
    assert "| 1.45 | n/a | -0.05 / — |" in body[2]


def _section() -> dict:
    rows = _rows()
    prices(rows, (1, 32))
    return {
        "status": "ok",
        "clients": [1, 32],
        "warmup_s": 0.5,
        "window_s": 2.5,
        "rows": rows,
        "failed_rungs": {"commit": "RuntimeError: boom"},
    }


def test_the_section_says_which_rungs_failed(tmp_path: Path):
    lines = ladder_report.section(_section(), tmp_path)
    assert lines[0] == "## Cost ladder"
    assert "- rung commit not measured: RuntimeError: boom" in lines
    assert ladder_report.section(None) == []


def test_the_section_draws_its_chart(tmp_path: Path):
    pytest.importorskip("matplotlib")  # the bench extra; `.[test]` alone has none
    lines = ladder_report.section(_section(), tmp_path)
    assert f"![{ladder_report.CHART}]({ladder_report.CHART})" in lines
    assert (tmp_path / ladder_report.CHART).stat().st_size > 0


def test_the_section_says_when_the_full_servers_windows_started(tmp_path: Path):
    section = _section()
    assert not any("caught up" in line for line in ladder_report.section(section))
    section["views_caught_up_after_s"] = 4.25
    text = "\n".join(ladder_report.section(section))
    assert "once its views had caught up with the log (4.2 s after it was up)" in text
    section["views_caught_up_after_s"] = None
    text = "\n".join(ladder_report.section(section))
    assert "views had not caught up with the log when its windows started" in text
