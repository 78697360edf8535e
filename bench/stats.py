"""Pure helpers: percentiles, summaries, rates and ratios (unit-tested, no I/O)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) with linear interpolation, as numpy's default.

    ``None`` for no values.  ``q`` outside 0-100 is an error.
    """
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0-100, got {q}")
    if not values:
        return None
    data = sorted(values)
    if len(data) == 1:
        return float(data[0])
    rank = (len(data) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(data) - 1)
    return float(data[low] + (data[high] - data[low]) * (rank - low))


def summarize_ms(seconds: Iterable[float]) -> dict[str, Any]:
    """Latency summary in milliseconds: count, mean, p50, p90, p99, p99.9, max."""
    data = sorted(float(s) * 1000 for s in seconds)
    if not data:
        return {
            "count": 0,
            "mean": None,
            "p50": None,
            "p90": None,
            "p99": None,
            "p999": None,
            "max": None,
        }
    return {
        "count": len(data),
        "mean": round(sum(data) / len(data), 3),
        "p50": round(percentile(data, 50), 3),  # type: ignore[arg-type]
        "p90": round(percentile(data, 90), 3),  # type: ignore[arg-type]
        "p99": round(percentile(data, 99), 3),  # type: ignore[arg-type]
        "p999": round(percentile(data, 99.9), 3),  # type: ignore[arg-type]
        "max": round(data[-1], 3),
    }


def rate(count: float, seconds: float) -> float | None:
    """Events per second; ``None`` when no time elapsed."""
    if seconds <= 0:
        return None
    return count / seconds


def ratio(measured: float | None, baseline: float | None) -> float | None:
    """``measured / baseline``; ``None`` when either is missing or the baseline is 0."""
    if measured is None or baseline is None or baseline == 0:
        return None
    return measured / baseline


def met(value: float | None, op: str, threshold: float) -> bool | None:
    """Whether ``value op threshold`` holds (``>=``, ``<=``, ``<``, ``>``); ``None`` if unmeasured."""
    if value is None:
        return None
    ops = {
        ">=": value >= threshold,
        "<=": value <= threshold,
        "<": value < threshold,
        ">": value > threshold,
    }
    if op not in ops:
        raise ValueError(f"unknown comparison {op!r}")
    return ops[op]


def cpu_ms_per(pct: float | None, seconds: float, count: int) -> float | None:
    """CPU ms per item: ``pct`` (% of one core) for ``seconds`` over ``count`` items."""
    if pct is None or not count:
        return None
    return round(10 * pct * seconds / count, 3)


def cpu_percent(cpu_seconds: float, wall_seconds: float) -> float | None:
    """CPU use as a percentage of one core (200 = two cores busy)."""
    if wall_seconds <= 0:
        return None
    return 100.0 * cpu_seconds / wall_seconds


def fmt(value: float | None, digits: int = 0, suffix: str = "") -> str:
    """A number for the markdown table; ``n/a`` for missing values."""
    if value is None:
        return "n/a"
    if digits == 0:
        return f"{value:,.0f}{suffix}"
    return f"{value:,.{digits}f}{suffix}"


def error_rate(errors: int, total: int) -> float:
    return errors / total if total else 0.0
