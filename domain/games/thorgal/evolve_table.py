"""``evolve`` for the table: Journey path, Collect tokens, Locations, Combat, cards."""

from __future__ import annotations

from typing import Any

from . import events as E
from .evolve import _goods, _hero, _site, evolve
from .state import ThorgalState, Tile


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
