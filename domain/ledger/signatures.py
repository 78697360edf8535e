"""Player-signed moves: not even the database and the seed can forge them.

A game may be created with one Ed25519 public key per seat.  Each move of
such a game must then carry the seat's signature over::

    canonical_json({"context": "ledger-move/v1", "game_id": str,
                    "command_id": str, "expected_version": int,
                    "move_type": Any.type_url,
                    "move": base64(Any.value)})

where ``move_type``/``move`` are the ``google.protobuf.Any`` exactly as the
client sent it in ``SubmitMoveRequest.move``.  The server stores the signed
bytes and the signature in the event's envelope, and the audit checks both
the signature and that the recorded command is what those bytes say.  The
expected version is part of the message so a signed move is valid at one
position of one game only.

Verification is strict (libsodium's ``crypto_sign_open``, through
PyNaCl): ``S`` must be canonical (below the group order), and neither ``R``
nor the key may be a small-order point.  OpenSSL's cofactorless check, which
``cryptography`` wraps, accepts the identity key with the signature
``01 00…00 ‖ 00…00`` for every message: a move "signed" without any secret.
Seat keys are checked when a game is created too (a valid point of the
prime-order subgroup, canonically encoded), so such a game never exists.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from nacl.bindings import crypto_core_ed25519_is_valid_point, crypto_sign_open
from nacl.exceptions import BadSignatureError as SodiumBadSignature

from domain.contract.core import InvalidCommandError
from domain.ledger.records import canonical_json

CONTEXT = "ledger-move/v1"
KEY_BYTES = 32
SIGNATURE_BYTES = 64


class MissingSignatureError(Exception):
    """Raised when a game with seat keys receives a move without a signature."""


class BadSignatureError(Exception):
    """Raised when a move's signature is not the acting seat's."""


def move_message(
    game_id: str,
    command_id: str,
    expected_version: int,
    move_type: str,
    move: bytes,
) -> bytes:
    """The exact bytes a seat signs for one move."""
    return canonical_json(
        {
            "context": CONTEXT,
            "game_id": game_id,
            "command_id": command_id,
            "expected_version": expected_version,
            "move_type": move_type,
            "move": base64.b64encode(move).decode("ascii"),
        }
    )


@dataclass(frozen=True)
class SignedMove:
    """A move as the client sent it, with the seat's signature."""

    move_type: str
    move: bytes
    signature: bytes
    expected_version: int | None

    def to_record(self) -> dict[str, Any]:
        return {
            "move_type": self.move_type,
            "move": base64.b64encode(self.move).decode("ascii"),
            "expected_version": self.expected_version,
            "signature": base64.b64encode(self.signature).decode("ascii"),
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> SignedMove:
        """:raises ValueError: for a malformed record."""
        try:
            return cls(
                move_type=str(data["move_type"]),
                move=base64.b64decode(data["move"], validate=True),
                signature=base64.b64decode(data["signature"], validate=True),
                expected_version=int(data["expected_version"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed signed move: {exc}") from None


def parse_seat_keys(
    keys: tuple[bytes, ...] | list[bytes], seats: int
) -> tuple[str, ...]:
    """Seat keys as stored (hex), or ``()`` when the game has none.

    :raises InvalidCommandError: unless there is exactly one 32-byte Ed25519
        public key per seat, each a canonically encoded point of the
        prime-order subgroup (not of small order, on the curve); the
        violation names ``seat_public_keys[i]``.
    """
    if not keys:
        return ()
    if len(keys) != seats:
        raise InvalidCommandError(
            f"seat_public_keys needs one key per seat ({seats}), got {len(keys)}",
            violations=(("seat_public_keys", f"one key per seat ({seats})"),),
        )
    for seat, key in enumerate(keys):
        field = f"seat_public_keys[{seat}]"
        if len(key) != KEY_BYTES:
            text = f"each seat public key is {KEY_BYTES} raw Ed25519 bytes"
            raise InvalidCommandError(text, violations=((field, text),))
        if not is_valid_key(bytes(key)):
            text = (
                f"seat {seat}'s public key is not a usable Ed25519 key "
                "(small order, off the curve or not canonically encoded)"
            )
            raise InvalidCommandError(text, violations=((field, text),))
    return tuple(bytes(k).hex() for k in keys)


def is_valid_key(key: bytes) -> bool:
    """Whether ``key`` is a point some secret signs for: canonical, on the
    curve, in the prime-order subgroup and not of small order."""
    return len(key) == KEY_BYTES and bool(crypto_core_ed25519_is_valid_point(key))


def is_signed_by(
    key_hex: str, game_id: str, command_id: str, signed: SignedMove
) -> bool:
    """Whether the seat key signed this move, checked strictly (canonical
    ``S``, no small-order ``R`` or key, the key a valid point)."""
    if signed.expected_version is None or len(signed.signature) != SIGNATURE_BYTES:
        return False
    message = move_message(
        game_id, command_id, signed.expected_version, signed.move_type, signed.move
    )
    try:
        key = bytes.fromhex(key_hex)
    except ValueError:
        return False
    if not is_valid_key(key):
        return False
    try:
        crypto_sign_open(signed.signature + message, key)
    except (SodiumBadSignature, ValueError):
        return False
    return True


def require_signature(
    seat_keys: tuple[str, ...],
    game_id: str,
    actor: int,
    command_id: str | None,
    version: int,
    signed: SignedMove | None,
) -> None:
    """Check one move of a game with seat keys (nothing to do without keys).

    :raises MissingSignatureError: no signature.
    :raises InvalidCommandError: a malformed signature, or a signed move
        without ``expected_version``, or a signature for a game without keys.
    :raises BadSignatureError: not the acting seat's signature over this move.
    """
    if not seat_keys:
        if signed is not None:
            raise InvalidCommandError(
                "this game was created without seat keys: send moves unsigned"
            )
        return
    if signed is None or not signed.signature:
        raise MissingSignatureError(
            f"this game accepts only moves signed with seat {actor}'s key"
        )
    if len(signed.signature) != SIGNATURE_BYTES:
        raise InvalidCommandError(
            f"signature must be {SIGNATURE_BYTES} bytes (Ed25519)"
        )
    if signed.expected_version is None:
        raise InvalidCommandError("a signed move must set expected_version")
    if signed.expected_version != version or not is_signed_by(
        seat_keys[actor], game_id, command_id or "", signed
    ):
        raise BadSignatureError(
            f"signature is not seat {actor}'s over this game, command id, version and move"
        )
