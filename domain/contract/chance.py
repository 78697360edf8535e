"""Verifiable chance: a committed seed, an HMAC-SHA256 stream and Fisher-Yates.

Why this exact construction: an auditor with nothing but the exported events
and the seed revealed at the end of the game must be able to re-derive every
shuffle and die roll, in any language, so the derivation is small, fully
specified and versioned (``SCHEME``).  Changing it means a new scheme name;
stored games keep the scheme they were created with.

Scheme ``hmac-sha256-fy/v1``:

1. The server draws a 32-byte secret ``seed`` and publishes only
   ``commitment = SHA-256(seed)`` (hex) in the game's first event.
2. ``game_key = HMAC-SHA256(seed, "ledger/game-key/v1|" + game_id + "|" +
   entropy_1 + "|" + ... )`` mixes in the entropy strings players may add at
   creation.  Players cannot steer the stream: they do not know the seed.
3. Every decision gets its own stream, labelled by the game version it is
   decided at (``"v7"``: the decision that follows event 7).  Block ``i`` of
   a stream is ``HMAC-SHA256(game_key, label + "|" + i as 8-byte big endian)``;
   bytes are consumed in order.
4. ``randbelow(n)``: take ``ceil(bits(n)/8)`` bytes big-endian, mask to
   ``bits(n)`` bits, reject and retry while ``>= n`` (no modulo bias).
5. ``shuffle``: Fisher-Yates from the last index down: for ``i = len-1 .. 1``
   swap ``i`` with ``randbelow(i + 1)``.
6. ``roll(sides) = 1 + randbelow(sides)``.

What the commitment proves, and what it does not:

- It proves the seed was fixed when the game was created: the audit checks
  the revealed seed against the commitment in the first event and re-derives
  every shuffle and roll, so the server cannot change any chance outcome
  after creation, nor adapt one to the moves played.
- It does not prove the seed was drawn fairly.  The server draws the seed in
  the same ``CreateGame`` call that brings the players' entropy (and the game
  id is the server's too), so a malicious server could try many seeds before
  committing and keep one whose opening shuffle or later draws suit it; the
  entropy, as used now, does not prevent that.  The server also knows the
  seed during the game, so these guarantees assume it does not leak it.
- Closing the first gap needs the players' entropy to be contributed *after*
  the commitment is published (commit, then collect entropy, then decide the
  opening), so no seed can be chosen knowing the final key.  That is a future
  option; it would be a new scheme name, not a change to this one.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

SCHEME = "hmac-sha256-fy/v1"


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a secret seed.

    >>> seed_commitment(bytes(32))[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(seed).hexdigest()


def game_key(seed: bytes, game_id: str, entropy: Sequence[str] = ()) -> bytes:
    """Bind the seed to one game and to the players' entropy."""
    message = "|".join(["ledger/game-key/v1", game_id, *entropy]).encode()
    return hmac.new(seed, message, hashlib.sha256).digest()


def decision_label(version: int) -> str:
    """The stream label of the decision taken after event ``version``."""
    return f"v{version}"


class HmacRng:
    """A deterministic stream of chance for one decision (see module doc)."""

    __slots__ = ("_buffer", "_counter", "_key", "_label")

    def __init__(self, key: bytes, label: str) -> None:
        self._key = key
        self._label = label.encode()
        self._counter = 0
        self._buffer = bytearray()

    @classmethod
    def for_decision(
        cls, seed: bytes, game_id: str, entropy: Sequence[str], version: int
    ) -> HmacRng:
        return cls(game_key(seed, game_id, entropy), decision_label(version))

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._label + b"|" + self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        out = bytes(self._buffer[:n])
        del self._buffer[:n]
        return out

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            r = int.from_bytes(self._take(nbytes), "big") & mask
            if r < n:
                return r

    def shuffle(self, items: Sequence[Any]) -> tuple[Any, ...]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def roll(self, sides: int) -> int:
        return 1 + self.randbelow(sides)

    def token(self, nbytes: int = 16) -> bytes:
        return self._take(nbytes)


def commit(nonce: bytes, payload: str) -> str:
    """Commitment to a secret choice: ``SHA-256(nonce || payload)`` hex.

    The nonce is drawn from the decision's stream (so it is re-derivable from
    the revealed seed) and stored hidden alongside the choice; publishing the
    commitment lets every player later check the choice was not altered.
    """
    return hashlib.sha256(nonce + payload.encode()).hexdigest()
