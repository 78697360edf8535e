"""Swiss-FFA: multi-player tables grouped by score, for free-for-all games.

Why a separate pairing system: with 3-5 players per table there is no
"opponent" to avoid, only a set of opponents, and no perfect-matching search
to lean on.  So the rules are simpler and written down here:

* **Table sizes.**  Seat everyone at ``ceil(n / table_size)`` tables whose
  sizes differ by at most one (7 players at tables of 4 -> 4 + 3), largest
  tables first.  When that would put fewer than ``min_size`` players at a
  table (the game's minimum, and never below 2), the fewest possible players
  get a bye instead (:func:`table_sizes`).
* **Byes** go to the lowest-ranked players among those with the fewest byes so
  far, exactly as in 2-player Swiss.
* **Grouping.**  Players are ranked by score, then seed order.  Tables fill
  top-down: each table starts with the best-ranked player left, and each
  further seat goes to whoever has met the fewest of the table so far, chosen
  from a window of the next ``table_size`` players (so a player moves down at
  most about one table to avoid a repeat, and score groups stay together).
  A final pass swaps players between *adjacent* tables while that strictly
  lowers the number of repeated meetings.
* **Seats** follow :func:`domain.tournament.pairing.seat_order`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from domain.contract.core import InvalidCommandError
from domain.tournament.pairing import (
    Pairing,
    PlayerId,
    Table,
    bye_candidates,
    meetings,
    rank_order,
    seat_order,
)

if TYPE_CHECKING:
    from collections import Counter

MAX_SWAP_PASSES = 8


def table_sizes(
    count: int, table_size: int, min_size: int = 2
) -> tuple[tuple[int, ...], int]:
    """Balanced table sizes for ``count`` players, and how many get a bye.

    >>> table_sizes(7, 4)
    ((4, 3), 0)
    >>> table_sizes(7, 3)
    ((3, 2, 2), 0)
    >>> table_sizes(5, 4, min_size=3)
    ((4,), 1)

    :raises InvalidCommandError: when ``min_size`` exceeds ``table_size``.
    """
    min_size = max(2, min_size)
    if not min_size <= table_size:
        raise InvalidCommandError("table_size must be at least the minimum table size")
    for byes in range(count + 1):
        seated = count - byes
        if seated == 0:
            break
        tables = -(-seated // table_size)
        base, extra = divmod(seated, tables)
        if base >= min_size:
            return (base + 1,) * extra + (base,) * (tables - extra), byes
    return (), count


def ffa_pairing(
    players: Sequence[PlayerId],
    scores: Mapping[PlayerId, float],
    table_size: int,
    history: Sequence[Table] = (),
    byes: Iterable[PlayerId] = (),
    min_size: int = 2,
) -> Pairing:
    """Group the active ``players`` (seed order) into score-ranked tables.

    The top table gets the top scorers; with no history, seats go in seed order:

    >>> ffa_pairing(list("abcdef"), {"f": 4, "e": 3}, 3)
    Pairing(tables=(('a', 'e', 'f'), ('b', 'c', 'd')), byes=())

    :raises InvalidCommandError: when a player is listed twice or sizes clash.
    """
    if len(set(players)) != len(players):
        raise InvalidCommandError("players must be distinct")
    order = rank_order(players, scores)
    sizes, bye_count = table_sizes(len(order), table_size, min_size)
    out = set(bye_candidates_many(order, tuple(byes), bye_count))
    remaining = [p for p in order if p not in out]
    met = meetings(history)
    tables = _fill(remaining, sizes, table_size, met)
    _improve(tables, met)
    return Pairing(
        tables=tuple(seat_order(t, history, players) for t in tables),
        byes=tuple(p for p in reversed(order) if p in out),
    )


def bye_candidates_many(
    order: Sequence[PlayerId], byes: Sequence[PlayerId], count: int
) -> list[PlayerId]:
    """Pick ``count`` bye players one at a time by :func:`bye_candidates`.

    >>> bye_candidates_many(["a", "b", "c"], ["c"], 2)
    ['b', 'a']
    """
    chosen: list[PlayerId] = []
    history = list(byes)
    for _ in range(count):
        pool = [p for p in order if p not in chosen]
        pick = bye_candidates(pool, history)[0]
        chosen.append(pick)
        history.append(pick)
    return chosen


def _repeats(
    member: PlayerId, table: Iterable[PlayerId], met: Counter[frozenset[str]]
) -> int:
    return sum(met[frozenset((member, other))] for other in table if other != member)


def _fill(
    remaining: list[PlayerId],
    sizes: Sequence[int],
    window: int,
    met: Counter[frozenset[str]],
) -> list[list[PlayerId]]:
    tables: list[list[PlayerId]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            pool = remaining[:window]
            best = min(
                range(len(pool)), key=lambda i: (_repeats(pool[i], table, met), i)
            )
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def _table_cost(table: Sequence[PlayerId], met: Counter[frozenset[str]]) -> int:
    return sum(_repeats(p, table[i + 1 :], met) for i, p in enumerate(table))


def _improve(tables: list[list[PlayerId]], met: Counter[frozenset[str]]) -> None:
    """Swap players between adjacent tables while repeats strictly drop."""
    for _ in range(MAX_SWAP_PASSES):
        improved = False
        for upper, lower in itertools.pairwise(tables):
            before = _table_cost(upper, met) + _table_cost(lower, met)
            for i in range(len(upper)):
                for j in range(len(lower)):
                    upper[i], lower[j] = lower[j], upper[i]
                    after = _table_cost(upper, met) + _table_cost(lower, met)
                    if after < before:
                        before, improved = after, True
                    else:
                        upper[i], lower[j] = lower[j], upper[i]
        if not improved:
            return
