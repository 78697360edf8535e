"""The resolution engine: emit events, run the task stack, shared geometry.

``decide`` builds a :class:`Ctx`, applies its own events through ``evolve`` as
it goes (so later steps see earlier ones) and stops at the next open question
(``pending``), the next turn, or the end of the adventure.

The task stack is ``Ctx.tasks``, private to the decision: pushing and popping
emit nothing.  Asking a question emits ``ChoiceOffered`` with what is left
on the stack, which is all a replay needs (see ``events.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from domain.contract.core import Rng
from domain.games.kit import Decision

from .. import events as ev
from ..cards import Effect
from ..commands import Option
from ..content import Content, load
from ..evolve import evolve
from ..state import Pending, Task, ThorgalState, dec, enc
from . import polyomino as P

TaskHandler: TypeAlias = Callable[["Ctx", Task], None]
"""Resolves one task popped off the stack."""
Resume: TypeAlias = Callable[..., None]
"""Continues after a question is answered: ``(ctx, pending, option)`` for
``Choose``, ``(ctx, pending, shape, cells)`` for ``PlaceTile``."""
PLACING = ("place_wound", "place_journey", "place_combat")
"""Question kinds answered by ``PlaceTile`` rather than ``Choose``."""


class Handlers:
    """One module's handlers: the task ops it resolves and the questions it resumes.

    Why a table per module rather than one global registry filled as modules
    are imported: the :class:`Engine` is built from an explicit list of
    tables, so a module missing from that list is a test failure (every op a
    card or a rule schedules must have a handler), not a ``KeyError`` in the
    middle of someone's game.
    """

    def __init__(self) -> None:
        self.tasks: dict[str, TaskHandler] = {}
        self.resumes: dict[str, Resume] = {}

    def handler(self, op: str) -> Callable[[TaskHandler], TaskHandler]:
        """Register the decorated function as the handler of tasks ``op``."""

        def wrap(fn: TaskHandler) -> TaskHandler:
            self.tasks[op] = fn
            return fn

        return wrap

    def resume(self, kind: str) -> Callable[[Resume], Resume]:
        """Register the decorated function to continue after a ``kind`` answer."""

        def wrap(fn: Resume) -> Resume:
            self.resumes[kind] = fn
            return fn

        return wrap


@dataclass(frozen=True)
class Engine:
    """The task stack's driver: every handler table, and the hook for an empty stack.

    Why a hook: what follows an empty stack (the next turn, the Event phase)
    is a rule of ``flow``, which itself schedules tasks that other modules
    resolve.  The engine calls whatever it was built with, so the modules
    only ever reach each other through the stack (``ctx.schedule``), never
    through each other's functions.
    """

    tasks: Mapping[str, TaskHandler]
    resumes: Mapping[str, Resume]
    idle: Callable[[Ctx], bool]
    """Called with an empty stack and no open question: schedules what comes
    next and returns ``True`` to go on resolving, ``False`` to stop."""

    @classmethod
    def of(cls, tables: Iterable[Handlers], idle: Callable[[Ctx], bool]) -> Engine:
        """Merge ``tables`` into one engine.

        :raises ValueError: when two tables handle the same op or question.
        """
        tasks: dict[str, TaskHandler] = {}
        resumes: dict[str, Resume] = {}
        for table in tables:
            for merged, new in ((tasks, table.tasks), (resumes, table.resumes)):
                clash = merged.keys() & new.keys()
                if clash:
                    raise ValueError(f"handled twice: {sorted(clash)}")
                merged.update(new)
        return cls(tasks=tasks, resumes=resumes, idle=idle)

    def run(self, ctx: Ctx) -> None:
        """Resolve tasks until a player must answer, a turn starts, or the game ends."""
        while ctx.state.phase != "over" and ctx.state.pending is None:
            if ctx.tasks:
                task = ctx.pop()
                self.tasks[task.op](ctx, task)
            elif not self.idle(ctx):
                return

    def resume(self, ctx: Ctx, pending: Pending, *answer: Any) -> None:
        """Continue the decision that asked ``pending``, with the player's answer."""
        self.resumes[pending.kind](ctx, pending, *answer)


class Ctx(Decision[ThorgalState]):
    """A decision in progress (:class:`~domain.games.kit.Decision`), with the
    chance it draws from, its content and its task stack."""

    def __init__(self, state: ThorgalState, rng: Rng) -> None:
        super().__init__(state, evolve)
        self.rng = rng
        self.c: Content = load(state.content)
        self.tasks: list[Task] = list(state.tasks)
        """The resolution stack, next task first."""

    def schedule(self, *tasks: Task) -> None:
        """Push ``tasks`` on the stack, to resolve in order before what is there."""
        if tasks:
            assert self.state.pending is None, (
                "a question is open: its tasks are recorded"
            )
            self.tasks[0:0] = tasks

    def pop(self) -> Task:
        return self.tasks.pop(0)

    def drop(self, n: int) -> None:
        """A payment failed: the ``n`` tasks it paid for are not resolved."""
        del self.tasks[:n]
        self.emit(ev.TasksDropped(n=n))

    def ask(
        self,
        kind: str,
        seat: int,
        options: Sequence[Option],
        arg: str = "",
        n: int = 0,
        loc: str = "",
        chosen: tuple[str, ...] = (),
    ) -> None:
        """Open a question answered by ``Choose`` with one of ``options``."""
        self._offer(
            Pending(
                kind=kind,
                seat=seat,
                options=tuple(options),
                arg=arg,
                n=n,
                loc=loc,
                chosen=chosen,
            )
        )

    def ask_tile(self, kind: str, seat: int, shapes: Sequence[str], n: int = 0) -> None:
        """Open a question answered by ``PlaceTile`` with one of ``shapes``."""
        assert kind in PLACING
        self._offer(Pending(kind=kind, seat=seat, shapes=tuple(shapes), n=n))

    def _offer(self, pending: Pending) -> None:
        self.emit(ev.ChoiceOffered(pending=pending, tasks=tuple(self.tasks)))

    def end(self, won: bool, reason: str) -> None:
        if self.state.phase != "over":
            self.emit(ev.AdventureEnded(won=won, reason=reason))

    def draw(self, deck: str, k: int, to: str) -> tuple[str, ...]:
        """Draw ``k`` cards, reshuffling the discard pile when the deck runs out."""
        out: list[str] = []
        for _ in range(k):
            d = self.state.deck(deck)
            if not d.cards:
                if not d.discard or deck == "terrain":
                    break
                cards = self.rng.shuffle(d.discard)
                self.emit(
                    ev.DeckShuffled(
                        deck=deck, cards=cards, from_discard=True, size=len(cards)
                    )
                )
            card = self.state.deck(deck).cards[0]
            self.emit(ev.CardsDrawn(deck=deck, cards=(card,), to=to))
            out.append(card)
        return tuple(out)


def tasks_of(effects: tuple[Effect, ...], seat: int, loc: str = "") -> tuple[Task, ...]:
    return tuple(Task(op=e.op, n=e.n, arg=e.arg, seat=seat, loc=loc) for e in effects)


def actor(ctx: Ctx, task: Task) -> int:
    """The seat an unspecified effect belongs to: the acting seat, else the First player."""
    if task.seat >= 0:
        return task.seat
    if ctx.state.act is not None:
        return ctx.state.act.seat
    return ctx.state.first


# ------------------------------------------------------------------ geometry


def grid_of(rows: tuple[str, ...]) -> tuple[int, int, frozenset[tuple[int, int]]]:
    blocked = frozenset(
        (r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"
    )
    return len(rows), max(len(line) for line in rows), blocked


def wound_spots(
    state: ThorgalState, seat: int, shape: str
) -> Iterator[tuple[int, int, int, frozenset[tuple[int, int]]]]:
    """Legal Wound placements: anywhere at first, then adjacent to a Wound."""
    hero = state.hero(seat)
    rows, cols, blocked = grid_of(
        load(state.content).character(hero.character).wound_rows
    )
    taken = frozenset(dec(c) for w in hero.wounds for c in w.cells)
    yield from P.generate_placements(
        shape, rows, cols, blocked | taken, touch=taken or None
    )


def journey_rows(state: ThorgalState) -> tuple[str, ...]:
    c = load(state.content)
    cards = [c.terrain_card(t).rows for t in state.terrain]
    return tuple("".join(card[r] for card in cards) for r in range(3))


def journey_spots(
    state: ThorgalState, shape: str
) -> Iterator[tuple[int, int, int, frozenset[tuple[int, int]]]]:
    """Legal Journey placements: rightward, adjacent to the last tile, no overlap."""
    rows, cols, blocked = grid_of(journey_rows(state))
    path = frozenset(dec(c) for t in state.path for c in t.cells)
    tokens = frozenset(dec(c) for c in state.collect_tokens)
    if not state.path:
        yield from P.generate_placements(
            shape, rows, cols, blocked | tokens, need_col=0
        )
        return
    last = frozenset(dec(c) for c in state.path[-1].cells)
    right = max(c for _, c in path)
    yield from P.generate_placements(
        shape, rows, cols, blocked | tokens | path, touch=last, min_col=right
    )


def combat_spots(
    state: ThorgalState, shape: str
) -> Iterator[tuple[int, int, int, frozenset[tuple[int, int]]]]:
    """Legal Combat placements: inside the Enemy grid, touching the tiles placed."""
    assert state.combat is not None
    rows, cols, blocked = grid_of(state.combat.rows)
    placed = frozenset(dec(c) for t in state.combat.placed for c in t.cells)
    yield from P.generate_placements(
        shape, rows, cols, blocked | placed, touch=placed or None
    )


def spots(
    state: ThorgalState, kind: str, seat: int, shape: str
) -> Iterator[tuple[int, int, int, frozenset[tuple[int, int]]]]:
    if kind == "place_wound":
        return wound_spots(state, seat, shape)
    if kind == "place_journey":
        return journey_spots(state, shape)
    return combat_spots(state, shape)


def has_spot(state: ThorgalState, kind: str, seat: int, shape: str) -> bool:
    return next(iter(spots(state, kind, seat, shape)), None) is not None


def cells_enc(cells: frozenset[tuple[int, int]]) -> tuple[int, ...]:
    return tuple(sorted(enc(r, c) for r, c in cells))
