"""The chance derivation and hash encoding are fixed specifications: pin them."""

from __future__ import annotations

import doctest
from collections import Counter

import domain.contract.chance
import domain.contract.core
import domain.ledger.records.sealing
from domain.contract.chance import HmacRng, commit, game_key, seed_commitment
from domain.ledger.records import GENESIS, canonical_json, event_hash


def test_module_doctests_pass():
    for module in (
        domain.contract.chance,
        domain.contract.core,
        domain.ledger.records.sealing,
    ):
        assert doctest.testmod(module).failed == 0


def test_the_stream_is_a_pure_function_of_seed_game_entropy_and_label():
    a = HmacRng.for_decision(b"s" * 32, "g", ("x",), 7).shuffle(range(20))
    b = HmacRng.for_decision(b"s" * 32, "g", ("x",), 7).shuffle(range(20))
    assert a == b and sorted(a) == list(range(20))
    assert HmacRng.for_decision(b"s" * 32, "g", ("y",), 7).shuffle(range(20)) != a
    assert HmacRng.for_decision(b"s" * 32, "g", ("x",), 8).shuffle(range(20)) != a
    assert game_key(b"s" * 32, "g", ("x",)) != game_key(b"s" * 32, "h", ("x",))


def _reference_shuffle(
    seed: bytes, game_id: str, label: str, n: int
) -> tuple[int, ...]:
    """The documented scheme, written out independently of domain.contract.chance."""
    import hashlib
    import hmac

    key = hmac.new(
        seed, f"ledger/game-key/v1|{game_id}".encode(), hashlib.sha256
    ).digest()
    stream = b"".join(
        hmac.new(
            key, label.encode() + b"|" + i.to_bytes(8, "big"), hashlib.sha256
        ).digest()
        for i in range(8)
    )
    pos, out = 0, list(range(n))
    for i in range(n - 1, 0, -1):
        bits = i.bit_length()
        while True:
            width = (bits + 7) // 8
            r = int.from_bytes(stream[pos : pos + width], "big") & ((1 << bits) - 1)
            pos += width
            if r <= i:
                break
        out[i], out[r] = out[r], out[i]
    return tuple(out)


def test_known_answer_vector_pins_scheme_v1():
    rng = HmacRng.for_decision(bytes(32), "game", (), 1)
    expected = (6, 9, 7, 2, 0, 8, 5, 3, 4, 1)
    assert _reference_shuffle(bytes(32), "game", "v1", 10) == expected
    assert rng.shuffle(range(10)) == expected
    assert seed_commitment(bytes(32)).startswith("66687aadf862bd77")


def test_randbelow_is_unbiased_enough_for_a_die():
    rng = HmacRng(b"k", "dice")
    counts = Counter(rng.roll(6) for _ in range(60_000))
    assert set(counts) == set(range(1, 7))
    assert all(abs(c - 10_000) < 500 for c in counts.values())


def test_commitments_bind_nonce_and_payload():
    assert commit(b"n", "a") != commit(b"n", "b") != commit(b"m", "b")


def test_event_hash_covers_every_field():
    base = {
        "game_id": "g",
        "version": 2,
        "type_": "t",
        "timestamp": "ts",
        "prev_hash": GENESIS,
        "body": {"a": 1},
        "nonce": "00" * 16,
    }
    h = event_hash(**base)
    for key, value in [
        ("game_id", "h"),
        ("version", 3),
        ("type_", "u"),
        ("timestamp", "tz"),
        ("prev_hash", "1" * 64),
        ("body", {"a": 2}),
        ("nonce", "01" * 16),
    ]:
        assert event_hash(**{**base, key: value}) != h
    assert canonical_json({"b": 1, "a": 2}) == b'{"a":2,"b":1}'
