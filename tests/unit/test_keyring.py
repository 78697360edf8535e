"""The deployment's receipt keyring: rotation keeps old receipts verifying, inside their window."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)

from domain.audit.export import export_lines, verify_lines
from domain.ledger.receipts import Keyring, RingKey, Signer, check_receipts
from services.storage.signing_key import SigningKeyError, load_signer, parse_keyring

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def stamp(minutes: int) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


def rows_for(*stamps: str) -> list[tuple[int, str, bytes]]:
    return [
        (v, "t", json.dumps({"hash": f"{v:064x}", "timestamp": s, "body": {}}).encode())
        for v, s in enumerate(stamps, start=1)
    ]


def test_receipts_of_two_keys_verify_against_the_ring_of_both():
    old, new = Signer.generate(), Signer.generate()
    rows = rows_for(stamp(0), stamp(10))
    receipts = [
        old.sign("g", 1, f"{1:064x}", stamp(0)),
        new.sign("g", 2, f"{2:064x}", stamp(10)),
    ]
    ring = Keyring(
        (
            RingKey(new.public_key),
            RingKey(old.public_key, None, T0 + timedelta(minutes=5)),
        )
    )
    assert check_receipts("g", rows, receipts, ring) == []
    alone = check_receipts("g", rows, receipts, new.public_key)
    assert [(p.version, "not in the keyring" in p.detail) for p in alone] == [(1, True)]


def test_a_retired_key_does_not_vouch_for_receipts_after_its_window():
    old = Signer.generate()
    rows = rows_for(stamp(0), stamp(10))
    receipts = [old.sign("g", v, f"{v:064x}", stamp(m)) for v, m in ((1, 0), (2, 10))]
    ring = Keyring((RingKey(old.public_key, T0, T0 + timedelta(minutes=5)),))
    problems = check_receipts("g", rows, receipts, ring)
    assert [p.version for p in problems] == [2]
    assert "outside its validity window" in problems[0].detail
    early = Keyring((RingKey(old.public_key, T0 + timedelta(minutes=1)),))
    assert [p.version for p in check_receipts("g", rows, receipts, early)] == [1]


def test_a_receipt_with_a_forged_signature_fails_even_when_its_key_is_in_the_ring():
    key = Signer.generate()
    receipt = key.sign("g", 1, f"{1:064x}", stamp(0))
    forged = type(receipt)(**{**receipt.__dict__, "head_hash": f"{9:064x}"})
    problems = check_receipts(
        "g", rows_for(stamp(0)), [forged], Keyring.of(key.public_key)
    )
    assert [p.detail for p in problems] == [
        "signature does not verify with the server's public key"
    ]


def test_an_export_carries_the_ring_and_verifies_across_a_rotation():
    old, new = Signer.generate(), Signer.generate()
    rows = rows_for(stamp(0), stamp(10))
    receipts = [
        old.sign("g", 1, f"{1:064x}", stamp(0)),
        new.sign("g", 2, f"{2:064x}", stamp(10)),
    ]
    ring = Keyring(
        (
            RingKey(new.public_key),
            RingKey(old.public_key, None, T0 + timedelta(minutes=5)),
        )
    )
    lines = list(export_lines("g", rows, receipts, ring))
    header = json.loads(lines[0])
    assert header["receipt_key"] == new.public_key.hex()
    assert Keyring.from_json(header["receipt_keys"]) == ring
    checks = lambda report: {f.check for f in report.failures}
    assert "receipt (export)" not in checks(verify_lines(lines))
    assert "receipt (export)" not in checks(verify_lines(lines, ring))
    assert "receipt (export)" in checks(verify_lines(lines, new.public_key))


def test_the_key_file_is_hex_or_pem_and_the_keyring_setting_is_checked(tmp_path):
    key = Ed25519PrivateKey.generate()
    (tmp_path / "hex").write_text(key.private_bytes_raw().hex() + "\n")
    (tmp_path / "pem").write_bytes(
        key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    )
    signer = load_signer(None, tmp_path / "nothing-here", tmp_path / "hex")
    assert load_signer(None, tmp_path, tmp_path / "pem").key_id == signer.key_id
    assert not (tmp_path / "nothing-here").exists()  # a configured key creates nothing
    with pytest.raises(SigningKeyError, match="cannot read"):
        load_signer(None, tmp_path, tmp_path / "missing")
    ring = parse_keyring(
        json.dumps([{"public_key": signer.public_key.hex(), "not_after": stamp(5)}])
    )
    assert ring.keys == (RingKey(signer.public_key, None, T0 + timedelta(minutes=5)),)
    assert parse_keyring(None) == Keyring(())
    for bad, says in [
        ("{", "JSON list"),
        ('[{"public_key": "abcd"}]', "32 bytes"),
        (json.dumps([{"public_key": "ab" * 32, "not_after": "soon"}]), "ISO 8601"),
        (
            json.dumps([{"public_key": "ab" * 32, "not_after": "2026-03-01T00:00:00"}]),
            "UTC offset",
        ),
        (
            json.dumps(
                [
                    {
                        "public_key": "ab" * 32,
                        "not_before": stamp(5),
                        "not_after": stamp(1),
                    }
                ]
            ),
            "ends before it starts",
        ),
    ]:
        with pytest.raises(SigningKeyError, match=says):
            parse_keyring(bad)


def test_a_server_of_several_never_generates_a_key_of_its_own(tmp_path) -> None:
    """With a bus (``generate=False``), no key anywhere is refused in one line
    naming the fix; a key already kept in the data dir, or configured, serves."""
    import pytest

    from services.storage.signing_key import SigningKeyError, load_signer

    with pytest.raises(SigningKeyError, match="LEDGER_SIGNING_KEY_FILE"):
        load_signer(None, tmp_path, generate=False)
    assert not list(tmp_path.iterdir())  # nothing generated
    kept = load_signer(None, tmp_path)  # a single host generates and keeps one
    again = load_signer(None, tmp_path, generate=False)
    assert again.public_key == kept.public_key
