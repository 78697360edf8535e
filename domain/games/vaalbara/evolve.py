"""``evolve``: apply one decided event to the state (pure, never validates).

Every handler builds the new state with ``model_copy(update=...)`` (through
the kit's ``with_seat``): no re-validation, which keeps replaying a 5-player
game cheap.  Cards and seats leave a tuple with ``without_one`` (the first
occurrence; a missing one raises), exactly as this game has always replayed.
"""

from __future__ import annotations

from domain.games.kit import Evolver, with_seat, without_one

from . import events as ev
from .state import (
    ASSIGNMENT,
    CHARACTER_STEP,
    FIGHTER_STEP,
    LAND_STEP,
    OVER,
    RESOLUTION,
    VaalbaraState,
)


def _replace(items: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    return tuple(new if x == old else x for x in items)


evolve = Evolver[VaalbaraState]("vaalbara")
"""The ruleset's ``evolve(state, event)``; :class:`TypeError` on a foreign event."""


evolve.records(ev.LandDeckShuffled, land_deck="cards")
evolve.records_at_seat(ev.ClanDeckShuffled, deck="cards")


@evolve.on(ev.LandsDealt)
def _(state: VaalbaraState, e: ev.LandsDealt) -> VaalbaraState:
    key = "first_row" if e.row == 1 else "second_row"
    return state.model_copy(
        update={
            "land_deck": state.land_deck[len(e.cards) :],
            key: getattr(state, key) + e.cards,
        }
    )


@evolve.on(ev.CharactersDrawn)
def _(state: VaalbaraState, e: ev.CharactersDrawn) -> VaalbaraState:
    p = state.players[e.seat]
    return with_seat(state, e.seat, deck=p.deck[e.count :], hand=p.hand + e.cards)


evolve.records(
    ev.RoundStarted,
    {"phase": ASSIGNMENT, "revealed": (), "done": (), "current": None, "step": ""},
    round="round",
)


@evolve.on(ev.CharacterChosen)
def _(state: VaalbaraState, e: ev.CharacterChosen) -> VaalbaraState:
    p = state.players[e.seat]
    return with_seat(
        state,
        e.seat,
        hand=without_one(p.hand, e.character),
        chosen=e.character,
        nonce=e.nonce,
    )


@evolve.on(ev.CharactersRevealed)
def _(state: VaalbaraState, e: ev.CharactersRevealed) -> VaalbaraState:
    players = tuple(
        p.model_copy(update={"played": c, "chosen": None, "nonce": None})
        for p, c in zip(state.players, e.characters)
    )
    return state.model_copy(
        update={"players": players, "revealed": e.characters, "phase": RESOLUTION}
    )


evolve.records(ev.TurnStarted, {"step": CHARACTER_STEP}, current="seat")
evolve.records(ev.FighterCalled, {"step": FIGHTER_STEP}, fighter_pending="seats")


@evolve.on(ev.FighterRevealed, ev.FighterDeclined)
def _(
    state: VaalbaraState, e: ev.FighterRevealed | ev.FighterDeclined
) -> VaalbaraState:
    return state.model_copy(
        update={"fighter_pending": without_one(state.fighter_pending, e.seat)}
    )


@evolve.on(ev.PointsScored)
def _(state: VaalbaraState, e: ev.PointsScored) -> VaalbaraState:
    return with_seat(state, e.seat, vp=state.players[e.seat].vp + (e.points or 0))


@evolve.on(ev.PointsStolen)
def _(state: VaalbaraState, e: ev.PointsStolen) -> VaalbaraState:
    points = e.points or 0
    state = with_seat(state, e.victim, vp=state.players[e.victim].vp - points)
    return with_seat(state, e.thief, vp=state.players[e.thief].vp + points)


@evolve.on(ev.LandTracked)
def _(state: VaalbaraState, e: ev.LandTracked) -> VaalbaraState:
    return state.model_copy(
        update={
            "first_row": _replace(state.first_row, e.card, e.new_card),
            "second_row": _replace(state.second_row, e.card, e.new_card),
            "land_deck": (e.card,) + state.land_deck[1:],
        }
    )


@evolve.on(ev.CharacterTakenBack)
def _(state: VaalbaraState, e: ev.CharacterTakenBack) -> VaalbaraState:
    p = state.players[e.seat]
    return with_seat(
        state,
        e.seat,
        discard=without_one(p.discard, e.character),
        hand=p.hand + (e.character,),
    )


@evolve.on(ev.LandsSwapped)
def _(state: VaalbaraState, e: ev.LandsSwapped) -> VaalbaraState:
    return state.model_copy(
        update={
            "first_row": _replace(state.first_row, e.first, e.second),
            "second_row": _replace(state.second_row, e.second, e.first),
        }
    )


@evolve.on(ev.RealmLandSwapped)
def _(state: VaalbaraState, e: ev.RealmLandSwapped) -> VaalbaraState:
    realm = _replace(state.players[e.seat].realm, e.card, e.new_card)
    state = with_seat(state, e.seat, realm=realm)
    return state.model_copy(update={"land_deck": state.land_deck[:-1] + (e.card,)})


@evolve.on(ev.CharacterDiscarded)
def _(state: VaalbaraState, e: ev.CharacterDiscarded) -> VaalbaraState:
    p = state.players[e.seat]
    state = with_seat(state, e.seat, played=None, discard=p.discard + (e.character,))
    return state.model_copy(update={"step": LAND_STEP})


@evolve.on(ev.LandTaken)
def _(state: VaalbaraState, e: ev.LandTaken) -> VaalbaraState:
    state = with_seat(state, e.seat, realm=state.players[e.seat].realm + (e.card,))
    return state.model_copy(
        update={
            "first_row": without_one(state.first_row, e.card),
            "done": state.done + (e.seat,),
            "current": None,
            "step": "",
        }
    )


@evolve.on(ev.RoundEnded)
def _(state: VaalbaraState, e: ev.RoundEnded) -> VaalbaraState:
    return state.model_copy(
        update={
            "first_row": state.first_row + state.second_row,
            "second_row": (),
        }
    )


evolve.records(
    ev.GameEnded, {"phase": OVER}, final_scores="scores", final_omens="omens"
)
