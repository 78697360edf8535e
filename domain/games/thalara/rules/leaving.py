"""What a Thalara seat leaving the game (resigning, running out of time) costs.

Why a drop-out at three or four players: Thalara's conflicts are decided by
whoever is still committing cards, so a table can play on without a seat that
passes every turn; ending the game would hand two strangers a shared win.
With two players the other seat simply wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.endings import Consequence
from domain.contract.errors import IllegalCommandError
from domain.contract.messages import Seat

from ..commands import Pass, ReturnRemnants
from ..state import PLAY, RETURN, ThalaraState
from .moves import legal_sequence

if TYPE_CHECKING:
    from domain.contract.core import Command


def consequence(state: ThalaraState, seat: Seat) -> Consequence:
    """Two players: the seat loses; three or more: it drops out."""
    del seat
    return Consequence.DROPS_OUT if len(state.players) >= 3 else Consequence.SEAT_LOSES


def automatic_command(state: ThalaraState, seat: Seat) -> Command:
    """A seat that dropped out passes every turn, keeps every Remnant, and
    selects the first hand in supply order (it never plays a card, so which
    cards it holds only decides what the others may later draw).

    :raises IllegalCommandError: when ``seat`` has no decision to make.
    """
    if state.phase == PLAY:
        return Pass()
    if state.phase == RETURN:
        return ReturnRemnants(cards=())
    options = legal_sequence(state, seat)
    if not options:
        raise IllegalCommandError("thalara.not-your-turn", f"seat {seat} has no move")
    return options[0]
