"""Forged Ed25519 forms: each is refused, whatever a lenient verifier says.

A seat key of small order lets anyone "sign" (the identity key with the
signature ``01 00…00 ‖ 00…00`` verifies under a cofactorless check for every
message), a key off the curve or with a torsion part is no honest player's,
and a signature with a small-order ``R`` or a non-canonical ``S`` is either
malleable or a cofactored-only forgery.  Keys are refused when a game is
created; signatures are refused when a move (or an audit) checks them.
"""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.bindings import crypto_core_ed25519_add

from domain.contract.core import InvalidCommandError
from domain.ledger.signatures import (
    SignedMove,
    is_signed_by,
    move_message,
    parse_seat_keys,
)

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the Ed25519 base point."""

SMALL_ORDER = [
    bytes([1]) + bytes(31),  # the identity (order 1)
    bytes.fromhex("ec" + "ff" * 30 + "7f"),  # order 2
    bytes(32),  # order 4
    bytes(31) + b"\x80",  # order 4 (the other sign)
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
]
"""Canonical encodings of the eight-torsion points (orders 1, 2, 4 and 8)."""

ORDER_8 = SMALL_ORDER[4]
OFF_CURVE = bytes([2]) + bytes(31)
"""y = 2 has no x on Ed25519 (x² = (y²-1)/(dy²+1) is not a square)."""

GAME, COMMAND, VERSION, TYPE, MOVE = "g", "c1", 4, "t/x.Move", b"\x0a\x02hi"


def message() -> bytes:
    return move_message(GAME, COMMAND, VERSION, TYPE, MOVE)


def signed(signature: bytes) -> SignedMove:
    return SignedMove(TYPE, MOVE, signature, VERSION)


def honest() -> tuple[Ed25519PrivateKey, bytes]:
    key = Ed25519PrivateKey.generate()
    return key, key.public_key().public_bytes_raw()


def secret_scalar(key: Ed25519PrivateKey) -> int:
    digest = bytearray(hashlib.sha512(key.private_bytes_raw()).digest()[:32])
    digest[0] &= 248
    digest[31] &= 127
    digest[31] |= 64
    return int.from_bytes(digest, "little")


@pytest.mark.parametrize("point", SMALL_ORDER, ids=lambda p: p.hex()[:8])
def test_a_small_order_seat_key_is_refused_naming_its_field(point):
    _, good = honest()
    with pytest.raises(InvalidCommandError) as refused:
        parse_seat_keys([good, point], 2)
    assert [field for field, _ in refused.value.violations] == ["seat_public_keys[1]"]


def test_a_seat_key_off_the_curve_or_with_a_torsion_part_is_refused():
    _, good = honest()
    mixed = crypto_core_ed25519_add(good, ORDER_8)
    for bad in (OFF_CURVE, mixed):
        with pytest.raises(InvalidCommandError) as refused:
            parse_seat_keys([bad, good], 2)
        assert refused.value.violations[0][0] == "seat_public_keys[0]"


def test_the_keyless_forgery_does_not_verify():
    """Identity key, signature ``01 00…00 ‖ 00…00``, made without any secret."""
    forged = signed(bytes([1]) + bytes(63))
    assert not is_signed_by(SMALL_ORDER[0].hex(), GAME, COMMAND, forged)


def test_a_non_canonical_s_does_not_verify():
    key, public = honest()
    signature = key.sign(message())
    assert is_signed_by(public.hex(), GAME, COMMAND, signed(signature))
    s = int.from_bytes(signature[32:], "little")
    malleated = signature[:32] + (s + L).to_bytes(32, "little")
    assert not is_signed_by(public.hex(), GAME, COMMAND, signed(malleated))


def test_a_small_order_r_does_not_verify():
    """R = an order-8 point and S = h·a pass a cofactored check, not ours."""
    key, public = honest()
    h = (
        int.from_bytes(hashlib.sha512(ORDER_8 + public + message()).digest(), "little")
        % L
    )
    s = h * secret_scalar(key) % L
    forged = ORDER_8 + s.to_bytes(32, "little")
    assert not is_signed_by(public.hex(), GAME, COMMAND, signed(forged))


@pytest.mark.parametrize("point", SMALL_ORDER, ids=lambda p: p.hex()[:8])
def test_no_small_order_key_verifies_a_signature_made_without_its_secret(point):
    """A game stored before keys were checked still gets no forged move past
    the audit: R = the key itself and S = 0 satisfy S·B = R + h·A whenever
    h·A = -A, which a small-order A allows for many messages."""
    for r in SMALL_ORDER:
        forged = signed(r + bytes(32))
        assert not is_signed_by(point.hex(), GAME, COMMAND, forged)
