"""Every read model the service runs, by name (``ledger projections rebuild NAME``)."""

from __future__ import annotations

import importlib
from typing import Any

from projections.base import View
from projections.runner import ViewRunner

VIEWS: dict[str, str] = {
    "ratings": "projections.ratings:RatingsView",
    "tournament_results": "projections.tournament_results:TournamentResultsView",
    "stats": "projections.stats:StatsView",
    "fairness": "projections.fairness:FairnessView",
}


def view(name: str) -> View:
    """:raises KeyError: for an unknown view name."""
    module, _, cls = VIEWS[name].partition(":")
    return getattr(importlib.import_module(module), cls)()


def runners(
    datastore: Any,
    names: list[str] | None = None,
    batch_size: int = 500,
    create_tables: bool = True,
) -> list[ViewRunner]:
    """One runner per view; ``create_tables=False`` (``LEDGER_CREATE_TABLES``) makes them do no DDL."""
    return [
        ViewRunner(
            datastore, view(n), batch_size=batch_size, create_tables=create_tables
        )
        for n in (names or list(VIEWS))
    ]
