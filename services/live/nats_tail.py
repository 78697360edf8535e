"""Live fan-out through NATS JetStream (``LEDGER_NATS_URL``), one subject per game.

Why: without it, a spectator on a server that did not record the move is
woken by LISTEN/NOTIFY and re-reads the new events from PostgreSQL, one read
per stream per move; thousands of spectators mean thousands of reads.  With
it, the server that commits publishes the stored events to the game's
subject; every other server holds one ordered JetStream consumer per watched
game, checks and decodes each event once into a small per-game tail, and all
its streams on that game are served from it.

No gaps, no duplicates: streams track the last version (and hash) they sent
and take events from the tail only when it continues exactly from there
(:meth:`NatsTail.events_after`); anything else (the consumer just started, a
publish lost in a crash between commit and publish, NATS down) falls back
to PostgreSQL, which stays the source of truth.

Nothing on the bus is trusted or readable without the deployment's key:
records travel sealed (:mod:`services.live.sealed_records`), and each one
received must open, carry the message id its content implies, hash to the
hash it claims and link to the event before it, in the tail and in the
stream that takes it.  Anything else is dropped with one log line, and the
streams read PostgreSQL for that version.

NATS restarts are routine, and so is a server started while NATS is down:
the connection is retried in the background for as long as the server
runs (each reason it fails for is logged, once per change of reason: a
refused connection, a wrong password, a TLS failure), the consumers are
re-created on every reconnect, and each change of the connection's state
is one log line (never a traceback per retry).  While NATS is down,
publishing is skipped and streams read PostgreSQL.  The servers never
create, change or delete the stream: an admin does
(:mod:`services.live.nats_stream`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.ledger.records import load, recomputed_hash
from services.live.nats_options import NatsOptions, reason
from services.live.nats_stream import (
    DUPLICATE_WINDOW,
    MISSING,
    STREAM,
    TAIL,
    server_urls,
)
from services.live.sealed_records import PURPOSE, RecordSeal, SealError
from services.observability.metrics import TAIL_RECEIVED

log = logging.getLogger(__name__)

__all__ = ["STREAM", "NatsTail", "chain_problem", "tail_for"]
HEARTBEAT = 1.0
"""Seconds between a consumer's idle heartbeats: nats-py re-creates an ordered
consumer that missed two (5 s by default, so a consumer lost in a NATS
restart came back only 10-15 s later)."""
REJECTED_KEPT = 1024
"""Rejected (game, version) pairs remembered, so each is logged once."""
BACKLOG = 20_000
"""Records kept while JetStream is away (a few MB); past that the oldest go."""
BACKLOG_SECONDS = DUPLICATE_WINDOW - 20.0
"""A kept record older than this is not published: JetStream recognises a
second publish of one message id only within its duplicate window, and a
publish that timed out may have been stored after all."""
PUBLISH_ATTEMPTS = 4
"""Tries per record (about 1.5 s of retries beside each 1 s timeout): enough
for the client to reach another node when the one it used dies."""
JS_TIMEOUT = 2.0
"""Seconds a JetStream API request (stream lookup, consumer creation) waits:
short, so a lookup sent to a stream with no leader is retried soon."""
REPEAT_REASON = 60.0
"""Seconds before the same connection failure is logged again (still failing)."""
MISSES = 3
"""Events in a row that NOTIFY announced and a game's consumer did not
deliver in time, while publishing works, before the consumers are made anew.

Why: when a NATS node dies, an ordered consumer can stall without a word
(nats-py reports no error, no heartbeat is missed), and the game's streams
then read PostgreSQL for good.  The NOTIFY path notices: a version it
announced and the tail lacks is a miss.  Three in a row, with the stream
taking publishes again, is a dead consumer, not a late one."""
RESUBSCRIBE_EVERY = 5.0
"""Seconds at least between two re-creations for missed events."""


def chain_problem(
    game_id: str, version: int, topic: str, state: bytes, before: Any
) -> str | None:
    """Why a record received from the bus is not the game's event ``version``, or None.

    ``before`` is the event ``version - 1`` this server already holds
    (checked the same way), or None when it holds none.
    """
    try:
        record = load(state)
        recomputed = recomputed_hash(game_id, version, topic, record)
    except (ValueError, KeyError, TypeError) as exc:
        return f"cannot be decoded ({exc})"
    if recomputed != record["hash"]:
        return "does not hash to the hash it claims"
    if before is not None and before.hash != record["prev_hash"]:
        return f"does not link to event {version - 1}"
    return None


class NatsTail:
    def __init__(
        self,
        url: str,
        mapper: Any,
        concluded: type,
        seal: RecordSeal,
        options: NatsOptions | None = None,
    ) -> None:
        self._url = url
        self._mapper = mapper
        self._concluded = concluded
        self._seal = seal
        self._options = options or NatsOptions()
        self._nc: Any = None
        self._js: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subs: dict[str, Any] = {}
        self._tails: dict[str, dict[int, Any]] = {}
        self._rejected: dict[tuple[str, int | None], None] = {}
        self._connected = False
        """Whether the connection was up when last seen: one log line per change."""
        self._connections = 0
        """Connections made so far (the first is "connected", later ones "back")."""
        self._ready = False
        """The stream was found on the current connection."""
        self._connecting: asyncio.Task[None] | None = None
        self._last_reason: str | None = None
        self._last_reason_at = 0.0
        self._recovering: asyncio.Task[None] | None = None
        self._again = False
        """A recovery was asked for while one was under way: run it again."""
        self._backlog: deque[tuple[float, str, StoredEvent]] = deque(maxlen=BACKLOG)
        """Records committed while JetStream could not take them: (when, game, record)."""
        self._retrying: asyncio.Task[None] | None = None
        self._flushing = asyncio.Lock()
        self._dropped = 0
        """Records given up on since the last flush (too old, or past BACKLOG)."""
        self._publishing = True
        """False after a failed publish, until one succeeds: log each change once."""
        self._misses: dict[str, int] = {}
        """Game -> announced events in a row its consumer did not deliver."""
        self._remade_at = -1e9
        """When missed events last made the consumers anew."""
        self.on_event: Callable[[str], None] = lambda game_id: None
        """Set by the hub: wake the streams waiting on this game."""

    # ------------------------------------------------------------ connection

    async def start(self) -> None:
        """Start connecting, in the background: a server never waits for NATS.

        nats-py retries the first connection as it retries a lost one
        (``max_reconnect_attempts=-1``), reporting each failure to
        :meth:`_on_error`; the stream is looked up once connected.
        """
        self._loop = asyncio.get_running_loop()
        self._connected = False
        self._connecting = self._loop.create_task(self._connect(), name="nats-connect")

    async def _connect(self) -> None:
        import nats

        nc = nats.NATS()
        self._nc = nc
        try:
            await nc.connect(
                server_urls(self._url),
                max_reconnect_attempts=-1,
                reconnect_time_wait=1,
                connect_timeout=2,
                name="ledger",
                error_cb=self._on_error,
                disconnected_cb=self._on_disconnected,
                reconnected_cb=self._on_reconnected,
                closed_cb=self._on_closed,
                **self._options.connect_arguments(self._url),
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. a bad URL: say so, stay in-process
            log.error(
                "NATS: cannot connect (%s): live streams read PostgreSQL", reason(exc)
            )
            return
        self._js = nc.jetstream(timeout=JS_TIMEOUT)
        await self._on_reconnected()

    @property
    def live(self) -> bool:
        """Connected, and the stream found: events should arrive through NATS."""
        return self._ready and self._nc is not None and self._nc.is_connected

    async def _find_stream(self) -> None:
        """The stream exists (an admin created it), or :data:`MISSING` is raised."""
        from nats.js.errors import NotFoundError

        try:
            await self._js.stream_info(STREAM)
        except NotFoundError:
            raise LookupError(MISSING) from None

    async def _on_error(self, exc: Exception) -> None:
        """Every failed (re)connect attempt lands here: one line per new reason.

        Only the line is held back for a repeated reason, never the
        recovery: a second reset of an ordered consumer that timed out
        while the stream elected a leader leaves that consumer as dead as
        the first did.
        """
        why = reason(exc)
        now = asyncio.get_running_loop().time()
        repeated = (
            why == self._last_reason and now - self._last_reason_at < REPEAT_REASON
        )
        if not repeated:
            self._last_reason, self._last_reason_at = why, now
        if self._nc is not None and self._nc.is_connected:
            # e.g. an ordered consumer's reset that timed out while the
            # stream elected a leader: nats-py does not try it again
            if not repeated:
                log.warning("NATS: %s; consumers re-created", why)
            self._start_recovery()
            return
        if not repeated:
            log.warning(
                "NATS unreachable (%s): live streams read PostgreSQL; retrying", why
            )

    async def _on_disconnected(self) -> None:
        self._ready = False
        if self._connected:  # called again after every failed reconnect attempt
            self._connected = False
            log.warning(
                "NATS connection lost: live streams read PostgreSQL until it is back"
            )

    async def _on_reconnected(self) -> None:
        first = self._connections == 0
        self._connections += 1
        self._connected = True
        self._last_reason = None
        if first:
            url = self._nc.connected_url
            where = f"{url.hostname}:{url.port}" if url is not None else self._url
            log.warning("NATS connected (%s): live fan-out through JetStream", where)
        else:
            log.warning("NATS connection back: live fan-out through JetStream resumes")
        self._start_recovery()

    def _start_recovery(self) -> None:
        """Re-create every consumer: now, or once the recovery under way ends.

        Why again after one under way: a consumer it made while the stream
        was still electing its leader may be the one that just failed.
        """
        if self._recovering is None or self._recovering.done():
            self._again = False
            self._recovering = asyncio.get_running_loop().create_task(self._recover())
        else:
            self._again = True

    async def _recover(self) -> None:
        """Find the stream, then re-create every consumer while the backlog is
        published beside, retrying while JetStream is still starting (it
        answers a moment after NATS does) or the stream is missing (until an
        admin creates it).

        Neither waits for the other: publishing a backlog of hundreds of
        records takes seconds on a loaded machine, and so do consumers made
        while the stream elects its leader (each request waits
        :data:`JS_TIMEOUT`).
        """
        while True:
            await self._recover_once()
            if not self._again or not self._nc.is_connected:
                return
            self._again = False

    async def _recover_once(self) -> None:
        pending = set(self._tails)
        pause, failures, said = 0.1, 0, None
        while self._nc.is_connected:
            try:
                await self._find_stream()
                self._ready = True
                if self._backlog:
                    self._start_flushing(recover=False)
                for game_id in list(pending):
                    if game_id in self._tails:
                        await self._resubscribe(game_id)
                    pending.discard(game_id)
            except Exception as exc:  # noqa: BLE001 - retried below
                why = reason(exc) if not isinstance(exc, LookupError) else str(exc)
                if why != said:
                    log.warning("JetStream not ready (%s): retrying", why)
                    said = why
                failures += 1
            else:
                if failures:
                    log.warning("JetStream ready again")
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, 2.0)

    async def _resubscribe(self, game_id: str) -> None:
        """A new consumer for the game, or the reason it could not be made."""
        old = self._subs.pop(game_id, None)
        if old is not None:
            try:
                await old.unsubscribe()
            except Exception:  # noqa: BLE001 - the consumer died with the server
                pass
        await self._subscribe(game_id, retried=True)

    async def _on_closed(self) -> None:
        log.info("NATS connection closed")

    async def stop(self) -> None:
        """Drain when connected, else just close: never fail a shutdown over NATS."""
        self._connected = False  # closing on purpose: no "connection lost" line
        if self._connecting is not None and not self._connecting.done():
            self._connecting.cancel()  # still trying the first connection
            await asyncio.gather(self._connecting, return_exceptions=True)
        nc = self._nc
        if nc is None or nc.is_closed:
            return
        try:
            if nc.is_connected:
                await asyncio.wait_for(nc.drain(), 5.0)
            else:
                await nc.close()
        except Exception as exc:  # noqa: BLE001 - closing anyway
            log.info("NATS closed without draining: %s", exc)
            if not nc.is_closed:
                try:
                    await nc.close()
                except Exception:  # noqa: BLE001 - nothing more to do
                    pass

    # ------------------------------------------------------------ publish

    def committed(self, game_id: UUID, stored: list[StoredEvent]) -> None:
        """Called on commit (any thread) with the records as the commit
        encoded them: publish those bytes, sealed, no second encoding."""
        if self._loop is None:
            return
        self._loop.call_soon_threadsafe(
            lambda: self._loop.create_task(self._publish(str(game_id), stored))  # type: ignore[union-attr]
        )

    async def _publish(self, game_id: str, stored: list[StoredEvent]) -> None:
        """Publish now, or keep the records for when JetStream answers again.

        While NATS is down, the stream has no leader (a node of the cluster
        died: an election takes seconds) or publishing fails, the records
        wait in :attr:`_backlog` and go out in commit order once the stream
        is found again, so the stream misses nothing a short outage spans.
        Receivers read PostgreSQL meanwhile either way.
        """
        if self._nc is None or not self._nc.is_connected or not self._ready:
            self._keep(game_id, stored)
            return
        for index, record in enumerate(stored):
            version = record.originator_version
            try:
                await self._publish_one(game_id, version, record)
            except Exception as exc:  # noqa: BLE001 - streams fall back to PostgreSQL
                if self._publishing:
                    log.warning(
                        "JetStream publish failed (%s): receivers read PostgreSQL; "
                        "published once JetStream answers",
                        reason(exc),
                    )
                self._publishing = False
                self._keep(game_id, stored[index:])
                self._start_flushing(recover=True)
                return
        if not self._publishing:
            log.info("JetStream publish works again")
            self._publishing = True

    def _keep(self, game_id: str, stored: list[StoredEvent]) -> None:
        now = asyncio.get_running_loop().time()
        for record in stored:
            if len(self._backlog) == BACKLOG:
                self._dropped += 1
            self._backlog.append((now, game_id, record))

    def _start_flushing(self, recover: bool) -> None:
        """Publish the backlog in the background, until it is empty."""
        if self._retrying is None or self._retrying.done():
            self._retrying = asyncio.get_running_loop().create_task(
                self._retry_backlog(recover)
            )

    async def _retry_backlog(self, recover: bool) -> None:
        """Publish the backlog once the stream answers again: after a failed
        publish on a live connection (the stream lost its leader, and then
        ``recover``: the consumers are re-created once it is out), or beside
        a recovery's re-creation of the consumers."""
        pause = 0.0 if not recover else 0.25
        while self._backlog and self._nc.is_connected and self._ready:
            await asyncio.sleep(pause)
            try:
                await self._flush_backlog()
            except Exception:  # noqa: BLE001 - still no leader: again, later
                pause = min(max(pause, 0.125) * 2, 2.0)
        if not self._backlog:
            self._publishing = True
            if recover:
                # the stream was away while this connection stayed up: its
                # consumers may have died with the node that held them
                self._start_recovery()

    async def _flush_backlog(self) -> None:
        """Publish what waited, oldest first; what waited longer than
        :data:`BACKLOG_SECONDS` is left to PostgreSQL (JetStream would no
        longer recognise a second copy of it)."""
        async with self._flushing:  # one flusher: each record is popped once
            await self._flush_backlog_alone()

    async def _flush_backlog_alone(self) -> None:
        kept = 0
        while self._backlog and self._nc.is_connected:
            at, game_id, record = self._backlog[0]
            if asyncio.get_running_loop().time() - at > BACKLOG_SECONDS:
                self._backlog.popleft()
                self._dropped += 1
                continue
            await self._publish_one(game_id, record.originator_version, record)
            self._backlog.popleft()
            kept += 1
        if kept or self._dropped:
            log.warning(
                "JetStream: published %d events kept while it was away; %d left to PostgreSQL",
                kept,
                self._dropped,
            )
        self._dropped = 0

    async def _publish_one(self, game_id: str, version: int, record: Any) -> None:
        """Publish one record, again after a failure while the connection
        moves to another node of the cluster: JetStream keeps one copy per
        message id (:data:`services.live.nats_stream.DUPLICATE_WINDOW`), so a
        publish that was stored before its answer got lost is not doubled."""
        data = self._seal.seal(game_id, version, record.topic, record.state)
        headers = {"Nats-Msg-Id": self._seal.message_id(game_id, version)}
        subject = self._seal.subject(game_id)
        for attempt in range(PUBLISH_ATTEMPTS):
            try:
                await self._js.publish(subject, data, timeout=1.0, headers=headers)
                return
            except Exception:
                if attempt == PUBLISH_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.25 * (attempt + 1))

    # ------------------------------------------------------------ follow

    def _reject(self, game_id: str, version: int | None, why: str) -> None:
        """One log line per rejected record; streams read it from PostgreSQL."""
        if (game_id, version) in self._rejected:
            return
        self._rejected[(game_id, version)] = None
        while len(self._rejected) > REJECTED_KEPT:
            self._rejected.pop(next(iter(self._rejected)))
        what = f"event {version}" if version is not None else "a record"
        log.warning(
            "JetStream %s of game %s rejected: %s; streams read it from PostgreSQL",
            what,
            game_id,
            why,
        )

    def _receive(self, game_id: str, msg: Any) -> None:
        TAIL_RECEIVED.inc()  # every delivery, even one the tail then drops
        tail = self._tails.get(game_id)
        if tail is None:
            return
        try:
            version, topic, state = self._seal.open(game_id, msg.data)
        except SealError:
            self._reject(game_id, None, "it is not sealed with this deployment's key")
            return
        if (msg.headers or {}).get("Nats-Msg-Id") != self._seal.message_id(
            game_id, version
        ):
            self._reject(game_id, version, "its message id names another event")
            return
        problem = chain_problem(game_id, version, topic, state, tail.get(version - 1))
        if problem is not None:
            self._reject(game_id, version, f"it {problem}")
            return
        record = StoredEvent(
            originator_id=UUID(game_id),
            originator_version=version,
            topic=topic,
            state=state,
        )
        tail[version] = self._mapper.to_domain_event(record)
        while len(tail) > TAIL:
            tail.pop(min(tail))
        self.on_event(game_id)

    async def watch(self, game_id: str) -> None:
        """First stream on ``game_id`` in this process: one ordered consumer."""
        if game_id in self._tails:
            return
        self._tails[game_id] = {}
        if self._js is not None:  # else subscribed once connected (_recover)
            await self._subscribe(game_id)

    async def _subscribe(self, game_id: str, retried: bool = False) -> None:
        """One ordered consumer for the game; a failure is raised when
        ``retried`` (:meth:`_recover` tries again), else left to it."""
        if not self._nc.is_connected or not self._ready:
            return  # subscribed on (re)connect, once the stream is found
        self._subs[game_id] = None

        async def on_message(msg: Any) -> None:
            self._receive(game_id, msg)

        try:
            sub = await self._js.subscribe(
                self._seal.subject(game_id),
                stream=STREAM,  # no stream lookup: the servers may not list streams
                cb=on_message,
                ordered_consumer=True,
                idle_heartbeat=HEARTBEAT,
            )
        except Exception as exc:  # the PostgreSQL path still works
            log.debug("JetStream subscribe to %s failed: %s", game_id, exc)
            self._subs.pop(game_id, None)
            if retried:
                raise
            self._start_recovery()
            return
        if game_id not in self._tails:  # the last stream left meanwhile
            await sub.unsubscribe()
            self._subs.pop(game_id, None)
            return
        self._subs[game_id] = sub

    async def unwatch(self, game_id: str) -> None:
        sub = self._subs.pop(game_id, None)
        self._tails.pop(game_id, None)
        if sub is not None:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001 - closing anyway
                pass

    def missed(self, game_id: UUID) -> None:
        """NOTIFY announced an event of the game that its consumer did not
        deliver in time (any thread): after :data:`MISSES` in a row, while
        JetStream takes publishes, the consumer is made anew.

        Only :meth:`in_time` ends a row: an event delivered after its
        streams read it from PostgreSQL serves nobody, so a consumer that
        is always late is as dead as a silent one (and a re-created one's
        replay of old events proves nothing either).
        """
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._count_miss, str(game_id))

    def in_time(self, game_id: UUID) -> None:
        """NOTIFY announced an event of the game that its consumer had
        delivered by then (event loop's thread)."""
        self._misses.pop(str(game_id), None)

    def _count_miss(self, game_id: str) -> None:
        if game_id not in self._tails or not self.live:
            return
        if not self._publishing:
            return  # the stream itself is away: the backlog's flush recovers
        misses = self._misses.get(game_id, 0) + 1
        self._misses[game_id] = misses
        now = asyncio.get_running_loop().time()
        if misses < MISSES or now - self._remade_at < RESUBSCRIBE_EVERY:
            return
        self._misses.clear()
        self._remade_at = now
        log.warning(
            "JetStream: game %s's consumer delivered none of the last %d events; "
            "consumers re-created (streams read PostgreSQL meanwhile)",
            game_id,
            misses,
        )
        # the one recovery path: it waits for the stream to answer (an
        # election may be under way), then re-creates every consumer, one
        # recovery at a time
        self._start_recovery()

    def has(self, game_id: UUID, version: int) -> bool:
        """Whether the tail holds event ``version`` of the game."""
        return version in self._tails.get(str(game_id), {})

    def events_after(
        self, game_id: UUID, after: int, after_hash: str | None
    ) -> list[Any] | None:
        """Events ``after+1, after+2, ...`` from the tail, or ``None`` when the
        tail does not continue the chain from event ``after`` whose hash is
        ``after_hash`` (read PostgreSQL instead).  The game's conclusion
        always comes from PostgreSQL, with the head that ends the stream."""
        gid = str(game_id)
        tail = self._tails.get(gid)
        if not tail or (after + 1) not in tail or after_hash is None:
            return None
        events: list[Any] = []
        version, link = after + 1, after_hash
        while version in tail:
            event = tail[version]
            if isinstance(event, self._concluded):
                return None
            if event.prev_hash != link:
                self._reject(gid, version, f"it does not link to event {version - 1}")
                for stale in [v for v in tail if v >= version]:
                    tail.pop(stale)
                return events or None
            events.append(event)
            link = event.hash
            version += 1
        return events


def tail_for(wiring: Any) -> NatsTail | None:
    """The JetStream tail when ``LEDGER_NATS_URL`` is set (and the ledger
    publishing to it on every commit), else ``None``: the in-process hub."""
    url = getattr(wiring.settings, "nats_url", None)
    if not url:
        return None
    from domain.ledger.aggregate import Game

    seal = RecordSeal(wiring.ledger.signer.derive_key(PURPOSE))
    tail = NatsTail(
        url,
        wiring.ledger.mapper,
        Game.Concluded,
        seal,
        NatsOptions.from_settings(wiring.settings),
    )
    wiring.ledger.on_committed = tail.committed
    return tail
