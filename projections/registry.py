"""Every read model the service runs, by name (``ledger projections rebuild NAME``)."""

from __future__ import annotations

import importlib
from typing import Any

from projections.base import View
from projections.runner import ViewRunner
from projections.tournament_results import TournamentResults

VIEWS: dict[str, str] = {
    "ratings": "projections.ratings:RatingsView",
    "tournament_results": "projections.tournament_results:TournamentResultsView",
    "stats": "projections.stats:StatsView",
    "fairness": "projections.fairness:FairnessView",
}


def view(name: str, results: TournamentResults | None = None) -> View:
    """A view by name; ``results`` is the port ``tournament_results`` writes through.

    :raises KeyError: for an unknown view name.
    """
    module, _, cls = VIEWS[name].partition(":")
    factory = getattr(importlib.import_module(module), cls)
    if name == "tournament_results":
        return factory(results)
    return factory()


def runners(
    datastore: Any,
    names: list[str] | None = None,
    batch_size: int = 500,
    create_tables: bool = True,
    results: TournamentResults | None = None,
) -> list[ViewRunner]:
    """One runner per view; ``create_tables=False`` (``LEDGER_CREATE_TABLES``) makes them do no DDL.

    ``results`` is the tournament application's port (``services.runtime.bootstrap``
    wires it; without it ``tournament_results`` refuses to apply).
    """
    return [
        ViewRunner(
            datastore,
            view(n, results),
            batch_size=batch_size,
            create_tables=create_tables,
        )
        for n in (names or list(VIEWS))
    ]
