"""Pairings for a round: round robin, Swiss, and score-grouped multi-player tables.

Why pure functions of explicit history: a tournament is an event-sourced
aggregate, so the pairing of round *k* must be recomputable from the events
alone (for audit, and so that ``plan_round`` can be called any number of times
before ``start_round`` records the result).  No function here reads a clock or
a global random generator; ties are broken by *seed order*, the order of the
``players`` argument (the tournament passes registration order).

Decisions (each is a choice among reasonable systems, written down here):

* **Round robin** uses the circle method: player 0 stays put, the others
  rotate one step per round.  An odd count adds a phantom, and whoever meets
  it has a bye, so ``n`` players play ``n - 1`` rounds (even ``n``) or ``n``
  rounds (odd ``n``) and every pair meets exactly once.
* **Swiss** (2-player tables) ranks players by score, then seed order, and
  pairs *top-down*: the best-ranked unpaired player meets the best-ranked
  opponent they have not met yet.  A backtracking search finds a complete
  pairing with no rematch when one exists; only when none exists does it allow
  the fewest rematches (counting a pair that met twice as two).  An odd count
  gives the bye to the lowest-ranked player who has had the fewest byes
  (normally: none), preferring a higher one over forcing a rematch.  A bye
  scores as a win (see :mod:`domain.tournament.standings`).
* **Swiss-FFA** lives in :mod:`domain.tournament.ffa`.
* **Seat order** (see :func:`seat_order`) puts first whoever has sat furthest
  back so far, so first seats rotate fairly; at a 2-player table it follows
  the FIDE colour rules (no third first or second seat running, a seat
  difference of at most 2, unless both players are bound the same way).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from domain.contract.core import InvalidCommandError, Model

if TYPE_CHECKING:
    from collections.abc import Collection

PlayerId: TypeAlias = str
"""A registered player's identity (the ledger's player id)."""

Table: TypeAlias = tuple[PlayerId, ...]
"""The players at one table, in seat order."""


class Pairing(Model):
    """One round's pairing: the tables (players in seat order) and the byes."""

    tables: tuple[Table, ...] = ()
    """Each table's players in seat order (seat 0 first)."""
    byes: tuple[PlayerId, ...] = ()
    """Players who sit this round out and score a bye."""

    @property
    def seated(self) -> tuple[PlayerId, ...]:
        """Every player at a table, table by table."""
        return tuple(p for table in self.tables for p in table)


# --------------------------------------------------------------------- history


def meetings(history: Iterable[Table]) -> Counter[frozenset[PlayerId]]:
    """How many times each pair of players has shared a table.

    >>> meetings([("a", "b"), ("b", "a", "c")])[frozenset({"a", "b"})]
    2
    """
    met: Counter[frozenset[PlayerId]] = Counter()
    for table in history:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[frozenset((a, b))] += 1
    return met


def rank_order(
    players: Sequence[PlayerId], scores: Mapping[PlayerId, float]
) -> list[PlayerId]:
    """Players by score (highest first), ties in seed order (``players``' order).

    >>> rank_order(["a", "b", "c"], {"c": 3, "b": 3})
    ['b', 'c', 'a']
    """
    seed = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (-scores.get(p, 0), seed[p]))


def bye_candidates(
    order: Sequence[PlayerId], byes: Iterable[PlayerId]
) -> list[PlayerId]:
    """Who may take the bye, best choice first: fewest byes so far, lowest rank.

    >>> bye_candidates(["a", "b", "c"], ["c"])
    ['b', 'a']
    """
    had = Counter(byes)
    fewest = min((had[p] for p in order), default=0)
    return [p for p in reversed(order) if had[p] == fewest]


def seat_order(
    table: Iterable[PlayerId],
    history: Iterable[Table],
    players: Sequence[PlayerId] = (),
) -> Table:
    """Order a table's players into seats, fairly and deterministically.

    Two players follow the FIDE colour rules (:func:`_colours`).  At a larger
    table, whoever has had seat 0 the fewest times sits first (so first seats
    rotate); then, for the remaining seats too, whoever has the largest total
    *lateness*, where each past game adds ``2 * seat - (size - 1)`` (negative
    in early seats, positive in late ones; integers, so exact); then whoever
    sat latest in their most recent game (so two-player colours alternate);
    then seed order (``players``; players not listed sort by id after them).

    >>> seat_order(["a", "b"], [("a", "b")], ["a", "b"])
    ('b', 'a')
    """
    members = tuple(table)
    if len(members) == 2:
        return _colours(members, history, players)
    firsts: Counter[PlayerId] = Counter()
    late: Counter[PlayerId] = Counter()
    recent: dict[PlayerId, int] = {}
    wanted = set(members)
    for past in history:
        for seat, p in enumerate(past):
            if p in wanted:
                firsts[p] += seat == 0
                late[p] += 2 * seat - (len(past) - 1)
                recent[p] = 2 * seat - (len(past) - 1)
    seed = {p: i for i, p in enumerate(players)}
    return tuple(
        sorted(
            members,
            key=lambda p: (
                firsts[p],
                -late[p],
                -recent.get(p, 0),
                seed.get(p, len(seed)),
                p,
            ),
        )
    )


def _colours(
    members: tuple[PlayerId, ...],
    history: Iterable[Table],
    players: Sequence[PlayerId],
) -> Table:
    """Seat 0 ("white") of a 2-player table, as the FIDE Dutch colour rules give it.

    First a player who must have seat 0 gets it: their seat difference
    (games first minus games second) is -2 or less, or their last two
    2-player games were both second (the mirror for one who must sit
    second); then the lower seat difference sits first; then whoever sat
    second in their latest game; then seed order.  Why: measured beside a
    FIDE Dutch engine (``bench/pairing_dutch.py``), ranking first-seat
    counts before recent history let a player sit first three rounds
    running.

    >>> _colours(("a", "b"), [("a", "c"), ("a", "d")], ["a", "b"])
    ('b', 'a')
    """
    diff: Counter[PlayerId] = Counter()
    seats: dict[PlayerId, list[int]] = {p: [] for p in members}
    for past in history:
        if len(past) != 2:
            continue
        for seat, p in enumerate(past):
            if p in seats:
                diff[p] += 1 - 2 * seat
                seats[p].append(seat)

    def must(p: PlayerId) -> int:
        """1: must sit first; -1: must sit second; 0: free."""
        last = seats[p][-2:]
        if diff[p] <= -2 or last == [1, 1]:
            return 1
        if diff[p] >= 2 or last == [0, 0]:
            return -1
        return 0

    seed = {p: i for i, p in enumerate(players)}
    return tuple(
        sorted(
            members,
            key=lambda p: (
                -must(p),
                diff[p],
                -(seats[p][-1] if seats[p] else 0),
                seed.get(p, len(seed)),
                p,
            ),
        )
    )


def _check_players(players: Sequence[PlayerId]) -> None:
    if len(set(players)) != len(players):
        raise InvalidCommandError("players must be distinct")


# --------------------------------------------------------------------- round robin


def round_robin_schedule(players: Sequence[PlayerId]) -> tuple[Pairing, ...]:
    """Every round of a round robin by the circle method (2-player tables).

    Seats follow :func:`seat_order` over the schedule so far, which alternates
    who moves first.

    >>> [p.tables for p in round_robin_schedule(["a", "b", "c", "d"])][0]
    (('a', 'd'), ('b', 'c'))
    >>> round_robin_schedule(["a", "b", "c"])[0].byes
    ('a',)

    :raises InvalidCommandError: when a player is listed twice.
    """
    _check_players(players)
    ring: list[PlayerId | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    size = len(ring)
    history: list[Table] = []
    schedule: list[Pairing] = []
    for _ in range(size - 1):
        tables: list[Table] = []
        byes: list[PlayerId] = []
        for i in range(size // 2):
            a, b = ring[i], ring[size - 1 - i]
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
            else:
                tables.append(seat_order((a, b), history, players))
        history.extend(tables)
        schedule.append(Pairing(tables=tuple(tables), byes=tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(schedule)


# --------------------------------------------------------------------- Swiss


def swiss_pairing(
    players: Sequence[PlayerId],
    scores: Mapping[PlayerId, float],
    history: Sequence[Table] = (),
    byes: Iterable[PlayerId] = (),
) -> Pairing:
    """Pair the active ``players`` (in seed order) for a Swiss round of 2-player tables.

    ``scores`` are current match points, ``history`` every earlier table and
    ``byes`` every earlier bye (one entry per bye).

    >>> swiss_pairing(["a", "b", "c", "d"], {"a": 3, "c": 3}, [("a", "c"), ("b", "d")])
    Pairing(tables=(('a', 'b'), ('c', 'd')), byes=())

    :raises InvalidCommandError: when a player is listed twice.
    """
    _check_players(players)
    order = rank_order(players, scores)
    met = meetings(history)
    byes = tuple(byes)
    candidates: list[PlayerId | None] = [None]
    if len(order) % 2:
        candidates = list(bye_candidates(order, byes))
    failed: set[tuple[frozenset[PlayerId], int]] = set()
    worst = 1 + len(order) // 2 * max(met.values(), default=0)
    for allowance in range(worst + 1):
        for bye in candidates:
            rest = [p for p in order if p != bye]
            pairs = _match(rest, met, allowance, failed)
            if pairs is not None:
                return Pairing(
                    tables=tuple(seat_order(t, history, players) for t in pairs),
                    byes=() if bye is None else (bye,),
                )
    raise AssertionError("unreachable: the largest allowance admits any pairing")


def _match(
    rest: list[PlayerId],
    met: Counter[frozenset[PlayerId]],
    allowance: int,
    failed: set[tuple[frozenset[PlayerId], int]],
) -> list[Table] | None:
    """Top-down backtracking: pairs for ``rest`` costing at most ``allowance``.

    ``failed`` memoises (remaining players, allowance) states with no solution,
    which keeps impossible cases polynomial in practice for event sizes.
    """
    if not rest:
        return []
    key = (frozenset(rest), allowance)
    if key in failed:
        return None
    first = rest[0]
    for j in range(1, len(rest)):
        cost = met[frozenset((first, rest[j]))]
        if cost > allowance:
            continue
        tail = _match(rest[1:j] + rest[j + 1 :], met, allowance - cost, failed)
        if tail is not None:
            return [(first, rest[j]), *tail]
    failed.add(key)
    return None


def is_valid_round(pairing: Pairing, active: Collection[PlayerId]) -> bool:
    """Whether every active player is seated or has a bye, exactly once.

    >>> is_valid_round(Pairing(tables=(("a", "b"),), byes=("c",)), {"a", "b", "c"})
    True
    """
    everyone = [*pairing.seated, *pairing.byes]
    return len(everyone) == len(set(everyone)) and set(everyone) == set(active)
