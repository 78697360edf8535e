"""Table options and the empty table: player count, characters, content pack.

Solo is one person with two characters, so the seat count and the player
count differ (:func:`seats_for`, :func:`player_seats`).
"""

from __future__ import annotations

from domain.contract.content_packs import pack_name
from domain.contract.core import InvalidCommandError, Model

from .content import CONTENT_DIR, load
from .state import ThorgalState


class ThorgalSetup(Model):
    players: int = 2
    """1 (solo: one person with two characters) to 4; two by default, as
    every game's setup (an omitted setup is a table)."""
    characters: tuple[str, ...] = ()
    """Character ids per seat; default the first ones of the content pack."""
    content: str = "sample"


def seats_for(players: int) -> int:
    """Solo is one person with two characters: two seats."""
    return max(2, players)


def player_seats(setup: ThorgalSetup) -> tuple[tuple[int, ...], ...]:
    if setup.players == 1:
        return ((0, 1),)
    return tuple((s,) for s in range(setup.players))


def initial_state(setup: ThorgalSetup) -> ThorgalState:
    if not 1 <= setup.players <= 4:
        raise InvalidCommandError("Thorgal is for 1 to 4 players")
    content = pack_name(CONTENT_DIR, setup.content)
    c = load(content)
    seats = seats_for(setup.players)
    chars = setup.characters or tuple(ch.id for ch in c.characters[:seats])
    known = {ch.id for ch in c.characters}
    if len(chars) != seats or len(set(chars)) != seats or not set(chars) <= known:
        raise InvalidCommandError(
            f"choose {seats} different characters from {sorted(known)}"
        )
    return ThorgalState(
        players=setup.players,
        seats=seats,
        content=content,
        reason=",".join(chars),
    )
