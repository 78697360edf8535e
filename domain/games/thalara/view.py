"""What each viewer may see: ``view`` of the state and ``redact`` of events.

Public: conflicts (cards, destroyed flags, spells), discards, Artifacts won,
scores, counts of hands and supplies, selection commitments.  Owner only:
hand, supply contents, selected/drawn/returned cards.  Admin only: the
order of the Artifact stack and of shuffled supplies (nobody at the table
knows those).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.games.thalara import events as ev
from domain.games.thalara.moves import to_act
from domain.games.thalara.rounds import scores
from domain.games.thalara.spells import totals
from domain.games.thalara.state import (
    ConflictView,
    PlayerView,
    ThalaraState,
    ThalaraView,
)

if TYPE_CHECKING:
    from domain.core import Event, Viewer


def view(state: ThalaraState, viewer: Viewer) -> ThalaraView:
    points = scores(state)
    players = tuple(
        PlayerView(
            seat=seat,
            character=p.character,
            hand=p.hand if viewer.can_see(seat) else (),
            hand_size=len(p.hand),
            supply=tuple(sorted(p.supply)) if viewer.can_see(seat) else (),
            supply_size=len(p.supply),
            discard=p.discard,
            won=p.won,
            score=points[seat],
            passed=p.passed,
            ready=p.ready,
            commitment=p.commitment,
            spells_used=p.spells_used,
        )
        for seat, p in enumerate(state.players)
    )
    conflicts = tuple(
        ConflictView(
            artifact=c.artifact, plays=c.plays, spells=c.spells, totals=totals(state, c)
        )
        for c in state.conflicts
    )
    return ThalaraView(
        mode=state.mode,
        content=state.content,
        phase=state.phase,
        round=state.round,
        starter=state.starter,
        current=state.current,
        last_player=state.last_player,
        conflicts=conflicts,
        stack_size=len(state.stack),
        stack=state.stack if viewer.admin else (),
        players=players,
        to_act=to_act(state),
        scores=state.scores,
        end_reason=state.end_reason,
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
