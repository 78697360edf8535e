"""``evolve``: apply one event to the state, with no rule checks and no chance.

Setup, decks, questions, turns and characters are here; the table (the
Journey path, Collect tokens, Locations, Combat and cards) is in
:mod:`.evolve_board`, whose handlers are included into this one table
explicitly, so the module stays under ~300 lines.  A card or
tile leaving a zone (the Item display, a hand of Items, a Combat card's
tiles) is removed with :func:`~domain.games.kit.without_one`: the rules only
emit such an event for a card that is there, so a missing one is a bug that
replay must not hide (as the former ``list.remove`` did).
"""

from __future__ import annotations

from typing import Any

from domain.games.kit import Evolver, replace_where, replaced_at, with_seat, without_one

from . import events as ev
from .content import add_goods, load
from .evolve_board import board
from .state import Chip, Deck, Hero, Site, ThorgalState, Tile


def _deck(state: ThorgalState, name: str, **update: Any) -> ThorgalState:
    decks = replace_where(state.decks, lambda deck: deck.name == name, **update)
    return state.model_copy(update={"decks": decks})


evolve = Evolver[ThorgalState]("thorgal").include(board)
"""``evolve(state, event)``: the state after ``event``; :class:`TypeError` if unknown.

One table for every event: the handlers below, plus the table's (Journey
path, Collect tokens, Locations, Combat and cards) from :mod:`.evolve_board`.
"""


@evolve.on(ev.AdventureStarted)
def _(s: ThorgalState, e: ev.AdventureStarted) -> ThorgalState:
    c = load(s.content)
    heroes = []
    for seat, cid in enumerate(e.characters):
        ch = c.character(cid)
        goods: tuple[int, ...] = (0,) * 6
        for g in ch.goods:
            goods = add_goods(goods, g, 1)
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


@evolve.on(ev.DeckShuffled)
def _(s: ThorgalState, e: ev.DeckShuffled) -> ThorgalState:
    names = [d.name for d in s.decks]
    if e.deck not in names:
        return s.model_copy(
            update={"decks": (*s.decks, Deck(name=e.deck, cards=e.cards))}
        )
    discard = () if e.from_discard else s.deck(e.deck).discard
    cards = e.cards if not e.from_discard else s.deck(e.deck).cards + e.cards
    return _deck(s, e.deck, cards=cards, discard=discard)


@evolve.on(ev.CardsDrawn)
def _(s: ThorgalState, e: ev.CardsDrawn) -> ThorgalState:
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


@evolve.on(ev.CardDiscarded)
def _(s: ThorgalState, e: ev.CardDiscarded) -> ThorgalState:
    if e.source == "display":
        s = s.model_copy(update={"display": without_one(s.display, e.card)})
    return _deck(s, e.deck, discard=s.deck(e.deck).discard + (e.card,))


@evolve.on(ev.TasksDropped)
def _(s: ThorgalState, e: ev.TasksDropped) -> ThorgalState:
    return s  # the stack lives in ``decide``; the next stop records what is left


evolve.records(ev.ChoiceOffered, pending="pending", tasks="tasks")
evolve.records(ev.ChoiceMade, {"pending": None})


@evolve.on(ev.TurnBegan)
def _(s: ThorgalState, e: ev.TurnBegan) -> ThorgalState:
    return s.model_copy(
        update={"phase": "action", "turn": e.turn, "round": e.round, "tasks": ()}
    )


@evolve.on(ev.ChipPlaced)
def _(s: ThorgalState, e: ev.ChipPlaced) -> ThorgalState:
    chips = replaced_at(s.chips, e.chip, Chip(slot=e.slot, active=False))
    taken = s.turns_taken
    while len(taken) < s.round:
        taken = taken + (0,)
    taken = taken[:-1] + (taken[-1] + 1,)
    return s.model_copy(
        update={"chips": chips, "phase": "resolve", "turns_taken": taken}
    )


evolve.records(ev.ActionPrepared, act="act")


evolve.records(ev.ActionEnded, {"act": None})


evolve.records_at_seat(ev.CharacterMoved, "heroes", area="area")


@evolve.on(ev.GoodsGained)
def _(s: ThorgalState, e: ev.GoodsGained) -> ThorgalState:
    return with_seat(
        s, e.seat, "heroes", goods=add_goods(s.hero(e.seat).goods, e.good, e.n)
    )


@evolve.on(ev.GoodsSpent)
def _(s: ThorgalState, e: ev.GoodsSpent) -> ThorgalState:
    return with_seat(
        s, e.seat, "heroes", goods=add_goods(s.hero(e.seat).goods, e.good, -e.n)
    )


@evolve.on(ev.WoundPlaced)
def _(s: ThorgalState, e: ev.WoundPlaced) -> ThorgalState:
    h = s.hero(e.seat)
    return with_seat(
        s, e.seat, "heroes", wounds=h.wounds + (Tile(shape=e.shape, cells=e.cells),)
    )


@evolve.on(ev.WoundRolled)
def _(s: ThorgalState, e: ev.WoundRolled) -> ThorgalState:
    return s  # the Wound to place follows as a question (``ChoiceOffered``)


@evolve.on(ev.WoundHealed)
def _(s: ThorgalState, e: ev.WoundHealed) -> ThorgalState:
    w = s.hero(e.seat).wounds
    return with_seat(s, e.seat, "heroes", wounds=w[: e.index] + w[e.index + 1 :])


evolve.records_at_seat(ev.ThreatsChanged, "heroes", threats="threats")


@evolve.on(ev.ExperienceGained)
def _(s: ThorgalState, e: ev.ExperienceGained) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", **{f"{e.track}_level": e.level})


@evolve.on(ev.ItemGained)
def _(s: ThorgalState, e: ev.ItemGained) -> ThorgalState:
    if e.source == "display":
        s = s.model_copy(update={"display": without_one(s.display, e.item)})
    elif e.source == "deck":
        s = _deck(s, "items", cards=s.deck("items").cards[1:])
    return with_seat(s, e.seat, "heroes", items=s.hero(e.seat).items + (e.item,))


@evolve.on(ev.ItemUsed)
def _(s: ThorgalState, e: ev.ItemUsed) -> ThorgalState:
    s = with_seat(s, e.seat, "heroes", items=without_one(s.hero(e.seat).items, e.item))
    return _deck(s, "items", discard=s.deck("items").discard + (e.item,))


@evolve.on(ev.SkillUsed)
def _(s: ThorgalState, e: ev.SkillUsed) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", skill_active=False, skill_round=e.round)


@evolve.on(ev.SkillRefreshed)
def _(s: ThorgalState, e: ev.SkillRefreshed) -> ThorgalState:
    return with_seat(s, e.seat, "heroes", skill_active=True)


evolve.records(ev.RoundAdvanced, {"phase": "resolve"}, round="round")


@evolve.on(ev.ChipsFlipped)
def _(s: ThorgalState, e: ev.ChipsFlipped) -> ThorgalState:
    return s.model_copy(
        update={"chips": tuple(c.model_copy(update={"active": True}) for c in s.chips)}
    )


evolve.records(ev.FirstPlayerPassed, first="first")


@evolve.on(ev.AdventureEnded)
def _(s: ThorgalState, e: ev.AdventureEnded) -> ThorgalState:
    return s.model_copy(
        update={
            "phase": "over",
            "result": "won" if e.won else "lost",
            "reason": e.reason,
            "pending": None,
            "tasks": (),
        }
    )
