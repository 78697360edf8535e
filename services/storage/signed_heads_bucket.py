"""The signer's record shared by several servers: a JetStream key-value bucket.

Why a bucket when servers share a bus (``LEDGER_NATS_URL``): a file per
server protects only the heads that server signed, so a game rolled back
in the database and replayed through *another* server was signed again,
and a record on a read-only or ephemeral data dir was lost at every
restart.  The bucket ``LEDGER_SIGNED_HEADS`` holds one key per game, the
highest head any server signed and stored, written by compare-and-set on
the key's revision: two servers can never both record different heads at
one version, and every server decides on what all of them signed.

Fail closed: a head is signed only after the bucket answered what it
holds for the game.  When it cannot answer (NATS down, the bucket
missing), :class:`SignerRecordUnavailableError` is raised, the client gets
``UNAVAILABLE`` and nothing is stored; the cost is one round trip per write
(docs/decisions.md, "The signer's record in JetStream").  Recording a
stored head that NATS refused is retried before the next operation: the
move is already stored and signed, and the record protects what comes
after it.

The servers' NATS user may read, create and update keys, never purge or
delete the bucket (``deploy/nats/users.conf``); the admin creates it with
``ledger nats setup`` (:func:`declare`), with purges, deletes and roll-ups
denied.  A deletion marker a server's credentials could still write is
read as tampering: the game's record is gone, so nothing is signed for it.

The bucket is used from any thread (a move's check on the event loop, the
record after its commit on the I/O pool): it runs its own connection on an
event loop of its own, in a daemon thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from domain.ledger.signed_heads import (
    SignedHead,
    SignerRecordUnavailableError,
    refusal,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

BUCKET = "LEDGER_SIGNED_HEADS"
STREAM = f"KV_{BUCKET}"
HISTORY = 64
"""Revisions kept per game: a game's last heads, for an operator's inquiry."""
TIMEOUT = 2.0
"""Seconds a read or write of the record may take before the move is refused."""
SEEN_KEPT = 10_000
"""Games whose last read head and revision are kept (a hint, not the record)."""
MISSING = (
    f"JetStream key-value bucket {BUCKET} does not exist: the NATS admin "
    "creates it with `ledger nats setup`"
)
DELETED = "DEL", "PURGE"


def bucket_config(replicas: int) -> Any:
    """The bucket's stream, as the admin declares it: file storage,
    ``replicas`` copies, history kept, no purge, delete or roll-up (what
    nats-py's ``create_key_value`` would allow)."""
    from nats.js.api import DiscardPolicy, StorageType, StreamConfig

    return StreamConfig(
        name=STREAM,
        description="The ledger signer's record: the highest signed head of each game",
        subjects=[f"$KV.{BUCKET}.>"],
        allow_direct=True,
        allow_rollup_hdrs=False,
        deny_delete=True,
        deny_purge=True,
        discard=DiscardPolicy.NEW,
        max_msgs_per_subject=HISTORY,
        max_msgs=-1,
        max_consumers=-1,
        num_replicas=replicas,
        storage=StorageType.FILE,
    )


async def declare(js: Any, replicas: int) -> str:
    """Create the bucket, or update it to this configuration; what was done."""
    from nats.js.errors import NotFoundError

    config = bucket_config(replicas)
    try:
        await js.stream_info(STREAM)
    except NotFoundError:
        await js.add_stream(config)
        return "created"
    await js.update_stream(config)
    return "updated"


class SignedHeadsBucket:
    """The highest signed head of every game, shared through ``BUCKET``."""

    unwritable = False
    """Never: an unreachable bucket refuses moves instead (fail closed)."""

    def __init__(
        self, urls: list[str], connect: dict[str, Any], timeout: float = TIMEOUT
    ) -> None:
        """``urls``: the NATS servers; ``connect``: ``nats.connect``'s other
        arguments (credentials, TLS: ``services.live.nats_options``)."""
        self._urls = urls
        self._connect = connect
        self._timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="signed-heads-bucket", daemon=True
        )
        self._thread.start()
        self._nc: Any = None
        self._kv: Any = None
        self._js: Any = None
        self._dialling: asyncio.Future[Any] | None = None
        self._connect_lock = asyncio.Lock()
        self._pending: dict[str, SignedHead] = {}
        """Stored heads NATS did not take yet: recorded before the next operation."""
        self._pending_lock = threading.Lock()
        self._seen: dict[str, tuple[SignedHead | None, int]] = {}
        """Each game's head and revision as last read: the record after a
        commit tries its compare-and-set on it first, one round trip."""
        self._failing: str | None = None
        self._closed = False
        self._all: dict[str, SignedHead] = {}
        """Every game's head as read by :meth:`heads` so far."""
        self._next_seq = 1
        """The bucket's next revision :meth:`heads` has not read."""

    # ------------------------------------------------------------ plumbing

    def _run(self, work: Callable[[], Awaitable[T]]) -> T:
        future = asyncio.run_coroutine_threadsafe(self._bounded(work), self._loop)
        try:
            return future.result(self._timeout + 1)
        except TimeoutError:
            future.cancel()
            raise self._unavailable("no answer in time") from None

    async def _bounded(self, work: Callable[[], Awaitable[T]]) -> T:
        from nats.js.errors import KeyWrongLastSequenceError

        try:
            result = await asyncio.wait_for(self._work(work), self._timeout)
        except (SignerRecordUnavailableError, KeyWrongLastSequenceError, _Deleted):
            raise
        except TimeoutError:
            raise self._unavailable("no answer in time") from None
        except Exception as exc:  # noqa: BLE001 - NATS's reason, in one line
            raise self._unavailable(_reason(exc)) from None
        if self._failing is not None:
            log.warning("the signer's record %s answers again", BUCKET)
            self._failing = None
        return result

    async def _work(self, work: Callable[[], Awaitable[T]]) -> T:
        await self._connected()
        return await work()

    def _unavailable(self, why: str) -> SignerRecordUnavailableError:
        if why != self._failing:  # once per reason: an outage is one line
            log.error(
                "the signer's record %s is unreachable (%s): moves are refused "
                "with UNAVAILABLE until it answers",
                BUCKET,
                why,
            )
        self._failing = why
        return SignerRecordUnavailableError(why)

    async def _connected(self) -> None:
        async with self._connect_lock:
            if self._kv is not None and self._nc is not None and self._nc.is_connected:
                return
            import nats
            from nats.js.errors import NotFoundError

            if self._nc is None or self._nc.is_closed:
                # one connection, retried in the background for as long as
                # it takes (never one attempt per move while NATS is down)
                self._nc = nats.NATS()
                self._dialling = asyncio.ensure_future(
                    self._nc.connect(
                        self._urls,
                        name="ledger-signer",
                        connect_timeout=max(1, int(self._timeout)),
                        max_reconnect_attempts=-1,
                        reconnect_time_wait=1,
                        allow_reconnect=True,
                        error_cb=self._quiet,
                        **self._connect,
                    )
                )
            dialling = self._dialling
            if dialling is not None and not dialling.done():
                await asyncio.wait({dialling}, timeout=self._timeout)
            if dialling is not None and dialling.done():
                self._dialling = None
                failed = None if dialling.cancelled() else dialling.exception()
                if failed is not None:  # e.g. a malformed URL: try anew next time
                    self._nc = None
                    raise self._unavailable(_reason(failed))
            if not self._nc.is_connected:
                raise self._unavailable("NATS is unreachable or reconnecting")
            js = self._js = self._nc.jetstream(timeout=self._timeout)
            try:
                self._kv = await js.key_value(BUCKET)
            except NotFoundError:
                raise self._unavailable(MISSING) from None

    async def _quiet(self, exc: Exception) -> None:
        """nats-py reports each failed reconnect here; :meth:`_unavailable` logs."""

    async def _read(self, game_id: str) -> tuple[SignedHead | None, int]:
        """The game's head in the bucket and its revision (0: none yet)."""
        from nats.js.errors import NotFoundError

        try:
            msg = await self._js.get_msg(
                STREAM, subject=f"$KV.{BUCKET}.{game_id}", direct=True
            )
        except NotFoundError:
            return None, 0
        operation = (msg.headers or {}).get("KV-Operation")
        if operation in DELETED:
            self._seen.pop(game_id, None)
            raise _Deleted(msg.seq)
        head = SignedHead.from_json(json.loads(msg.data))
        if len(self._seen) >= SEEN_KEPT:
            self._seen.clear()  # a hint only: a miss costs one more read
        self._seen[game_id] = head, msg.seq
        return head, msg.seq

    # ------------------------------------------------------------ the record

    def last(self, game_id: str) -> SignedHead | None:
        """The highest head signed for ``game_id`` by any server.

        :raises SignerRecordUnavailableError: the bucket did not answer.
        """
        self._retry_pending()
        try:
            head, _revision = self._run(lambda: self._read(game_id))
        except _Deleted:
            return _erased_head(game_id)
        return head

    def check(
        self,
        game_id: str,
        first_version: int,
        prev_hash: str,
        version: int,
        head_hash: str,
    ) -> str | None:
        """Why signing this head would contradict the record, or None.

        :raises SignerRecordUnavailableError: the bucket did not answer.
        """
        last = self.last(game_id)
        if last is not None and last.head_hash == _ERASED:
            return (
                f"this game's record in {BUCKET} was deleted: someone with the "
                "servers' NATS credentials erased what the ledger signed"
            )
        return refusal(last, first_version, prev_hash, version, head_hash)

    def heads(self) -> dict[str, SignedHead]:
        """Every game's highest signed head (for a checkpoint).

        Why incremental: a checkpoint is signed at every game end, and
        reading every key each time costs one message per game ever played.
        This server keeps what it read and fetches only the bucket's
        revisions after it (every server's, through an ordered consumer).
        A deletion marker leaves the game's last head in place.
        """
        self._retry_pending()
        self._run(self._catch_up)
        return dict(self._all)

    async def _catch_up(self) -> None:
        from nats.js.api import ConsumerConfig, DeliverPolicy

        info = await self._js.stream_info(STREAM)
        last = info.state.last_seq
        if last < self._next_seq:
            return
        sub = await self._js.subscribe(
            f"$KV.{BUCKET}.>",
            stream=STREAM,
            ordered_consumer=True,
            config=ConsumerConfig(
                deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                opt_start_seq=max(1, self._next_seq),
            ),
        )
        try:
            while self._next_seq <= last:
                msg = await sub.next_msg(timeout=self._timeout)
                self._next_seq = msg.metadata.sequence.stream + 1
                if (msg.headers or {}).get("KV-Operation") in DELETED:
                    continue
                try:
                    head = SignedHead.from_json(json.loads(msg.data))
                except ValueError:
                    log.error("%s: unreadable value skipped: %r", BUCKET, msg.data[:80])
                    continue
                held = self._all.get(head.game_id)
                if held is None or head.version >= held.version:
                    self._all[head.game_id] = head
        finally:
            await sub.unsubscribe()

    def record(self, head: SignedHead) -> None:
        """Raise the game's record to ``head`` (never lower it), by
        compare-and-set; kept and retried when NATS does not answer."""
        with self._pending_lock:
            held = self._pending.get(head.game_id)
            if held is None or head.version > held.version:
                self._pending[head.game_id] = head
        self._retry_pending()

    def _retry_pending(self) -> None:
        with self._pending_lock:
            waiting = list(self._pending.values())
        for head in waiting:
            try:
                self._run(lambda head=head: self._raise_to(head))  # type: ignore[misc]
            except SignerRecordUnavailableError:
                return  # kept: tried again before the next operation
            with self._pending_lock:
                if self._pending.get(head.game_id) == head:
                    del self._pending[head.game_id]

    async def _raise_to(self, head: SignedHead) -> None:
        from nats.js.errors import KeyWrongLastSequenceError

        value = json.dumps(head.to_json(), separators=(",", ":")).encode()
        seen = self._seen.get(head.game_id)
        while True:
            if seen is not None:  # as read before signing: no second read
                held, revision = seen
                seen = None
            else:
                try:
                    held, revision = await self._read(head.game_id)
                except _Deleted as deleted:
                    held, revision = None, deleted.revision
            if held is not None and held.version >= head.version:
                return  # another server recorded it, or a later head
            try:
                written = await self._kv.update(head.game_id, value, last=revision)
            except KeyWrongLastSequenceError:
                continue  # another server wrote first: read what it wrote
            self._seen[head.game_id] = head, written
            return

    def flush(self) -> None:
        """Record what NATS did not take yet, if it answers now."""
        self._retry_pending()

    def close(self) -> None:
        """Close the connection and stop the loop (once; later calls do nothing)."""
        if self._closed or self._loop.is_closed():
            return
        self._closed = True

        async def shut() -> None:
            if self._nc is not None and not self._nc.is_closed:
                await self._nc.close()

        try:
            asyncio.run_coroutine_threadsafe(shut(), self._loop).result(5)
        except Exception:  # noqa: BLE001 - a server stopping: nothing to do
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)


class _Deleted(Exception):
    def __init__(self, revision: int) -> None:
        super().__init__(revision)
        self.revision = revision


_ERASED = "(deleted)"


def _erased_head(game_id: str) -> SignedHead:
    """A game whose record was deleted: no head can be signed after it."""
    return SignedHead(game_id, 2**62, _ERASED)


def _reason(exc: BaseException) -> str:
    """Why a NATS call failed, in words: nats-py's errors often print empty."""
    text = str(exc).strip()
    name = type(exc).__name__
    return name if not text or text == "nats: " else f"{name}: {text}"
