"""Thalara state models.

Everything a seat owns lives under ``players[seat]``; hidden parts are the
hand, the supply and the current selection (``view.view`` strips them for
other viewers) and the order of the Artifact stack (admins only).
"""

from __future__ import annotations

from typing import Final, Literal

from domain.contract.core import Model, State

STANDARD: Final = "standard"
CASUAL_CHAOS: Final = "casual_chaos"
MODES = (STANDARD, CASUAL_CHAOS)
Mode = Literal["standard", "casual_chaos"]

# phases
SELECT = "select"
"""Standard mode: every seat secretly selects Remnants to fill its hand."""
PLAY = "play"
"""Seats take turns playing energy cards (and spells) or passing."""
RETURN = "return"
"""Casual Chaos: seats holding Remnants choose which to shuffle back."""
OVER = "over"


class Play(Model):
    """An energy card attached to a conflict."""

    card: str
    owner: int
    destroyed: bool = False
    """A destroyed card stays visible but adds no strength and no colour."""


class ActiveSpell(Model):
    """A spell lying in a conflict until the end of the round."""

    spell: str
    caster: int
    target: str | None = None


class Conflict(Model):
    artifact: str
    plays: tuple[Play, ...] = ()
    spells: tuple[ActiveSpell, ...] = ()


class PlayerState(Model):
    character: str
    supply: tuple[str, ...]
    """Remnants still available; sorted (standard) or in shuffled order (chaos)."""
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    won: tuple[str, ...] = ()
    """Artifacts collected (they sit in the hand or a conflict; never lost)."""
    passed: bool = False
    ready: bool = False
    """Has made this phase's simultaneous choice (selection / return)."""
    commitment: str | None = None
    spells_used: tuple[str, ...] = ()


class ThalaraState(State):
    players: tuple[PlayerState, ...]
    mode: str
    content: str
    phase: str = SELECT
    round: int = 0
    starter: int = 0
    current: int | None = None
    last_player: int | None = None
    """Seat that played the most recent card; starts the next round."""
    conflicts: tuple[Conflict, ...] = ()
    stack: tuple[str, ...] = ()
    """Artifact stack, top first; its order is hidden from everyone but admins."""
    scores: tuple[int, ...] = ()
    end_reason: str = ""

    @property
    def seats(self) -> int:
        return len(self.players)
