"""Spectator delay: spectators watch a running game some moves or seconds behind.

Chess broadcasts delay the public board so nobody can coach a player live;
a game (or every game of a tournament) can ask for the same.  The delay is
part of the game's creation event (public, hashed with it), players keep
their live view, and the delay is lifted when the game ends (everything is
public then).

What "behind" means, decided here once for every caller:

- the view is always cut at a *decision boundary* (never half a move);
- the creation and the opening decision (shuffles, first player) are always
  visible: they are not moves, and a spectator who sees nothing cannot tell
  which game they are watching;
- ``moves=n``: the game as it stood before the last ``n`` moves (decisions
  taken by a seat);
- ``seconds=s``: the game as it stood ``s`` seconds ago (every move decided
  at least ``s`` seconds before now).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import model_validator

from domain.contract.core import InvalidCommandError, Model

MAX_MOVES = 1000
MAX_SECONDS = 86_400


class SpectatorDelay(Model):
    """How far behind spectators watch a running game: ``moves`` or ``seconds``."""

    moves: int = 0
    """Show spectators the game before its last ``moves`` moves."""
    seconds: int = 0
    """Show spectators the game as it stood ``seconds`` ago."""

    @model_validator(mode="after")
    def _one_unit(self) -> SpectatorDelay:
        if self.moves and self.seconds:
            raise ValueError("a spectator delay counts moves or seconds, not both")
        if not 0 <= self.moves <= MAX_MOVES or not 0 <= self.seconds <= MAX_SECONDS:
            raise ValueError(
                f"a spectator delay is 0-{MAX_MOVES} moves or 0-{MAX_SECONDS} seconds"
            )
        return self

    @property
    def is_live(self) -> bool:
        return not (self.moves or self.seconds)

    def to_record(self) -> dict[str, int] | None:
        """The stored form: ``{"moves": n}``, ``{"seconds": s}`` or ``None`` (live)."""
        if self.moves:
            return {"moves": self.moves}
        if self.seconds:
            return {"seconds": self.seconds}
        return None


def parse_delay(raw: Any) -> SpectatorDelay | None:
    """A stored or requested delay (``None``, a dict or a model); ``None`` when live.

    :raises InvalidCommandError: for a malformed delay.
    """
    if raw is None or isinstance(raw, SpectatorDelay):
        delay = raw
    else:
        try:
            delay = SpectatorDelay.model_validate(raw)
        except ValueError:
            raise InvalidCommandError(
                f"spectator_delay is 0-{MAX_MOVES} moves or 0-{MAX_SECONDS} seconds,"
                " not both"
            ) from None
    return None if delay is None or delay.is_live else delay


@dataclass(frozen=True)
class Mark:
    """The end of one decision in a game's log."""

    version: int
    """The decision's last event version."""
    moved: bool
    """Whether a seat took the decision (the opening and the creation did not)."""
    at: datetime
    """When the decision was recorded."""


def marks_of(events: Iterable[Any]) -> list[Mark]:
    """Decision marks of ledger events (``originator_version``, ``timestamp``,
    and ``decision``/``actor`` when they have them), oldest first."""
    marks: list[Mark] = []
    decision: Any = object()
    for event in events:
        key = getattr(event, "decision", None)
        actor = getattr(event, "actor", None)
        mark = Mark(event.originator_version, actor is not None, event.timestamp)
        if marks and key is not None and key == decision:
            marks[-1] = Mark(mark.version, marks[-1].moved or mark.moved, marks[-1].at)
        else:
            marks.append(mark)
        decision = key
    return marks


def visible_version(delay: SpectatorDelay, marks: Sequence[Mark], now: datetime) -> int:
    """The newest version a spectator may see of a running game with ``marks``.

    >>> from datetime import UTC
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> marks = [Mark(1, False, t), Mark(3, False, t), Mark(4, True, t), Mark(6, True, t)]
    >>> visible_version(SpectatorDelay(moves=1), marks, t)
    4
    >>> visible_version(SpectatorDelay(moves=5), marks, t)
    3
    >>> visible_version(SpectatorDelay(seconds=10), marks, t)
    3
    """
    if not marks:
        return 0
    cutoff = now - timedelta(seconds=delay.seconds)
    allowed = sum(m.moved for m in marks) - delay.moves
    visible, seen = marks[0].version, 0
    for mark in marks:
        if mark.moved:
            seen += 1
            if (delay.moves and seen > allowed) or (delay.seconds and mark.at > cutoff):
                break
        visible = mark.version
    return visible
