"""The signer's record of the heads it signed: an append-only file beside its key.

Why a file in the data dir, not a table: the record exists to refuse what a
database superuser can do, so it must live where that superuser cannot
write, with the signing key (the signing host is trusted, the database is
not).  One JSON line per stored write, ``{"game_id", "version",
"head_hash"}``; the newest line of a game is its highest signed head.

Several server processes on one host (or one shared volume) share the file:
each write takes an exclusive ``flock`` and first reads what the others
appended since, so every process decides on the whole record.

Why a writer thread: an fsync costs milliseconds, and a move's answer need
not wait for it (the record protects what comes *after* the head).  A head
is in this process's memory at once (:meth:`SignedHeadsFile.record`), and
the writer appends every head queued within :data:`GATHER_S` with one fsync
(waking per head cost the serving process more CPU than the record's own
work: measured in ``docs/performance.md``);
:meth:`SignedHeadsFile.flush` waits for it (checkpoints, shutdown).  A head
joins the writer's batch under the record's own lock, and the writer is
woken only when it waits for work: a move pays for a list append, not for a
queue's lock and condition.  An operator
backs this file up with the signing key: restoring an older copy forgets
the heads signed since, and a rollback of those would be signed again (the
checkpoints published meanwhile still catch it).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from pathlib import Path

from domain.ledger.signed_heads import SignedHead

log = logging.getLogger(__name__)
FILE = "signed-heads.ndjson"
GATHER_S = 0.02
"""How long the writer gathers heads before one append and fsync: at most
fifty a second, however many moves, and the record on disk trails this
process's memory by about that much."""


class SignedHeadsFile:
    """The highest signed head of every game, backed by ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._heads: dict[str, SignedHead] = {}
        self._on_disk: dict[str, SignedHead] = {}
        """What the file holds (``_heads`` adds what is queued for it)."""
        self._changed: dict[str, SignedHead] = {}
        """The heads in ``_heads`` no checkpoint holds yet (:meth:`changed`)."""
        self._offset = 0
        self._lock = threading.Lock()
        self._pending: list[SignedHead] = []
        """Heads recorded and not yet handed to the writer (under ``_lock``)."""
        self._queued = 0
        self._written = 0
        """Heads handed to the record so far, and those the writer is done
        with (appended, or given up on an unwritable file): :meth:`flush`."""
        self._idle = False
        """The writer waits for work (``_work``): the next head wakes it."""
        self._work = threading.Condition(self._lock)
        self._done = threading.Condition(self._lock)
        self._writer: threading.Thread | None = None
        self.unwritable = False
        """Set when the file cannot be written (a read-only data dir)."""

    @classmethod
    def in_dir(cls, data_dir: Path) -> SignedHeadsFile:
        return cls(data_dir / FILE)

    def _catch_up(self) -> None:
        """Read what was appended since (by this process or another)."""
        try:
            size = self.path.stat().st_size
        except OSError:  # none yet, or a data dir that cannot hold one
            return
        if size <= self._offset:
            return
        with self.path.open("rb") as src:
            src.seek(self._offset)
            data = src.read(size - self._offset)
        end = data.rfind(b"\n") + 1  # a torn last line is read when complete
        for line in data[:end].splitlines():
            if not line.strip():
                continue
            try:
                head = SignedHead.from_json(json.loads(line))
            except ValueError:
                log.error("%s: unreadable line skipped: %r", self.path, line[:80])
                continue
            held = self._heads.get(head.game_id)
            if held is None or head.version >= held.version:
                if held != head:
                    self._changed[head.game_id] = head
                self._heads[head.game_id] = head
            held = self._on_disk.get(head.game_id)
            if held is None or head.version >= held.version:
                self._on_disk[head.game_id] = head
        self._offset += end

    def last(self, game_id: str) -> SignedHead | None:
        """The highest head signed for ``game_id``, as the whole record has it."""
        with self._lock:
            self._catch_up()
            return self._heads.get(game_id)

    def changed(self) -> dict[str, SignedHead]:
        """The games whose highest signed head changed since they were last
        :meth:`published` (by this process or, read from the file, another;
        after a restart, every game once), with those heads."""
        with self._lock:
            self._catch_up()
            return dict(self._changed)

    def published(self, heads: dict[str, SignedHead]) -> None:
        """``heads`` are in a checkpoint: no longer :meth:`changed` (unless a
        newer head came meanwhile)."""
        with self._lock:
            for game_id, head in heads.items():
                if self._changed.get(game_id) == head:
                    del self._changed[game_id]

    def record(self, head: SignedHead) -> None:
        """Hold ``head`` as the game's signed head now; append it durably soon."""
        with self._lock:
            held = self._heads.get(head.game_id)
            if held is not None and held.version >= head.version:
                return
            self._heads[head.game_id] = self._changed[head.game_id] = head
            self._pending.append(head)
            self._queued += 1
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_forever, name="signed-heads", daemon=True
                )
                self._writer.start()
            elif self._idle:
                self._idle = False
                self._work.notify()

    def flush(self) -> None:
        """Wait until every head recorded so far is on disk."""
        with self._lock:
            queued = self._queued
            while self._written < queued:
                self._done.wait()

    def _write_forever(self) -> None:
        while True:
            with self._lock:
                while not self._pending:
                    self._idle = True
                    self._work.wait()
                self._idle = False
            time.sleep(GATHER_S)
            with self._lock:
                batch, self._pending = self._pending, []
            try:
                self._append(batch)
            except OSError as exc:
                if not self.unwritable:  # once: every later write fails alike
                    log.error(
                        "cannot write the signer's record %s (%s): it protects "
                        "only what this process signs until it stops; give the "
                        "server a writable data dir",
                        self.path,
                        exc.strerror,
                    )
                self.unwritable = True
            finally:
                with self._lock:
                    self._written += len(batch)
                    self._done.notify_all()

    def _append(self, batch: list[SignedHead]) -> None:
        """Append the batch's new heads under the file's lock, with one fsync.

        Why the offset moves past this process's own lines before they are
        written: the next :meth:`_catch_up` (every signature asks
        :meth:`last`, also during this write's fsync) would otherwise read
        and parse back every line this process wrote; under the file's lock
        nothing else is appended between the catch-up and the write, so the
        file ends where this write ends.  A write that fails gives the
        offset back, so the next catch-up reads whatever of it landed.  Only
        the batch's games are looked up, never the whole record: a write
        costs the same however many games the record holds.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with self._lock:
                self._catch_up()  # what other processes appended meanwhile
                newest: dict[str, SignedHead] = {}
                for head in batch:
                    held = newest.get(head.game_id) or self._on_disk.get(head.game_id)
                    if held is None or head.version > held.version:
                        newest[head.game_id] = head
            if not newest:
                return
            data = "".join(
                json.dumps(head.to_json(), separators=(",", ":")) + "\n"
                for head in newest.values()
            ).encode()
            with self._lock:  # nothing was appended since: the file's lock
                start = self._offset
                whole = start == os.fstat(fd).st_size  # no torn last line
                if whole:  # else the next catch-up reads the torn line, then these
                    self._offset = start + len(data)
            try:
                written = 0
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            except BaseException:
                if whole:
                    with self._lock:
                        self._offset = start
                raise
            with self._lock:
                for head in newest.values():
                    held = self._on_disk.get(head.game_id)
                    if held is None or head.version > held.version:
                        self._on_disk[head.game_id] = head
        finally:
            os.close(fd)  # closing releases the lock
