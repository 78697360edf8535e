"""``HeadSigner``: the one place the ledger signs a game's head.

Why one interface: a receipt is only evidence if the ledger never signs two
histories of one game.  Each head is checked against the signer's record of
what it signed (``services.storage.signed_heads``, kept with the key, out of
the database's reach) before signing, and recorded once its write is
stored.  A head that contradicts the record (a game rolled back in the
database and played on) is refused with :class:`EquivocationError`, and
the refusal raises an alarm: an ERROR log line, the
``ledger_signer_refusals_total`` metric and :attr:`HeadSigner.alarm` for
health.

Why record after the commit, not before signing: a write whose commit
fails (a lost race for the version, an outage) is decided again with
another hash at the same version; a record of signed-but-unstored heads
would refuse that honest retry forever.  The record therefore holds the
heads the ledger signed *and* stored; the window between a commit and its
record line is one write.

Checkpoints (``services.storage.checkpoint_log``) are signed over the
record, at every game end and periodically (:meth:`HeadSigner.checkpoint`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.ledger.checkpoints import Checkpoint, CheckpointError, Inclusion
from domain.ledger.receipts import Receipt, Signer
from domain.ledger.signed_heads import EquivocationError, SignedHead, refusal
from services.observability.metrics import CHECKPOINTS, SIGNER_REFUSALS
from services.storage.checkpoint_log import CheckpointLog
from services.storage.signed_heads import SignedHeadsFile

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NewHead:
    """The head a write would give a game: its events are ``first_version..version``,
    the first chained to ``prev_hash``, the last hashing to ``head_hash``."""

    game_id: str
    first_version: int
    prev_hash: str
    version: int
    head_hash: str
    timestamp: str
    """The last event's time, which the receipt carries."""

    @classmethod
    def of(cls, game_id: Any, events: Sequence[Any]) -> NewHead:
        """The head ``events`` (just decided, in order) give game ``game_id``."""
        first, last = events[0], events[-1]
        return cls(
            str(game_id),
            first.originator_version,
            first.prev_hash,
            last.originator_version,
            last.hash,
            last.timestamp.isoformat(),
        )


class HeadSigner:
    """Signs heads, never two histories of one game; signs checkpoints."""

    def __init__(
        self,
        signer: Callable[[], Signer],
        record: SignedHeadsFile | None = None,
        checkpoints: CheckpointLog | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._signer = signer
        self.record = record
        """None: an ephemeral ledger (tests) that keeps no record."""
        self.checkpoints = checkpoints
        self._clock = clock
        self._checkpoints_unwritable = False
        self.alarm: str | None = None
        """The last refusal, for health: set once, never cleared by itself."""

    @property
    def key_id(self) -> str:
        """The signing key's id (``GameCreated`` names it)."""
        return self._signer().key_id

    def refusal(self, head: NewHead) -> str | None:
        """Why this head contradicts the record, or None (no alarm: the
        caller first rules out a write decided on a stale game)."""
        if self.record is None:
            return None
        last = self.record.last(head.game_id)
        return refusal(
            last, head.first_version, head.prev_hash, head.version, head.head_hash
        )

    def store_is_behind(self, game_id: str, version: int, head_hash: str) -> bool:
        """Whether the stored head (``version``, ``head_hash``) is not the
        head the record holds or one after it: the database lost history
        the ledger signed (a rollback), rather than a write lost a race."""
        last = None if self.record is None else self.record.last(game_id)
        if last is None:
            return False
        return version < last.version or (
            version == last.version and head_hash != last.head_hash
        )

    def refuse(
        self, game_id: str, first_version: int, reason: str
    ) -> EquivocationError:
        """The alarm for a second history: logged, counted, kept for health."""
        error = EquivocationError(game_id, first_version, reason)
        self.alarm = str(error)
        SIGNER_REFUSALS.inc()
        log.error("signer alarm: %s", error)
        return error

    def sign(self, head: NewHead, checked: bool = False) -> Receipt:
        """The receipt over a head, unless it contradicts a signed one.

        ``checked``: the caller asked :meth:`refusal` for this head and ruled
        out a second history itself.  Checking again here would race the
        other writers' records: a write decided on a stale game passes the
        check, another process stores and records that version, and a
        second check would raise the alarm for what is only a lost race
        (the commit refuses it anyway, the version being taken).

        :raises EquivocationError: naming the game and the first version
            the write would rewrite (with the alarm raised).
        """
        if not checked:
            reason = self.refusal(head)
            if reason is not None:
                raise self.refuse(head.game_id, head.first_version, reason)
        return self._signer().sign(
            head.game_id, head.version, head.head_hash, head.timestamp
        )

    def stored(self, game_id: str, version: int, head_hash: str, ended: bool) -> None:
        """The head was stored: record it, and at a game's end publish a checkpoint."""
        if self.record is None:
            return
        self.record.record(SignedHead(game_id, version, head_hash))
        if ended:
            try:
                self.checkpoint()
            except OSError as exc:  # the move is stored: never fail its answer
                self._checkpoint_failed(exc)

    def close(self) -> None:
        """Wait for the record's pending lines (a server stopping)."""
        if self.record is not None:
            self.record.flush()

    def pinned(self, game_id: str) -> tuple[Checkpoint | None, Inclusion | None]:
        """The latest checkpoint and the proof of ``game_id``'s head in it
        (``None`` for what there is not: no record, no checkpoint yet, or a
        game the checkpoint does not hold yet)."""
        if self.checkpoints is None:
            return None, None
        latest = self.checkpoints.latest()
        if latest is None:
            return None, None
        try:
            return latest, self.checkpoints.inclusion(game_id, latest.tree_size)
        except CheckpointError:
            return latest, None

    def _checkpoint_failed(self, exc: OSError) -> None:
        if not self._checkpoints_unwritable:
            log.error(
                "cannot write checkpoints beside the key (%s): none is published "
                "until the data dir is writable",
                exc.strerror,
            )
        self._checkpoints_unwritable = True

    def checkpoint(self) -> Checkpoint | None:
        """Sign a checkpoint over every game's recorded head (None without a record)."""
        if self.record is None or self.checkpoints is None:
            return None
        self.record.flush()  # every head stored so far is in the record's file
        stamp = (self._clock() if self._clock else _now()).isoformat()
        latest = self.checkpoints.latest()
        changed = self.record.changed()
        checkpoint = self.checkpoints.publish(changed, self._signer(), stamp)
        self.record.published(changed)
        if checkpoint is not None and checkpoint != latest:
            CHECKPOINTS.inc()
        return checkpoint


async def checkpoint_every(head_signer: HeadSigner, interval: float, io: Any) -> None:
    """Sign a checkpoint every ``interval`` seconds until cancelled (a failure
    is logged and tried again next time: the game ends sign their own)."""
    while True:
        await asyncio.sleep(interval)
        try:
            await io(head_signer.checkpoint)
        except Exception:
            log.exception("could not sign a checkpoint")


def _now() -> datetime:
    from datetime import UTC

    return datetime.now(UTC)
