"""A game's clocks as the rows the dashboard shows (page and live fragment).

Why apart from the SSE route: the game page renders a finished game's
clocks itself and the route ticks a running one's; both read the same rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.ledger.clocks import deadlines, millis, remaining
from domain.words.narration import seat_names
from domain.words.sentences import seat_name


def clock_rows(game: Any, at: datetime) -> list[dict[str, Any]]:
    """``[{seat, who, left, running, paused}]`` (``who``: the player's name,
    else "seat N" from 1) of ``game`` read at ``at``; empty without a clock.
    A paused game's clocks show the time they hold, none running."""
    if game.clock is None:
        return []
    ends = deadlines(game.clock, game.control)
    names = seat_names(game.ruleset, game.setup, tuple(game.player_ids or ()))
    rows = []
    for seat, left in enumerate(remaining(game.clock, game.control, millis(at))):
        rows.append(
            {
                "seat": seat,
                "who": seat_name(names, seat),
                "left": _shown(left or 0),
                "running": ends[seat] is not None,
                "paused": game.clock.paused and not game.is_over,
            }
        )
    return rows


def _shown(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours >= 24:
        return f"{hours // 24}d {hours % 24}h"
    return (
        f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    )


def is_live(game: Any) -> bool:
    """Whether the page may tick this game's clocks (running, timed, not delayed)."""
    return game.clock is not None and not game.is_over and not game.spectator_delay
