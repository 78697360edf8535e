"""What a ruleset reports for the statistics and fairness views.

Why in the domain: only the game knows what its events mean (which card was
played, which die was rolled), so it labels them with these small models and
the projections count labels without knowing any game's rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.contract.messages import Model, Seat


class SeatFacet(Model):
    """A label of one seat in a finished game, for win-rate tables (``character=myrja``)."""

    seat: Seat
    key: str
    value: str


class GameFacts(Model):
    """What the statistics views want to know about a finished game."""

    rounds: int | None = None
    first_player: Seat | None = None
    seat_facets: tuple[SeatFacet, ...] = ()


class EventFacet(Model):
    """A countable fact in one event (``card_played=c12``), for frequency tables."""

    key: str
    value: str
    seat: Seat | None = None


class ChanceOutcome(Model):
    """One chance draw for the fairness view: ``value`` in ``[0, outcomes)``,
    expected uniform (a d6 roll is ``value=roll-1, outcomes=6``; a shuffle
    contributes each item's position)."""

    distribution: str
    value: int
    outcomes: int


def shuffle_outcomes(name: str, order: Sequence[str]) -> tuple[ChanceOutcome, ...]:
    """A recorded shuffle as fairness draws: each item's (sorted rank, position)
    cell of ``<name>_shuffle:n=<n>``; nothing if items repeat or the order was
    redacted away (see ``projections/fairness.py`` for the statistic)."""
    n = len(order)
    if n < 2 or len(set(order)) != n:
        return ()
    rank = {item: r for r, item in enumerate(sorted(order))}
    dist = f"{name}_shuffle:n={n}"
    return tuple(
        ChanceOutcome(distribution=dist, value=rank[c] * n + p, outcomes=n * n)
        for p, c in enumerate(order)
    )
