"""``evolve``: apply one event to the state, with no rule checks and no chance.

Setup, decks, questions, turns and characters first; then the table:
the Journey path, Collect tokens, Locations, Combat and cards.  A card or
tile leaving a zone (the Item display, a hand of Items, a Combat card's
tiles) is removed with :func:`~domain.games.kit.without_one`: the rules only
emit such an event for a card that is there, so a missing one is a bug that
replay must not hide (as the former ``list.remove`` did).
"""

from __future__ import annotations

from typing import Any

from domain.games.kit import Evolver, replace_where, with_seat, without_all, without_one

from . import events as E
from .content import GOODS, load
from .state import Chip, Deck, Hero, Site, ThorgalState, Tile


def _site(state: ThorgalState, lid: str, **update: Any) -> ThorgalState:
    sites = replace_where(state.sites, lambda site: site.id == lid, **update)
    return state.model_copy(update={"sites": sites})


def _goods(goods: tuple[int, ...], good: str, delta: int) -> tuple[int, ...]:
    i = GOODS.index(good)
    return goods[:i] + (goods[i] + delta,) + goods[i + 1 :]


def _deck(state: ThorgalState, name: str, **update: Any) -> ThorgalState:
    decks = replace_where(state.decks, lambda deck: deck.name == name, **update)
    return state.model_copy(update={"decks": decks})


evolve = Evolver[ThorgalState]("thorgal")
"""``evolve(state, event)``: the state after ``event``; :class:`TypeError` if unknown."""


@evolve.on(E.AdventureStarted)
def _(s: ThorgalState, e: E.AdventureStarted) -> ThorgalState:
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


@evolve.on(E.DeckShuffled)
def _(s: ThorgalState, e: E.DeckShuffled) -> ThorgalState:
    names = [d.name for d in s.decks]
    if e.deck not in names:
        return s.model_copy(
            update={"decks": (*s.decks, Deck(name=e.deck, cards=e.cards))}
        )
    discard = () if e.from_discard else s.deck(e.deck).discard
    cards = e.cards if not e.from_discard else s.deck(e.deck).cards + e.cards
    return _deck(s, e.deck, cards=cards, discard=discard)


@evolve.on(E.CardsDrawn)
def _(s: ThorgalState, e: E.CardsDrawn) -> ThorgalState:
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


@evolve.on(E.CardDiscarded)
def _(s: ThorgalState, e: E.CardDiscarded) -> ThorgalState:
    if e.source == "display":
        s = s.model_copy(update={"display": without_one(s.display, e.card)})
    return _deck(s, e.deck, discard=s.deck(e.deck).discard + (e.card,))


@evolve.on(E.TasksDropped)
def _(s: ThorgalState, e: E.TasksDropped) -> ThorgalState:
    return s  # the stack lives in ``decide``; the next stop records what is left


@evolve.on(E.ChoiceOffered)
def _(s: ThorgalState, e: E.ChoiceOffered) -> ThorgalState:
    return s.model_copy(update={"pending": e.pending, "tasks": e.tasks})


@evolve.on(E.ChoiceMade)
def _(s: ThorgalState, e: E.ChoiceMade) -> ThorgalState:
    return s.model_copy(update={"pending": None})


@evolve.on(E.TurnBegan)
def _(s: ThorgalState, e: E.TurnBegan) -> ThorgalState:
    return s.model_copy(
        update={"phase": "action", "turn": e.turn, "round": e.round, "tasks": ()}
    )


@evolve.on(E.ChipPlaced)
def _(s: ThorgalState, e: E.ChipPlaced) -> ThorgalState:
    chips = list(s.chips)
    chips[e.chip] = Chip(slot=e.slot, active=False)
    taken = s.turns_taken
    while len(taken) < s.round:
        taken = taken + (0,)
    taken = taken[:-1] + (taken[-1] + 1,)
    return s.model_copy(
        update={"chips": tuple(chips), "phase": "resolve", "turns_taken": taken}
    )


@evolve.on(E.ActionPrepared)
def _(s: ThorgalState, e: E.ActionPrepared) -> ThorgalState:
    return s.model_copy(update={"act": e.act})


@evolve.on(E.ActionEnded)
def _(s: ThorgalState, e: E.ActionEnded) -> ThorgalState:
    return s.model_copy(update={"act": None})


@evolve.on(E.CharacterMoved)
def _(s: ThorgalState, e: E.CharacterMoved) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", area=e.area)


@evolve.on(E.GoodsGained)
def _(s: ThorgalState, e: E.GoodsGained) -> ThorgalState:
    return with_seat(
        s, e.seat, "heroes", goods=_goods(s.hero(e.seat).goods, e.good, e.n)
    )


@evolve.on(E.GoodsSpent)
def _(s: ThorgalState, e: E.GoodsSpent) -> ThorgalState:
    return with_seat(
        s, e.seat, "heroes", goods=_goods(s.hero(e.seat).goods, e.good, -e.n)
    )


@evolve.on(E.WoundPlaced)
def _(s: ThorgalState, e: E.WoundPlaced) -> ThorgalState:
    h = s.hero(e.seat)
    return with_seat(
        s, e.seat, "heroes", wounds=h.wounds + (Tile(shape=e.shape, cells=e.cells),)
    )


@evolve.on(E.WoundRolled)
def _(s: ThorgalState, e: E.WoundRolled) -> ThorgalState:
    return s  # the Wound to place follows as a question (``ChoiceOffered``)


@evolve.on(E.WoundHealed)
def _(s: ThorgalState, e: E.WoundHealed) -> ThorgalState:
    w = s.hero(e.seat).wounds
    return with_seat(s, e.seat, "heroes", wounds=w[: e.index] + w[e.index + 1 :])


@evolve.on(E.ThreatsChanged)
def _(s: ThorgalState, e: E.ThreatsChanged) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", threats=e.threats)


@evolve.on(E.ExperienceGained)
def _(s: ThorgalState, e: E.ExperienceGained) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", **{f"{e.track}_level": e.level})


@evolve.on(E.ItemGained)
def _(s: ThorgalState, e: E.ItemGained) -> ThorgalState:
    if e.source == "display":
        s = s.model_copy(update={"display": without_one(s.display, e.item)})
    elif e.source == "deck":
        s = _deck(s, "items", cards=s.deck("items").cards[1:])
    return with_seat(s, e.seat, "heroes", items=s.hero(e.seat).items + (e.item,))


@evolve.on(E.ItemUsed)
def _(s: ThorgalState, e: E.ItemUsed) -> ThorgalState:
    s = with_seat(s, e.seat, "heroes", items=without_one(s.hero(e.seat).items, e.item))
    return _deck(s, "items", discard=s.deck("items").discard + (e.item,))


@evolve.on(E.SkillUsed)
def _(s: ThorgalState, e: E.SkillUsed) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", skill_active=False, skill_round=e.round)


@evolve.on(E.SkillRefreshed)
def _(s: ThorgalState, e: E.SkillRefreshed) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", skill_active=True)


@evolve.on(E.RoundAdvanced)
def _(s: ThorgalState, e: E.RoundAdvanced) -> ThorgalState:
    return s.model_copy(update={"round": e.round, "phase": "resolve"})


@evolve.on(E.ChipsFlipped)
def _(s: ThorgalState, e: E.ChipsFlipped) -> ThorgalState:
    return s.model_copy(
        update={"chips": tuple(c.model_copy(update={"active": True}) for c in s.chips)}
    )


@evolve.on(E.FirstPlayerPassed)
def _(s: ThorgalState, e: E.FirstPlayerPassed) -> ThorgalState:
    return s.model_copy(update={"first": e.first})


@evolve.on(E.AdventureEnded)
def _(s: ThorgalState, e: E.AdventureEnded) -> ThorgalState:
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


@evolve.on(E.JourneyTilePlaced)
def _(s: ThorgalState, e: E.JourneyTilePlaced) -> ThorgalState:
    return s.model_copy(update={"path": s.path + (Tile(shape=e.shape, cells=e.cells),)})


@evolve.on(E.CollectTokenPlaced)
def _(s: ThorgalState, e: E.CollectTokenPlaced) -> ThorgalState:
    return s.model_copy(update={"collect_tokens": s.collect_tokens + (e.cell,)})


@evolve.on(E.CollectTokensDiscarded)
def _(s: ThorgalState, e: E.CollectTokensDiscarded) -> ThorgalState:
    keep = without_all(s.collect_tokens, e.cells)
    return s.model_copy(update={"collect_tokens": keep})


@evolve.on(E.GoodsAssigned)
def _(s: ThorgalState, e: E.GoodsAssigned) -> ThorgalState:
    s = with_seat(
        s, e.from_seat, "heroes", goods=_goods(s.hero(e.from_seat).goods, e.good, -1)
    )
    return _site(s, e.location, assigned=_goods(s.site(e.location).assigned, e.good, 1))


@evolve.on(E.AssignedGoodsDiscarded)
def _(s: ThorgalState, e: E.AssignedGoodsDiscarded) -> ThorgalState:
    left = tuple(a - b for a, b in zip(s.site(e.location).assigned, e.goods))
    return _site(s, e.location, assigned=left)


@evolve.on(E.EnemiesChanged)
def _(s: ThorgalState, e: E.EnemiesChanged) -> ThorgalState:
    return _site(s, e.location, enemies=e.enemies)


@evolve.on(E.LocationMarked)
def _(s: ThorgalState, e: E.LocationMarked) -> ThorgalState:
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


@evolve.on(E.CombatBegan)
def _(s: ThorgalState, e: E.CombatBegan) -> ThorgalState:
    return s.model_copy(update={"combat": e.combat})


def _combat(s: ThorgalState, **update: Any) -> ThorgalState:
    assert s.combat is not None
    return s.model_copy(update={"combat": s.combat.model_copy(update=update)})


@evolve.on(E.DiceRolled)
def _(s: ThorgalState, e: E.DiceRolled) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, faces=e.faces, rolled=True, critical=(False,) * len(e.faces))


@evolve.on(E.DieUpgraded)
def _(s: ThorgalState, e: E.DieUpgraded) -> ThorgalState:
    assert s.combat is not None
    d = list(s.combat.dice)
    d[e.index] = e.colour
    return _combat(s, dice=tuple(d))


@evolve.on(E.DieAdded)
def _(s: ThorgalState, e: E.DieAdded) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, dice=s.combat.dice + (e.colour,))


@evolve.on(E.DieRerolled)
def _(s: ThorgalState, e: E.DieRerolled) -> ThorgalState:
    assert s.combat is not None
    f = list(s.combat.faces)
    f[e.index] = e.face
    return _combat(s, faces=tuple(f))


@evolve.on(E.CriticalActivated)
def _(s: ThorgalState, e: E.CriticalActivated) -> ThorgalState:
    assert s.combat is not None
    c = list(s.combat.critical)
    c[e.index] = True
    return _combat(s, critical=tuple(c))


@evolve.on(E.CombatTilePlaced)
def _(s: ThorgalState, e: E.CombatTilePlaced) -> ThorgalState:
    assert s.combat is not None
    return _combat(
        s,
        placed=s.combat.placed + (Tile(shape=e.shape, cells=e.cells),),
        left=without_one(s.combat.left, e.shape),
    )


@evolve.on(E.CombatTileDropped)
def _(s: ThorgalState, e: E.CombatTileDropped) -> ThorgalState:
    return _combat(s, left=())


@evolve.on(E.CombatEnded)
def _(s: ThorgalState, e: E.CombatEnded) -> ThorgalState:
    return s.model_copy(update={"combat": None})


@evolve.on(E.EntryRead)
def _(s: ThorgalState, e: E.EntryRead) -> ThorgalState:
    return s.model_copy(update={"entries_read": s.entries_read + (e.entry,)})


@evolve.on(E.SidePlotChosen)
def _(s: ThorgalState, e: E.SidePlotChosen) -> ThorgalState:
    return s


@evolve.on(E.ActionCardSwapped)
def _(s: ThorgalState, e: E.ActionCardSwapped) -> ThorgalState:
    return s.model_copy(update={"row": e.row})


@evolve.on(E.SpecialCardGained)
def _(s: ThorgalState, e: E.SpecialCardGained) -> ThorgalState:
    return s.model_copy(update={"specials": s.specials + (e.card,)})
