"""Tic-tac-toe's pure decider: three in a row wins, a full board is a draw."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract.core import (
    Command,
    Event,
    GameOverError,
    IllegalCommandError,
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
    CELLS,
    GameStarted,
    MarkPlaced,
    Place,
    TicTacToeSetup,
    TicTacToeState,
    TicTacToeView,
)

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip


def initial_state(setup: TicTacToeSetup) -> TicTacToeState:
    if setup.players != 2:
        raise InvalidCommandError(
            "tic-tac-toe is played by exactly 2 players",
            violations=(("players", "must be 2"),),
        )
    return TicTacToeState()


def start(state: TicTacToeState, rng: Rng) -> tuple[Event, ...]:
    """No chance: X (seat 0) always opens."""
    return (GameStarted(first_seat=0),)


def winner(state: TicTacToeState) -> Seat | None:
    for a, b, c in LINES:
        if state.board[a] != -1 and state.board[a] == state.board[b] == state.board[c]:
            return state.board[a]
    return None


def is_over(state: TicTacToeState) -> bool:
    return winner(state) is not None or -1 not in state.board


def to_act(state: TicTacToeState) -> tuple[Seat, ...]:
    return () if is_over(state) or not state.started else (state.to_move,)


def decide(
    state: TicTacToeState, command: Command, actor: Seat, rng: Rng
) -> tuple[Event, ...]:
    if is_over(state):
        raise GameOverError()
    if not isinstance(command, Place):
        raise InvalidCommandError(f"unknown command {type(command).__name__}")
    if not 0 <= command.cell < CELLS:
        raise InvalidCommandError(
            f"cell {command.cell} is off the board",
            violations=(("cell", "must be 0-8"),),
        )
    if actor != state.to_move:
        raise NotYourTurnError()
    if state.board[command.cell] != -1:
        raise IllegalCommandError("tictactoe.cell-taken", "that cell is taken")
    return (MarkPlaced(seat=actor, cell=command.cell),)


evolve = Evolver[TicTacToeState]("tictactoe")


@evolve.on(GameStarted)
def _started(state: TicTacToeState, event: GameStarted) -> TicTacToeState:
    return state.model_copy(update={"started": True, "to_move": event.first_seat})


@evolve.on(MarkPlaced)
def _placed(state: TicTacToeState, event: MarkPlaced) -> TicTacToeState:
    return state.model_copy(
        update={
            "board": tuple(
                event.seat if cell == event.cell else mark
                for cell, mark in enumerate(state.board)
            ),
            "to_move": 1 - event.seat,
        }
    )


def legal_commands(state: TicTacToeState, actor: Seat) -> Iterator[Place]:
    if actor in to_act(state):
        yield from (Place(cell=c) for c, mark in enumerate(state.board) if mark == -1)


def outcome(state: TicTacToeState) -> Outcome | None:
    if not is_over(state):
        return None
    won = winner(state)
    if won is None:
        return Outcome(
            termination=Termination.COMPLETED, ranks=(1, 1), scores=(0, 0),
            winners=(0, 1), reason="draw",
        )  # fmt: skip
    return Outcome(
        termination=Termination.COMPLETED,
        ranks=tuple(1 if s == won else 2 for s in (0, 1)),
        scores=tuple(int(s == won) for s in (0, 1)),
        winners=(won,),
        reason="three in a row",
    )


def view(state: TicTacToeState, viewer: Viewer) -> TicTacToeView:
    return TicTacToeView(board=state.board, to_move=state.to_move)


def redact(event: Event, viewer: Viewer) -> Event:
    return event
