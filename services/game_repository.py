"""The ledger's eventsourcing repository: snapshot plus events, replayed cheaply.

Why a subclass: eventsourcing's ``Repository.get`` replays with its own
projector unless each caller passes one; the ledger's (:func:`domain.replay.replay`)
becomes the default here, so every rebuild (the game cache's, an audit's,
``repository.get`` in the bench) takes the same path.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.application import Repository

from domain.replay import replay


class GameRepository(Repository[UUID]):
    """``Repository`` whose default projector is :func:`domain.replay.replay`."""

    def get(
        self,
        aggregate_id: UUID,
        *,
        version: int | None = None,
        projector_func: Any = replay,
        fastforward_skipping: bool = False,
        deepcopy_from_cache: bool = True,
    ) -> Any:
        return super().get(
            aggregate_id,
            version=version,
            projector_func=projector_func,
            fastforward_skipping=fastforward_skipping,
            deepcopy_from_cache=deepcopy_from_cache,
        )
