"""The published checkpoints and the heads tree behind them, kept beside the signing key.

Two append-only files in the data dir: ``checkpoint-leaves.ndjson``, one
leaf (a game's head, :class:`domain.ledger.signed_heads.SignedHead`) per
line in tree order, and ``checkpoints.ndjson``, every signed checkpoint.
Why not the database: a checkpoint's tree is built from the signer's own
record (``services.storage.signed_heads``), never from what the database
says, so a superuser who rolls a game back cannot make the next checkpoint
forget its head; and proofs are served from these files.

Each checkpoint appends a leaf for every game whose signed head changed
since the previous one, so successive trees extend each other (an RFC 6962
consistency proof links them) and a game's newest head is its last leaf.
Processes sharing the data dir take an exclusive ``flock`` to publish.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from pymerkle import InmemoryTree

from domain.ledger.checkpoints import (
    ALGORITHM,
    Checkpoint,
    CheckpointError,
    Consistency,
    Inclusion,
    leaf_bytes,
    sign_checkpoint,
)
from domain.ledger.receipts import Signer
from domain.ledger.signed_heads import SignedHead

LEAVES = "checkpoint-leaves.ndjson"
CHECKPOINTS = "checkpoints.ndjson"


class HashesTree(InmemoryTree):
    """pymerkle's in-memory tree, holding each leaf's hash but not its bytes.

    Why: roots and proofs need only the hashes, and a leaf's head is already
    in :attr:`CheckpointLog._leaves` (and on disk).  pymerkle's leaf keeps
    the bytes it was hashed from, and ``orjson`` hands each back in a 4 KiB
    buffer: with 10,000 open games that was 38 MiB of the serving process,
    one buffer per leaf, for bytes nothing reads again.  ``_store_leaf`` is
    pymerkle's storage hook (what a backend implements); the hash is taken
    from the bytes before it is called, so the tree is the same.
    """

    def _store_leaf(self, data: bytes, digest: bytes) -> int:
        return int(super()._store_leaf(None, digest))


class CheckpointLog:
    def __init__(self, data_dir: Path) -> None:
        self._leaves_path = data_dir / LEAVES
        self._checkpoints_path = data_dir / CHECKPOINTS
        self._tree = HashesTree(algorithm=ALGORITHM)
        self._leaves: list[SignedHead] = []
        self._positions: dict[str, list[int]] = {}
        """Each game's leaf indexes (from 1), oldest first."""
        self._checkpoints: list[Checkpoint] = []
        self._offsets = [0, 0]
        self._lock = threading.Lock()

    def _read_new(self, path: Path, which: int) -> list[bytes]:
        try:
            size = path.stat().st_size
        except OSError:  # none yet, or a data dir that cannot hold one
            return []
        if size <= self._offsets[which]:
            return []
        with path.open("rb") as src:
            src.seek(self._offsets[which])
            data = src.read(size - self._offsets[which])
        end = data.rfind(b"\n") + 1
        self._offsets[which] += end
        return [line for line in data[:end].splitlines() if line.strip()]

    def _catch_up(self) -> None:
        for line in self._read_new(self._leaves_path, 0):
            self._add_leaf(SignedHead.from_json(json.loads(line)))
        for line in self._read_new(self._checkpoints_path, 1):
            self._checkpoints.append(Checkpoint.from_json(json.loads(line)))

    def _add_leaf(self, head: SignedHead) -> None:
        index = self._tree.append_entry(leaf_bytes(head))
        self._leaves.append(head)
        self._positions.setdefault(head.game_id, []).append(index)

    def latest(self) -> Checkpoint | None:
        with self._lock:
            self._catch_up()
            return self._checkpoints[-1] if self._checkpoints else None

    def checkpoints(self) -> list[Checkpoint]:
        with self._lock:
            self._catch_up()
            return list(self._checkpoints)

    def publish(
        self, heads: Mapping[str, SignedHead], signer: Signer, timestamp: str
    ) -> Checkpoint | None:
        """Sign a checkpoint over ``heads`` (the signer's record, or the part
        of it that changed since the last checkpoint): the tree gains a leaf
        for each game whose head changed.  None when nothing was ever signed;
        the latest checkpoint when nothing changed.

        Why only the games in ``heads`` are looked at: a game's end signs a
        checkpoint, so its cost must follow what changed, not how many
        games the tree holds."""
        with self._lock:
            self._checkpoints_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(
                self._leaves_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600
            )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                self._catch_up()
                fresh = []
                for gid, head in sorted(heads.items()):  # only the games asked about
                    spots = self._positions.get(gid)
                    newest = self._leaves[spots[-1] - 1] if spots else None
                    if newest is None or (
                        newest != head and head.version >= newest.version
                    ):
                        fresh.append(head)
                if not fresh:
                    if self._checkpoints or not self._leaves:
                        return self._checkpoints[-1] if self._checkpoints else None
                else:
                    text = "".join(
                        json.dumps(h.to_json(), separators=(",", ":")) + "\n"
                        for h in fresh
                    )
                    os.write(fd, text.encode())
                    os.fsync(fd)
                    self._catch_up()
                size = self._tree.get_size()
                checkpoint = sign_checkpoint(
                    signer, size, self._tree.get_root(size).hex(), timestamp
                )
                line = json.dumps(checkpoint.to_json(), separators=(",", ":")) + "\n"
                with self._checkpoints_path.open("ab") as out:
                    out.write(line.encode())
                    out.flush()
                    os.fsync(out.fileno())
                self._catch_up()
                return checkpoint
            finally:
                os.close(fd)

    def inclusion(self, game_id: str, tree_size: int | None = None) -> Inclusion:
        """The proof that ``game_id``'s newest head within the first
        ``tree_size`` leaves (default: the latest checkpoint's) is in that tree.

        :raises CheckpointError: no checkpoint, or no leaf of the game in it.
        """
        with self._lock:
            self._catch_up()
            if tree_size is None:
                if not self._checkpoints:
                    raise CheckpointError("no checkpoint has been published yet")
                tree_size = self._checkpoints[-1].tree_size
            if not 0 < tree_size <= self._tree.get_size():
                raise CheckpointError(f"no checkpoint of size {tree_size}")
            spots = [i for i in self._positions.get(game_id, []) if i <= tree_size]
            if not spots:
                raise CheckpointError(
                    f"game {game_id} has no head in the checkpoint of size {tree_size}"
                )
            index = spots[-1]
            proof = self._tree.prove_inclusion(index, tree_size)
            return Inclusion.of(self._leaves[index - 1], proof)

    def consistency(self, prior_size: int, tree_size: int | None = None) -> Consistency:
        """:raises CheckpointError: for sizes the log does not hold."""
        with self._lock:
            self._catch_up()
            size = self._tree.get_size() if tree_size is None else tree_size
            if not 0 < prior_size <= size <= self._tree.get_size():
                raise CheckpointError(
                    f"no consistency proof from size {prior_size} to {size}"
                )
            return Consistency.of(self._tree.prove_consistency(prior_size, size))

    def root_at(self, tree_size: int) -> str | None:
        """The tree's root hash (hex) at ``tree_size``, or None beyond this log."""
        with self._lock:
            self._catch_up()
            if not 0 < tree_size <= self._tree.get_size():
                return None
            return str(self._tree.get_root(tree_size).hex())

    def heads_at(self, tree_size: int) -> dict[str, SignedHead]:
        """Each game's newest head among the first ``tree_size`` leaves."""
        with self._lock:
            self._catch_up()
            found: dict[str, SignedHead] = {}
            for head in self._leaves[:tree_size]:
                found[head.game_id] = head
            return found
