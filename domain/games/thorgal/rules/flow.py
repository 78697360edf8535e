"""Rounds, turns, Action chips, bonuses, and the Event phase.

Chips belong to *slots* of the Action Row: swapping an Action card never moves
a chip, and "a different Action card" means a different slot.
"""

from __future__ import annotations

from domain.contract.core import IllegalCommandError, InvalidCommandError

from .. import events as ev
from ..cards import ActionCard
from ..commands import Option
from ..state import Act, Pending, Task
from . import options as O
from .combat import ask_upgrade
from .engine import Ctx, Handlers, tasks_of
from .items import before_items, use, use_item
from .modifiers import fold
from .options import PROCEED, REFRESH, SKILL
from .payments import can_pay, pay

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""


def after_tasks(ctx: Ctx) -> bool:
    """The stack is empty: start the next turn or the Event phase. ``False`` = stop."""
    s = ctx.state
    if s.phase != "resolve":
        return False
    if s.act is not None:
        ctx.emit(ev.ActionEnded(seat=s.act.seat, action=s.act.action))
    done = s.turns_taken[s.round - 1] if len(s.turns_taken) >= s.round else 0
    if done < 4:
        assert not ctx.tasks
        ctx.emit(
            ev.TurnBegan(round=s.round, turn=done, seat=(s.first + done) % s.seats)
        )
        return False
    ctx.schedule(Task(op="event_phase", seat=s.first))
    return True


def chips_below(ctx: Ctx, slot: int) -> int:
    return sum(1 for c in ctx.state.chips if c.slot == slot)


def chips_left(ctx: Ctx, slot: int) -> int:
    return sum(1 for c in ctx.state.chips if 0 <= c.slot < slot)


def take_action(ctx: Ctx, seat: int, chip: int, slot: int, option: int) -> None:
    s = ctx.state
    if not 0 <= chip < 4 or not 0 <= slot < len(s.row):
        raise InvalidCommandError("no such Action chip or Action Row slot")
    card = ctx.c.card(s.row[slot])
    if not 0 <= option < len(card.actions):
        raise InvalidCommandError(
            f"card {card.id} has {len(card.actions)} main actions"
        )
    if not s.chips[chip].active:
        raise IllegalCommandError(
            "thorgal.chip-inactive", "that Action chip was already used"
        )
    if s.chips[chip].slot == slot:
        raise IllegalCommandError(
            "thorgal.chip-same-card", "a chip must move to a different Action card"
        )
    ctx.emit(
        ev.ChipPlaced(seat=seat, chip=chip, slot=slot, card=card.id, option=option)
    )
    build_action(ctx, seat, card, slot, card.actions[option])


def build_action(ctx: Ctx, seat: int, card: ActionCard, slot: int, action: str) -> None:
    """Main value, additional effects, Bonus section, Special cards, Event modifiers."""
    extras: list[Task] = []
    act = Act(seat=seat, action=action, value=card.value, slot=slot)
    act = fold(act, card.mods, 1, extras)
    for sid in ctx.state.specials:
        sp = ctx.c.special(sid)
        if sp.action == action:
            act = fold(act, sp.mods, 1, extras)
    if ctx.state.active_event:
        act = fold(act, ctx.c.event(ctx.state.active_event).ongoing, 1, extras)
    after = list(tasks_of(card.effects, seat))
    for sid in ctx.state.specials:
        if ctx.c.special(sid).action == action:
            after += tasks_of(ctx.c.special(sid).effects, seat)
    if card.bonus is not None:
        b = card.bonus
        times = {
            "only": int(chips_below(ctx, slot) == 1),
            "left": chips_left(ctx, slot),
            "below": chips_below(ctx, slot),
        }[b.when]
        act = fold(act, b.mods, times, extras)
        after += list(tasks_of(b.effects, seat)) * times
    ctx.emit(ev.ActionPrepared(act=act))
    ctx.schedule(
        Task(op="action", arg=action, n=act.value, seat=seat, loc="main"),
        *extras,
        *after,
    )


@HANDLERS.handler("action")
def _action(ctx: Ctx, t: Task) -> None:
    if t.loc != "main":
        ctx.emit(ev.ActionPrepared(act=Act(seat=t.seat, action=t.arg, value=t.n)))
    _prepare(ctx, t.seat)


def _prepare(ctx: Ctx, seat: int) -> None:
    """Items, the Skill and its refresh before the action (Combat: before the roll)."""
    act = ctx.state.act
    assert act is not None
    if act.action == "combat" and ctx.state.combat is None:
        _go(ctx, seat)  # asked once the Enemy card is drawn, before the roll
        return
    hero = ctx.state.hero(seat)
    options = before_items(ctx, seat, act.action)
    skill = ctx.c.character(hero.character).skill
    if (
        skill.action in (act.action, "any")
        and hero.skill_active
        and hero.skill_round != ctx.state.round
    ):
        options.append(SKILL)
    if not hero.skill_active and can_pay(ctx.state, seat, skill.refresh):
        options.append(REFRESH)
    if options:
        ctx.ask("prepare", seat, [*options, PROCEED])
    else:
        _go(ctx, seat)


def _go(ctx: Ctx, seat: int) -> None:
    act = ctx.state.act
    assert act is not None
    if ctx.state.combat is not None:
        ask_upgrade(ctx, seat)
        return
    ctx.schedule(
        Task(op="do", arg=act.action, seat=seat),
        Task(op="after_items", arg=act.action, seat=seat),
    )


@HANDLERS.resume("prepare")
def _prepared(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    again = Task(op="prepare", seat=seat)
    skill = ctx.c.character(ctx.state.hero(seat).character).skill
    if choice == PROCEED:
        _go(ctx, seat)
    elif choice.use_item is not None:
        use_item(ctx, seat, choice.use_item.item, again)
    elif choice == SKILL:
        ctx.emit(ev.SkillUsed(seat=seat, round=ctx.state.round))
        use(ctx, seat, skill.mods, skill.effects, again)
    else:
        ctx.schedule(
            *pay(seat, skill.refresh, (Task(op="skill_refreshed", seat=seat),)), again
        )


@HANDLERS.handler("skill_refreshed")
def _skill_refreshed(ctx: Ctx, t: Task) -> None:
    ctx.emit(ev.SkillRefreshed(seat=t.seat))


@HANDLERS.handler("prepare")
def _prepare_again(ctx: Ctx, t: Task) -> None:
    _prepare(ctx, t.seat)


@HANDLERS.handler("action_card")
def _action_card(ctx: Ctx, t: Task) -> None:
    new = ctx.c.card(t.arg)
    if t.arg in ctx.state.row or not any(
        ctx.c.card(c).actions[0] == new.actions[0] for c in ctx.state.row
    ):
        return
    ctx.ask(
        "swap",
        ctx.state.act.seat if ctx.state.act else ctx.state.first,
        (O.swap_action_card(t.arg), PROCEED),
        arg=t.arg,
    )


@HANDLERS.resume("swap")
def _swap(ctx: Ctx, p: Pending, choice: Option) -> None:
    if choice.swap_action_card is None:
        return
    new = ctx.c.card(choice.swap_action_card.card)
    old = next(c for c in ctx.state.row if ctx.c.card(c).actions[0] == new.actions[0])
    row = sorted(
        [c for c in ctx.state.row if c != old] + [new.id],
        key=lambda c: ctx.c.card(c).number,
    )
    ctx.emit(ev.ActionCardSwapped(old=old, new=new.id, row=tuple(row)))


@HANDLERS.handler("begin_round")
def _begin_round(ctx: Ctx, t: Task) -> None:
    s = ctx.state
    assert not ctx.tasks, "a round begins with nothing left to resolve"
    ctx.emit(ev.TurnBegan(round=s.round, turn=0, seat=s.first))


@HANDLERS.handler("event_phase")
def _event_phase(ctx: Ctx, t: Task) -> None:
    s = ctx.state
    if s.round >= ctx.c.adventure.rounds:
        ctx.end(False, "out of time: the Round marker cannot advance")
        return
    ctx.emit(ev.RoundAdvanced(round=s.round + 1))
    ctx.emit(ev.ChipsFlipped())
    nxt = ctx.c.event(s.active_event).next_phase if s.active_event else ()
    specials = [
        r.effects for r in ctx.c.adventure.special_rounds if r.round == s.round + 1
    ]
    ctx.schedule(
        *tasks_of(nxt, s.first),
        Task(op="draw_event", seat=s.first),
        *(x for eff in specials for x in tasks_of(eff, s.first)),
        Task(op="pass_first", seat=s.first),
    )


@HANDLERS.handler("draw_event")
def _draw_event(ctx: Ctx, t: Task) -> None:
    adv = ctx.c.adventure
    threats = sum(h.threats for h in ctx.state.heroes)
    deck = adv.event_decks[1] if threats >= adv.threat_switch else adv.event_decks[0]
    for card in ctx.draw(deck, 1, "event"):
        ctx.schedule(*tasks_of(ctx.c.event(card).immediate, t.seat))


@HANDLERS.handler("pass_first")
def _pass_first(ctx: Ctx, t: Task) -> None:
    ctx.emit(ev.FirstPlayerPassed(first=(ctx.state.first + 1) % ctx.state.seats))
    ctx.schedule(Task(op="begin_round"))
