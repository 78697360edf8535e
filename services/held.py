"""The games this server process holds in memory, and when they may answer.

Why a module of its own: the ledger keeps, per game, the newest aggregate it
has saved or read, the :class:`~services.heads.Heads` epoch since which it is
known current, and the last few events this process recorded (the live tail
for streams).  Writes route moves from it without a round trip (the database
catches a stale copy as a conflict); reads and streams use it only while
:class:`Heads` vouches that no process has notified anything newer.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any
from uuid import UUID

from domain.aggregate import Game
from services.heads import Heads

RECENT_EVENTS = 16
"""Events kept per game for live streams: a wake-up usually needs only the last
move's few; older ones are read from the store (bounded memory per held game)."""


def shell(game: Game) -> Game:
    """A private copy of a shared aggregate: states are immutable, so only the
    shell and its pending-events list need copying before deciding a move."""
    copy = object.__new__(Game)
    copy.__dict__.update(game.__dict__)
    copy._pending_events = []
    return copy


class HeldGames:
    """A bounded LRU of ``game_id -> (aggregate, epoch, recent events)``.

    Each entry is one tuple, replaced whole, so a reader always sees a
    consistent triple without a lock (dict operations are atomic under the GIL).
    """

    def __init__(self, size: int, heads: Heads) -> None:
        self._size = size
        self._heads = heads
        self._games: OrderedDict[UUID, tuple[Game, int, tuple[Any, ...]]] = (
            OrderedDict()
        )

    def latest(self, game_id: UUID) -> Game | None:
        """The newest copy held, current or not (for routing a move)."""
        entry = self._games.get(game_id)
        return None if entry is None else shell(entry[0])

    def current(self, game_id: UUID) -> Game | None:
        """The game now, if memory can vouch for it."""
        entry = self._games.get(game_id)
        if entry is not None and self._heads.current(
            game_id, entry[0].version, entry[1]
        ):
            return shell(entry[0])
        return None

    def recent_events(self, game_id: UUID, after: int) -> tuple[Game, list[Any]] | None:
        """The game now and its events after ``after``, or ``None`` when memory
        cannot vouch for them all (then read the store)."""
        entry = self._games.get(game_id)
        if entry is None or not self._heads.current(
            game_id, entry[0].version, entry[1]
        ):
            return None
        game, _, recent = entry
        if after >= game.version:
            return shell(game), []
        if not recent or recent[0].originator_version > after + 1:
            return None
        return shell(game), [e for e in recent if e.originator_version > after]

    def forget(self, game_id: UUID) -> None:
        self._games.pop(game_id, None)

    def recorded(self, game: Game, epoch: int, new_events: list[Any]) -> None:
        """This process just saved ``new_events``: hold the game and extend its tail."""
        old = self._games.get(game.id)
        recent: tuple[Any, ...] = ()
        if old is not None and old[0].version == new_events[0].originator_version - 1:
            recent = old[2]
        self.remember(game, epoch, (recent + tuple(new_events))[-RECENT_EVENTS:])

    def remember(self, game: Game, epoch: int, recent: tuple[Any, ...] = ()) -> None:
        """Hold ``game``, known current since ``epoch`` (taken before it was read)."""
        old = self._games.get(game.id)
        if old is not None and old[0].version > game.version:
            return  # a slower reader must not replace a newer write
        if not recent and old is not None and old[0].version == game.version:
            recent = old[2]
        self._games[game.id] = (game, epoch, recent)
        try:
            self._games.move_to_end(game.id)
        except KeyError:  # evicted by another thread meanwhile
            pass
        while len(self._games) > self._size:
            try:
                self._games.popitem(last=False)
            except KeyError:
                break
