"""Signed checkpoints: a Merkle tree over every game's head, Certificate-Transparency style.

Why: a receipt pins one head of one game for whoever kept it.  A checkpoint
pins every game's head at once, for anyone who kept *one* small object:
the ledger appends each game's newest signed head as a leaf of an
append-only RFC 6962/9162 Merkle tree (leaf hash ``SHA-256(0x00 || leaf)``,
node hash ``SHA-256(0x01 || left || right)``) and signs the tree's size and
root::

    canonical_json({"context": "ledger-checkpoint/v1", "tree_size": int,
                    "root_hash": hex, "timestamp": ISO-8601})

with the receipt key.  An inclusion proof shows a game's head is a leaf of
a checkpoint; a consistency proof shows a later checkpoint's tree extends an
earlier one's, so a log that forgets or rewrites a leaf cannot produce one.
A verifier that holds an earlier checkpoint therefore detects any rollback
since: the game's head then is a leaf of it, and the database must still
hold that head (:func:`rollbacks`).

The tree and proofs are pymerkle's (``InmemoryTree``, ``InclusionProof``,
``ConsistencyProof``); this module fixes the leaf encoding and the signed
message.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from pymerkle import ConsistencyProof, InclusionProof, InvalidProof
from pymerkle.hasher import MerkleHasher

from domain.ledger.receipts import Keyring, Signer
from domain.ledger.records import canonical_json
from domain.ledger.signed_heads import SignedHead

CONTEXT = "ledger-checkpoint/v1"
LEAF_CONTEXT = "ledger-head/v1"
ALGORITHM = "sha256"


class CheckpointError(LookupError):
    """Raised when a checkpoint or proof is asked for that the log does not hold."""


def leaf_bytes(head: SignedHead) -> bytes:
    """The exact bytes of one leaf: a game's head."""
    return canonical_json({"context": LEAF_CONTEXT, **head.to_json()})


def leaf_hash(head: SignedHead) -> bytes:
    """RFC 6962's leaf hash of ``head``."""
    return bytes(MerkleHasher(ALGORITHM).hash_buff(leaf_bytes(head)))


def checkpoint_message(tree_size: int, root_hash: str, timestamp: str) -> bytes:
    """The exact bytes a checkpoint signs."""
    return canonical_json(
        {
            "context": CONTEXT,
            "tree_size": tree_size,
            "root_hash": root_hash,
            "timestamp": timestamp,
        }
    )


@dataclass(frozen=True)
class Checkpoint:
    """The ledger's signature over its heads tree at one size."""

    tree_size: int
    root_hash: str
    timestamp: str
    key_id: str
    signature: bytes

    def message(self) -> bytes:
        return checkpoint_message(self.tree_size, self.root_hash, self.timestamp)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "checkpoint",
            "context": CONTEXT,
            "tree_size": self.tree_size,
            "root_hash": self.root_hash,
            "timestamp": self.timestamp,
            "key_id": self.key_id,
            "signature": base64.b64encode(self.signature).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: Any) -> Checkpoint:
        """:raises ValueError: for anything but :meth:`to_json`'s shape."""
        try:
            return cls(
                int(data["tree_size"]),
                str(data["root_hash"]),
                str(data["timestamp"]),
                str(data["key_id"]),
                base64.b64decode(data["signature"], validate=True),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed checkpoint: {exc}") from None


def sign_checkpoint(
    signer: Signer, tree_size: int, root_hash: str, timestamp: str
) -> Checkpoint:
    message = checkpoint_message(tree_size, root_hash, timestamp)
    return Checkpoint(
        tree_size, root_hash, timestamp, signer.key_id, signer.sign_message(message)
    )


def checkpoint_problem(checkpoint: Checkpoint, keys: bytes | Keyring) -> str | None:
    """Why ``keys`` do not vouch for ``checkpoint``, or None when they do."""
    ring = keys if isinstance(keys, Keyring) else Keyring.of(keys)
    key = ring.find(checkpoint.key_id)
    if key is None:
        return f"checkpoint signed by key {checkpoint.key_id}, not in the keyring ({ring.ids()})"
    try:
        Ed25519PublicKey.from_public_bytes(key.public_key).verify(
            checkpoint.signature, checkpoint.message()
        )
    except (InvalidSignature, ValueError):
        return "the checkpoint's signature does not verify with the ledger's key"
    if not key.covers(checkpoint.timestamp):
        return f"checkpoint signed outside key {key.key_id}'s window ({key.window()})"
    return None


@dataclass(frozen=True)
class Inclusion:
    """A game's head and the proof it is leaf ``index`` (from 1) of a tree of ``tree_size``."""

    head: SignedHead
    index: int
    tree_size: int
    path: tuple[bytes, ...]
    rule: tuple[int, ...]

    @classmethod
    def of(cls, head: SignedHead, proof: InclusionProof) -> Inclusion:
        data = proof.serialize()
        return cls(
            head,
            int(data["metadata"]["index"]),
            int(data["metadata"]["size"]),
            tuple(bytes.fromhex(h) for h in data["path"]),
            tuple(int(r) for r in data["rule"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "head": self.head.to_json(),
            "index": self.index,
            "tree_size": self.tree_size,
            "path": [h.hex() for h in self.path],
            "rule": list(self.rule),
        }

    @classmethod
    def from_json(cls, data: Any) -> Inclusion:
        """:raises ValueError: for a malformed proof."""
        try:
            return cls(
                SignedHead.from_json(data["head"]),
                int(data["index"]),
                int(data["tree_size"]),
                tuple(bytes.fromhex(h) for h in data["path"]),
                tuple(int(r) for r in data["rule"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed inclusion proof: {exc}") from None

    def problem(self, checkpoint: Checkpoint) -> str | None:
        """Why this is not a proof that the head is in ``checkpoint``'s tree."""
        proof = InclusionProof(
            ALGORITHM,
            True,
            self.tree_size,
            self.index,
            list(self.rule),
            list(self.path),
        )
        return _refused(
            lambda: proof.verify(
                leaf_hash(self.head),
                bytes.fromhex(checkpoint.root_hash),
                index=self.index,
                size=checkpoint.tree_size,
            ),
            "the head is not in the checkpoint's tree",
        )


@dataclass(frozen=True)
class Consistency:
    """A proof that the tree of ``tree_size`` extends the tree of ``prior_size``."""

    prior_size: int
    tree_size: int
    path: tuple[bytes, ...]
    rule: tuple[int, ...]
    subset: tuple[int, ...]

    @classmethod
    def of(cls, proof: ConsistencyProof) -> Consistency:
        data = proof.serialize()
        return cls(
            int(data["metadata"]["prior_size"]),
            int(data["metadata"]["size"]),
            tuple(bytes.fromhex(h) for h in data["path"]),
            tuple(int(r) for r in data["rule"]),
            tuple(int(s) for s in data["subset"]),
        )

    def problem(self, prior: Checkpoint, later: Checkpoint) -> str | None:
        """Why ``later``'s tree is not ``prior``'s extended, or None."""
        if prior.tree_size == later.tree_size:
            return (
                None
                if prior.root_hash == later.root_hash
                else "two checkpoints of one size with different roots"
            )
        proof = ConsistencyProof(
            ALGORITHM,
            True,
            self.tree_size,
            self.prior_size,
            list(self.rule),
            list(self.subset),
            list(self.path),
        )
        return _refused(
            lambda: proof.verify(
                bytes.fromhex(prior.root_hash),
                bytes.fromhex(later.root_hash),
                prior_size=prior.tree_size,
                later_size=later.tree_size,
            ),
            "the later checkpoint does not extend the earlier one",
        )


def _refused(verify: Callable[[], object], problem: str) -> str | None:
    """``problem``, with pymerkle's reason, when ``verify`` refuses a proof
    or meets a malformed hash (so ``verify`` reads the hashes itself);
    ``None`` when the proof holds."""
    try:
        verify()
    except (InvalidProof, ValueError) as exc:
        return f"{problem} ({exc})"
    return None


@dataclass(frozen=True)
class Rollback:
    """A game whose log no longer holds the head a checkpoint pinned."""

    game_id: str
    version: int
    detail: str


def rollbacks(
    pinned: Iterable[SignedHead],
    log_hash_at: Mapping[str, Mapping[int, str]],
) -> list[Rollback]:
    """Every pinned head the log contradicts: missing, or another hash.

    ``log_hash_at[game][version]`` is the stored event's hash.
    """
    found = []
    for head in pinned:
        hashes = log_hash_at.get(head.game_id, {})
        stored = hashes.get(head.version)
        if stored is None:
            end = max(hashes, default=0)
            found.append(
                Rollback(
                    head.game_id,
                    head.version,
                    f"the checkpoint pins version {head.version}, but the log ends "
                    f"at {end}: the game was rolled back",
                )
            )
        elif stored != head.head_hash:
            found.append(
                Rollback(
                    head.game_id,
                    head.version,
                    f"the checkpoint pins version {head.version} with hash "
                    f"{head.head_hash[:16]}..., the log has {stored[:16]}...: "
                    "history up to it was rewritten",
                )
            )
    return found
