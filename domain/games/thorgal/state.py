"""Thorgal state: the table, the characters and the resolution stack.

Why a stack of tasks: an action card resolves a main action, options, extra
actions and bonuses in a fixed order, and almost every step can stop for a
player's choice (ambiguity is resolved by the players, as a move).  Keeping
the remaining steps as data (``tasks``) plus the one open question
(``pending``) makes every choice an ordinary command and keeps ``evolve``
trivial.  ``tasks`` is the stack as it stood at the last stop (the last
``ChoiceOffered``; empty once a turn begins): inside a decision the engine
keeps its own copy and logs no pushes or pops.  Cells of grids are encoded as ``row * 32 + col`` ints so they cross
the API as plain repeated ints.
"""

from __future__ import annotations

from domain.contract.core import Model, State

from .commands import Option

WIDTH = 32


def enc(row: int, col: int) -> int:
    return row * WIDTH + col


def dec(cell: int) -> tuple[int, int]:
    return divmod(cell, WIDTH)


class Task(Model):
    """One step still to resolve (an effect, an action, a phase step)."""

    op: str
    n: int = 1
    arg: str = ""
    seat: int = -1
    loc: str = ""
    """The Location the step belongs to (marks Entry tokens)."""
    payers: tuple[int, ...] = ()
    """``pay`` only: who pays each unit so far (consent already given)."""
    refused: tuple[int, ...] = ()
    """``pay`` only: owners who refused to share for this payment."""


class Pending(Model):
    """The one open question: who answers, what kind, which answers are legal.

    A ``place_wound``/``place_journey``/``place_combat`` question is answered by
    ``PlaceTile`` with one of ``shapes``; every other kind by ``Choose`` with one
    of ``options``.
    """

    kind: str
    seat: int
    options: tuple[Option, ...] = ()
    shapes: tuple[str, ...] = ()
    arg: str = ""
    n: int = 0
    loc: str = ""
    chosen: tuple[str, ...] = ()
    """``enemy_order`` only: the Enemy cards already laid out, left to right."""


class Tile(Model):
    shape: str
    cells: tuple[int, ...]


class Hero(Model):
    """A character board and its supply."""

    seat: int
    character: str
    area: str
    goods: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    wounds: tuple[Tile, ...] = ()
    threats: int = 0
    combat_level: int = 1
    journey_level: int = 1
    skill_active: bool = True
    skill_round: int = 0
    items: tuple[str, ...] = ()


class Site(Model):
    """A Location's tokens."""

    id: str
    enemies: tuple[str, ...] = ()
    assigned: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    blockade: bool = False
    cover: bool = False
    cost_tokens: int = 0
    extra_cost: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    """Goods added to the requirement by Cost tokens, per good type."""
    entry_token: bool = False


class Chip(Model):
    slot: int = -1
    active: bool = True


class Deck(Model):
    name: str
    cards: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


class Act(Model):
    """The action being resolved and the modifiers gathered for it."""

    seat: int
    action: str
    value: int
    slot: int = -1
    dice: tuple[str, ...] = ()
    rerolls: int = 0
    upgrades: int = 0
    criticals: int = 0
    done: int = 0
    """Progress counter (tiles placed, items taken, goods assigned...)."""
    refused: tuple[int, ...] = ()


class Combat(Model):
    seat: int
    location: str
    tokens: tuple[int, ...]
    cards: tuple[str, ...]
    rows: tuple[str, ...]
    dice: tuple[str, ...] = ()
    faces: tuple[int, ...] = ()
    critical: tuple[bool, ...] = ()
    placed: tuple[Tile, ...] = ()
    left: tuple[str, ...] = ()
    rolled: bool = False


class ThorgalState(State):
    players: int
    seats: int
    content: str = "sample"
    phase: str = "setup"
    """``setup``, ``action`` (a turn seat must take a chip), ``resolve``, ``over``."""
    round: int = 1
    turn: int = 0
    first: int = 0
    heroes: tuple[Hero, ...] = ()
    sites: tuple[Site, ...] = ()
    row: tuple[str, ...] = ()
    specials: tuple[str, ...] = ()
    chips: tuple[Chip, ...] = (Chip(), Chip(), Chip(), Chip())
    terrain: tuple[str, ...] = ()
    path: tuple[Tile, ...] = ()
    collect_tokens: tuple[int, ...] = ()
    decks: tuple[Deck, ...] = ()
    display: tuple[str, ...] = ()
    active_event: str = ""
    entries_read: tuple[str, ...] = ()
    tasks: tuple[Task, ...] = ()
    pending: Pending | None = None
    act: Act | None = None
    combat: Combat | None = None
    turns_taken: tuple[int, ...] = ()
    """Turns completed per round, in order (for the 4-turns invariant)."""
    result: str = ""
    reason: str = ""

    def hero(self, seat: int) -> Hero:
        return self.heroes[seat]

    def site(self, lid: str) -> Site:
        for s in self.sites:
            if s.id == lid:
                return s
        raise KeyError(lid)

    def deck(self, name: str) -> Deck:
        for d in self.decks:
            if d.name == name:
                return d
        raise KeyError(name)

    def turn_seat(self) -> int:
        return (self.first + self.turn) % self.seats
