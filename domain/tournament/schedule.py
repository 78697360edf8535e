"""Automatic rounds: when a tournament starts its next round by itself.

An organiser may ask (Lichess Swiss does this) that the next round start a
set time after the previous round's last result is recorded, and that the
tournament finish after its last round.  The rule is a pure function of the
tournament's events: the time the round completed is the timestamp of the
``ResultRecorded`` that completed it, so every server, and a server started
after a crash, computes the same instant, and nothing about the wait lives
in one process's memory.

Why from the recorded result and not the game's own end: the result is the
tournament's fact (the games are another aggregate); the two differ by the
results policy's lag, a few milliseconds.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from domain.contract.core import InvalidCommandError, Model

MAX_GAP_SECONDS = 7 * 24 * 3600
"""The longest wait between rounds one may set (a week)."""


class AutomaticRounds(Model):
    """Start each next round ``gap_seconds`` after the previous one completed."""

    gap_seconds: int

    @classmethod
    def parse(cls, raw: Any) -> AutomaticRounds | None:
        """``None``/``{}`` (by hand) or ``{"gap_seconds": n}``, 0 to a week.

        :raises InvalidCommandError: for anything else.
        """
        if raw is None or raw == {}:
            return None
        if isinstance(raw, AutomaticRounds):
            raw = raw.model_dump()
        if not isinstance(raw, dict) or set(raw) != {"gap_seconds"}:
            raise InvalidCommandError(
                "automatic rounds take one field, gap_seconds",
                violations=(("automatic_rounds", "only gap_seconds"),),
            )
        gap = raw["gap_seconds"]
        if isinstance(gap, bool) or not isinstance(gap, int):
            raise InvalidCommandError(
                "automatic rounds: gap_seconds must be a whole number",
                violations=(("automatic_rounds.gap_seconds", "a whole number"),),
            )
        if not 0 <= gap <= MAX_GAP_SECONDS:
            text = f"gap_seconds must be 0 to {MAX_GAP_SECONDS} (a week)"
            raise InvalidCommandError(
                f"automatic rounds: {text}",
                violations=(("automatic_rounds.gap_seconds", text),),
            )
        return cls(gap_seconds=gap)


def next_round_at(
    automatic: AutomaticRounds | None,
    round_completed_at: datetime | None,
    *,
    finished: bool,
    round_in_progress: bool,
    rounds_left: int,
) -> datetime | None:
    """When the next round starts by itself, or ``None`` (by hand, running,
    finished, or no round left).

    >>> from datetime import UTC
    >>> at = datetime(2026, 1, 1, tzinfo=UTC)
    >>> next_round_at(AutomaticRounds(gap_seconds=90), at, finished=False,
    ...     round_in_progress=False, rounds_left=2).isoformat()
    '2026-01-01T00:01:30+00:00'
    """
    if (
        automatic is None
        or round_completed_at is None
        or finished
        or round_in_progress
        or rounds_left <= 0
    ):
        return None
    return round_completed_at + timedelta(seconds=automatic.gap_seconds)
