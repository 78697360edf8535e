"""Who is looking at a game: the seats a viewer controls, or an admin.

Why a value and not a role string: ``view`` and ``redact`` ask one question,
:meth:`Viewer.can_see`, so a spectator, a solo player with two seats and an
admin are the same code path.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from domain.contract.messages import Seat


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the seats they control, or an admin who sees everything.

    A spectator controls no seats.  A solo Thorgal player controls two seats.
    """

    seats: frozenset[Seat] = frozenset()
    admin: bool = False

    @classmethod
    def player(cls, *seats: Seat) -> Viewer:
        return cls(seats=frozenset(seats))

    def can_see(self, seat: Seat) -> bool:
        """Whether this viewer may see ``seat``'s private information."""
        return self.admin or seat in self.seats

    @property
    def is_spectator(self) -> bool:
        return not self.admin and not self.seats


SPECTATOR = Viewer()
ADMIN = Viewer(admin=True)


@dataclass(frozen=True)
class SeatGrant:
    """What a seat token lets its holder do: act as ``player`` for ``seats`` of one game.

    Why here, beside :class:`Viewer`: the store finds it by token and the API's
    auth acts on it, and neither may import the other.
    """

    game_id: UUID
    player: int
    seats: tuple[Seat, ...]
