"""Thalara commands: what a seat submits.

A turn is one command: ``PlayCard`` places an energy card and optionally
activates one spell (``spell``), so "play first, then at most one spell" is
enforced by the shape of the message itself; ``Pass`` ends the seat's round.
"""

from __future__ import annotations

from domain.contract.core import Command, Model


class SpellActivation(Model):
    """Activate ``spell`` in the conflict of Artifact ``conflict``.

    ``target`` is the card id a destroy/return spell acts on (``None`` for
    bonus/weaken spells).
    """

    spell: str
    conflict: str
    target: str | None = None


class SelectHand(Command):
    """Standard mode: secretly choose Remnants from your supply to fill your hand to 7."""

    cards: tuple[str, ...]


class PlayCard(Command):
    """Place ``card`` from your hand into the conflict of Artifact ``conflict``."""

    card: str
    conflict: str
    spell: SpellActivation | None = None


class Pass(Command):
    """Play no more cards this round."""


class ReturnRemnants(Command):
    """Casual Chaos, end of round: shuffle these Remnants from hand back into your supply."""

    cards: tuple[str, ...] = ()


COMMAND_TYPES = (SelectHand, PlayCard, Pass, ReturnRemnants)
