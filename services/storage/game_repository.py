"""The ledger's eventsourcing repository: snapshot plus events, replayed cheaply.

Why a subclass: eventsourcing's ``Repository.get`` replays with its own
projector unless each caller passes one; the ledger's (:func:`domain.ledger.replay.replay`)
becomes the default here, so every rebuild (the game cache's, an audit's,
``repository.get`` in the bench) takes the same path.

Why the cyclic garbage collector is paused during a rebuild: a replay
allocates tens of objects per event (records, events, frozen models, tuples)
and none of them forms a reference cycle (``gc.collect()`` after a 5,000-event
replay finds nothing), so everything it discards is freed by reference
counting.  Yet the allocations alone trigger a collection every 700 objects,
and the older generations' scans cover the whole heap: about a fifth of a
rebuild.  The thread that pauses it resumes it when its rebuild ends, so
overlapping rebuilds on other threads cannot keep it off.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.application import Repository

from domain.ledger.replay import replay


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic collector off for a rebuild, back on after it if it was on."""
    pausing = gc.isenabled()
    if pausing:
        gc.disable()
    try:
        yield
    finally:
        if pausing:
            gc.enable()


class GameRepository(Repository[UUID]):
    """``Repository`` whose default projector is :func:`domain.ledger.replay.replay`."""

    def get(
        self,
        aggregate_id: UUID,
        *,
        version: int | None = None,
        projector_func: Any = replay,
        fastforward_skipping: bool = False,
        deepcopy_from_cache: bool = True,
    ) -> Any:
        with gc_paused():
            return super().get(
                aggregate_id,
                version=version,
                projector_func=projector_func,
                fastforward_skipping=fastforward_skipping,
                deepcopy_from_cache=deepcopy_from_cache,
            )
