"""Audit step 1: the hash chain of a game's raw rows.

Why first and alone: every later check reads the decoded rows this returns,
and a broken chain stops the audit before semantic checks add noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.audit.report import AuditReport
from domain.ledger.records import GENESIS, load, recomputed_hash


@dataclass(frozen=True)
class AuditRow:
    version: int
    type: str
    record: dict[str, Any]

    @property
    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = self.record["body"]
        return body


def check_chain(
    game_id: str, raw: Sequence[tuple[int, str, bytes]], report: AuditReport
) -> list[AuditRow]:
    rows: list[AuditRow] = []
    prev = GENESIS
    last_time: datetime | None = None
    for expected, (version, type_, data) in enumerate(raw, start=1):
        if version != expected:
            report.fail(
                version,
                "sequence",
                f"expected event {expected}: an event is missing or reordered",
            )
        try:
            record = load(data)
            claimed = record["hash"]
            recomputed = recomputed_hash(game_id, version, type_, record)
            stamp = datetime.fromisoformat(record["timestamp"])
        except (ValueError, KeyError, TypeError) as exc:
            report.fail(version, "encoding", f"record cannot be decoded: {exc}")
            prev = ""
            continue
        if recomputed != claimed:
            report.fail(
                version,
                "hash",
                "stored content does not match its hash (the row was altered)",
            )
        if record["prev_hash"] != prev:
            report.fail(
                version, "chain", "prev_hash does not link to the previous event"
            )
        if last_time is not None and (stamp.tzinfo is None) == (
            last_time.tzinfo is None
        ):
            if stamp < last_time:
                report.fail(
                    version,
                    "timestamp",
                    "earlier than the event before it (back-dated or reordered)",
                )
        elif last_time is not None:
            report.fail(version, "timestamp", "time zone differs from the event before")
        last_time = stamp
        prev = claimed
        rows.append(AuditRow(version, type_, record))
    return rows
