"""Thorgal commands: everything a seat can submit.

Three commands are enough because every question the rules ask is recorded as
``pending`` with its legal answers: ``TakeAction`` starts a turn, ``Choose``
answers a listed option (targets, goods, consent, side plots, experience...),
``PlaceTile`` places a Wound, Journey or Combat tile.  Options are typed
(``options.py``), never a string language.
"""

from __future__ import annotations

from domain.core import Command

from .options import Option


class TakeAction(Command):
    """Flip an active Action chip and place it under the card in ``slot``."""

    chip: int
    slot: int
    option: int = 0
    """Which of the card's main actions (cards may offer two)."""


class Choose(Command):
    """Answer the open question with one of its listed ``Pending.options``."""

    option: Option


class PlaceTile(Command):
    """Place a polyomino ``shape`` (one of ``Pending.shapes``) on the open question's grid.

    The tile is mirrored left-right if ``mirrored``, then turned ``rotation``
    quarter turns clockwise (0-3), and its bounding box's top-left corner goes
    on ``(row, col)``.  Equal cells are the same placement whichever
    ``rotation``/``mirrored`` produced them; ``legal_commands`` lists each once.
    """

    shape: str
    rotation: int
    mirrored: bool = False
    row: int
    col: int


COMMAND_TYPES = (TakeAction, Choose, PlaceTile)
