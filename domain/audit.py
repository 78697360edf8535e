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
4. the conclusion: the recorded outcome equals the ruleset's scoring.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Sequence

from domain.chance import SCHEME, HmacRng
from domain.core import Outcome, RuleError
from domain.games import find_game
from domain.integrity import ALG, GENESIS, event_hash

CREATED = "ledger.GameCreated"
CONCLUDED = "ledger.GameConcluded"


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
        return self.record["body"]


def _check_chain(game_id: str, raw: Sequence[tuple[int, str, bytes]], report: AuditReport) -> list[_Row]:
    rows: list[_Row] = []
    prev = GENESIS
    for expected, (version, type_, data) in enumerate(raw, start=1):
        if version != expected:
            report.fail(version, "sequence", f"expected event {expected}: an event is missing or reordered")
        try:
            record = json.loads(data)
            claimed = record["hash"]
            recomputed = event_hash(
                game_id=game_id, version=version, type_=type_, timestamp=record["timestamp"],
                prev_hash=record["prev_hash"], body=record["body"], alg=record.get("alg", ALG),
            )
        except (ValueError, KeyError, TypeError) as exc:
            report.fail(version, "encoding", f"record cannot be decoded: {exc}")
            prev = ""
            continue
        if recomputed != claimed:
            report.fail(version, "hash", "stored content does not match its hash (the row was altered)")
        if record["prev_hash"] != prev:
            report.fail(version, "chain", "prev_hash does not link to the previous event")
        prev = claimed
        rows.append(_Row(version, type_, record))
    return rows


def _seed(rows: list[_Row], server_seed: bytes | None, report: AuditReport) -> bytes | None:
    created = rows[0].body
    if rows[-1].type == CONCLUDED:
        report.concluded = True
        seed, report.seed_source = bytes.fromhex(rows[-1].body["seed"]), "revealed"
    elif server_seed is not None:
        seed, report.seed_source = server_seed, "server"
    else:
        return None
    if hashlib.sha256(seed).hexdigest() != created["seed_commitment"]:
        report.fail(rows[-1].version, "seed", "seed does not match the commitment made at creation")
        return None
    if created["rng_scheme"] != SCHEME:
        report.fail(1, "seed", f"unknown chance scheme {created['rng_scheme']!r}")
        return None
    return seed


def audit_records(
    game_id: str, raw: Sequence[tuple[int, str, bytes]], server_seed: bytes | None = None
) -> AuditReport:
    """Verify one game's rows; see the module docstring for what is checked."""
    report = AuditReport(game_id=game_id, events=len(raw))
    rows = _check_chain(game_id, raw, report)
    if not rows or rows[0].type != CREATED:
        report.fail(1, "genesis", "the first event is not ledger.GameCreated")
        return report
    if report.failures:
        return report  # semantic checks on a broken chain would only add noise
    created = rows[0].body
    ruleset = find_game(created["game_type"])
    report.game_type = ruleset.name
    setup = ruleset.setup_model.model_validate(created["setup"])
    seed = _seed(rows, server_seed, report)
    entropy = tuple(created["entropy"])
    state = ruleset.initial_state(setup)
    for decision, group_iter in groupby(rows[1:], key=lambda r: r.body["decision"]):
        group = list(group_iter)
        decided = [r for r in group if r.type != CONCLUDED]
        first = group[0]
        if first.version != decision + 1:
            report.fail(first.version, "decision", f"decision {decision} does not follow event {decision}")
        payloads = [
            ruleset.events_by_name[r.type.partition(".")[2]].model_validate(r.body["payload"])
            for r in decided
        ]
        if seed is not None:
            rng = HmacRng.for_decision(seed, game_id, entropy, decision)
            try:
                if decision == 1:
                    expected = list(ruleset.start(state, rng))
                else:
                    cmd = first.body["command"]
                    command = ruleset.commands_by_name[cmd["type"]].model_validate(cmd["fields"])
                    expected = list(ruleset.decide(state, command, first.body["actor"], rng))
            except RuleError as exc:
                report.fail(first.version, "rules", f"recorded move is not legal: {exc}")
                return report
            for row, mine, theirs in zip(decided, expected, payloads):
                if mine != theirs:
                    report.fail(row.version, "rederive", "re-running the decision gives a different event")
                    return report
            if len(expected) != len(payloads):
                report.fail(first.version, "rederive", f"decision yields {len(expected)} events, stored {len(payloads)}")
                return report
            report.decisions_rederived += 1
        state = ruleset.replay(state, payloads)
        concluded = [r for r in group if r.type == CONCLUDED]
        if ruleset.is_over(state):
            if not concluded:
                report.fail(group[-1].version, "conclusion", "the game ended but no conclusion was recorded")
            elif Outcome.model_validate(concluded[0].body["outcome"]) != ruleset.outcome(state):
                report.fail(concluded[0].version, "conclusion", "recorded outcome differs from the rules' scoring")
        elif concluded:
            report.fail(concluded[0].version, "conclusion", "a conclusion was recorded before the game ended")
    return report
