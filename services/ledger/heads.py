"""What this process knows of every game's newest version, from LISTEN/NOTIFY.

Why: a read (``GetGame``, ``ListLegalMoves``) can be answered from the
aggregate this process already holds, with no round trip, as long as nobody
else has recorded a move since.  Every commit, from any process, notifies
``game_id:version``; while the listening connection is up, a held aggregate
at least as new as the newest notified version is current.  Anything held
from before the connection was (re)established, or while it is down, is not
trusted and the read goes to the database as before.

The window this leaves is the notification's own delivery time (a few
milliseconds, and only for a move recorded by *another* server process):
within one process, and so within one client connection, reads always see
the caller's own writes.
"""

from __future__ import annotations

import itertools
from uuid import UUID

_epochs = itertools.count(1)


class Heads:
    def __init__(self, capacity: int = 200_000) -> None:
        self._heads: dict[str, int] = {}
        self._capacity = capacity
        self.epoch = 0
        """0 while not listening; a fresh number for every (re)connection."""

    def listening(self) -> None:
        """The LISTEN connection is (back) up: start a new epoch from nothing."""
        self._heads = {}
        self.epoch = next(_epochs)

    def deaf(self) -> None:
        """The LISTEN connection is down: trust nothing held."""
        self.epoch = 0

    def saw(self, game_id: str, version: int) -> None:
        if len(self._heads) >= self._capacity:
            self.listening()  # forgetting heads would trust stale games: start over
        if version > self._heads.get(game_id, 0):
            self._heads[game_id] = version

    def saw_payload(self, payload: str) -> str:
        """Record a ``game_id:version`` notification; returns the game id."""
        game_id, _, version = payload.partition(":")
        try:
            self.saw(game_id, int(version))
        except ValueError:
            self.listening()  # a payload we cannot read: be safe
        return game_id

    def is_newest(self, game_id: UUID, version: int, epoch: int) -> bool:
        """Whether an aggregate at ``version``, held since ``epoch``, is the newest."""
        return (
            epoch != 0
            and epoch == self.epoch
            and self._heads.get(str(game_id), 0) <= version
        )
