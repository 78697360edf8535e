"""``StreamGameEvents``' loop: a game's events as they happen, as this caller may see them.

The one long-lived read, so its own module: it follows the game through the
game cache, the store or another server's JetStream tail, redacts each event
as the service layer's read path discloses it
(:meth:`~services.ledger.reading.game_reads.GameReads.sight`, holding a delayed
spectator back), attaches
the receipt to the concluding event and sleeps on the :class:`EventHub` between
batches.  The servicer only validates the request and forwards the messages.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import replace
from typing import Any
from uuid import UUID

from domain.ledger.aggregate import Game
from domain.ledger.records import CONCLUDED_TYPE
from services.api import presenters
from services.ledger.application import GameLedger
from services.ledger.callers import Principal
from services.ledger.reading.disclosure import is_delayed_for
from services.ledger.reading.game_reads import GameReads
from services.live.listen_hub import EventHub
from services.proto.clock_messages import add_event_clocks
from services.proto.game_messages import event_message


class GameEventStream:
    """Follows games for streaming callers (one per servicer)."""

    def __init__(self, ledger: GameLedger, hub: EventHub, reads: GameReads) -> None:
        self._ledger = ledger
        self._hub = hub
        self._reads = reads

    async def events(
        self, principal: Principal, game_id: UUID, after: int, stop_at_head: bool
    ) -> AsyncGenerator[Any, None]:
        """Event messages after version ``after``, until the game ends (or its head).

        Close it with ``contextlib.aclosing``: its ``finally`` unsubscribes
        from the hub.
        """
        batches = self.batches(principal, game_id, after, stop_at_head)
        async with aclosing(batches):
            async for _, messages in batches:
                for message in messages:
                    yield message

    async def batches(
        self, principal: Principal, game_id: UUID, after: int, stop_at_head: bool
    ) -> AsyncGenerator[tuple[Game, list[Any]], None]:
        """:meth:`events` a batch at a time, each with the game it was read
        from: a seat's session (:mod:`services.api.session_servicer`) offers
        its legal moves and clocks once a batch has brought it to the head.

        A batch may be empty (the game changed in a way this caller does not
        see yet, or only its clocks changed).
        """
        wakeup = self._hub.subscribe(game_id)
        try:
            head = await self._ledger.game(game_id)
            last = after
            # the hash of event ``last``: what a JetStream tail must chain onto
            last_hash: str | None = head.head_hash if after == head.version else None
            while True:
                wakeup.clear()
                batch: list[Any] = []
                from_nats = False
                if self._ledger.cache.vouched(game_id) is None and not is_delayed_for(
                    principal, head
                ):  # memory cannot vouch; a delayed game reads the store
                    tail = self._hub.live_events(game_id, last, last_hash)
                    if tail:  # another server's moves, gap-free from ``last``
                        batch, from_nats = tail, True
                if not from_nats:
                    head, batch = await self._ledger.game_since(game_id, last)
                sight = await self._reads.sight(principal, head)
                if from_nats:  # another server's moves: ``head`` is behind them
                    sight = replace(sight, upto=batch[-1].originator_version)
                shown = [e for e in batch if e.originator_version <= sight.upto]
                messages: list[Any] = []
                for event in shown:
                    message = event_message(
                        head, event, sight.viewer, show_hashes=sight.show_hashes
                    )
                    if event.originator_version == head.version:  # the head's clocks
                        add_event_clocks(message, head, event.timestamp)
                    if message.type == CONCLUDED_TYPE:
                        receipt = await self._ledger.io(
                            self._ledger.receipt_at, game_id, event.originator_version
                        )
                        if receipt is not None:
                            message.receipt.CopyFrom(
                                presenters.receipt_message(receipt)
                            )
                    messages.append(message)
                    last, last_hash = event.originator_version, event.hash
                    if from_nats and message.type == CONCLUDED_TYPE:  # ends below
                        head = await self._ledger.game(game_id)
                yield head, messages
                if len(batch) == 256 and len(shown) == len(batch):
                    continue
                if stop_at_head or (head.is_over and last >= head.version):
                    return
                # held back by a spectator delay: look again when it may have passed
                await self._hub.wait(wakeup, 1.0 if sight.upto < head.version else None)
        finally:
            self._hub.unsubscribe(game_id, wakeup)
