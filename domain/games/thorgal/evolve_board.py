"""The table half of Thorgal's ``evolve``: the Journey path, Collect tokens,
Locations, Combat and cards.

Why a module of its own: with the setup, deck, question, turn and character
handlers, one table passed the ~300-line guideline.  The handlers fill their
own :class:`~domain.games.kit.Evolver`, which :mod:`.evolve` includes
explicitly (``Evolver.include``) into the game's one table; nothing here is
registered by the side effect of an import.  A Combat card's tile leaving the
hand is removed with :func:`~domain.games.kit.without_one` (see :mod:`.evolve`).
"""

from __future__ import annotations

from typing import Any

from domain.games.kit import Evolver, replace_where, with_seat, without_all, without_one

from . import events as E
from .content import add_goods
from .state import ThorgalState, Tile


def _site(state: ThorgalState, lid: str, **update: Any) -> ThorgalState:
    sites = replace_where(state.sites, lambda site: site.id == lid, **update)
    return state.model_copy(update={"sites": sites})


board = Evolver[ThorgalState]("thorgal")
"""The table's handlers; only :mod:`.evolve` uses it, through ``include``."""


@board.on(E.JourneyTilePlaced)
def _(s: ThorgalState, e: E.JourneyTilePlaced) -> ThorgalState:
    return s.model_copy(update={"path": s.path + (Tile(shape=e.shape, cells=e.cells),)})


@board.on(E.CollectTokenPlaced)
def _(s: ThorgalState, e: E.CollectTokenPlaced) -> ThorgalState:
    return s.model_copy(update={"collect_tokens": s.collect_tokens + (e.cell,)})


@board.on(E.CollectTokensDiscarded)
def _(s: ThorgalState, e: E.CollectTokensDiscarded) -> ThorgalState:
    keep = without_all(s.collect_tokens, e.cells)
    return s.model_copy(update={"collect_tokens": keep})


@board.on(E.GoodsAssigned)
def _(s: ThorgalState, e: E.GoodsAssigned) -> ThorgalState:
    s = with_seat(
        s, e.from_seat, "heroes", goods=add_goods(s.hero(e.from_seat).goods, e.good, -1)
    )
    return _site(
        s, e.location, assigned=add_goods(s.site(e.location).assigned, e.good, 1)
    )


@board.on(E.AssignedGoodsDiscarded)
def _(s: ThorgalState, e: E.AssignedGoodsDiscarded) -> ThorgalState:
    left = tuple(a - b for a, b in zip(s.site(e.location).assigned, e.goods))
    return _site(s, e.location, assigned=left)


@board.on(E.EnemiesChanged)
def _(s: ThorgalState, e: E.EnemiesChanged) -> ThorgalState:
    return _site(s, e.location, enemies=e.enemies)


@board.on(E.LocationMarked)
def _(s: ThorgalState, e: E.LocationMarked) -> ThorgalState:
    site = s.site(e.location)
    if e.token == "cost":
        return _site(
            s,
            e.location,
            cost_tokens=site.cost_tokens + 1,
            extra_cost=add_goods(site.extra_cost, e.good, 1),
        )
    field = {"blockade": "blockade", "cover": "cover", "entry": "entry_token"}[e.token]
    return _site(s, e.location, **{field: True})


@board.on(E.CombatBegan)
def _(s: ThorgalState, e: E.CombatBegan) -> ThorgalState:
    return s.model_copy(update={"combat": e.combat})


def _combat(s: ThorgalState, **update: Any) -> ThorgalState:
    assert s.combat is not None
    return s.model_copy(update={"combat": s.combat.model_copy(update=update)})


@board.on(E.DiceRolled)
def _(s: ThorgalState, e: E.DiceRolled) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, faces=e.faces, rolled=True, critical=(False,) * len(e.faces))


@board.on(E.DieUpgraded)
def _(s: ThorgalState, e: E.DieUpgraded) -> ThorgalState:
    assert s.combat is not None
    d = list(s.combat.dice)
    d[e.index] = e.colour
    return _combat(s, dice=tuple(d))


@board.on(E.DieAdded)
def _(s: ThorgalState, e: E.DieAdded) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, dice=s.combat.dice + (e.colour,))


@board.on(E.DieRerolled)
def _(s: ThorgalState, e: E.DieRerolled) -> ThorgalState:
    assert s.combat is not None
    f = list(s.combat.faces)
    f[e.index] = e.face
    return _combat(s, faces=tuple(f))


@board.on(E.CriticalActivated)
def _(s: ThorgalState, e: E.CriticalActivated) -> ThorgalState:
    assert s.combat is not None
    c = list(s.combat.critical)
    c[e.index] = True
    return _combat(s, critical=tuple(c))


@board.on(E.CombatTilePlaced)
def _(s: ThorgalState, e: E.CombatTilePlaced) -> ThorgalState:
    assert s.combat is not None
    return _combat(
        s,
        placed=s.combat.placed + (Tile(shape=e.shape, cells=e.cells),),
        left=without_one(s.combat.left, e.shape),
    )


@board.on(E.CombatTileDropped)
def _(s: ThorgalState, e: E.CombatTileDropped) -> ThorgalState:
    return _combat(s, left=())


@board.on(E.CombatEnded)
def _(s: ThorgalState, e: E.CombatEnded) -> ThorgalState:
    return s.model_copy(update={"combat": None})


@board.on(E.EntryRead)
def _(s: ThorgalState, e: E.EntryRead) -> ThorgalState:
    return s.model_copy(update={"entries_read": s.entries_read + (e.entry,)})


@board.on(E.SidePlotChosen)
def _(s: ThorgalState, e: E.SidePlotChosen) -> ThorgalState:
    return s


@board.on(E.ActionCardSwapped)
def _(s: ThorgalState, e: E.ActionCardSwapped) -> ThorgalState:
    return s.model_copy(update={"row": e.row})


@board.on(E.SpecialCardGained)
def _(s: ThorgalState, e: E.SpecialCardGained) -> ThorgalState:
    return s.model_copy(update={"specials": s.specials + (e.card,)})
