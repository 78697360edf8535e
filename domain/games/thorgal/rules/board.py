"""Board effects: Entries and Side Plots, Enemy tokens, Location tokens, adventure ops.

Entries are read once and mark their Location; a Side Plot is paid through
``payments.py``.  Blockade, Cost and Sacrifice cover tokens are placed on a
Location of the player's choice; a Cost token on a Location needing several
good types also asks which good it raises.  Placing a token or an Enemy where no
Location qualifies, or upgrading with no Enemy token to upgrade, is an
unfulfilled effect: every character gains 1 Wound (see ``unfulfilled``).
"""

from __future__ import annotations

from .. import events as ev
from ..commands import Option
from ..content import TIERS
from ..state import Pending, Task
from . import options as O
from .engine import Ctx, Handlers, actor, tasks_of
from .options import PROCEED
from .payments import can_pay, pay

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""


@HANDLERS.handler("entry")
def _entry(ctx: Ctx, t: Task) -> None:
    if t.arg in ctx.state.entries_read:
        return
    entry = ctx.c.entry(t.arg)
    seat = actor(ctx, t)
    ctx.emit(ev.EntryRead(entry=entry.id, title=entry.title, text=entry.text))
    ctx.schedule(
        *tasks_of(entry.effects, seat, t.loc),
        Task(op="plots", arg=entry.id, seat=seat, loc=t.loc),
    )


@HANDLERS.handler("plots")
def _plots(ctx: Ctx, t: Task) -> None:
    if t.loc:
        ctx.emit(ev.LocationMarked(location=t.loc, token="entry"))
    if can_pay(ctx.state, t.seat, (ctx.c.adventure.plot_cost,)):
        ctx.ask(
            "plot",
            t.seat,
            (O.pick_side_plot(0), O.pick_side_plot(1), PROCEED),
            arg=t.arg,
        )


@HANDLERS.resume("plot")
def _plot(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.pick_side_plot is None:
        return
    seat, plot = p.seat, choice.pick_side_plot.plot
    ctx.schedule(
        *pay(
            seat,
            (ctx.c.adventure.plot_cost,),
            (Task(op="side_plot", arg=p.arg, n=plot, seat=seat),),
        )
    )


@HANDLERS.handler("side_plot")
def _side_plot(ctx: Ctx, t: Task) -> None:
    entry = ctx.c.entry(t.arg)
    ctx.emit(ev.SidePlotChosen(entry=entry.id, plot=t.n))
    ctx.schedule(*tasks_of(entry.plots[t.n].effects, t.seat))


@HANDLERS.handler("reveal_terrain")
def _reveal(ctx: Ctx, t: Task) -> None:
    ctx.draw("terrain", 1, "terrain")


def unfulfilled(ctx: Ctx) -> None:
    """A board effect that cannot be resolved: every character gains 1 Wound (``I1``).

    A board effect refers to no single Character, so all are affected, as the
    rulebook says for its one board case ("If you must Upgrade a Massive, all
    Characters resolve the Unfulfilled effect (gain 1 Wound) instead").
    """
    ctx.schedule(Task(op="wound_all", arg="I1"))


def _tokens(ctx: Ctx, kinds: tuple[str, ...]) -> list[Option]:
    return [
        O.pick_enemy(s.id, i)
        for s in ctx.state.sites
        for i, k in enumerate(s.enemies)
        if k in kinds
    ]


@HANDLERS.handler("upgrade")
def _upgrade(ctx: Ctx, t: Task) -> None:
    options = _tokens(ctx, TIERS)
    if options:
        ctx.ask("upgrade", actor(ctx, t), options, n=t.n)
    elif t.n > 0:
        unfulfilled(ctx)


@HANDLERS.handler("degrade")
def _degrade(ctx: Ctx, t: Task) -> None:
    options = _tokens(ctx, TIERS)
    if options:
        ctx.ask("degrade", actor(ctx, t), options, n=t.n)


def _shift(ctx: Ctx, p: Pending, choice: Option, step: int) -> None:
    assert choice.pick_enemy is not None
    lid, idx = choice.pick_enemy.location, choice.pick_enemy.index
    enemies = list(ctx.state.site(lid).enemies)
    tier = TIERS.index(enemies[idx]) + step
    if tier >= len(TIERS):
        unfulfilled(ctx)
    elif tier >= 0:
        enemies[idx] = TIERS[tier]
        ctx.emit(ev.EnemiesChanged(location=lid, enemies=tuple(enemies)))
    if p.n > 1:
        op = "upgrade" if step > 0 else "degrade"
        ctx.schedule(Task(op=op, n=p.n - 1, seat=p.seat))


HANDLERS.resume("upgrade")(lambda ctx, p, choice: _shift(ctx, p, choice, 1))
HANDLERS.resume("degrade")(lambda ctx, p, choice: _shift(ctx, p, choice, -1))


def open_sites(ctx: Ctx, need: str = "") -> list[str]:
    """Ids of Locations without an Entry token (with printed action ``need``, if given)."""
    out = []
    for s in ctx.state.sites:
        loc = ctx.c.location(s.id)
        if s.entry_token or (need and loc.action != need):
            continue
        out.append(s.id)
    return out


@HANDLERS.handler("place_enemy")
def _place_enemy(ctx: Ctx, t: Task) -> None:
    options = [
        O.pick_location(lid)
        for lid in open_sites(ctx)
        if not ctx.state.site(lid).blockade
    ]
    if options:
        ctx.ask("place_enemy", actor(ctx, t), options, arg=t.arg, n=t.n)
    else:
        unfulfilled(ctx)


@HANDLERS.resume("place_enemy")
def _placed_enemy(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_location is not None
    lid = choice.pick_location.location
    ctx.emit(
        ev.EnemiesChanged(location=lid, enemies=ctx.state.site(lid).enemies + (p.arg,))
    )
    _again(ctx, p, "place_enemy", arg=p.arg)


def _again(ctx: Ctx, p: Pending, op: str, arg: str = "") -> None:
    """ "Place 2 ..." places one, then asks for the next (each may go elsewhere)."""
    if p.n > 1:
        ctx.schedule(Task(op=op, n=p.n - 1, seat=p.seat, arg=arg))


def _token_task(kind: str, need: str, skip: str) -> None:
    op = {"blockade": "blockade", "cost": "cost_token", "cover": "sacrifice_cover"}[
        kind
    ]

    @HANDLERS.handler(op)
    def _ask(ctx: Ctx, t: Task) -> None:
        options = [
            O.pick_location(lid)
            for lid in open_sites(ctx, need)
            if not getattr(ctx.state.site(lid), skip)
        ]
        if options:
            ctx.ask(f"token_{kind}", actor(ctx, t), options, n=t.n)
        else:
            unfulfilled(ctx)

    @HANDLERS.resume(f"token_{kind}")
    def _put(ctx: Ctx, p: Pending, choice: Option) -> None:
        assert choice.pick_location is not None
        lid = choice.pick_location.location
        goods = tuple(dict.fromkeys(ctx.c.location(lid).cost)) if kind == "cost" else ()
        if len(goods) > 1:
            ctx.ask("cost_good", p.seat, [*map(O.pick_good, goods)], arg=lid, n=p.n)
            return
        ctx.emit(
            ev.LocationMarked(location=lid, token=kind, good=goods[0] if goods else "")
        )
        _again(ctx, p, op)


@HANDLERS.resume("cost_good")
def _cost_good(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_good is not None
    ctx.emit(
        ev.LocationMarked(location=p.arg, token="cost", good=choice.pick_good.good)
    )
    _again(ctx, p, "cost_token")


_token_task("blockade", "", "blockade")
_token_task("cost", "assign", "entry_token")
_token_task("cover", "assign", "cover")


@HANDLERS.handler("icon")
def _icon(ctx: Ctx, t: Task) -> None:
    ctx.schedule(*tasks_of(ctx.c.adventure.icons[t.n], t.seat))


@HANDLERS.handler("win")
def _win(ctx: Ctx, t: Task) -> None:
    ctx.end(True, ctx.c.adventure.win or "the Goals are accomplished")


@HANDLERS.handler("defeat")
def _defeat(ctx: Ctx, t: Task) -> None:
    ctx.end(False, ctx.c.adventure.lose or "the adventure is lost")


@HANDLERS.handler("special_card")
def _special(ctx: Ctx, t: Task) -> None:
    if t.arg not in ctx.state.specials:
        ctx.emit(ev.SpecialCardGained(card=t.arg))
