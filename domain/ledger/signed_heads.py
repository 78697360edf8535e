"""The signer's own rule: never sign two histories of one game.

Why outside the log's checks: a database superuser can roll a finished game
back (delete its ending, set the game row back to ``active``) and have the
seat tokens play it to another end; every check inside that database then
passes, and a signer that signs whatever head it is shown vouches for the
new history.  Like a validator's slashing-protection record, the signer
keeps the highest head it signed for each game, outside the database, and
refuses any head that contradicts it (:func:`refusal`).  This module holds
the rule only; the record lives in ``services.storage.signed_heads``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SignedHead:
    """One head the ledger signed and stored: game, version, its event's hash.

    Slotted: the signer's record and the checkpoint tree hold one or two
    per game ever signed, so a dict each is memory for nothing.
    """

    game_id: str
    version: int
    head_hash: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "head_hash": self.head_hash,
        }

    @classmethod
    def from_json(cls, data: Any) -> SignedHead:
        """:raises ValueError: for anything but :meth:`to_json`'s shape."""
        try:
            return cls(
                str(data["game_id"]), int(data["version"]), str(data["head_hash"])
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed signed head: {exc}") from None


class EquivocationError(Exception):
    """Raised when the ledger is asked to sign a head that contradicts one it signed.

    ``version`` is the first version the new head would rewrite.
    """

    def __init__(self, game_id: str, version: int, detail: str) -> None:
        super().__init__(
            f"game {game_id}: the ledger refuses to sign version {version}: {detail}"
        )
        self.game_id = game_id
        self.version = version
        self.detail = detail


def refusal(
    last: SignedHead | None,
    first_version: int,
    prev_hash: str,
    version: int,
    head_hash: str,
) -> str | None:
    """Why a write whose events are ``first_version..version`` (the first
    chained to ``prev_hash``, the last hashing to ``head_hash``) must not be
    signed after ``last``, or None when it extends what was signed.

    Equal heads are fine (signing is deterministic, a retry may ask again);
    a head at or below ``last``'s version with another hash, or new events
    that start inside the signed history or do not chain to its head, are a
    second history of the game.
    """
    if last is None:
        return None
    if (version, head_hash) == (last.version, last.head_hash):
        return None
    if version <= last.version:
        return (
            f"it already signed version {last.version} of this game "
            f"({last.head_hash[:16]}...); a head at {version} with another hash "
            "is a second history (was the game rolled back in the database?)"
        )
    if first_version <= last.version:
        return (
            f"the new events start at {first_version}, inside the history it "
            f"already signed up to version {last.version}"
        )
    if first_version == last.version + 1 and prev_hash != last.head_hash:
        return (
            f"event {first_version} does not follow the signed head "
            f"{last.version} ({last.head_hash[:16]}...)"
        )
    return None
