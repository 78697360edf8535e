"""Finding figures in results.json and saying when a scenario did not run."""

from __future__ import annotations

from typing import Any, TypeGuard

from bench.stats import fmt


def ok(section: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(section, dict) and section.get("status") == "ok"


def not_run(section: Any, with_reason: bool = True) -> list[str]:
    """The lines a report section shows when its scenario did not run or failed."""
    part = section or {}
    why = (part.get("reason") if with_reason else None) or part.get("error", "")
    return [f"{part.get('status', 'not run')}: {why}", ""]


def run_at(section: Any, key: str, value: int) -> dict[str, Any] | None:
    if not ok(section):
        return None
    return next((r for r in section.get("runs", []) if r.get(key) == value), None)


def verdict(value: Any) -> str:
    return {True: "yes", False: "**no**", None: "n/a"}[value]


def ms(summary: Any, key: str) -> str:
    return fmt(summary.get(key) if summary else None, 1)
