"""The bench reports ListLegalMoves page cost by offset as ratios to the first page
(beside the targets, in "Other figures")."""

from __future__ import annotations

from bench import report

PAGES = {
    "status": "ok",
    "total_size": 77520,
    "page_size": 100,
    "repeats": 5,
    "median_ms": {"0%": 5.0, "50%": 6.0, "99%": 15.0, "sample": 20.0},
    "ratio_to_first": {"0%": 1.0, "50%": 1.2, "99%": 3.0, "sample": 4.0},
}


def test_page_cost_rows_compare_each_offset_with_the_first_page():
    rows = report.other_figures(
        {"config": {"headline_clients": 32}, "legal_move_pages": PAGES}
    )
    pages = [r for r in rows if r["figure"].startswith("ListLegalMoves page")]
    assert [(r["ratio"], r["met"]) for r in pages] == [(1.2, True), (3.0, False)]
