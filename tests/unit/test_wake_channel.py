"""Which channel wakes a projector: the views' own while every view reads only
the ledger's events, the log's (every commit) as soon as one reads moves."""

from __future__ import annotations

from typing import ClassVar

from projections.registry import runners
from projections.runner import VIEWS_CHANNEL, ViewRunner, wake_channel
from projections.stats import StatsView


class MovesView(StatsView):
    """A view that also reads a game's moves."""

    topics: ClassVar[tuple[str, ...]] = (*StatsView.topics, "thalara.SpellPlayed")  # type: ignore[assignment]


def test_the_shipped_views_read_only_the_ledgers_events_and_wake_on_its_channel():
    shipped = runners(None)
    assert shipped and all(r.ledger_only for r in shipped)
    assert wake_channel(shipped) == VIEWS_CHANNEL


def test_one_view_of_moves_makes_every_commit_wake_the_projector():
    mixed = [*runners(None), ViewRunner(None, MovesView())]
    assert not mixed[-1].ledger_only
    assert wake_channel(mixed) == "ledger_events"
