"""Receipts, player signatures and the signing key, without a database."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.contract.core import InvalidCommandError
from domain.ledger.receipts import (
    Receipt,
    Signer,
    is_valid,
    load_receipts,
    receipt_message,
)
from domain.ledger.signatures import (
    BadSignatureError,
    MissingSignatureError,
    SignedMove,
    move_message,
    parse_seat_keys,
    require_signature,
)
from services.storage.signing_key import SigningKeyError, load_signer


def raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def test_the_signed_bytes_are_canonical_json_a_client_can_rebuild():
    assert receipt_message("g", 3, "ab", "2026-01-01T00:00:00+00:00") == (
        b'{"context":"ledger-receipt/v1","game_id":"g","head_hash":"ab",'
        b'"timestamp":"2026-01-01T00:00:00+00:00","version":3}'
    )
    assert move_message("g", "c1", 7, "type.googleapis.com/x.Move", b"\x01\xff") == (
        b'{"command_id":"c1","context":"ledger-move/v1","expected_version":7,'
        b'"game_id":"g","move":"Af8=","move_type":"type.googleapis.com/x.Move"}'
    )


def test_a_receipt_verifies_only_as_signed_and_only_with_its_key():
    signer = Signer.generate()
    receipt = signer.sign("g", 5, "aa" * 32, "2026-01-01T00:00:00+00:00")
    assert is_valid(receipt, signer.public_key)
    assert Receipt.from_json(json.loads(json.dumps(receipt.to_json()))) == receipt
    for changed in (
        replace(receipt, game_id="h"),
        replace(receipt, version=6),
        replace(receipt, head_hash="bb" * 32),
        replace(receipt, timestamp="2025-01-01T00:00:00+00:00"),
    ):
        assert not is_valid(changed, signer.public_key)
    assert not is_valid(receipt, Signer.generate().public_key)
    assert not is_valid(receipt, b"short")


def test_receipts_and_checkpoints_are_signed_as_cryptography_signs_them():
    """The signer signs through libsodium: Ed25519 is deterministic, so its
    bytes are exactly those of the key's own ``sign``, for any message."""
    key = Ed25519PrivateKey.generate()
    signer = Signer(key)
    for n in range(0, 300, 7):
        message = bytes(range(256))[:n] * 3
        assert signer.sign_message(message) == key.sign(message)
    receipt = signer.sign("g", 4, "cd" * 32, "2026-01-01T00:00:00+00:00")
    assert receipt.signature == key.sign(receipt.message())
    assert is_valid(receipt, raw(key))


def test_receipt_files_are_json_lines_or_a_list():
    signer = Signer.generate()
    receipts = [signer.sign("g", v, "aa", "t") for v in (2, 4)]
    as_lines = "\n".join(json.dumps(r.to_json()) for r in receipts) + "\n"
    as_list = json.dumps([r.to_json() for r in receipts])
    assert load_receipts(as_lines) == load_receipts(as_list) == receipts
    for bad in ("[1, 2]", '{"game_id": "g"}', "not json"):
        with pytest.raises(ValueError):
            load_receipts(bad)


def signed(key: Ed25519PrivateKey, version: int, command_id: str = "c1") -> SignedMove:
    move = b"\x0a\x02hi"
    return SignedMove(
        "t/x.Move",
        move,
        key.sign(move_message("g", command_id, version, "t/x.Move", move)),
        version,
    )


def test_require_signature_names_each_way_a_move_can_be_unsigned():
    keys = [Ed25519PrivateKey.generate() for _ in range(2)]
    stored = parse_seat_keys([raw(k) for k in keys], 2)
    require_signature(stored, "g", 0, "c1", 4, signed(keys[0], 4))  # accepted
    with pytest.raises(MissingSignatureError):
        require_signature(stored, "g", 0, "c1", 4, None)
    with pytest.raises(BadSignatureError):
        require_signature(stored, "g", 1, "c1", 4, signed(keys[0], 4))  # other seat
    with pytest.raises(BadSignatureError):
        require_signature(stored, "g", 0, "c2", 4, signed(keys[0], 4))  # other command
    with pytest.raises(BadSignatureError):
        require_signature(stored, "g", 0, "c1", 5, signed(keys[0], 4))  # other position
    with pytest.raises(InvalidCommandError):
        short = replace(signed(keys[0], 4), signature=b"x" * 10)
        require_signature(stored, "g", 0, "c1", 4, short)
    with pytest.raises(InvalidCommandError):
        require_signature((), "g", 0, "c1", 4, signed(keys[0], 4))  # game without keys
    require_signature((), "g", 0, "c1", 4, None)


@pytest.mark.parametrize("keys", [[b"x" * 32], [b"x" * 31, b"y" * 32]])
def test_seat_keys_are_one_32_byte_key_per_seat(keys):
    with pytest.raises(InvalidCommandError):
        parse_seat_keys(keys, 2)


def test_the_signing_key_is_generated_once_or_configured(tmp_path):
    first = load_signer(None, tmp_path)
    assert (tmp_path / "signing-key").stat().st_mode & 0o777 == 0o600
    assert load_signer(None, tmp_path).public_key == first.public_key
    key = Ed25519PrivateKey.generate()
    hexed = key.private_bytes_raw().hex()
    configured = load_signer(hexed, tmp_path)
    assert configured.public_key == raw(key)
    with pytest.raises(SigningKeyError):
        load_signer("zz", tmp_path)
