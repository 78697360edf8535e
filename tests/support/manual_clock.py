"""A clock the test moves by hand, for a ledger's ``clock`` (no real waiting)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class ManualClock:
    """Every ledger given this clock reads the same time, until ``advance``.

    It starts at the real time (unless told otherwise): ``ledger audit``
    checks a game's creation against when PostgreSQL listed it.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
