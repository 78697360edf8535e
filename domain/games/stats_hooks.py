"""The parts of a game's statistics hooks (``stats.py``) that every game shares.

A game reports three things to the stats and fairness views (see
``Ruleset.facts``, ``event_facets``, ``chance_outcomes``): labels of each seat
in a finished game, countable facts in events, and chance draws in events.
The two per-event hooks are tables from event class to function here, so the
event classes a hook reads are stated once, as the table's keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from domain.contract.facts import GameFacts, SeatFacet

T = TypeVar("T")


def seat_facts(rounds: int, seats: Iterable[Mapping[str, str]]) -> GameFacts:
    """``GameFacts`` from each seat's labels, in seat order, and no first player.

    Why no first player: in every game here the final state no longer says who
    started (it follows the rounds, or there is none), so a game that knows it
    reports it as a ``first_player`` event facet instead (see the stats view).
    """
    return GameFacts(
        rounds=rounds,
        first_player=None,
        seat_facets=tuple(
            SeatFacet(seat=seat, key=key, value=value)
            for seat, labels in enumerate(seats)
            for key, value in labels.items()
        ),
    )


class ByEvent(Generic[T]):
    """A per-event hook ``hook(event) -> (T, ...)`` as a table from event class to function.

    The event classes the hook reads are the table's keys (:attr:`events`), so
    ``Ruleset.chance_events`` cannot drift from what ``chance_outcomes``
    handles.  Any other event gives ``()``.  The class is looked up exactly, as
    :class:`~domain.games.kit.Evolver` does: event classes are not subclassed.
    """

    def __init__(self, table: Mapping[type, Callable[[Any], tuple[T, ...]]]) -> None:
        self.table = dict(table)

    @property
    def events(self) -> tuple[type, ...]:
        """The event classes with an entry, in the table's order."""
        return tuple(self.table)

    def __call__(self, event: Any) -> tuple[T, ...]:
        found = self.table.get(type(event))
        return () if found is None else found(event)
