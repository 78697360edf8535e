"""Collect, Assign, Sacrifice and Craft (Move and Journey are in ``travel.py``).

Rule decisions: Journey's value is the number of Journey tiles placed; the
first Journey tile must cover the leftmost column; Assign may only place goods
the Location still needs and stops once its requirement is met; Cost tokens
raise the good chosen when they were placed (``Site.extra_cost``).
"""

from __future__ import annotations

from .. import events as ev
from ..commands import Option
from ..content import GOODS, ICON_GOOD
from ..state import Pending, Task, dec, enc
from . import options as O
from .combat import begin_combat
from .effects import refill, wound
from .engine import Ctx, Handlers, journey_rows, tasks_of
from .options import AGREE, PROCEED, REFUSE
from .travel import journey, move

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""


@HANDLERS.handler("do")
def _do(ctx: Ctx, t: Task) -> None:
    {
        "move": move,
        "journey": journey,
        "collect": collect,
        "assign": assign,
        "sacrifice": sacrifice,
        "craft": craft,
        "combat": begin_combat,
    }[t.arg](ctx, t.seat)


# ---------------------------------------------------------------- collect


def collect_cells(ctx: Ctx) -> list[Option]:
    rows = journey_rows(ctx.state)
    covered = {c for t in ctx.state.path for c in t.cells} | set(
        ctx.state.collect_tokens
    )
    return [
        O.collect_at(enc(r, c))
        for r, line in enumerate(rows)
        for c, ch in enumerate(line)
        if (ch in ICON_GOOD or ch in "*RY") and enc(r, c) not in covered
    ]


def collect(ctx: Ctx, seat: int) -> None:
    options = collect_cells(ctx)
    if options:
        ctx.ask("collect", seat, options)


@HANDLERS.resume("collect")
def _collected(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    assert ctx.state.act is not None and choice.collect_at is not None
    value = ctx.state.act.value
    cell = choice.collect_at.cell
    r, c = dec(cell)
    ch = journey_rows(ctx.state)[r][c]
    card = ctx.c.terrain_card(ctx.state.terrain[c // 3])
    ctx.emit(ev.CollectTokenPlaced(seat=seat, cell=cell))
    gain = (
        Task(op="gain", arg=ICON_GOOD[ch], n=value, seat=seat)
        if ch in ICON_GOOD
        else Task(op="gain_area", n=value, seat=seat)
    )
    penalty = tasks_of(
        card.red if ch == "R" else card.yellow if ch == "Y" else (), seat
    )
    ctx.schedule(gain, *penalty)


@HANDLERS.handler("discard_collect")
def _discard_collect(ctx: Ctx, t: Task) -> None:
    cards = sorted({dec(c)[1] // 3 for c in ctx.state.collect_tokens})
    if cards and t.n > 0:
        ctx.ask(
            "discard_collect",
            t.seat,
            [*map(O.discard_collect_tokens, cards), PROCEED],
            n=t.n,
        )


@HANDLERS.resume("discard_collect")
def _discarded_collect(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.discard_collect_tokens is None:
        return
    k = choice.discard_collect_tokens.terrain
    cells = tuple(c for c in ctx.state.collect_tokens if dec(c)[1] // 3 == k)
    ctx.emit(ev.CollectTokensDiscarded(cells=cells))
    ctx.schedule(Task(op="discard_collect", n=p.n - 1, seat=p.seat))


# ---------------------------------------------------------------- assign / sacrifice


def usable(ctx: Ctx, seat: int, action: str) -> list[Option]:
    """Locations in the character's Area where ``action`` may be resolved."""
    area = ctx.state.hero(seat).area
    out = []
    for s in ctx.state.sites:
        loc = ctx.c.location(s.id)
        if area not in loc.areas or s.enemies or s.blockade or s.entry_token:
            continue
        printed = "sacrifice" if s.cover else loc.action
        if printed == action:
            out.append(O.pick_location(s.id))
    return out


def requirement(ctx: Ctx, lid: str) -> tuple[int, ...]:
    loc = ctx.c.location(lid)
    need = [0] * 6
    for g in loc.cost:
        need[GOODS.index(g)] += 1
    return tuple(n + x for n, x in zip(need, ctx.state.site(lid).extra_cost))


def assign(ctx: Ctx, seat: int) -> None:
    options = usable(ctx, seat, "assign")
    if options:
        ctx.ask("assign", seat, options)


def ask_goods(ctx: Ctx, seat: int, lid: str) -> None:
    act = ctx.state.act
    assert act is not None
    need = requirement(ctx, lid)
    have = ctx.state.site(lid).assigned
    if all(h >= n for h, n in zip(have, need)):
        ctx.emit(ev.AssignedGoodsDiscarded(location=lid, goods=need))
        ctx.schedule(*tasks_of(ctx.c.location(lid).effects, seat, lid))
        return
    if act.done >= act.value:
        return
    area = ctx.state.hero(seat).area
    options = [
        O.give_good(h.seat, g)
        for h in ctx.state.heroes
        if h.area == area and h.seat not in act.refused
        for i, g in enumerate(GOODS)
        if h.goods[i] and have[i] < need[i]
    ]
    if options:
        ctx.ask("assign_good", seat, [*options, PROCEED], loc=lid)


@HANDLERS.resume("assign")
def _assign_at(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_location is not None
    ask_goods(ctx, p.seat, choice.pick_location.location)


@HANDLERS.resume("assign_good")
def _assign_good(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.give_good is None:
        return
    owner, good = choice.give_good.from_seat, choice.give_good.good
    if owner != p.seat:
        ctx.ask("consent", owner, (AGREE, REFUSE), arg=good, n=p.seat, loc=p.loc)
        return
    _give(ctx, p.seat, p.loc, owner, good)


def _give(ctx: Ctx, seat: int, lid: str, owner: int, good: str) -> None:
    act = ctx.state.act
    assert act is not None
    ctx.emit(ev.GoodsAssigned(location=lid, good=good, from_seat=owner))
    ctx.emit(ev.ActionPrepared(act=act.model_copy(update={"done": act.done + 1})))
    ask_goods(ctx, seat, lid)


@HANDLERS.resume("consent")
def _consent(ctx: Ctx, p: Pending, choice: Option) -> None:
    owner, good = p.seat, p.arg
    if choice == AGREE:
        _give(ctx, p.n, p.loc, owner, good)
        return
    act = ctx.state.act
    assert act is not None
    ctx.emit(
        ev.ActionPrepared(
            act=act.model_copy(update={"refused": act.refused + (owner,)})
        )
    )
    ask_goods(ctx, p.n, p.loc)


def sacrifice(ctx: Ctx, seat: int) -> None:
    options = usable(ctx, seat, "sacrifice")
    if options:
        ctx.ask("sacrifice", seat, options)


@HANDLERS.resume("sacrifice")
def _sacrificed(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert ctx.state.act is not None and choice.pick_location is not None
    seat, lid = p.seat, choice.pick_location.location
    site = ctx.state.site(lid)
    shape = "I2" if site.cover else ctx.c.location(lid).wound
    ctx.schedule(
        wound(seat, shape, max(1, ctx.state.act.value)),
        *tasks_of(ctx.c.location(lid).effects, seat, lid),
    )


# ---------------------------------------------------------------- craft


def craft(ctx: Ctx, seat: int) -> None:
    act = ctx.state.act
    assert act is not None
    if act.done < act.value and ctx.state.display:
        ctx.ask(
            "craft",
            seat,
            [*map(O.take_item, dict.fromkeys(ctx.state.display)), PROCEED],
        )
    elif ctx.state.display:
        ctx.ask(
            "craft_discard",
            seat,
            [*map(O.discard_item, dict.fromkeys(ctx.state.display)), PROCEED],
        )


@HANDLERS.resume("craft")
def _crafted(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    act = ctx.state.act
    assert act is not None
    if choice.take_item is None:
        ctx.emit(ev.ActionPrepared(act=act.model_copy(update={"done": act.value})))
    else:
        ctx.emit(ev.ItemGained(seat=seat, item=choice.take_item.item, source="display"))
        ctx.emit(ev.ActionPrepared(act=act.model_copy(update={"done": act.done + 1})))
    craft(ctx, seat)


@HANDLERS.resume("craft_discard")
def _craft_discard(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.discard_item is not None:
        ctx.emit(
            ev.CardDiscarded(
                deck="items", card=choice.discard_item.item, source="display"
            )
        )
    refill(ctx)
