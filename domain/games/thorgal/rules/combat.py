"""Combat: target, Enemy card(s), dice, upgrades, rerolls, criticals, tiles, result.

Rule decisions: the Combat card's value adds ``value - 1`` yellow dice; rolled
tiles are placed one at a time, each touching the tiles already on the card
(so the group is connected); a tile with no legal spot left is dropped; a
merged group's cards are laid left to right in the player's order; a Mystical token
draws from the adventure's ``mystical_tier`` deck and adds its effects.
"""

from __future__ import annotations

from .. import events as ev
from ..cards import Effect
from ..commands import Option
from ..content import DIE_ORDER
from ..state import Combat, Pending, Task, dec
from . import options as O
from .effects import cover_tasks
from .engine import Ctx, Handlers, has_spot, tasks_of
from .items import PRE_ROLL_ONLY, after_roll_items, use, use_item
from .options import PROCEED, SKILL

HANDLERS = Handlers()
"""This module's task handlers and resumes (registered in ``rules/__init__``)."""


def targets(ctx: Ctx, seat: int) -> list[Option]:
    area = ctx.state.hero(seat).area
    return [
        O.pick_enemy(s.id, i)
        for s in ctx.state.sites
        if area in ctx.c.location(s.id).areas and not s.blockade
        for i in range(len(s.enemies))
    ]


def begin_combat(ctx: Ctx, seat: int) -> None:
    options = targets(ctx, seat)
    if options:
        ctx.ask("target", seat, options)


def _deck_of(ctx: Ctx, token: str) -> str:
    return "enemy_" + (ctx.c.adventure.mystical_tier if token == "mystical" else token)


@HANDLERS.resume("target")
def _targeted(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    act = ctx.state.act
    assert act is not None and choice.pick_enemy is not None
    lid, idx = choice.pick_enemy.location, choice.pick_enemy.index
    site = ctx.state.site(lid)
    tokens = tuple(range(len(site.enemies))) if ctx.c.location(lid).merged else (idx,)
    cards: list[str] = []
    for i in tokens:
        cards += ctx.draw(_deck_of(ctx, site.enemies[i]), 1, "combat")
        if site.enemies[i] == "mystical":
            ctx.schedule(*tasks_of(ctx.c.adventure.mystical_effects, seat))
    ctx.emit(
        ev.CombatBegan(
            combat=Combat(
                seat=seat, location=lid, tokens=tokens, cards=tuple(cards), rows=()
            )
        )
    )
    _ask_order(ctx, seat, ())


def _ask_order(ctx: Ctx, seat: int, chosen: tuple[str, ...]) -> None:
    """Merged enemies: the player lays the cards left to right in an order of their choice."""
    combat = ctx.state.combat
    assert combat is not None
    rest = [c for c in combat.cards if c not in chosen]
    if len(rest) > 1:
        ctx.ask("enemy_order", seat, [*map(O.pick_enemy_card, rest)], chosen=chosen)
        return
    _lay_out(ctx, seat, (*chosen, *rest))


@HANDLERS.resume("enemy_order")
def _ordered(ctx: Ctx, p: Pending, choice: Option) -> None:
    assert choice.pick_enemy_card is not None
    _ask_order(ctx, p.seat, (*p.chosen, choice.pick_enemy_card.card))


def _lay_out(ctx: Ctx, seat: int, cards: tuple[str, ...]) -> None:
    act, combat = ctx.state.act, ctx.state.combat
    assert act is not None and combat is not None
    grids = [ctx.c.enemy(c).rows for c in cards]
    height = max(len(g) for g in grids)
    rows = tuple(
        "".join((g[r] if r < len(g) else "#" * len(g[0])) for g in grids)
        for r in range(height)
    )
    hero = ctx.state.hero(seat)
    dial = ctx.c.character(hero.character).combat[hero.combat_level - 1]
    dice = (*dial, *act.dice, *("yellow",) * max(0, act.value - 1))
    ctx.emit(
        ev.CombatBegan(
            combat=combat.model_copy(
                update={"cards": cards, "rows": rows, "dice": dice}
            )
        )
    )
    # Items and the Skill before the roll, then upgrades and the roll
    ctx.schedule(Task(op="prepare", seat=seat))


def ask_upgrade(ctx: Ctx, seat: int) -> None:
    act, combat = ctx.state.act, ctx.state.combat
    assert act is not None and combat is not None
    options = [
        O.upgrade_die(i) for i, d in enumerate(combat.dice) if d != DIE_ORDER[-1]
    ]
    if act.upgrades > 0 and options:
        ctx.ask("upgrade_die", seat, [*options, PROCEED])
        return
    faces = tuple(ctx.rng.randbelow(6) for _ in combat.dice)
    ctx.emit(ev.DiceRolled(faces=faces))
    _ask_mods(ctx, seat)


@HANDLERS.resume("upgrade_die")
def _upgraded(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    act, combat = ctx.state.act, ctx.state.combat
    assert act is not None and combat is not None
    if choice.upgrade_die is None:
        ctx.emit(ev.ActionPrepared(act=act.model_copy(update={"upgrades": 0})))
    else:
        i = choice.upgrade_die.die
        colour = DIE_ORDER[DIE_ORDER.index(combat.dice[i]) + 1]
        ctx.emit(ev.DieUpgraded(index=i, colour=colour))
        ctx.emit(
            ev.ActionPrepared(act=act.model_copy(update={"upgrades": act.upgrades - 1}))
        )
    ask_upgrade(ctx, seat)


def face(ctx: Ctx, i: int) -> tuple[str, str]:
    combat = ctx.state.combat
    assert combat is not None
    white, _, crit = ctx.c.die(combat.dice[i]).faces[combat.faces[i]].partition(":")
    return white, crit


def _ask_mods(ctx: Ctx, seat: int) -> None:
    act, combat = ctx.state.act, ctx.state.combat
    assert act is not None and combat is not None
    options: list[Option] = []
    if act.rerolls > 0:
        options += [O.reroll_die(i) for i in range(len(combat.dice))]
    if act.criticals > 0:
        options += [
            O.activate_critical(i)
            for i in range(len(combat.dice))
            if face(ctx, i)[1] and not combat.critical[i]
        ]
    options += after_roll_items(ctx, seat)
    hero = ctx.state.hero(seat)
    skill = ctx.c.character(hero.character).skill
    if (
        skill.action in ("combat", "any")
        and hero.skill_active
        and hero.skill_round != ctx.state.round
        and not any(m.kind in PRE_ROLL_ONLY for m in skill.mods)
    ):
        options.append(SKILL)
    if options:
        ctx.ask("combat_mod", seat, [*options, PROCEED])
        return
    _start_placing(ctx, seat)


def _start_placing(ctx: Ctx, seat: int) -> None:
    combat = ctx.state.combat
    assert combat is not None
    shapes = tuple(
        face(ctx, i)[1] if combat.critical[i] and face(ctx, i)[1] else face(ctx, i)[0]
        for i in range(len(combat.dice))
    )
    ctx.emit(ev.CombatBegan(combat=combat.model_copy(update={"left": shapes})))
    _ask_place(ctx, seat)


@HANDLERS.handler("combat_mods")
def _combat_mods(ctx: Ctx, t: Task) -> None:
    _ask_mods(ctx, t.seat)


@HANDLERS.resume("combat_mod")
def _modded(ctx: Ctx, p: Pending, choice: Option) -> None:
    seat = p.seat
    act = ctx.state.act
    assert act is not None
    if choice == PROCEED:
        ctx.emit(
            ev.ActionPrepared(act=act.model_copy(update={"rerolls": 0, "criticals": 0}))
        )
        _start_placing(ctx, seat)
        return
    elif choice.use_item is not None:
        use_item(ctx, seat, choice.use_item.item, Task(op="combat_mods", seat=seat))
        return
    elif choice == SKILL:
        skill = ctx.c.character(ctx.state.hero(seat).character).skill
        ctx.emit(ev.SkillUsed(seat=seat, round=ctx.state.round))
        use(ctx, seat, skill.mods, skill.effects, Task(op="combat_mods", seat=seat))
        return
    elif choice.reroll_die is not None:
        ctx.emit(ev.DieRerolled(index=choice.reroll_die.die, face=ctx.rng.randbelow(6)))
        ctx.emit(
            ev.ActionPrepared(act=act.model_copy(update={"rerolls": act.rerolls - 1}))
        )
    else:
        assert choice.activate_critical is not None
        ctx.emit(ev.CriticalActivated(index=choice.activate_critical.die))
        ctx.emit(
            ev.ActionPrepared(
                act=act.model_copy(update={"criticals": act.criticals - 1})
            )
        )
    _ask_mods(ctx, seat)


def _ask_place(ctx: Ctx, seat: int) -> None:
    combat = ctx.state.combat
    assert combat is not None
    fitting = [
        s
        for s in dict.fromkeys(combat.left)
        if has_spot(ctx.state, "place_combat", seat, s)
    ]
    if fitting:
        ctx.ask_tile("place_combat", seat, fitting)
        return
    if combat.left:
        ctx.emit(ev.CombatTileDropped(shapes=combat.left))
    _finish(ctx, seat)


@HANDLERS.resume("place_combat")
def _placed(ctx: Ctx, p: Pending, shape: str, cells: tuple[int, ...]) -> None:
    seat = p.seat
    combat = ctx.state.combat
    assert combat is not None
    ctx.emit(ev.CombatTilePlaced(shape=shape, cells=cells))
    red: tuple[Effect, ...] = ()
    yellow: tuple[Effect, ...] = ()
    tasks: list[Task] = []
    for c in cells:
        r, col = dec(c)
        width = len(ctx.c.enemy(combat.cards[0]).rows[0])
        card = ctx.c.enemy(combat.cards[min(col // width, len(combat.cards) - 1)])
        red, yellow = card.red, card.yellow
        tasks += cover_tasks(ctx, combat.rows, [(r, col)], red, yellow, seat)
    ctx.schedule(*tasks, Task(op="combat_place", seat=seat))


@HANDLERS.handler("combat_place")
def _combat_place(ctx: Ctx, t: Task) -> None:
    _ask_place(ctx, t.seat)


def _finish(ctx: Ctx, seat: int) -> None:
    combat = ctx.state.combat
    assert combat is not None
    covered = {dec(c) for tile in combat.placed for c in tile.cells}
    hearts = [
        (r, c)
        for r, line in enumerate(combat.rows)
        for c, ch in enumerate(line)
        if ch == "h"
    ]
    uncovered = sum(1 for h in hearts if h not in covered)
    won = uncovered == 0
    for card in combat.cards:
        ctx.emit(ev.CardDiscarded(deck="enemy_" + ctx.c.enemy(card).tier, card=card))
    ctx.emit(ev.CombatEnded(won=won, uncovered=uncovered))
    loc = ctx.c.location(combat.location)
    if won:
        left = tuple(
            k
            for i, k in enumerate(ctx.state.site(loc.id).enemies)
            if i not in combat.tokens
        )
        ctx.emit(ev.EnemiesChanged(location=loc.id, enemies=left))
        if not left and loc.marked:
            ctx.schedule(*tasks_of(loc.effects, seat, loc.id))
    else:
        ctx.schedule(Task(op="threat", n=uncovered, seat=seat))
