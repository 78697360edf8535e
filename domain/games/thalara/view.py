"""View models, and what each viewer may see: ``view`` and ``redact``.

Public: conflicts (cards, destroyed flags, spells), discards, Artifacts won,
scores, counts of hands and supplies, selection commitments.  Owner only:
hand, supply contents, selected/drawn/returned cards.  Admin only: the
order of the Artifact stack and of shuffled supplies (nobody at the table
knows those).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.core import Model
from domain.games.kit import mirror, seat_mirror, seat_views

from . import events as ev
from .rules.moves import to_act
from .rules.rounds import scores
from .rules.spells import totals
from .state import ActiveSpell, Play, PlayerState, ThalaraState

if TYPE_CHECKING:
    from domain.contract.core import Event, Viewer


class ConflictView(Model):
    artifact: str
    plays: tuple[Play, ...]
    spells: tuple[ActiveSpell, ...]
    totals: tuple[int, ...]
    """Current strength per seat, spell bonuses included."""


class PlayerView(Model):
    seat: int
    character: str
    hand: tuple[str, ...]
    """Only for a viewer who may see this seat; empty otherwise."""
    hand_size: int
    supply: tuple[str, ...]
    """Contents (sorted, never the shuffled order) for the owner; empty otherwise."""
    supply_size: int
    discard: tuple[str, ...]
    won: tuple[str, ...]
    score: int
    passed: bool
    ready: bool
    commitment: str | None = None
    spells_used: tuple[str, ...]


class ThalaraView(Model):
    mode: str
    content: str
    phase: str
    round: int
    starter: int
    current: int | None = None
    last_player: int | None = None
    conflicts: tuple[ConflictView, ...]
    stack_size: int
    stack: tuple[str, ...]
    """The stack order, for admins only."""
    players: tuple[PlayerView, ...]
    to_act: tuple[int, ...]
    scores: tuple[int, ...]
    end_reason: str


def view(state: ThalaraState, viewer: Viewer) -> ThalaraView:
    """The table as ``viewer`` may see it.

    The view models mirror the state models (``kit.mirror``): only what is
    hidden or derived is spelled out here.
    """
    points = scores(state)

    def seat_view(seat: int, p: PlayerState) -> PlayerView:
        return seat_mirror(
            PlayerView,
            viewer,
            seat,
            p,
            supply=tuple(sorted(p.supply)) if viewer.can_see(seat) else (),
            score=points[seat],
        )

    return mirror(
        ThalaraView,
        state,
        conflicts=tuple(
            mirror(ConflictView, c, totals=totals(state, c)) for c in state.conflicts
        ),
        stack=state.stack if viewer.admin else (),
        players=seat_views(state.players, seat_view),
        to_act=to_act(state),
    )


_OWNER_ONLY = (ev.HandSelected, ev.CardsDrawn, ev.RemnantsReturned)
_ADMIN_ONLY = (ev.ArtifactsShuffled, ev.SupplyShuffled)


def redact(event: Event, viewer: Viewer) -> Event:
    """The event as ``viewer`` may see it: same class, hidden fields emptied."""
    if viewer.admin:
        return event
    if isinstance(event, _ADMIN_ONLY):
        return event.model_copy(update={"order": ()})
    if isinstance(event, _OWNER_ONLY) and not viewer.can_see(event.seat):
        return event.model_copy(update={"cards": ()})
    return event
