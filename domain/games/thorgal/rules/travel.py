"""Move and Journey: crossing the Map and laying the Journey path.

Move offers every destination and, when they differ, every non-dominated
route (Red crossings trigger the adventure's red effect, Blue crossings cost
its good, shared with consent).  Journey's value is the number of tiles; the
first tile covers the leftmost column; later tiles touch the last one and
never go left of the path; covering the marked column reveals a Terrain card.
"""

from __future__ import annotations

from .. import events as ev
from ..commands import Option
from ..content import GOODS
from ..state import Pending, Task, dec
from . import options as O
from .effects import cover_tasks
from .engine import Ctx, Handlers, has_spot, journey_rows, tasks_of
from .payments import pay, pool

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""

# ---------------------------------------------------------------- move


def routes(ctx: Ctx, seat: int, budget: int) -> dict[str, list[tuple[int, int, int]]]:
    """Every useful way to each reachable open Area: ``(reds, blues, borders)``.

    Routes are simple paths through at most ``budget`` borders; for each
    destination only the routes not dominated in (Red, Blue) crossings are
    kept, each with its fewest borders.  Blue crossings are limited by the
    magic the characters in the Area could share.
    """
    hero = ctx.state.hero(seat)
    magic = pool(ctx.state, seat)[GOODS.index(ctx.c.adventure.blue_border_cost)]
    found: dict[str, dict[tuple[int, int], int]] = {}

    def walk(
        area: str, seen: frozenset[str], borders: int, reds: int, blues: int
    ) -> None:
        for b in ctx.c.borders:
            if area not in (b.a, b.b) or b.kind == "impassable":
                continue
            other = b.b if area == b.a else b.a
            if other in seen or ctx.c.area(other).number > ctx.state.round:
                continue
            cost = (
                borders + b.count,
                reds + (b.kind == "red"),
                blues + (b.kind == "blue"),
            )
            if cost[0] > budget or cost[2] > magic:
                continue
            best = found.setdefault(other, {})
            key = (cost[1], cost[2])
            best[key] = min(best.get(key, cost[0]), cost[0])
            walk(other, seen | {other}, *cost)

    walk(hero.area, frozenset({hero.area}), 0, 0, 0)
    out: dict[str, list[tuple[int, int, int]]] = {}
    for area, ways in found.items():
        keep = [
            k
            for k in ways
            if not any(o != k and o[0] <= k[0] and o[1] <= k[1] for o in ways)
        ]
        out[area] = [(r, u, ways[(r, u)]) for r, u in sorted(keep)]
    return out


def route_options(ctx: Ctx, seat: int, budget: int) -> dict[Option, int]:
    """Each route as its ``MoveTo`` option -> the borders it crosses."""
    return {
        O.move_to(area, reds, blues): borders
        for area, ways in sorted(routes(ctx, seat, budget).items())
        for reds, blues, borders in ways
    }


def move(ctx: Ctx, seat: int) -> None:
    assert ctx.state.act is not None
    options = route_options(ctx, seat, max(1, ctx.state.act.value))
    if options:
        ctx.ask("move", seat, list(options))


@HANDLERS.resume("move")
def _moved(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    assert ctx.state.act is not None and choice.move_to is not None
    borders = route_options(ctx, seat, max(1, ctx.state.act.value))[choice]
    route = choice.move_to
    step = Task(op="moved", arg=route.area, n=borders, seat=seat, loc=str(route.reds))
    ctx.schedule(*pay(seat, (ctx.c.adventure.blue_border_cost,) * route.blues, (step,)))


@HANDLERS.handler("moved")
def _step(ctx: Ctx, t: Task) -> None:
    ctx.emit(ev.CharacterMoved(seat=t.seat, area=t.arg, borders=t.n))
    for _ in range(int(t.loc)):
        ctx.schedule(*tasks_of(ctx.c.adventure.red_border, t.seat))


# ---------------------------------------------------------------- journey


def is_exhausted(ctx: Ctx) -> bool:
    """No Terrain cards left and a tile already in the last column."""
    if ctx.state.deck("terrain").cards:
        return False
    last = 3 * len(ctx.state.terrain) - 1
    return any(dec(c)[1] == last for t in ctx.state.path for c in t.cells)


def journey_shapes(ctx: Ctx, seat: int) -> tuple[str, ...]:
    hero = ctx.state.hero(seat)
    track = ctx.c.character(hero.character).journey
    return tuple(dict.fromkeys(s for lvl in track[: hero.journey_level] for s in lvl))


def journey(ctx: Ctx, seat: int, left: int | None = None) -> None:
    assert ctx.state.act is not None
    left = ctx.state.act.value if left is None else left
    if left <= 0 or is_exhausted(ctx):
        return
    shapes = [
        s
        for s in journey_shapes(ctx, seat)
        if has_spot(ctx.state, "place_journey", seat, s)
    ]
    if shapes:
        ctx.ask_tile("place_journey", seat, shapes, n=left)


@HANDLERS.resume("place_journey")
def _journeyed(ctx: Ctx, p: Pending, shape: str, cells: tuple[int, ...]) -> None:
    seat, left = p.seat, p.n
    rows = journey_rows(ctx.state)
    ctx.emit(ev.JourneyTilePlaced(seat=seat, shape=shape, cells=cells))
    tasks: list[Task] = []
    for c in cells:
        r, col = dec(c)
        card = ctx.c.terrain_card(ctx.state.terrain[col // 3])
        tasks += cover_tasks(ctx, rows, [(r, col)], card.red, card.yellow, seat)
    rightmost = len(ctx.state.terrain) - 1
    marked = 3 * rightmost + ctx.c.terrain_card(ctx.state.terrain[-1]).marked
    before = [c for t in ctx.state.path[:-1] for c in t.cells if dec(c)[1] == marked]
    if not before and any(dec(c)[1] == marked for c in cells):
        for drawn in ctx.draw("terrain", 1, "terrain"):
            tasks += tasks_of(ctx.c.terrain_card(drawn).bonus, seat)
    ctx.schedule(*tasks, Task(op="journey_more", n=left - 1, seat=seat))


@HANDLERS.handler("journey_more")
def _journey_more(ctx: Ctx, t: Task) -> None:
    journey(ctx, t.seat, t.n)
