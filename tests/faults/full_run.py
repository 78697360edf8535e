"""The fault suite at full size, with the figures docs/reliability.md quotes.

``python -m tests.faults.full_run`` runs ``pytest tests/faults -m faults``
with ``LEDGER_FAULTS_FULL=1`` (see :data:`tests.faults.harness.FULL_SIZE`),
collects what each test published, and prints one row per fault test plus
the totals.  Exit status: pytest's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

COLUMNS = (
    ("test", "test"),
    ("clients", "clients"),
    ("moves", "moves acknowledged"),
    ("faults", "faults injected"),
    ("moves_lost", "moves lost"),
    ("duplicates", "duplicates"),
    ("games_audited_ok", "games audited OK"),
    ("views_equal_rebuild", "views = rebuild"),
)


def table(rows: list[dict[str, Any]]) -> str:
    """A Markdown table of the figures, with a totals row."""
    lines = [
        "| " + " | ".join(title for _, title in COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    for row in rows:
        lines.append("| " + " | ".join(str(row[key]) for key, _ in COLUMNS) + " |")
    totals = {key: sum(r[key] for r in rows) for key, _ in COLUMNS[2:]}
    lines.append(
        "| **all** | "
        + str(max((r["clients"] for r in rows), default=0))
        + " | "
        + " | ".join(str(totals[key]) for key, _ in COLUMNS[2:])
        + " |"
    )
    return "\n".join(lines)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="ledger-faults-") as tmp:
        report = Path(tmp) / "figures.jsonl"
        env = {
            **os.environ,
            "LEDGER_FAULTS_FULL": "1",
            "LEDGER_FAULTS_REPORT": str(report),
        }
        code = subprocess.call(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly"]
            + ["-m", "faults", "tests/faults", *sys.argv[1:]],
            env=env,
        )
        rows = (
            [json.loads(line) for line in report.read_text().splitlines()]
            if (report.exists())
            else []
        )
    print()
    print(table(rows))
    for row in rows:
        details = ", ".join(f"{k}: {v}" for k, v in row["extra"].items())
        print(
            f"- {row['test']}: {row['fault_kind']}; answers retried by clients: "
            f"{row['retried_answers'] or 'none'}; games: {row['games']}"
            + (f"; {details}" if details else "")
        )
    return code


if __name__ == "__main__":
    raise SystemExit(main())
