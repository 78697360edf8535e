"""``evolve``: apply one decided event to the state (pure, never validates).

Every branch builds the new state with ``model_copy(update=...)``: no
re-validation, which keeps replaying a 5-player game cheap.
"""

from __future__ import annotations

from typing import Any

from domain.core import Event

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


def _with_player(state: VaalbaraState, seat: int, **update: Any) -> VaalbaraState:
    players = list(state.players)
    players[seat] = players[seat].model_copy(update=update)
    return state.model_copy(update={"players": tuple(players)})


def _without(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    """``items`` minus the first occurrence of ``item``."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _replace(items: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    return tuple(new if x == old else x for x in items)


def evolve(state: VaalbaraState, event: Event) -> VaalbaraState:
    """The state after ``event``.

    :raises TypeError: if ``event`` is not a Vaalbara event.
    """
    match event:
        case ev.LandDeckShuffled(cards=cards):
            return state.model_copy(update={"land_deck": cards})
        case ev.ClanDeckShuffled(seat=seat, cards=cards):
            return _with_player(state, seat, deck=cards)
        case ev.LandsDealt(row=row, cards=cards):
            key = "first_row" if row == 1 else "second_row"
            return state.model_copy(
                update={
                    "land_deck": state.land_deck[len(cards) :],
                    key: getattr(state, key) + cards,
                }
            )
        case ev.CharactersDrawn(seat=seat, count=count, cards=cards):
            p = state.players[seat]
            return _with_player(state, seat, deck=p.deck[count:], hand=p.hand + cards)
        case ev.RoundStarted(round=number):
            return state.model_copy(
                update={
                    "phase": ASSIGNMENT,
                    "round": number,
                    "revealed": (),
                    "done": (),
                    "current": None,
                    "step": "",
                }
            )
        case ev.CharacterChosen(seat=seat, character=character, nonce=nonce):
            p = state.players[seat]
            return _with_player(
                state,
                seat,
                hand=_without(p.hand, character),
                chosen=character,
                nonce=nonce,
            )
        case ev.CharactersRevealed(characters=characters):
            players = tuple(
                p.model_copy(update={"played": c, "chosen": None, "nonce": None})
                for p, c in zip(state.players, characters)
            )
            return state.model_copy(
                update={"players": players, "revealed": characters, "phase": RESOLUTION}
            )
        case ev.TurnStarted(seat=seat):
            return state.model_copy(update={"current": seat, "step": CHARACTER_STEP})
        case ev.FighterCalled(seats=seats):
            return state.model_copy(
                update={"fighter_pending": seats, "step": FIGHTER_STEP}
            )
        case ev.FighterRevealed(seat=seat) | ev.FighterDeclined(seat=seat):
            return state.model_copy(
                update={"fighter_pending": _without(state.fighter_pending, seat)}
            )
        case ev.PointsScored(seat=seat, points=points):
            return _with_player(state, seat, vp=state.players[seat].vp + (points or 0))
        case ev.PointsStolen(thief=thief, victim=victim, points=points):
            state = _with_player(
                state, victim, vp=state.players[victim].vp - (points or 0)
            )
            return _with_player(
                state, thief, vp=state.players[thief].vp + (points or 0)
            )
        case ev.LandTracked(card=card, new_card=new_card):
            return state.model_copy(
                update={
                    "first_row": _replace(state.first_row, card, new_card),
                    "second_row": _replace(state.second_row, card, new_card),
                    "land_deck": (card,) + state.land_deck[1:],
                }
            )
        case ev.CharacterTakenBack(seat=seat, character=character):
            p = state.players[seat]
            return _with_player(
                state,
                seat,
                discard=_without(p.discard, character),
                hand=p.hand + (character,),
            )
        case ev.LandsSwapped(first=first, second=second):
            return state.model_copy(
                update={
                    "first_row": _replace(state.first_row, first, second),
                    "second_row": _replace(state.second_row, second, first),
                }
            )
        case ev.RealmLandSwapped(seat=seat, card=card, new_card=new_card):
            state = _with_player(
                state, seat, realm=_replace(state.players[seat].realm, card, new_card)
            )
            return state.model_copy(
                update={"land_deck": state.land_deck[:-1] + (card,)}
            )
        case ev.CharacterDiscarded(seat=seat, character=character):
            p = state.players[seat]
            state = _with_player(
                state, seat, played=None, discard=p.discard + (character,)
            )
            return state.model_copy(update={"step": LAND_STEP})
        case ev.LandTaken(seat=seat, card=card):
            state = _with_player(state, seat, realm=state.players[seat].realm + (card,))
            return state.model_copy(
                update={
                    "first_row": _without(state.first_row, card),
                    "done": state.done + (seat,),
                    "current": None,
                    "step": "",
                }
            )
        case ev.RoundEnded():
            return state.model_copy(
                update={
                    "first_row": state.first_row + state.second_row,
                    "second_row": (),
                }
            )
        case ev.GameEnded(scores=scores, omens=omens):
            return state.model_copy(
                update={"phase": OVER, "final_scores": scores, "final_omens": omens}
            )
    raise TypeError(f"not a vaalbara event: {type(event).__name__}")
