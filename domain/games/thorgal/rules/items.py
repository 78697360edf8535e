"""Items (and the Skill card): single-use cards tied to an action type.

"The left side of an Item card indicates during which action the Item may be
used.  If the Item has a multicolored icon, it might be used during any
action."  Items are single-use: ``ItemUsed`` discards the card and its effects
resolve at once ("She rolls 1 additional die, gains 1 Good and then discards
the Item").  The moments an Item may be used, each offered as a move:

- ``timing: before`` (the default, "Items allow you to improve actions"): at
  the start of the action, before anything is resolved (Journey step 1: "You
  may choose any number of your Items that affect the Journey action and
  resolve their abilities"), so never partway through a Journey or a Move.
- Combat: after the Enemy card is drawn and before the roll ("Additional dice
  ... you must decide if you want to use them before you roll"; "You must
  decide whether you want to upgrade any of your dice before the Combat
  roll"), and, for Items adding no dice and no upgrades, also after the roll
  ("Many effects are resolved during Combat and may be resolved before or
  after the Combat roll"; rerolls and Criticals come after it).
- ``timing: after`` (cards printed "AFTER RESOLVING AN ACTION"): once the
  action of their type is fully resolved.

The Skill card follows the same Combat timings (it is "used" like an Item).
"""

from __future__ import annotations

from .. import events as ev
from ..cards import Effect, Mod
from ..commands import Option
from ..state import Pending, Task
from . import options as O
from .engine import Ctx, Handlers, tasks_of
from .modifiers import fold
from .options import PROCEED

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""

PRE_ROLL_ONLY = ("dice", "upgrade")
"""Modifiers that must be chosen before the Combat roll."""


def fits(ctx: Ctx, item: str, action: str) -> bool:
    return ctx.c.item(item).action in (action, "any")


def before_items(ctx: Ctx, seat: int, action: str) -> list[Option]:
    """Items usable at the start of an ``action`` (and before the Combat roll)."""
    return [
        O.use_item(i)
        for i in dict.fromkeys(ctx.state.hero(seat).items)
        if fits(ctx, i, action) and ctx.c.item(i).timing == "before"
    ]


def after_roll_items(ctx: Ctx, seat: int) -> list[Option]:
    """Combat Items that may still be used once the dice are rolled."""
    return [
        O.use_item(i)
        for i in dict.fromkeys(ctx.state.hero(seat).items)
        if fits(ctx, i, "combat")
        and ctx.c.item(i).timing == "before"
        and not any(m.kind in PRE_ROLL_ONLY for m in ctx.c.item(i).mods)
    ]


def use(
    ctx: Ctx, seat: int, mods: tuple[Mod, ...], effects: tuple[Effect, ...], then: Task
) -> None:
    """Fold ``mods`` into the action, resolve ``effects`` now, then ``then``.

    Extra actions granted by the card resolve after the action, like a Bonus.
    Dice added while a Combat's card is drawn but not rolled join the roll.
    """
    act = ctx.state.act
    assert act is not None
    extras: list[Task] = []
    new = fold(act, mods, 1, extras)
    ctx.emit(ev.ActionPrepared(act=new))
    combat = ctx.state.combat
    if combat is not None and not combat.rolled:
        for colour in new.dice[len(act.dice) :]:
            ctx.emit(ev.DieAdded(colour=colour))
    ctx.schedule(*tasks_of(effects, seat), then, *extras)


def use_item(ctx: Ctx, seat: int, item: str, then: Task) -> None:
    card = ctx.c.item(item)
    ctx.emit(ev.ItemUsed(seat=seat, item=card.id))
    use(ctx, seat, card.mods, card.effects, then)


@HANDLERS.handler("after_items")
def _after_items(ctx: Ctx, t: Task) -> None:
    options = [
        O.use_item(i)
        for i in dict.fromkeys(ctx.state.hero(t.seat).items)
        if fits(ctx, i, t.arg) and ctx.c.item(i).timing == "after"
    ]
    if options and ctx.state.act is not None:
        ctx.ask("after_item", t.seat, [*options, PROCEED], arg=t.arg)


@HANDLERS.resume("after_item")
def _after_item(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.use_item is None:
        return
    seat, action = p.seat, p.arg
    use_item(
        ctx, seat, choice.use_item.item, Task(op="after_items", arg=action, seat=seat)
    )
