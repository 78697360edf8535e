"""Fairness read model: how often each chance outcome occurred, against uniform.

Why counts only: the rulesets' ``chance_outcomes`` hooks turn every recorded
die roll and shuffle into ``(distribution, value, outcomes)`` draws that are
uniform if the chance source is fair; the view only has to count them per game
type, and the query turns counts into a chi-square goodness-of-fit test.
Why a game counts only once it has concluded: a chance outcome of a running
game may be hidden from some player (the order of a deck still being drawn,
a die rolled behind a screen), and counts that move with every shuffle let
anyone who diffs them read the shuffle (the Thalara Artifact stack,
the Vaalbara Land deck and every Thorgal deck came out exactly).  So the view
subscribes only to ``ledger.GameConcluded`` and, for the games a batch
concludes, reads their chance events (the types the rulesets declare in
``chance_events``) from the log by primary key, inside the runner's
transaction, like the stats view does; at that point the seed is revealed and
every outcome is public.  A game that never concludes is never counted.
Adding the hook to a game whose events are already in the log needs a
rebuild (bump ``schema_version``; schema 2 added Thorgal's dice and shuffles,
schema 3 counts concluded games only).

Two kinds of distributions:

- a plain draw (``d6``: ``value = roll - 1`` of 6): Pearson's statistic with
  ``outcomes - 1`` degrees of freedom;
- a shuffle, named ``<thing>_shuffle:n=<n>`` with ``outcomes = n * n`` and
  ``value = rank * n + position`` (each item's sorted rank and where it
  landed).  Each shuffle adds a permutation matrix to the ``n x n`` table, whose
  cell covariance is ``A (x) A / (n - 1)`` with ``A = I - J / n`` (a projection
  of rank ``(n - 1)**2``), so Pearson's statistic is ``n / (n - 1)`` times a
  chi-square with ``(n - 1)**2`` degrees of freedom; the query rescales it.
  (Counting positions alone would be useless: every shuffle fills each
  position once, so that histogram is uniform even for a rigged shuffle.)

The p-value is the regularized upper incomplete gamma ``Q(dof / 2, x / 2)``,
implemented here (series and continued fraction) so scipy is not a runtime
dependency; the unit tests compare it with ``scipy.stats.chi2.sf``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from domain.games import all_games, find_game
from domain.ledger.records import CONCLUDED_TYPE, decode_payload, load
from projections.base import LogEvent, View, add_totals

SHUFFLE = re.compile(r"_shuffle:n=(\d+)$")


class FairnessView(View):
    name = "fairness"
    schema_version = 3
    topics = (CONCLUDED_TYPE,)
    tables = ("fairness_counts",)
    ddl = """
    CREATE TABLE IF NOT EXISTS fairness_counts (
        game_type text NOT NULL, distribution text NOT NULL, outcomes int NOT NULL, value int NOT NULL,
        count bigint NOT NULL, PRIMARY KEY (game_type, distribution, outcomes, value)
    );
    """

    def __init__(self, events_table: str = "ledger_events") -> None:
        self.events_table = events_table
        self.chance_topics = sorted(
            f"{game.name}.{cls.__name__}"
            for game in all_games()
            if game.chance_outcomes
            for cls in (game.chance_events or game.event_types)
        )
        """Stored type names that can carry chance: only these rows are read."""

    def apply(self, curs: Any, events: Sequence[LogEvent]) -> None:
        concluded = [e.game_id for e in events]
        if not concluded:
            return
        curs.execute(
            f"SELECT topic, state FROM {self.events_table}"
            " WHERE originator_id = ANY(%s) AND topic = ANY(%s)",
            (concluded, self.chance_topics),
        )
        counts: Counter[tuple[str, str, int, int]] = Counter()
        rulesets: dict[str, Any] = {}
        for row in curs.fetchall():
            game_type, _, name = row["topic"].partition(".")
            ruleset = rulesets.get(game_type) or rulesets.setdefault(
                game_type, find_game(game_type)
            )
            if ruleset.chance_outcomes is None or name not in ruleset.events_by_name:
                continue
            payload = decode_payload(row["topic"], load(row["state"])["body"], ruleset)
            for draw in ruleset.chance_outcomes(payload):
                counts[
                    (ruleset.name, draw.distribution, draw.outcomes, draw.value)
                ] += 1
        add_totals(
            curs,
            "fairness_counts",
            {
                "game_type": "text",
                "distribution": "text",
                "outcomes": "int",
                "value": "int",
            },
            {k: (n,) for k, n in counts.items()},
        )


# ------------------------------------------------------------------ statistics


def _lower_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(100_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def gammaincc(a: float, x: float) -> float:
    """Regularized upper incomplete gamma function ``Q(a, x)``."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def chi2_sf(statistic: float, dof: float) -> float:
    """P(X >= statistic) for X ~ chi-square(dof)."""
    return gammaincc(dof / 2, statistic / 2)


def chi_square_test(distribution: str, observed: Sequence[int]) -> dict[str, Any]:
    """``{total, expected, statistic, dof, p_value, kind}`` of ``observed`` (a
    count per value) against uniform; shuffle tables as in the module doc."""
    outcomes = len(observed)
    total = sum(observed)
    expected = total / outcomes if outcomes else 0.0
    pearson = sum((o - expected) ** 2 for o in observed) / expected if expected else 0.0
    match = SHUFFLE.search(distribution)
    n = int(match.group(1)) if match else 0
    if match and n > 1 and n * n == outcomes:
        kind, statistic, dof = "shuffle", pearson * (n - 1) / n, (n - 1) ** 2
    else:
        kind, statistic, dof = "draw", pearson, outcomes - 1
    p_value = chi2_sf(statistic, dof) if total and dof > 0 else 1.0
    return {
        "total": total,
        "expected": expected,
        "statistic": statistic,
        "dof": dof,
        "p_value": p_value,
        "kind": kind,
    }


def fairness(
    curs: Any, game_type: str, distribution: str | None = None
) -> list[dict[str, Any]]:
    """Per distribution of ``game_type``: ``[{distribution, outcomes, observed
    (a count per value, 0..outcomes-1), total, expected (per value), statistic,
    dof, p_value, kind ("draw"|"shuffle")}]``, ordered by distribution name."""
    curs.execute(
        "SELECT distribution, outcomes, value, count FROM fairness_counts WHERE game_type = %(gt)s"
        " AND (%(d)s::text IS NULL OR distribution = %(d)s) ORDER BY distribution, outcomes, value",
        {"gt": game_type, "d": distribution},
    )
    tables: dict[tuple[str, int], list[int]] = {}
    for r in curs.fetchall():
        counts = tables.setdefault(
            (r["distribution"], r["outcomes"]), [0] * r["outcomes"]
        )
        if 0 <= r["value"] < r["outcomes"]:
            counts[r["value"]] += r["count"]
    return [
        {"distribution": d, "outcomes": k, "observed": obs, **chi_square_test(d, obs)}
        for (d, k), obs in tables.items()
    ]


def first_player_fairness(curs: Any, game_type: str) -> list[dict[str, Any]]:
    """The first-player draw per table size, from the stats view (the first
    player is known from ``facts`` or a ``first_player`` event facet): same
    shape as :func:`fairness`, distribution ``first_player:players=<n>``
    (``n`` seats)."""
    curs.execute(
        "SELECT seats AS players, first_player, count(*) AS n FROM stats_games WHERE game_type = %s"
        " AND first_player IS NOT NULL GROUP BY seats, first_player ORDER BY seats, first_player",
        (game_type,),
    )
    tables: dict[int, list[int]] = {}
    for r in curs.fetchall():
        counts = tables.setdefault(r["players"], [0] * r["players"])
        if 0 <= r["first_player"] < r["players"]:
            counts[r["first_player"]] += r["n"]
    out = []
    for players, obs in tables.items():
        name = f"first_player:players={players}"
        out.append(
            {
                "distribution": name,
                "outcomes": players,
                "observed": obs,
                **chi_square_test(name, obs),
            }
        )
    return out
