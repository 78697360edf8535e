"""Live fan-out through NATS JetStream (``LEDGER_NATS_URL``), one subject per game.

Why: without it, a spectator on a server that did not record the move is
woken by LISTEN/NOTIFY and re-reads the new events from PostgreSQL, one read
per stream per move; thousands of spectators mean thousands of reads.  With
it, the server that commits publishes the stored events to
``ledger.games.<game id>``; every other server holds one ordered JetStream
consumer per watched game, decodes each event once into a small per-game
tail, and all its streams on that game are served from it.

No gaps, no duplicates: streams track the last version they sent and take
events from the tail only when it continues exactly from there
(:meth:`NatsTail.events_after`); anything else (the consumer just started, a
publish lost in a crash between commit and publish) falls back to
PostgreSQL, which stays the source of truth.  JetStream deduplicates
republished events by ``Nats-Msg-Id = <game>:<version>``.  The stored,
unredacted record travels inside the cluster; redaction stays in the
serving process, per viewer, on the same path as catch-up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

log = logging.getLogger(__name__)

STREAM = "LEDGER_GAMES"
SUBJECTS = "ledger.games.*"
TAIL = 64
"""Events kept per game, in JetStream (per subject) and in each server's tail."""


def subject(game_id: UUID | str) -> str:
    return f"ledger.games.{game_id}"


class NatsTail:
    def __init__(self, url: str, mapper: Any, concluded: type) -> None:
        self._url = url
        self._mapper = mapper
        self._concluded = concluded
        self._nc: Any = None
        self._js: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subs: dict[str, Any] = {}
        self._tails: dict[str, dict[int, Any]] = {}
        self.on_event: Callable[[str], None] = lambda game_id: None
        """Set by the hub: wake the streams waiting on this game."""

    async def start(self) -> None:
        import nats
        from nats.js.api import StorageType, StreamConfig

        self._loop = asyncio.get_running_loop()
        self._nc = await nats.connect(
            self._url, max_reconnect_attempts=-1, name="ledger"
        )
        self._js = self._nc.jetstream()
        config = StreamConfig(
            name=STREAM,
            subjects=[SUBJECTS],
            max_msgs_per_subject=TAIL,
            max_age=3600.0,
            storage=StorageType.MEMORY,
            duplicate_window=120.0,
        )
        try:
            await self._js.add_stream(config)
        except Exception:  # noqa: BLE001 - another server created it first
            await self._js.update_stream(config)

    async def stop(self) -> None:
        if self._nc is not None:
            await self._nc.drain()

    # ------------------------------------------------------------ publish

    def committed(self, game_id: UUID, stored: list[StoredEvent]) -> None:
        """Called on commit (any thread) with the records as the commit
        encoded them: publish those bytes, no second encoding."""
        if self._loop is None or self._js is None:
            return
        self._loop.call_soon_threadsafe(
            lambda: self._loop.create_task(self._publish(str(game_id), stored))  # type: ignore[union-attr]
        )

    async def _publish(self, game_id: str, stored: list[StoredEvent]) -> None:
        for record in stored:
            try:
                await self._js.publish(
                    subject(game_id),
                    record.state,
                    headers={
                        "Nats-Msg-Id": f"{game_id}:{record.originator_version}",
                        "Ledger-Version": str(record.originator_version),
                        "Ledger-Topic": record.topic,
                    },
                )
            except Exception as exc:  # noqa: BLE001 - streams fall back to PostgreSQL
                log.warning("JetStream publish of %s failed: %s", game_id, exc)
                return

    # ------------------------------------------------------------ follow

    async def watch(self, game_id: str) -> None:
        """First stream on ``game_id`` in this process: one ordered consumer."""
        if game_id in self._subs or self._js is None:
            return
        self._subs[game_id] = None
        self._tails[game_id] = {}

        async def on_message(msg: Any) -> None:
            tail = self._tails.get(game_id)
            if tail is None:
                return
            version = int(msg.headers["Ledger-Version"])
            record = StoredEvent(
                originator_id=UUID(game_id),
                originator_version=version,
                topic=msg.headers["Ledger-Topic"],
                state=msg.data,
            )
            tail[version] = self._mapper.to_domain_event(record)
            while len(tail) > TAIL:
                tail.pop(min(tail))
            self.on_event(game_id)

        try:
            sub = await self._js.subscribe(
                subject(game_id), cb=on_message, ordered_consumer=True
            )
            if game_id not in self._tails:  # the last stream left meanwhile
                await sub.unsubscribe()
                return
            self._subs[game_id] = sub
        except Exception as exc:  # noqa: BLE001 - the PostgreSQL path still works
            log.warning("JetStream subscribe to %s failed: %s", game_id, exc)
            self._subs.pop(game_id, None)
            self._tails.pop(game_id, None)

    async def unwatch(self, game_id: str) -> None:
        sub = self._subs.pop(game_id, None)
        self._tails.pop(game_id, None)
        if sub is not None:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001 - closing anyway
                pass

    def events_after(self, game_id: UUID, after: int) -> list[Any] | None:
        """Events ``after+1, after+2, ...`` from the tail, or ``None`` when the
        tail does not continue from ``after`` (read PostgreSQL instead).  The
        game's conclusion always comes from PostgreSQL, with the head that
        ends the stream."""
        tail = self._tails.get(str(game_id))
        if not tail or (after + 1) not in tail:
            return None
        events = []
        version = after + 1
        while version in tail:
            if isinstance(tail[version], self._concluded):
                return None
            events.append(tail[version])
            version += 1
        return events


def tail_for(wiring: Any) -> NatsTail | None:
    """The JetStream tail when ``LEDGER_NATS_URL`` is set (and the ledger
    publishing to it on every commit), else ``None``: the in-process hub."""
    url = getattr(wiring.settings, "nats_url", None)
    if not url:
        return None
    from domain.aggregate import Game

    tail = NatsTail(url, wiring.ledger.mapper, Game.Concluded)
    wiring.ledger.on_committed = tail.committed
    return tail
