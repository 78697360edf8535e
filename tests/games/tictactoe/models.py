"""Tic-tac-toe's messages: setup, state, commands, events and the view.

Each class has a protobuf twin of the same name in ``tictactoe.proto``, which
``python -m services.proto.generate`` writes from these classes.
"""

from __future__ import annotations

from domain.contract.core import Command, Event, Model, State

CELLS = 9
"""Cells 0-8, row by row."""


class TicTacToeSetup(Model):
    """Always two players; there is nothing else to choose."""

    players: int = 2


class Place(Command):
    """Put your mark on an empty cell."""

    cell: int


class GameStarted(Event):
    """The table is set: seat 0 (X) moves first."""

    first_seat: int


class MarkPlaced(Event):
    """``seat`` marked ``cell``."""

    seat: int
    cell: int


class TicTacToeState(State):
    """``board[cell]`` is the seat that marked it, or -1."""

    board: tuple[int, ...] = (-1,) * CELLS
    to_move: int = 0
    started: bool = False


class TicTacToeView(Model):
    """Nothing is hidden in tic-tac-toe: every viewer sees the whole board."""

    board: tuple[int, ...]
    to_move: int


COMMAND_TYPES = (Place,)
EVENT_TYPES = (GameStarted, MarkPlaced)
