"""Standings: match points and documented tie-breaks, from finished games alone.

Why pure and recomputed from scratch: standings are a function of the recorded
results, so the aggregate, a projection and an auditor all get the same table,
and a corrected tie-break rule applies to old events too.

Scoring (chosen once, per *tournament* table size ``T``, not per table):

* ``T == 2``: a win (sole rank 1) is 3 points, a draw (shared rank 1) 1, a
  loss 0.  A bye is a win: 3 points.
* ``T >= 3``: place ``q`` (1-based) is worth ``T - q`` points; tied players
  share the average of the places they cover, so ranks ``(1, 1, 3)`` at a
  table of 3 give ``1.5, 1.5, 0``.  Points are therefore whole or half
  numbers (exact as floats).  A short table (fewer than ``T`` players) uses
  the same place values.  A bye is a win: ``T - 1`` points.
* Wins / draws / losses for ``T >= 3``: sole first place / shared first place
  / anything else.  Byes are counted apart and are not games played.
* A forfeit (a seat that never moved within the tournament's no-show
  window) is a win for the opponents who were there and a loss for the
  absent seat, which scores **no point** whatever its place (its
  ``GameResult.absent``).  When every seat was absent (a double forfeit)
  nobody wins and every seat scores a loss and no point.  Forfeits are also
  counted apart (``forfeit_wins``, ``forfeit_losses``) so the standings show
  them.
* An aborted game is not a result: it is neither scored nor counted as a
  game played; the organiser replays or reschedules it (docs/endings.md).

Tie-breaks, in order:

1. **points**;
2. **Buchholz**: the sum, over every game played, of each opponent's final
   points (an opponent met twice counts twice; a bye adds nothing);
3. **head-to-head**, defined only when *exactly two* players are still tied
   and they shared at least one table: whoever finished ahead of the other
   more often ranks higher;
4. otherwise the tied players **share the rank** (competition ranking,
   "1224") and are listed in registration order.  Registration order only
   orders rows; it never separates ranks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction

from domain.contract.core import InvalidCommandError, Model
from domain.contract.outcomes import is_competition_ranking
from domain.tournament.pairing import PlayerId

FORFEITED = "forfeited"
"""``Termination.FORFEITED``'s value: a seat never moved within the no-show window."""
ABORTED = "aborted"
"""``Termination.ABORTED``'s value: a game called off, never scored."""
TIE_BREAKS: tuple[str, ...] = ("points", "buchholz", "head_to_head", "shared_rank")
"""The order in which ties are broken (for clients that show it)."""


class GameResult(Model):
    """One finished tournament game: the table in seat order and each seat's rank."""

    players: tuple[PlayerId, ...]
    """The players in seat order."""
    ranks: tuple[int, ...]
    """``ranks[seat]`` from the game's ``Outcome``: 1 is best, ties share."""
    termination: str = ""
    """How the game ended (``Outcome.termination``; empty in results recorded
    before it was kept): a ``forfeited`` game is a forfeit win for the seats
    ranked first that were there and a forfeit loss for the others; an
    ``aborted`` one is not scored."""
    absent: tuple[int, ...] = ()
    """The seats (indexes into ``players``) that never moved: each scores no
    point and a loss, whatever its rank (``Outcome.absent``)."""


class StandingRow(Model):
    """One player's line in the standings."""

    rank: int
    """1 is best; tied players (all tie-breaks equal) share a rank."""
    player_id: PlayerId
    points: float
    buchholz: float
    games: int
    """Games played (byes excluded)."""
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool = False
    forfeit_wins: int = 0
    """Wins (already counted in ``wins``) because an opponent never showed up."""
    forfeit_losses: int = 0
    """Losses (already counted in ``losses``) by not showing up."""


def table_points(ranks: Sequence[int], table_size: int) -> tuple[Fraction, ...]:
    """Match points for each seat of one game (see the module docstring).

    >>> [str(p) for p in table_points((2, 1), 2)], [str(p) for p in table_points((1, 1), 2)]
    (['0', '3'], ['1', '1'])
    >>> [str(p) for p in table_points((1, 1, 3, 4), 4)]
    ['5/2', '5/2', '1', '0']
    """
    if table_size == 2:
        return tuple(
            Fraction(0 if r != 1 else (1 if list(ranks).count(1) > 1 else 3))
            for r in ranks
        )
    points = []
    for r in ranks:
        shared = sum(1 for o in ranks if o == r)
        places = range(r, r + shared)
        points.append(Fraction(sum(table_size - q for q in places), shared))
    return tuple(points)


def bye_points(table_size: int) -> Fraction:
    """Points for a bye: a win (3 at 2-player tables, ``T - 1`` otherwise)."""
    return Fraction(3 if table_size == 2 else table_size - 1)


def compute_standings(
    players: Sequence[PlayerId],
    results: Iterable[GameResult],
    byes: Iterable[PlayerId] = (),
    table_size: int = 2,
    withdrawn: Iterable[PlayerId] = (),
) -> tuple[StandingRow, ...]:
    """The standings of every registered player (``players`` in registration order).

    >>> rows = compute_standings(["a", "b"], [GameResult(players=("a", "b"), ranks=(1, 2))])
    >>> [(r.rank, r.player_id, r.points) for r in rows]
    [(1, 'a', 3.0), (2, 'b', 0.0)]

    :raises InvalidCommandError: when a result names an unknown player or has
        malformed ranks.
    """
    seed = {p: i for i, p in enumerate(players)}
    games = list(results)
    points: dict[PlayerId, Fraction] = {p: Fraction(0) for p in players}
    tally: dict[PlayerId, Counter[str]] = {p: Counter() for p in players}
    for p in byes:
        _check_known(p, seed)
        points[p] += bye_points(table_size)
        tally[p]["byes"] += 1
    games = [g for g in games if g.termination != ABORTED]
    for game in games:
        _check_game(game, seed)
        there = [r for s, r in enumerate(game.ranks) if s not in game.absent]
        sole_winner = there.count(1) == 1
        for seat, (p, rank, pts) in enumerate(
            zip(game.players, game.ranks, table_points(game.ranks, table_size))
        ):
            lost = rank != 1 or seat in game.absent
            points[p] += 0 if seat in game.absent else pts
            outcome = "losses" if lost else ("wins" if sole_winner else "draws")
            tally[p][outcome] += 1
            tally[p]["games"] += 1
            if game.termination == FORFEITED:
                tally[p]["forfeit_losses" if lost else "forfeit_wins"] += 1
    buchholz: dict[PlayerId, Fraction] = defaultdict(Fraction)
    for game in games:
        for p in game.players:
            buchholz[p] += sum((points[o] for o in game.players if o != p), Fraction(0))
    return _rank_rows(players, games, points, buchholz, tally, set(withdrawn))


def head_to_head(a: PlayerId, b: PlayerId, games: Iterable[GameResult]) -> int:
    """Games where ``a`` finished ahead of ``b`` minus games where behind (0: undecided).

    >>> head_to_head("a", "b", [GameResult(players=("b", "a"), ranks=(2, 1))])
    1
    """
    score = 0
    for game in games:
        if a in game.players and b in game.players:
            ra = game.ranks[game.players.index(a)]
            rb = game.ranks[game.players.index(b)]
            score += (ra < rb) - (ra > rb)
    return score


def _rank_rows(
    players: Sequence[PlayerId],
    games: list[GameResult],
    points: dict[PlayerId, Fraction],
    buchholz: dict[PlayerId, Fraction],
    tally: dict[PlayerId, Counter[str]],
    withdrawn: set[PlayerId],
) -> tuple[StandingRow, ...]:
    groups: dict[tuple[Fraction, Fraction], list[PlayerId]] = defaultdict(list)
    for p in players:  # registration order within each group
        groups[(points[p], buchholz[p])].append(p)
    rows: list[StandingRow] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        ranks = [len(rows) + 1] * len(group)
        if len(group) == 2:
            h2h = head_to_head(group[0], group[1], games)
            if h2h < 0:
                group = [group[1], group[0]]
            if h2h != 0:
                ranks[1] += 1
        for p, rank in zip(group, ranks):
            t = tally[p]
            rows.append(
                StandingRow(
                    rank=rank,
                    player_id=p,
                    points=float(points[p]),
                    buchholz=float(buchholz[p]),
                    games=t["games"],
                    wins=t["wins"],
                    draws=t["draws"],
                    losses=t["losses"],
                    byes=t["byes"],
                    withdrawn=p in withdrawn,
                    forfeit_wins=t["forfeit_wins"],
                    forfeit_losses=t["forfeit_losses"],
                )
            )
    return tuple(rows)


def _check_known(p: PlayerId, seed: dict[PlayerId, int]) -> None:
    if p not in seed:
        raise InvalidCommandError(f"unknown player {p!r} in results")


def _check_game(game: GameResult, seed: dict[PlayerId, int]) -> None:
    for p in game.players:
        _check_known(p, seed)
    if len(game.ranks) != len(game.players) or len(set(game.players)) != len(
        game.players
    ):
        raise InvalidCommandError("a result needs one rank per distinct player")
    if not is_competition_ranking(game.ranks):
        raise InvalidCommandError(f"ranks {game.ranks} are not a competition ranking")
    if any(not 0 <= s < len(game.players) for s in game.absent):
        raise InvalidCommandError(f"absent seats {game.absent} are not at the table")
