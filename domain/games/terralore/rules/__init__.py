"""The decider functions of :data:`~domain.games.terralore.GAME`.

A placement is checked, enumerated and sampled in :mod:`.plans`; the Reveal,
Counting and the next Draw that the second placement of a turn decides are
in :mod:`.reveal`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from domain.contract.chance import commit
from domain.contract.core import (
    GameOverError,
    InvalidCommandError,
    NotYourTurnError,
    Outcome,
    Termination,
)
from domain.games.kit import Decision

from ..commands import PlaceCards
from ..events import DeckShuffled, PlacementCommitted, TurnStarted
from ..evolve import evolve
from ..state import TerraloreState
from . import plans
from .reveal import draw, reveal_and_count

if TYPE_CHECKING:
    from domain.contract.core import Command, Event, Rng, Seat

OPENING_HAND = 4


def start(state: TerraloreState, rng: Rng) -> list[Event]:
    """Shuffle both decks, start turn 1 and draw the opening hands (no turn-1 draw)."""
    tx = Decision(state, evolve)
    for seat, deck in enumerate(state.decks):
        tx.emit(DeckShuffled(seat=seat, order=rng.shuffle(deck)))
    tx.emit(TurnStarted(turn=1))
    for seat in (0, 1):
        draw(tx, seat, OPENING_HAND)
    return tx.events


def plan_payload(cmd: PlaceCards) -> str:
    """The canonical text a placement commitment is computed over."""
    return json.dumps(
        cmd.model_dump(mode="json"), sort_keys=True, separators=(",", ":")
    )


def decide(
    state: TerraloreState, command: Command, actor: Seat, rng: Rng
) -> list[Event]:
    """Commit ``actor``'s plan; the second commitment also plays out the turn.

    :raises InvalidCommandError: unknown command, seat or card.
    :raises IllegalCommandError: see :func:`.plans.parse_plan`.
    """
    if not isinstance(command, PlaceCards):
        raise InvalidCommandError(f"terralore has no command {type(command).__name__}")
    if actor not in (0, 1):
        raise InvalidCommandError(f"no seat {actor} in a 2-player game")
    if state.phase == "over":
        raise GameOverError()
    if actor not in to_act(state):
        raise NotYourTurnError("you already placed your cards this turn")
    plan = plans.parse_plan(state.players[actor], command)
    nonce = rng.token()
    tx = Decision(state, evolve)
    tx.emit(
        PlacementCommitted(
            seat=actor,
            commitment=commit(nonce, plan_payload(plan)),
            plays=plan.plays,
            discards=plan.discards,
            destroys=plan.destroys,
            nonce=nonce.hex(),
        )
    )
    if all(p.plan is not None for p in tx.state.players):
        reveal_and_count(tx, rng)
    return tx.events


def legal_commands(state: TerraloreState, seat: Seat) -> Iterator[PlaceCards]:
    if seat in to_act(state):
        yield from plans.generate_plans(state.players[seat])


def random_command(
    state: TerraloreState, seat: Seat, rnd: random.Random
) -> PlaceCards | None:
    if seat not in to_act(state):
        return None
    return plans.random_plan(state.players[seat], rnd)


def to_act(state: TerraloreState) -> tuple[Seat, ...]:
    if state.phase != "play":
        return ()
    return tuple(s for s, p in enumerate(state.players) if p.plan is None)


def outcome(state: TerraloreState) -> Outcome | None:
    """Ranks as decided by the game's end; scores are the castles' HP."""
    if state.phase != "over":
        return None
    return Outcome(
        termination=Termination.COMPLETED,
        ranks=state.ranks,
        scores=tuple(p.hp for p in state.players),
        winners=tuple(s for s, r in enumerate(state.ranks) if r == 1),
        reason=state.reason,
    )
