"""The six Land rewards and the end-of-game variety bonus, as printed.

Rewards are computed from the Realm *after* the card joined it ("including
this one"), which also covers the Pioneer, whose new Land is scored against
the Realm after the swap.
"""

from __future__ import annotations

from ..content import INITIATIVE, LANDS
from ..state import VaalbaraState

RIVER_CAP = 6


def count_type(realm: tuple[str, ...], land_type: str) -> int:
    return sum(1 for card in realm if LANDS[card].type == land_type)


def land_reward(
    state: VaalbaraState, seat: int, card: str, realm: tuple[str, ...]
) -> int:
    """VP for ``card`` joining ``seat``'s Realm, which is now ``realm``.

    >>> from ..content import PACK
    >>> forest = next(land for land in PACK.lands if land.type == "forest")
    >>> land_reward(None, 0, forest.id, (forest.id,)) == forest.value
    True
    """
    land = LANDS[card]
    kind = land.type
    if kind == "meadow":
        # 1 per Meadow in your Realm and your neighbours' Realms.
        neighbours = [state.players[n].realm for n in state.neighbours(seat)]
        return count_type(realm, "meadow") + sum(
            count_type(r, "meadow") for r in neighbours
        )
    if kind == "forest":
        return land.value or 0
    if kind == "mountain":
        # +10 on the 2nd Mountain, +20 more on the 4th.
        return {2: 10, 4: 20}.get(count_type(realm, "mountain"), 0)
    if kind == "field":
        return 2 * count_type(realm, "field")
    if kind == "village":
        return 2 * len({LANDS[c].type for c in realm})
    # River: initiative played this round, capped at 6, times the Rivers.
    initiative = INITIATIVE[state.revealed[seat]]
    return min(RIVER_CAP, initiative) * count_type(realm, "river")


def variety_bonus(realm: tuple[str, ...]) -> int:
    """End of game: +5 for 5 different Land types, +10 for all 6.

    >>> variety_bonus(())
    0
    """
    kinds = len({LANDS[c].type for c in realm})
    return {5: 5, 6: 10}.get(kinds, 0)
