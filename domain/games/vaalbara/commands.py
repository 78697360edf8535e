"""Commands: what a client may submit (imperative names).

Every decision a player takes is its own command, including the choices a
character card asks for, so ``legal_commands`` can list each option exactly.
"""

from __future__ import annotations

from domain.contract.core import Command


class ChooseCharacter(Command):
    """Assignment: secretly place a character from your hand face down."""

    character: str


class RevealFighter(Command):
    """Answer a Fighter call by showing your Fighter to gain 1 VP."""


class DeclineFighter(Command):
    """Answer a Fighter call without showing anything (always allowed)."""


class GiveBardPoints(Command):
    """Bard: the other player who gains 2 VP."""

    target: int


class TrackLand(Command):
    """Tracker: the row card swapped with the top card of the Land deck."""

    card: str


class TakeBackCharacter(Command):
    """Midwife: the discarded character returned to your hand."""

    character: str


class SwapLands(Command):
    """Rider: a first-row card swapped with a second-row card."""

    first: str
    second: str


class SwapWithDeckBottom(Command):
    """Pioneer: the Land of your Realm swapped with the Land deck's bottom card."""

    card: str


class TakeLand(Command):
    """Land action: the first-row card added to your Realm."""

    card: str


COMMAND_TYPES: tuple[type[Command], ...] = (
    ChooseCharacter,
    RevealFighter,
    DeclineFighter,
    GiveBardPoints,
    TrackLand,
    TakeBackCharacter,
    SwapLands,
    SwapWithDeckBottom,
    TakeLand,
)
