"""What a Vaalbara seat leaving the game (resigning, running out of time) costs.

Why a drop-out at three to five players: the clans race for Lands and points
independently, so the table plays on without a seat; ending the game would
hand the others a shared win.  With two players the other seat wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.endings import Consequence
from domain.contract.errors import IllegalCommandError
from domain.contract.messages import Seat

from .. import commands as cmd
from ..state import FIGHTER_STEP, RESOLUTION, VaalbaraState
from .decide import legal_commands

if TYPE_CHECKING:
    from domain.contract.core import Command


def consequence(state: VaalbaraState, seat: Seat) -> Consequence:
    """Two players: the seat loses; three or more: it drops out."""
    del seat
    return Consequence.DROPS_OUT if len(state.players) >= 3 else Consequence.SEAT_LOSES


def automatic_command(state: VaalbaraState, seat: Seat) -> Command:
    """A seat that dropped out declines its Fighter and otherwise takes the
    first option the rules list (the earliest character by initiative, the
    first choice of its character's action, the first Land in the row): the
    rules have no pass, so a deterministic pick is the closest.

    :raises IllegalCommandError: when ``seat`` has no decision to make.
    """
    if (
        state.phase == RESOLUTION
        and state.step == FIGHTER_STEP
        and seat in state.fighter_pending
    ):
        return cmd.DeclineFighter()
    option = next(iter(legal_commands(state, seat)), None)
    if option is None:
        raise IllegalCommandError("vaalbara.not-your-turn", f"seat {seat} has no move")
    return option
