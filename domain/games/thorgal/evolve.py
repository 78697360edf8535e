"""``evolve``: apply one event to the state, with no rule checks and no chance.

Setup, decks, questions, turns and characters first; then the table:
the Journey path, Collect tokens, Locations, Combat and cards.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from . import events as E
from .content import GOODS, load
from .state import Chip, Hero, Site, ThorgalState, Tile


def _hero(state: ThorgalState, seat: int, **update: Any) -> ThorgalState:
    heroes = list(state.heroes)
    heroes[seat] = heroes[seat].model_copy(update=update)
    return state.model_copy(update={"heroes": tuple(heroes)})


def _site(state: ThorgalState, lid: str, **update: Any) -> ThorgalState:
    sites = tuple(
        s.model_copy(update=update) if s.id == lid else s for s in state.sites
    )
    return state.model_copy(update={"sites": sites})


def _goods(goods: tuple[int, ...], good: str, delta: int) -> tuple[int, ...]:
    i = GOODS.index(good)
    return goods[:i] + (goods[i] + delta,) + goods[i + 1 :]


def _deck(state: ThorgalState, name: str, **update: Any) -> ThorgalState:
    decks = tuple(
        d.model_copy(update=update) if d.name == name else d for d in state.decks
    )
    return state.model_copy(update={"decks": decks})


@singledispatch
def evolve(event: Any, state: ThorgalState) -> ThorgalState:
    raise TypeError(f"unknown thorgal event {type(event).__name__}")


def apply(state: ThorgalState, event: Any) -> ThorgalState:
    """The Ruleset's ``evolve(state, event)``."""
    return evolve(event, state)


@evolve.register
def _(e: E.AdventureStarted, s: ThorgalState) -> ThorgalState:
    c = load(s.content)
    heroes = []
    for seat, cid in enumerate(e.characters):
        ch = c.character(cid)
        goods: tuple[int, ...] = (0,) * 6
        for g in ch.goods:
            goods = _goods(goods, g, 1)
        heroes.append(
            Hero(
                seat=seat,
                character=cid,
                area=c.adventure.start_area,
                goods=goods,
                items=(ch.item,),
            )
        )
    sites = tuple(Site(id=loc.id, enemies=loc.enemies) for loc in c.locations)
    return s.model_copy(
        update={
            "heroes": tuple(heroes),
            "sites": sites,
            "first": e.first,
            "row": c.action_row,
            "phase": "resolve",
            "seats": e.seats,
        }
    )


@evolve.register
def _(e: E.DeckShuffled, s: ThorgalState) -> ThorgalState:
    names = [d.name for d in s.decks]
    if e.deck not in names:
        from .state import Deck

        return s.model_copy(
            update={"decks": (*s.decks, Deck(name=e.deck, cards=e.cards))}
        )
    discard = () if e.from_discard else s.deck(e.deck).discard
    cards = e.cards if not e.from_discard else s.deck(e.deck).cards + e.cards
    return _deck(s, e.deck, cards=cards, discard=discard)


@evolve.register
def _(e: E.CardsDrawn, s: ThorgalState) -> ThorgalState:
    deck = s.deck(e.deck)
    s = _deck(s, e.deck, cards=deck.cards[len(e.cards) :])
    if e.to == "terrain":
        return s.model_copy(update={"terrain": s.terrain + e.cards})
    if e.to == "display":
        return s.model_copy(update={"display": s.display + e.cards})
    if e.to == "event":
        if s.active_event:
            s = _deck(
                s,
                load(s.content).event(s.active_event).deck,
                discard=s.deck(load(s.content).event(s.active_event).deck).discard
                + (s.active_event,),
            )
        return s.model_copy(update={"active_event": e.cards[-1]})
    return s


@evolve.register
def _(e: E.CardDiscarded, s: ThorgalState) -> ThorgalState:
    if e.source == "display":
        d = list(s.display)
        d.remove(e.card)
        s = s.model_copy(update={"display": tuple(d)})
    return _deck(s, e.deck, discard=s.deck(e.deck).discard + (e.card,))


@evolve.register
def _(e: E.TasksDropped, s: ThorgalState) -> ThorgalState:
    return s  # the stack lives in ``decide``; the next stop records what is left


@evolve.register
def _(e: E.ChoiceOffered, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"pending": e.pending, "tasks": e.tasks})


@evolve.register
def _(e: E.ChoiceMade, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"pending": None})


@evolve.register
def _(e: E.TurnBegan, s: ThorgalState) -> ThorgalState:
    return s.model_copy(
        update={"phase": "action", "turn": e.turn, "round": e.round, "tasks": ()}
    )


@evolve.register
def _(e: E.ChipPlaced, s: ThorgalState) -> ThorgalState:
    chips = list(s.chips)
    chips[e.chip] = Chip(slot=e.slot, active=False)
    taken = s.turns_taken
    while len(taken) < s.round:
        taken = taken + (0,)
    taken = taken[:-1] + (taken[-1] + 1,)
    return s.model_copy(
        update={"chips": tuple(chips), "phase": "resolve", "turns_taken": taken}
    )


@evolve.register
def _(e: E.ActionPrepared, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"act": e.act})


@evolve.register
def _(e: E.ActionEnded, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"act": None})


@evolve.register
def _(e: E.CharacterMoved, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, area=e.area)


@evolve.register
def _(e: E.GoodsGained, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, goods=_goods(s.hero(e.seat).goods, e.good, e.n))


@evolve.register
def _(e: E.GoodsSpent, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, goods=_goods(s.hero(e.seat).goods, e.good, -e.n))


@evolve.register
def _(e: E.WoundPlaced, s: ThorgalState) -> ThorgalState:
    h = s.hero(e.seat)
    return _hero(s, e.seat, wounds=h.wounds + (Tile(shape=e.shape, cells=e.cells),))


@evolve.register
def _(e: E.WoundRolled, s: ThorgalState) -> ThorgalState:
    return s  # the Wound to place follows as a question (``ChoiceOffered``)


@evolve.register
def _(e: E.WoundHealed, s: ThorgalState) -> ThorgalState:
    w = s.hero(e.seat).wounds
    return _hero(s, e.seat, wounds=w[: e.index] + w[e.index + 1 :])


@evolve.register
def _(e: E.ThreatsChanged, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, threats=e.threats)


@evolve.register
def _(e: E.ExperienceGained, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, **{f"{e.track}_level": e.level})


@evolve.register
def _(e: E.ItemGained, s: ThorgalState) -> ThorgalState:
    if e.source == "display":
        d = list(s.display)
        d.remove(e.item)
        s = s.model_copy(update={"display": tuple(d)})
    elif e.source == "deck":
        s = _deck(s, "items", cards=s.deck("items").cards[1:])
    return _hero(s, e.seat, items=s.hero(e.seat).items + (e.item,))


@evolve.register
def _(e: E.ItemUsed, s: ThorgalState) -> ThorgalState:
    items = list(s.hero(e.seat).items)
    items.remove(e.item)
    s = _hero(s, e.seat, items=tuple(items))
    return _deck(s, "items", discard=s.deck("items").discard + (e.item,))


@evolve.register
def _(e: E.SkillUsed, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, skill_active=False, skill_round=e.round)


@evolve.register
def _(e: E.SkillRefreshed, s: ThorgalState) -> ThorgalState:
    return _hero(s, e.seat, skill_active=True)


@evolve.register
def _(e: E.RoundAdvanced, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"round": e.round, "phase": "resolve"})


@evolve.register
def _(e: E.ChipsFlipped, s: ThorgalState) -> ThorgalState:
    return s.model_copy(
        update={"chips": tuple(c.model_copy(update={"active": True}) for c in s.chips)}
    )


@evolve.register
def _(e: E.FirstPlayerPassed, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"first": e.first})


@evolve.register
def _(e: E.AdventureEnded, s: ThorgalState) -> ThorgalState:
    return s.model_copy(
        update={
            "phase": "over",
            "result": "won" if e.won else "lost",
            "reason": e.reason,
            "pending": None,
            "tasks": (),
        }
    )


# ------------------------------------------------ the table: Journey path,
# Collect tokens, Locations, Combat and cards


@evolve.register
def _(e: E.JourneyTilePlaced, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"path": s.path + (Tile(shape=e.shape, cells=e.cells),)})


@evolve.register
def _(e: E.CollectTokenPlaced, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"collect_tokens": s.collect_tokens + (e.cell,)})


@evolve.register
def _(e: E.CollectTokensDiscarded, s: ThorgalState) -> ThorgalState:
    keep = tuple(c for c in s.collect_tokens if c not in e.cells)
    return s.model_copy(update={"collect_tokens": keep})


@evolve.register
def _(e: E.GoodsAssigned, s: ThorgalState) -> ThorgalState:
    s = _hero(s, e.from_seat, goods=_goods(s.hero(e.from_seat).goods, e.good, -1))
    return _site(s, e.location, assigned=_goods(s.site(e.location).assigned, e.good, 1))


@evolve.register
def _(e: E.AssignedGoodsDiscarded, s: ThorgalState) -> ThorgalState:
    left = tuple(a - b for a, b in zip(s.site(e.location).assigned, e.goods))
    return _site(s, e.location, assigned=left)


@evolve.register
def _(e: E.EnemiesChanged, s: ThorgalState) -> ThorgalState:
    return _site(s, e.location, enemies=e.enemies)


@evolve.register
def _(e: E.LocationMarked, s: ThorgalState) -> ThorgalState:
    site = s.site(e.location)
    if e.token == "cost":
        return _site(
            s,
            e.location,
            cost_tokens=site.cost_tokens + 1,
            extra_cost=_goods(site.extra_cost, e.good, 1),
        )
    field = {"blockade": "blockade", "cover": "cover", "entry": "entry_token"}[e.token]
    return _site(s, e.location, **{field: True})


@evolve.register
def _(e: E.CombatBegan, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"combat": e.combat})


def _combat(s: ThorgalState, **update: Any) -> ThorgalState:
    assert s.combat is not None
    return s.model_copy(update={"combat": s.combat.model_copy(update=update)})


@evolve.register
def _(e: E.DiceRolled, s: ThorgalState) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, faces=e.faces, rolled=True, critical=(False,) * len(e.faces))


@evolve.register
def _(e: E.DieUpgraded, s: ThorgalState) -> ThorgalState:
    assert s.combat is not None
    d = list(s.combat.dice)
    d[e.index] = e.colour
    return _combat(s, dice=tuple(d))


@evolve.register
def _(e: E.DieAdded, s: ThorgalState) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, dice=s.combat.dice + (e.colour,))


@evolve.register
def _(e: E.DieRerolled, s: ThorgalState) -> ThorgalState:
    assert s.combat is not None
    f = list(s.combat.faces)
    f[e.index] = e.face
    return _combat(s, faces=tuple(f))


@evolve.register
def _(e: E.CriticalActivated, s: ThorgalState) -> ThorgalState:
    assert s.combat is not None
    c = list(s.combat.critical)
    c[e.index] = True
    return _combat(s, critical=tuple(c))


@evolve.register
def _(e: E.CombatTilePlaced, s: ThorgalState) -> ThorgalState:
    assert s.combat is not None
    left = list(s.combat.left)
    left.remove(e.shape)
    return _combat(
        s,
        placed=s.combat.placed + (Tile(shape=e.shape, cells=e.cells),),
        left=tuple(left),
    )


@evolve.register
def _(e: E.CombatTileDropped, s: ThorgalState) -> ThorgalState:
    return _combat(s, left=())


@evolve.register
def _(e: E.CombatEnded, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"combat": None})


@evolve.register
def _(e: E.EntryRead, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"entries_read": s.entries_read + (e.entry,)})


@evolve.register
def _(e: E.SidePlotChosen, s: ThorgalState) -> ThorgalState:
    return s


@evolve.register
def _(e: E.ActionCardSwapped, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"row": e.row})


@evolve.register
def _(e: E.SpecialCardGained, s: ThorgalState) -> ThorgalState:
    return s.model_copy(update={"specials": s.specials + (e.card,)})
