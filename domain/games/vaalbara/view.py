"""View models, and what each viewer may see: ``view`` and ``redact``.

Hidden: other seats' hands, their unrevealed choices and nonces, every deck
order (the Land deck's Omens are public, its order is not; a clan deck's
order is unknown even to its owner), and other seats' VP until the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.core import Model, Viewer
from domain.games.kit import mirror, seat_mirror, seat_views

from . import events as ev
from .rules import to_act
from .state import OVER, PlayerState, VaalbaraState

if TYPE_CHECKING:
    from domain.contract.core import Event


class PlayerView(Model):
    """One seat as a viewer sees it: hidden parts blank unless allowed."""

    seat: int
    clan: str
    deck_size: int
    hand_size: int
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    """Deck order, admin only."""
    discard: tuple[str, ...] = ()
    has_chosen: bool = False
    chosen: str | None = None
    played: str | None = None
    realm: tuple[str, ...] = ()
    vp: int | None = None
    """Own VP, or everyone's once the game is over."""


class VaalbaraView(Model):
    """The table as one viewer may see it."""

    phase: str
    round: int
    players: tuple[PlayerView, ...]
    omens: tuple[str, ...]
    land_deck_size: int
    land_deck: tuple[str, ...] = ()
    """Deck order, admin only."""
    first_row: tuple[str, ...] = ()
    second_row: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    current: int | None = None
    step: str = ""
    done: tuple[int, ...] = ()
    fighter_pending: tuple[int, ...] = ()
    to_act: tuple[int, ...] = ()
    final_scores: tuple[int, ...] = ()


def view(state: VaalbaraState, viewer: Viewer) -> VaalbaraView:
    """The table as ``viewer`` may see it.

    The view models mirror the state models (``kit.mirror``): only what is
    hidden or derived is spelled out here.
    """
    over = state.phase == OVER

    def seat_view(seat: int, p: PlayerState) -> PlayerView:
        mine = viewer.can_see(seat)
        return seat_mirror(
            PlayerView,
            viewer,
            seat,
            p,
            deck=p.deck if viewer.admin else (),
            has_chosen=p.chosen is not None,
            chosen=p.chosen if mine else None,
            vp=p.vp if mine or over else None,
        )

    return mirror(
        VaalbaraView,
        state,
        players=seat_views(state.players, seat_view),
        omens=state.omens,
        land_deck=state.land_deck if viewer.admin else (),
        to_act=to_act(state),
    )


def redact(event: Event, viewer: Viewer) -> Event:
    """``event`` with the fields ``viewer`` may not see blanked (same class)."""
    if viewer.admin:
        return event
    match event:
        case ev.LandDeckShuffled() | ev.ClanDeckShuffled():
            return event.model_copy(update={"cards": ()})
        case ev.CharactersDrawn(seat=seat) if not viewer.can_see(seat):
            return event.model_copy(update={"cards": ()})
        case ev.CharacterChosen(seat=seat) if not viewer.can_see(seat):
            return event.model_copy(update={"character": None, "nonce": None})
        case ev.PointsScored(seat=seat) if not viewer.can_see(seat):
            return event.model_copy(update={"points": None})
        case ev.PointsStolen(thief=thief, victim=victim) if not (
            viewer.can_see(thief) or viewer.can_see(victim)
        ):
            return event.model_copy(update={"points": None})
    return event
