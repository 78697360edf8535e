"""Spending goods, with the consent of the characters who share them.

"Each time you spend Goods, they may come from any Character's supply that is
present in your Area, as long as they agree."  A payment is a ``pay`` task
followed by the ``n`` tasks it pays for.  The payer picks who pays each unit;
another owner's unit needs that owner's ``agree`` (a move by the owner).
Nothing is spent until every unit has a consenting payer; if no payer is left
(refusals) or the payer cancels, the paid-for tasks are dropped.

Used by Side Plots, Blue borders and Skill refreshes.  Assign has its own
per-good consent flow in ``actions.py``.
"""

from __future__ import annotations

from collections import Counter

from .. import events as ev
from ..commands import Option
from ..content import GOODS
from ..state import Pending, Task, ThorgalState
from . import options as O
from .engine import Ctx, Handlers
from .options import AGREE, CANCEL, REFUSE

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""


def pool(state: ThorgalState, seat: int) -> tuple[int, ...]:
    """Goods of every character in ``seat``'s Area (who could share them)."""
    area = state.hero(seat).area
    here = [h for h in state.heroes if h.area == area]
    return tuple(sum(h.goods[i] for h in here) for i in range(len(GOODS)))


def can_pay(state: ThorgalState, seat: int, units: tuple[str, ...] | list[str]) -> bool:
    have = pool(state, seat)
    return all(have[GOODS.index(g)] >= k for g, k in Counter(units).items())


def pay(
    seat: int, units: tuple[str, ...] | list[str], then: tuple[Task, ...]
) -> tuple[Task, ...]:
    """Tasks: pay ``units`` (one good name per unit), then resolve ``then``."""
    if not units:
        return then
    return (Task(op="pay", arg=",".join(units), n=len(then), seat=seat), *then)


def _left(state: ThorgalState, t: Task, owner: int, good: str) -> int:
    units = t.arg.split(",")
    promised = sum(1 for k, p in enumerate(t.payers) if p == owner and units[k] == good)
    return state.hero(owner).goods[GOODS.index(good)] - promised


@HANDLERS.handler("pay")
def _pay(ctx: Ctx, t: Task) -> None:
    units = t.arg.split(",")
    while len(t.payers) < len(units):
        good = units[len(t.payers)]
        area = ctx.state.hero(t.seat).area
        holders = [
            h.seat
            for h in ctx.state.heroes
            if h.area == area
            and h.seat not in t.refused
            and _left(ctx.state, t, h.seat, good) > 0
        ]
        if not holders:
            ctx.drop(t.n)
            return
        if holders != [t.seat]:
            ctx.schedule(t)
            ctx.ask("pay_from", t.seat, [*map(O.pick_payer, holders), CANCEL], arg=good)
            return
        t = t.model_copy(update={"payers": t.payers + (t.seat,)})
    spent = Counter(zip(t.payers, units))
    for (owner, good), k in sorted(spent.items()):
        ctx.emit(ev.GoodsSpent(seat=owner, good=good, n=k))


def _reschedule(ctx: Ctx, **update: object) -> None:
    t = ctx.pop()
    ctx.schedule(t.model_copy(update=update))


@HANDLERS.resume("pay_from")
def _pay_from(ctx: Ctx, p: Pending, choice: Option) -> None:
    t = ctx.tasks[0]
    if choice.pick_payer is None:
        ctx.pop()
        ctx.drop(t.n)
        return
    owner = choice.pick_payer.seat
    if owner == t.seat:
        _reschedule(ctx, payers=t.payers + (owner,))
    else:
        ctx.ask("pay_consent", owner, (AGREE, REFUSE), arg=p.arg, n=t.seat)


@HANDLERS.resume("pay_consent")
def _pay_consent(ctx: Ctx, p: Pending, choice: Option) -> None:
    t = ctx.tasks[0]
    owner = p.seat
    if choice == AGREE:
        _reschedule(ctx, payers=t.payers + (owner,))
    else:
        _reschedule(ctx, refused=t.refused + (owner,))
