"""``view`` and ``redact``: what each viewer may see.

Hidden: a player's hand and committed plan (from the opponent and
spectators), every deck's order (from everyone but admins; sizes are public).
Public: castles, lanes, Graveyards, Exiles, whether a seat has committed,
and everything revealed or burned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.core import Model
from domain.games.kit import mirror, seat_mirror, seat_views

from .events import CardsDrawn, DeckShuffled, LaneRef, PlacementCommitted
from .state import Plan

if TYPE_CHECKING:
    from domain.contract.core import Event, Viewer

    from .state import PlayerState, TerraloreState


class PlayerView(Model):
    seat: int
    hp: int
    deck_size: int
    hand_size: int
    hand: tuple[str, ...]
    """Empty unless the viewer may see this seat."""
    defending: tuple[str, ...]
    attacking: tuple[str, ...]
    graveyard: tuple[str, ...]
    exile: tuple[str, ...]
    committed: bool
    plan: Plan | None = None
    """This seat's committed plan, only for a viewer who may see the seat."""


class TerraloreView(Model):
    turn: int
    phase: str
    players: tuple[PlayerView, ...]
    last_reveal_order: tuple[LaneRef, ...]
    ranks: tuple[int, ...]
    reason: str


def view(state: TerraloreState, viewer: Viewer) -> TerraloreView:
    playing = state.phase == "play"

    def seat_view(seat: int, p: PlayerState) -> PlayerView:
        shown = playing and viewer.can_see(seat)
        return seat_mirror(
            PlayerView,
            viewer,
            seat,
            p,
            committed=p.plan is not None and playing,
            plan=p.plan if shown else None,
        )

    return mirror(
        TerraloreView,
        state,
        players=seat_views(state.players, seat_view),
        last_reveal_order=state.reveal_order,
    )


def redact(event: Event, viewer: Viewer) -> Event:
    if isinstance(event, DeckShuffled) and not viewer.admin:
        return event.model_copy(update={"order": (), "hidden": True})
    if isinstance(event, CardsDrawn) and not viewer.can_see(event.seat):
        return event.model_copy(update={"cards": (), "hidden": True})
    if isinstance(event, PlacementCommitted) and not viewer.can_see(event.seat):
        return event.model_copy(
            update={
                "plays": (),
                "discards": (),
                "destroys": (),
                "nonce": "",
                "hidden": True,
            }
        )
    return event
