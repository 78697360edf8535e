"""The cards game's pure decider: 100 alternating moves, the higher total wins."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract.core import (
    Command,
    Event,
    GameOverError,
    InvalidCommandError,
    NotYourTurnError,
    Outcome,
    Rng,
    Seat,
    Termination,
    Viewer,
)
from domain.games.kit import Evolver

from .models import (
    CARDS,
    MOVES,
    CardPlayed,
    CardsSetup,
    CardsState,
    CardsView,
    GameStarted,
    PlayCard,
)


def initial_state(setup: CardsSetup) -> CardsState:
    if setup.players != 2:
        raise InvalidCommandError(
            "cards is played by exactly 2 players",
            violations=(("players", "must be 2"),),
        )
    return CardsState()


def start(state: CardsState, rng: Rng) -> tuple[Event, ...]:
    """No chance: seat 0 always plays first (as in the peer's game)."""
    return (GameStarted(first_seat=0),)


def is_over(state: CardsState) -> bool:
    return state.moves >= MOVES


def to_act(state: CardsState) -> tuple[Seat, ...]:
    return () if is_over(state) or not state.started else (state.to_move,)


def decide(
    state: CardsState, command: Command, actor: Seat, rng: Rng
) -> tuple[Event, ...]:
    if is_over(state):
        raise GameOverError()
    if not isinstance(command, PlayCard):
        raise InvalidCommandError(f"unknown command {type(command).__name__}")
    if not 1 <= command.card <= CARDS:
        raise InvalidCommandError(
            f"there is no card {command.card}",
            violations=(("card", f"must be 1-{CARDS}"),),
        )
    if actor != state.to_move:
        raise NotYourTurnError()
    return (CardPlayed(seat=actor, card=command.card),)


evolve = Evolver[CardsState]("cards")


@evolve.on(GameStarted)
def _started(state: CardsState, event: GameStarted) -> CardsState:
    return state.model_copy(update={"started": True, "to_move": event.first_seat})


@evolve.on(CardPlayed)
def _played(state: CardsState, event: CardPlayed) -> CardsState:
    totals = tuple(
        total + event.card if seat == event.seat else total
        for seat, total in enumerate(state.totals)
    )
    return state.model_copy(
        update={
            "moves": state.moves + 1,
            "totals": totals,
            "last": event.card,
            "to_move": 1 - event.seat,
        }
    )


def legal_commands(state: CardsState, actor: Seat) -> Iterator[PlayCard]:
    if actor in to_act(state):
        yield from (PlayCard(card=c) for c in range(1, CARDS + 1))


def outcome(state: CardsState) -> Outcome | None:
    if not is_over(state):
        return None
    a, b = state.totals
    if a == b:
        return Outcome(
            termination=Termination.COMPLETED, ranks=(1, 1), scores=(a, b),
            winners=(0, 1), reason="equal totals",
        )  # fmt: skip
    won = 0 if a > b else 1
    return Outcome(
        termination=Termination.COMPLETED,
        ranks=tuple(1 if s == won else 2 for s in (0, 1)),
        scores=(a, b),
        winners=(won,),
        reason="higher total",
    )


def view(state: CardsState, viewer: Viewer) -> CardsView:
    return CardsView(
        moves=state.moves, totals=state.totals, last=state.last, to_move=state.to_move
    )


def redact(event: Event, viewer: Viewer) -> Event:
    return event
