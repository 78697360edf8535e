"""The cards game's messages: setup, state, commands, events and the view.

Each class has a protobuf twin of the same name in ``cards.proto``, which
``python -m services.proto.generate`` writes from these classes.
"""

from __future__ import annotations

from domain.contract.core import Command, Event, Model, State

CARDS = 10
"""Cards are numbered 1..CARDS."""

MOVES = 100
"""A game is exactly this many moves (the peer runs with ``MAX_MOVES=100``)."""


class CardsSetup(Model):
    """Always two players; there is nothing else to choose."""

    players: int = 2


class PlayCard(Command):
    """Play a card numbered 1..10."""

    card: int


class GameStarted(Event):
    """The table is set: seat 0 plays first."""

    first_seat: int


class CardPlayed(Event):
    """``seat`` played ``card``."""

    seat: int
    card: int


class CardsState(State):
    """Moves made so far and each seat's total of played cards."""

    moves: int = 0
    totals: tuple[int, ...] = (0, 0)
    last: int = 0
    to_move: int = 0
    started: bool = False


class CardsView(Model):
    """Nothing is hidden: every viewer sees the whole table."""

    moves: int
    totals: tuple[int, ...]
    last: int
    to_move: int


COMMANDS = (PlayCard,)
EVENTS = (GameStarted, CardPlayed)
