"""Thorgal commands: everything a seat can submit.

Three commands are enough because every question the rules ask is recorded as
``pending`` with its legal answers: ``TakeAction`` starts a turn, ``Choose``
answers a listed option (targets, goods, consent, side plots, experience...),
``PlaceTile`` places a Wound, Journey or Combat tile.
"""

from __future__ import annotations

from domain.core import Command


class TakeAction(Command):
    """Flip an active Action chip and place it under the card in ``slot``."""

    chip: int
    slot: int
    option: int = 0
    """Which of the card's main actions (cards may offer two)."""


class Choose(Command):
    """Answer the open question with one of its listed options."""

    choice: str


class PlaceTile(Command):
    """Place a polyomino: ``shape`` in its ``orientation``-th form at ``(row, col)``."""

    shape: str
    orientation: int
    row: int
    col: int


COMMAND_TYPES = (TakeAction, Choose, PlaceTile)
