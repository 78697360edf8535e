"""Terralore commands: the only decision is a turn's secret placement.

Why one command per turn instead of "place, place, ..., commit": the Play
phase is simultaneous and hidden, so the whole plan is committed at once and
nothing about it (not even how many cards) is visible before the Reveal.
"""

from __future__ import annotations

import enum

from domain.contract.core import Command, Model


class Lane(str, enum.Enum):
    """A player's two lanes; my attacking lane faces the opponent's defending lane."""

    DEFENDING = "defending"
    ATTACKING = "attacking"

    @property
    def facing(self) -> Lane:
        """The opponent's lane this lane fights against."""
        return Lane.ATTACKING if self is Lane.DEFENDING else Lane.DEFENDING


class Play(Model):
    """One card from hand placed face down in one of the player's lanes."""

    card: str
    lane: Lane


class PlaceCards(Command):
    """Commit this turn's face-down placement (possibly empty).

    ``discards`` pay the costs: exactly the sum of the played cards' costs,
    from the cards left in hand.  ``destroys`` names own creatures already in
    a lane that must make room: exactly as many per lane as the new creatures
    would put over four.
    """

    plays: tuple[Play, ...] = ()
    discards: tuple[str, ...] = ()
    destroys: tuple[str, ...] = ()


COMMAND_TYPES = (PlaceCards,)
