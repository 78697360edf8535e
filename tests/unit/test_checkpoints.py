"""Checkpoints: RFC 6962 roots over every game's head, proofs, and rollbacks found."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from domain.ledger.checkpoints import (
    Checkpoint,
    CheckpointError,
    Inclusion,
    checkpoint_problem,
    leaf_bytes,
    rollbacks,
)
from domain.ledger.receipts import Keyring, Signer
from domain.ledger.signed_heads import SignedHead
from services.storage.checkpoint_log import CheckpointLog

STAMP = "2026-01-01T00:00:00+00:00"


def rfc6962_root(leaves: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, written out independently of the library."""
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(
        b"\x01" + rfc6962_root(leaves[:k]) + rfc6962_root(leaves[k:])
    ).digest()


def heads(n: int, version: int = 1) -> dict[str, SignedHead]:
    return {
        f"g{i}": SignedHead(f"g{i}", version, f"{i:02x}{version:062x}")
        for i in range(n)
    }


def test_a_checkpoint_is_the_rfc6962_root_of_the_heads_signed(tmp_path: Path):
    signer = Signer.generate()
    log = CheckpointLog(tmp_path)
    first = log.publish(heads(5), signer, STAMP)
    assert first is not None and first.tree_size == 5
    expected = rfc6962_root(
        [leaf_bytes(h) for h in sorted(heads(5).values(), key=lambda h: h.game_id)]
    )
    assert first.root_hash == expected.hex()
    assert checkpoint_problem(first, Keyring.of(signer.public_key)) is None
    assert checkpoint_problem(first, Signer.generate().public_key) is not None
    forged = Checkpoint(7, first.root_hash, STAMP, first.key_id, first.signature)
    assert "does not verify" in (checkpoint_problem(forged, signer.public_key) or "")


def test_only_changed_heads_are_appended_and_successive_trees_are_consistent(
    tmp_path: Path,
):
    signer = Signer.generate()
    log = CheckpointLog(tmp_path)
    first = log.publish(heads(3), signer, STAMP)
    assert log.publish(heads(3), signer, STAMP) == first  # nothing changed
    moved = {**heads(3), "g1": SignedHead("g1", 9, "ab" * 32)}
    second = log.publish(moved, signer, STAMP)
    assert first is not None and second is not None and second.tree_size == 4
    assert log.consistency(3, 4).problem(first, second) is None
    # a tree that forgot or rewrote a leaf is not an extension of the first
    other = CheckpointLog(tmp_path / "other")
    other.publish({**heads(3), "g0": SignedHead("g0", 1, "cd" * 32)}, signer, STAMP)
    rewritten = other.publish(moved, signer, STAMP)
    assert rewritten is not None
    assert log.consistency(3, 4).problem(first, rewritten) is not None
    # a restarted process reads the same tree back
    again = CheckpointLog(tmp_path)
    assert again.root_at(4) == second.root_hash and again.latest() == second


def test_an_inclusion_proof_holds_for_the_newest_head_only(tmp_path: Path):
    signer = Signer.generate()
    log = CheckpointLog(tmp_path)
    log.publish(heads(6), signer, STAMP)
    moved = {**heads(6), "g2": SignedHead("g2", 5, "ef" * 32)}
    checkpoint = log.publish(moved, signer, STAMP)
    assert checkpoint is not None
    proof = log.inclusion("g2")
    assert proof.head == moved["g2"] and proof.problem(checkpoint) is None
    again = Inclusion.from_json(proof.to_json())
    assert again.problem(checkpoint) is None
    lied = Inclusion(
        heads(6)["g2"], proof.index, proof.tree_size, proof.path, proof.rule
    )
    assert lied.problem(checkpoint) is not None
    with pytest.raises(CheckpointError):
        log.inclusion("nobody")


def test_rollbacks_name_the_game_and_the_pinned_version():
    pinned = [SignedHead("g1", 47, "aa" * 32), SignedHead("g2", 3, "bb" * 32)]
    log = {"g1": {v: "x" for v in range(1, 21)}, "g2": {3: "cc" * 32}}
    found = rollbacks(pinned, log)
    assert [(r.game_id, r.version) for r in found] == [("g1", 47), ("g2", 3)]
    assert "ends at 20" in found[0].detail and "rewritten" in found[1].detail
    assert rollbacks(pinned, {"g1": {47: "aa" * 32}, "g2": {3: "bb" * 32}}) == []


def test_the_tree_keeps_each_leafs_hash_but_not_its_bytes(tmp_path: Path):
    log = CheckpointLog(tmp_path)
    checkpoint = log.publish(heads(3), Signer.generate(), STAMP)
    leaves = log._tree.leaves  # pymerkle's leaves, in tree order
    assert [leaf.data for leaf in leaves] == [None, None, None]
    ordered = sorted(heads(3).values(), key=lambda h: h.game_id)
    assert [leaf.digest for leaf in leaves] == [
        hashlib.sha256(b"\x00" + leaf_bytes(h)).digest() for h in ordered
    ]
    assert checkpoint is not None
    assert checkpoint.root_hash == rfc6962_root([leaf_bytes(h) for h in ordered]).hex()
    assert log.inclusion("g1").problem(checkpoint) is None
