"""A game's clocks and the ledger's own endings, as terminal lines.

Why apart from the commands: ``ledger games show`` and ``ledger replay``
print the same clock and ending lines, read at the time each one shows.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from domain.ledger.clocks import deadlines, millis, remaining
from domain.words.narration import by_words, seat_names
from domain.words.sentences import seat_name


def duration(ms: int) -> str:
    """``75_500`` -> ``1:15.5``; days for correspondence clocks."""
    seconds, tenths = divmod(ms // 100, 10)
    days, seconds = divmod(seconds, 86_400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    clock = f"{minutes}:{seconds:02d}.{tenths}"
    if hours or days:
        clock = f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{days}d {clock}" if days else clock


def clock_line(game: Any, at: datetime) -> str | None:
    """``clocks: rita 4:53.0 (running), seat 2 5:00.0`` read at ``at`` (seats
    as people read them: the player's name, else "seat N" from 1); ``None``
    for a game without a clock."""
    if game.clock is None:
        return None
    names = seat_names(game.ruleset, game.setup, tuple(game.player_ids or ()))
    at_ms = millis(at)
    ends = deadlines(game.clock, game.control)
    parts = []
    for seat, left in enumerate(remaining(game.clock, game.control, at_ms)):
        running = " (running)" if ends[seat] is not None else ""
        parts.append(f"{seat_name(names, seat)} {duration(left or 0)}{running}")
    line = f"clocks ({game.control.kind.value}): " + ", ".join(parts)
    if game.clock.paused and not game.is_over:
        line += "; paused by the arbiter"
    due = game.next_deadline()
    if due is not None:
        when = datetime.fromtimestamp(due[1] / 1000, UTC).isoformat(timespec="seconds")
        line += f"; {seat_name(names, due[0])} must move by {when}"
    return line


def ending_line(event: Any) -> str:
    """One of the ledger's endings: ``resigned: seat 1, by seat 1`` (seats
    counted from 1, as people read them)."""
    parts = [event.kind + ":"]
    if event.seat is not None:
        parts.append(f"{seat_name({}, event.seat)},")
    parts.append(f"by {by_words(event.by, {})}")
    if event.reason:
        parts.append(f"({event.reason})")
    if event.deadline_ms is not None:
        deadline = datetime.fromtimestamp(event.deadline_ms / 1000, UTC)
        parts.append(f"deadline {deadline.isoformat(timespec='seconds')}")
    return " ".join(parts)
