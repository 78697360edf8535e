"""The effect vocabulary of content (goods, wounds, threats, experience, cards...).

Entries, Side Plots, Enemy and Location tokens live in ``board.py``.
Negative effects that cannot be fully resolved are resolved as far as possible
and then the affected character gains 1 Wound (``I1``): the rulebook's
Unfulfilled Effects rule.
"""

from __future__ import annotations

from .. import events as ev
from ..cards import Effect
from ..commands import Option
from ..content import GOODS, ICON_GOOD
from ..state import Pending, Task
from . import options as O
from . import polyomino as P
from .engine import Ctx, Handlers, actor, has_spot, tasks_of
from .options import PROCEED

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""


def wound(seat: int, shape: str, n: int = 1) -> Task:
    return Task(op="wound", arg=shape, n=n, seat=seat)


@HANDLERS.handler("gain")
def _gain(ctx: Ctx, t: Task) -> None:
    if t.n > 0:
        ctx.emit(ev.GoodsGained(seat=actor(ctx, t), good=t.arg, n=t.n))


@HANDLERS.handler("gain_all")
def _gain_all(ctx: Ctx, t: Task) -> None:
    for h in ctx.state.heroes:
        ctx.emit(ev.GoodsGained(seat=h.seat, good=t.arg, n=t.n))


@HANDLERS.handler("gain_area")
def _gain_area(ctx: Ctx, t: Task) -> None:
    seat = actor(ctx, t)
    sources = ctx.c.area(ctx.state.hero(seat).area).sources
    if len(sources) == 1:
        ctx.emit(ev.GoodsGained(seat=seat, good=sources[0], n=t.n))
    elif sources:
        ctx.ask("area_good", seat, [*map(O.pick_good, sources)], n=t.n)


@HANDLERS.resume("area_good")
def _area_good(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_good is not None
    ctx.emit(ev.GoodsGained(seat=p.seat, good=choice.pick_good.good, n=p.n))


@HANDLERS.handler("lose")
def _lose(ctx: Ctx, t: Task) -> None:
    seat = actor(ctx, t)
    have = ctx.state.hero(seat).goods[GOODS.index(t.arg)]
    if have:
        ctx.emit(ev.GoodsSpent(seat=seat, good=t.arg, n=min(have, t.n)))
    if have < t.n:
        ctx.schedule(wound(seat, "I1"))


@HANDLERS.handler("group_lose")
def _group_lose(ctx: Ctx, t: Task) -> None:
    """Discard ``n`` as a group: every character together; the actor picks who, unit by unit.

    No consent: a group discard is not spending from another's supply (see the
    package docstring); if the team lacks goods, every character is affected.
    """
    i = GOODS.index(t.arg)
    total = sum(h.goods[i] for h in ctx.state.heroes)
    if total < t.n:
        for h in ctx.state.heroes:
            if h.goods[i]:
                ctx.emit(ev.GoodsSpent(seat=h.seat, good=t.arg, n=h.goods[i]))
        ctx.schedule(*(wound(h.seat, "I1") for h in ctx.state.heroes))
        return
    payers = [O.pick_payer(h.seat) for h in ctx.state.heroes if h.goods[i]]
    ctx.ask("group_pay", actor(ctx, t), payers, arg=t.arg, n=t.n)


@HANDLERS.resume("group_pay")
def _group_pay(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_payer is not None
    ctx.emit(ev.GoodsSpent(seat=choice.pick_payer.seat, good=p.arg, n=1))
    if p.n > 1:
        ctx.schedule(Task(op="group_lose", arg=p.arg, n=p.n - 1, seat=p.seat))


def _ask_wound(ctx: Ctx, seat: int, shapes: tuple[str, ...], n: int) -> None:
    fitting = tuple(s for s in shapes if has_spot(ctx.state, "place_wound", seat, s))
    if not fitting:
        ctx.end(False, f"a character died: seat {seat} could not place a Wound")
        return
    ctx.ask_tile("place_wound", seat, fitting, n=n)


@HANDLERS.handler("wound")
def _wound(ctx: Ctx, t: Task) -> None:
    _ask_wound(ctx, actor(ctx, t), (t.arg,), t.n)


@HANDLERS.handler("wound_size")
def _wound_size(ctx: Ctx, t: Task) -> None:
    _ask_wound(ctx, actor(ctx, t), P.shapes_of_size(t.n), 1)


@HANDLERS.handler("wound_all")
def _wound_all(ctx: Ctx, t: Task) -> None:
    ctx.schedule(*(wound(h.seat, t.arg or "I1", t.n) for h in ctx.state.heroes))


@HANDLERS.resume("place_wound")
def _placed_wound(ctx: Ctx, p: Pending, shape: str, cells: tuple[int, ...]) -> None:
    ctx.emit(ev.WoundPlaced(seat=p.seat, shape=shape, cells=cells))
    if p.n > 1:
        ctx.schedule(wound(p.seat, shape, p.n - 1))


@HANDLERS.handler("heal")
def _heal(ctx: Ctx, t: Task) -> None:
    """Discard up to ``n`` Wound tiles, each of size at most ``arg`` (blank: any size).

    "Unspecified Heal effects allow you to discard any 1 Wound tile ... 3 (1)
    allows you to discard up to 3" size-1 tiles; values are never split.
    """
    seat = actor(ctx, t)
    limit = int(t.arg) if t.arg else max(map(P.size, P.SHAPES))
    options = [
        O.heal_wound(i)
        for i, w in enumerate(ctx.state.hero(seat).wounds)
        if P.size(w.shape) <= limit
    ]
    if options and t.n > 0:
        ctx.ask("heal", seat, [*options, PROCEED], n=t.n, arg=t.arg)


@HANDLERS.resume("heal")
def _healed(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.heal_wound is not None:
        ctx.emit(ev.WoundHealed(seat=p.seat, index=choice.heal_wound.index))
        if p.n > 1:
            ctx.schedule(Task(op="heal", n=p.n - 1, arg=p.arg, seat=p.seat))


@HANDLERS.handler("threat")
def _threat(ctx: Ctx, t: Task) -> None:
    seat = actor(ctx, t)
    have = ctx.state.hero(seat).threats
    if t.n < 0:
        if have:
            ctx.emit(ev.ThreatsChanged(seat=seat, threats=max(0, have + t.n)))
        return
    for _ in range(t.n):
        if have >= 5:
            ctx.schedule(Task(op="wound_size", n=have, seat=seat))
        else:
            have += 1
            ctx.emit(ev.ThreatsChanged(seat=seat, threats=have))


@HANDLERS.handler("threat_all")
def _threat_all(ctx: Ctx, t: Task) -> None:
    ctx.schedule(*(Task(op="threat", n=t.n, seat=h.seat) for h in ctx.state.heroes))


@HANDLERS.handler("xp")
def _xp(ctx: Ctx, t: Task) -> None:
    if t.n > 0:
        ctx.ask(
            "xp",
            actor(ctx, t),
            (O.pick_track("combat"), O.pick_track("journey")),
            n=t.n,
        )


@HANDLERS.resume("xp")
def _xp_chosen(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_track is not None
    seat, n, track = p.seat, p.n, choice.pick_track.track
    if n > 1:
        ctx.schedule(Task(op="xp", n=n - 1, seat=seat))
    hero = ctx.state.hero(seat)
    level = getattr(hero, f"{track}_level")
    if level < 7:
        ctx.emit(ev.ExperienceGained(seat=seat, track=track, level=level + 1))
    else:
        ch = ctx.c.character(hero.character)
        ctx.schedule(*tasks_of(getattr(ch, f"{track}_bonus"), seat))


@HANDLERS.handler("discovery")
def _discovery(ctx: Ctx, t: Task) -> None:
    for _ in range(t.n):
        for card in ctx.draw("discovery", 1, "resolve"):
            ctx.emit(ev.CardDiscarded(deck="discovery", card=card))
            ctx.schedule(*tasks_of(ctx.c.discovery(card).effects, actor(ctx, t)))


@HANDLERS.handler("item_draw")
def _item_draw(ctx: Ctx, t: Task) -> None:
    for _ in range(t.n):
        d = ctx.state.deck("items")
        if not d.cards and d.discard:
            ctx.emit(
                ev.DeckShuffled(
                    deck="items",
                    cards=ctx.rng.shuffle(d.discard),
                    from_discard=True,
                    size=len(d.discard),
                )
            )
        if ctx.state.deck("items").cards:
            card = ctx.state.deck("items").cards[0]
            ctx.emit(ev.ItemGained(seat=actor(ctx, t), item=card, source="deck"))


def refill(ctx: Ctx) -> None:
    missing = 5 - len(ctx.state.display)
    if missing > 0:
        ctx.draw("items", missing, "display")


@HANDLERS.handler("item_pick")
def _item_pick(ctx: Ctx, t: Task) -> None:
    if ctx.state.display and t.n > 0:
        ctx.ask(
            "pick_item",
            actor(ctx, t),
            [*map(O.take_item, ctx.state.display), PROCEED],
            n=t.n,
        )


@HANDLERS.resume("pick_item")
def _picked(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.take_item is None:
        return
    ctx.emit(ev.ItemGained(seat=p.seat, item=choice.take_item.item, source="display"))
    refill(ctx)
    ctx.schedule(Task(op="item_pick", n=p.n - 1, seat=p.seat))


@HANDLERS.handler("roll_wound")
def _roll_wound(ctx: Ctx, t: Task) -> None:
    face = ctx.c.die(t.arg).faces[ctx.rng.randbelow(6)].split(":")[0]
    ctx.emit(ev.WoundRolled(seat=actor(ctx, t), die=t.arg, shape=face))
    ctx.schedule(wound(actor(ctx, t), face))


def cover_tasks(
    ctx: Ctx,
    rows: tuple[str, ...],
    cells: list[tuple[int, int]],
    red: tuple[Effect, ...],
    yellow: tuple[Effect, ...],
    seat: int,
) -> list[Task]:
    """Covering effects of each covered space (Journey and Combat)."""
    out: list[Task] = []
    for r, c in cells:
        ch = rows[r][c]
        if ch in ICON_GOOD:
            out.append(Task(op="gain", arg=ICON_GOOD[ch], seat=seat))
        elif ch in "*RY":
            out.append(Task(op="gain_area", seat=seat))
        elif ch == "H":
            out.append(Task(op="heal", n=1, seat=seat))
        elif ch == "X":
            out.append(Task(op="xp", seat=seat))
        elif ch == "D":
            out.append(Task(op="discovery", seat=seat))
        if ch in "rR":
            out.extend(tasks_of(red, seat))
        if ch in "yY":
            out.extend(tasks_of(yellow, seat))
    return out
