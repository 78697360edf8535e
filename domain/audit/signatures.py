"""Audit step 5: each move of a game with seat keys was signed by its seat.

Why the caller supplies the move decoder: a signature covers the move's
protobuf bytes, and the domain knows no protobuf.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.audit.chain import AuditRow
from domain.audit.report import AuditReport
from domain.contract.core import Command
from domain.ledger.records import command_record
from domain.ledger.signatures import SignedMove, is_signed_by

MoveDecoder = Callable[[Any, str, bytes], Command]
"""``decode(ruleset, move_type, move_bytes) -> command``: how the API parses a
signed move's bytes (the audit checks the recorded command is what the
player signed; the domain knows no protobuf, so the caller supplies this)."""


def check_signature(
    game_id: str,
    row: AuditRow,
    keys: list[str],
    ruleset: Any,
    decode_move: MoveDecoder | None,
    report: AuditReport,
) -> None:
    """A move of a game with seat keys: the acting seat signed exactly it."""
    body = row.body
    actor = body.get("actor")
    if "signed" not in body:
        report.fail(row.version, "signature", "move of a signed game has no signature")
        return
    try:
        signed = SignedMove.from_record(body["signed"])
    except ValueError as exc:
        report.fail(row.version, "signature", str(exc))
        return
    if not isinstance(actor, int) or not 0 <= actor < len(keys):
        report.fail(row.version, "signature", f"no seat key for actor {actor!r}")
        return
    if signed.expected_version != body["decision"]:
        report.fail(
            row.version,
            "signature",
            f"signed for version {signed.expected_version}, recorded after {body['decision']}",
        )
    elif not is_signed_by(keys[actor], game_id, body.get("command_id") or "", signed):
        report.fail(
            row.version,
            "signature",
            f"not signed by seat {actor}'s key (forged or altered move)",
        )
        return
    if decode_move is not None:
        try:
            command = decode_move(ruleset, signed.move_type, signed.move)
            same = command_record(command) == body["command"]
        except Exception:  # noqa: BLE001 - any undecodable move is a failed check
            same = False
        if not same:
            report.fail(
                row.version,
                "signature",
                "the recorded command is not the move the seat signed",
            )
            return
    report.signatures_verified += 1
