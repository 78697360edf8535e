"""What a Thorgal hero leaving the game (resigning, running out of time) costs.

Why the team loses: Thorgal is cooperative, every seat wins or loses
together, so a hero who leaves loses the adventure for all of them.
"""

from __future__ import annotations

from domain.contract.endings import Consequence
from domain.contract.messages import Seat

from ..state import ThorgalState


def consequence(state: ThorgalState, seat: Seat) -> Consequence:
    """Thorgal is cooperative: a hero who runs out of time loses it for the team."""
    del state, seat
    return Consequence.TEAM_LOSES
