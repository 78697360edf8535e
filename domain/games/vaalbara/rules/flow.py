"""What happens without a decision: setup, reveals, turn order, round ends.

``advance`` is called after every decided command and keeps emitting the
events the rules force (the reveal once all have chosen, the next turn, an
automatic character action, the end of a round, the end of the game) until a
seat has a real decision to take.  Keeping that loop in one place is what lets
``decide`` stay a thin validator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.games.kit import Decision

from .. import events as ev
from ..content import CHARACTERS, HAND_SIZE, PACK, ROUNDS
from ..evolve import evolve
from ..state import (
    ASSIGNMENT,
    CHARACTER_STEP,
    FIGHTER_STEP,
    RESOLUTION,
    VaalbaraState,
)
from .characters import automatic_effect, needs_choice
from .lands import variety_bonus

if TYPE_CHECKING:
    from domain.contract.core import Event, Rng


def start(state: VaalbaraState, rng: Rng) -> list[Event]:
    """Setup steps D and E, then round 1: every shuffle recorded in an event."""
    n = state.player_count
    log = Decision(state, evolve)
    log.emit(ev.LandDeckShuffled(cards=rng.shuffle(PACK.for_players(n))))
    for seat in range(n):
        log.emit(ev.ClanDeckShuffled(seat=seat, cards=rng.shuffle(CHARACTERS)))
    # The first n cards form the first row (the one furthest from the deck).
    log.emit(ev.LandsDealt(row=1, cards=log.state.land_deck[:n]))
    log.emit(ev.LandsDealt(row=2, cards=log.state.land_deck[:n]))
    for seat, p in enumerate(log.state.players):
        drawn = p.deck[:HAND_SIZE]
        log.emit(ev.CharactersDrawn(seat=seat, count=HAND_SIZE, cards=drawn))
    log.emit(ev.RoundStarted(round=1))
    return log.events


def next_seat(state: VaalbaraState) -> int:
    """The seat still to play with the lowest initiative, ties by current Omens.

    Recomputed before each turn, so a Tracker's new Omens also order any
    remaining tied seats ("for the rest of the round").
    """
    waiting = [s for s in range(state.player_count) if s not in state.done]
    return min(waiting, key=state.initiative_key)


def _end_of_round(state: VaalbaraState) -> list[Event]:
    if state.round >= ROUNDS:
        out: list[Event] = []
        scores = []
        for seat, p in enumerate(state.players):
            bonus = variety_bonus(p.realm)
            if bonus:
                out.append(ev.PointsScored(seat=seat, reason="variety", points=bonus))
            scores.append(p.vp + bonus)
        out.append(ev.GameEnded(scores=tuple(scores), omens=state.omens))
        return out
    n = state.player_count
    out = [
        ev.RoundEnded(round=state.round),
        ev.LandsDealt(row=2, cards=state.land_deck[:n]),
    ]
    for seat, p in enumerate(state.players):
        count = min(HAND_SIZE - len(p.hand), len(p.deck))
        if count > 0:
            out.append(ev.CharactersDrawn(seat=seat, count=count, cards=p.deck[:count]))
    out.append(ev.RoundStarted(round=state.round + 1))
    return out


def forced_events(state: VaalbaraState) -> list[Event]:
    """The events the rules force now, or ``[]`` when a seat must decide."""
    if state.phase == ASSIGNMENT:
        if all(p.chosen is not None for p in state.players):
            return [
                ev.CharactersRevealed(
                    characters=tuple(p.chosen or "" for p in state.players),
                    nonces=tuple(p.nonce or "" for p in state.players),
                )
            ]
        return []
    if state.phase != RESOLUTION:
        return []
    seat = state.current
    if seat is None:
        if len(state.done) == state.player_count:
            return _end_of_round(state)
        return [ev.TurnStarted(seat=next_seat(state))]
    character = state.revealed[seat]
    if state.step == CHARACTER_STEP:
        if needs_choice(state, seat):
            return []
        effect = automatic_effect(state, seat)
        if effect and isinstance(effect[0], ev.FighterCalled):
            return effect
        return [*effect, ev.CharacterDiscarded(seat=seat, character=character)]
    if state.step == FIGHTER_STEP and not state.fighter_pending:
        return [ev.CharacterDiscarded(seat=seat, character=character)]
    return []


def advance(state: VaalbaraState, out: list[Event]) -> VaalbaraState:
    """Append forced events to ``out`` until a decision is due; the new state."""
    while True:
        forced = forced_events(state)
        if not forced:
            return state
        for event in forced:
            state = evolve(state, event)
            out.append(event)
