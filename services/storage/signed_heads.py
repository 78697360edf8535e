"""The signer's record of the heads it signed: an append-only file beside its key.

Why a file in the data dir, not a table: the record exists to refuse what a
database superuser can do, so it must live where that superuser cannot
write, with the signing key (the signing host is trusted, the database is
not).  One JSON line per stored write, ``{"game_id", "version",
"head_hash"}``; the newest line of a game is its highest signed head.

Several server processes on one host (or one shared volume) share the file:
each operation takes an exclusive ``flock`` and first reads what the others
appended since, so every process decides on the whole record.  An operator
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
from pathlib import Path

from domain.ledger.signed_heads import SignedHead, refusal

log = logging.getLogger(__name__)
FILE = "signed-heads.ndjson"


class SignedHeadsFile:
    """The highest signed head of every game, backed by ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._heads: dict[str, SignedHead] = {}
        self._offset = 0
        self._lock = threading.Lock()

    @classmethod
    def in_dir(cls, data_dir: Path) -> SignedHeadsFile:
        return cls(data_dir / FILE)

    def _catch_up(self, fh: object | None = None) -> None:
        """Read what was appended since (by this process or another)."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
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
                self._heads[head.game_id] = head
        self._offset += end

    def last(self, game_id: str) -> SignedHead | None:
        """The highest head signed for ``game_id``, as the whole record has it."""
        with self._lock:
            self._catch_up()
            return self._heads.get(game_id)

    def heads(self) -> dict[str, SignedHead]:
        """Every game's highest signed head."""
        with self._lock:
            self._catch_up()
            return dict(self._heads)

    def check(
        self,
        game_id: str,
        first_version: int,
        prev_hash: str,
        version: int,
        head_hash: str,
    ) -> str | None:
        """Why signing this head would contradict the record, or None."""
        return refusal(self.last(game_id), first_version, prev_hash, version, head_hash)

    def record(self, head: SignedHead) -> None:
        """Append ``head`` (durably) unless the record already holds it or newer."""
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                self._catch_up()
                held = self._heads.get(head.game_id)
                if held is not None and held.version >= head.version:
                    return
                line = json.dumps(head.to_json(), separators=(",", ":")) + "\n"
                os.write(fd, line.encode())
                os.fsync(fd)
                self._catch_up()
            finally:
                os.close(fd)  # closing releases the lock
