"""Offline verification of one game's stored records.

The audit needs nothing but the raw rows ``(version, type, record bytes)``:
the same function serves ``ledger audit`` (rows read from PostgreSQL) and
offline verification of an NDJSON export.  It checks, in order:

1. the hash chain: versions contiguous from 1, every record's hash recomputed
   from its canonical encoding, every ``prev_hash`` linking to the event before;
2. the seed: the revealed seed (or, for an admin auditing a running game, the
   server-held seed) hashes to the commitment published at creation;
3. every decision: re-run ``start``/``decide`` with the re-derived chance
   stream and the recorded command, and compare the events it produces with
   the stored ones, so every shuffle, die roll and rule is re-checked;
4. the conclusion: the recorded outcome equals the ruleset's scoring;
5. player signatures: in a game created with seat keys, every move carries
   the acting seat's valid signature over exactly the recorded command.

Steps 3-4 use the rules version the game was created under
(``GameCreated.ruleset_version``; games from before versioning are version
1) and check the content pack's hash.  What one database cannot prove about
itself (a superuser can recompute every hash) is checked against server
receipts by :mod:`domain.receipts` and ``services.ledger_audit``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any

from domain.chance import SCHEME, HmacRng
from domain.core import Command, Outcome, RuleError
from domain.games import UnknownGameError, content_hash, find_ruleset
from domain.integrity import event_hash
from domain.records import ALG_V1, GENESIS, decode_payload, load
from domain.records import CONCLUDED_TYPE as CONCLUDED
from domain.records import CREATED_TYPE as CREATED
from domain.signatures import SignedMove, is_signed_by

MoveDecoder = Callable[[Any, str, bytes], Command]
"""``decode(ruleset, move_type, move_bytes) -> command``: how the API parses a
signed move's bytes (the audit checks the recorded command is what the
player signed; the domain knows no protobuf, so the caller supplies this)."""


@dataclass(frozen=True)
class AuditFailure:
    version: int
    check: str
    detail: str

    def __str__(self) -> str:
        return f"event {self.version}: {self.check}: {self.detail}"


@dataclass
class AuditReport:
    game_id: str
    game_type: str = "?"
    events: int = 0
    decisions_rederived: int = 0
    signatures_verified: int = 0
    receipts_verified: int = 0
    ruleset_version: int = 1
    seed_source: str = "none"
    concluded: bool = False
    failures: list[AuditFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, version: int, check: str, detail: str) -> None:
        self.failures.append(AuditFailure(version, check, detail))


@dataclass(frozen=True)
class _Row:
    version: int
    type: str
    record: dict[str, Any]

    @property
    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = self.record["body"]
        return body


def _check_chain(
    game_id: str, raw: Sequence[tuple[int, str, bytes]], report: AuditReport
) -> list[_Row]:
    rows: list[_Row] = []
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
            recomputed = event_hash(
                game_id=game_id,
                version=version,
                type_=type_,
                timestamp=record["timestamp"],
                prev_hash=record["prev_hash"],
                body=record["body"],
                alg=record.get("alg", ALG_V1),
                nonce=record.get("nonce"),
            )
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
        rows.append(_Row(version, type_, record))
    return rows


def _check_signature(
    game_id: str,
    row: _Row,
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
            same = {
                "type": type(command).__name__,
                "fields": command.model_dump(mode="json"),
            } == body["command"]
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


def _seed(
    rows: list[_Row], server_seed: bytes | None, report: AuditReport
) -> bytes | None:
    created = rows[0].body
    if rows[-1].type == CONCLUDED:
        report.concluded = True
        seed, report.seed_source = bytes.fromhex(rows[-1].body["seed"]), "revealed"
    elif server_seed is not None:
        seed, report.seed_source = server_seed, "server"
    else:
        return None
    if hashlib.sha256(seed).hexdigest() != created["seed_commitment"]:
        report.fail(
            rows[-1].version,
            "seed",
            "seed does not match the commitment made at creation",
        )
        return None
    if created["rng_scheme"] != SCHEME:
        report.fail(1, "seed", f"unknown chance scheme {created['rng_scheme']!r}")
        return None
    return seed


def audit_records(
    game_id: str,
    raw: Sequence[tuple[int, str, bytes]],
    server_seed: bytes | None = None,
    decode_move: MoveDecoder | None = None,
) -> AuditReport:
    """Verify one game's rows; see the module docstring for what is checked."""
    report = AuditReport(game_id=game_id, events=len(raw))
    rows = _check_chain(game_id, raw, report)
    if not rows or rows[0].type != CREATED:
        report.fail(1, "genesis", f"the first event is not {CREATED}")
        return report
    if report.failures:
        return report  # semantic checks on a broken chain would only add noise
    created = rows[0].body
    report.ruleset_version = created.get("ruleset_version", 1)
    try:
        ruleset = find_ruleset(created["game_type"], report.ruleset_version)
    except UnknownGameError as exc:
        report.fail(1, "rules", str(exc))
        return report
    report.game_type = ruleset.name
    keys = list(created.get("seat_keys", ()))
    setup = ruleset.setup_model.model_validate(created["setup"])
    recorded_content = created.get("content_hash")
    shipped = content_hash(ruleset.name, getattr(setup, "content", None))
    if recorded_content is not None and recorded_content != shipped:
        report.fail(
            1,
            "content",
            "the game was dealt from a content pack other than the one shipped",
        )
    seed = _seed(rows, server_seed, report)
    entropy = tuple(created["entropy"])
    state = ruleset.initial_state(setup)
    for decision, group_iter in groupby(rows[1:], key=lambda r: r.body["decision"]):
        group = list(group_iter)
        decided = [r for r in group if r.type != CONCLUDED]
        first = group[0]
        if keys and decision > 1:
            _check_signature(game_id, first, keys, ruleset, decode_move, report)
        if first.version != decision + 1:
            report.fail(
                first.version,
                "decision",
                f"decision {decision} does not follow event {decision}",
            )
        payloads = [decode_payload(r.type, r.body, ruleset) for r in decided]
        if seed is not None:
            rng = HmacRng.for_decision(seed, game_id, entropy, decision)
            try:
                if decision == 1:
                    expected = list(ruleset.start(state, rng))
                else:
                    cmd = first.body["command"]
                    command = ruleset.commands_by_name[cmd["type"]].model_validate(
                        cmd["fields"]
                    )
                    expected = list(
                        ruleset.decide(state, command, first.body["actor"], rng)
                    )
            except RuleError as exc:
                report.fail(
                    first.version, "rules", f"recorded move is not legal: {exc}"
                )
                return report
            for row, mine, theirs in zip(decided, expected, payloads):
                if mine != theirs:
                    report.fail(
                        row.version,
                        "rederive",
                        "re-running the decision gives a different event",
                    )
                    return report
            if len(expected) != len(payloads):
                report.fail(
                    first.version,
                    "rederive",
                    f"decision yields {len(expected)} events, stored {len(payloads)}",
                )
                return report
            report.decisions_rederived += 1
        state = ruleset.replay(state, payloads)
        concluded = [r for r in group if r.type == CONCLUDED]
        if ruleset.is_over(state):
            if not concluded:
                report.fail(
                    group[-1].version,
                    "conclusion",
                    "the game ended but no conclusion was recorded",
                )
            elif Outcome.model_validate(
                concluded[0].body["outcome"]
            ) != ruleset.outcome(state):
                report.fail(
                    concluded[0].version,
                    "conclusion",
                    "recorded outcome differs from the rules' scoring",
                )
        elif concluded:
            report.fail(
                concluded[0].version,
                "conclusion",
                "a conclusion was recorded before the game ended",
            )
    return report
