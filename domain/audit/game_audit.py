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
4. the conclusion: the recorded outcome equals the ruleset's scoring, and
   nothing follows it (a second ``GameConcluded`` is named as such);
5. player signatures: in a game created with seat keys, every move carries
   the acting seat's valid signature over exactly the recorded command;
6. clocks and the ledger's own endings (:mod:`domain.audit.endings`): every
   clock re-derived from the timestamps, no move after a deadline, each
   resignation, abort, adjudication and timeout concluded as it must be;
7. the referee's controls (:mod:`domain.audit.controls`): each pause,
   resume, added time and draw offer allowed when it was recorded, its
   effect on the clocks followed, no move while paused, and every draw by
   agreement accepting the other seat's standing offer.

Steps 3-4 use the rules version the game was created under
(``GameCreated.ruleset_version``; games from before versioning are version
1) and check the content pack's hash.  What one database cannot prove about
itself (a superuser can recompute every hash) is checked against server
receipts by :mod:`domain.ledger.receipts` and ``services.ledger.audit``.

This module runs the steps in order and holds steps 2-4; step 1 is
:mod:`domain.audit.chain`, step 5 :mod:`domain.audit.signatures`, and the
report they fill :mod:`domain.audit.report`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import groupby
from typing import Any

from domain.audit.chain import AuditRow, check_chain
from domain.audit.controls import ControlTrail, is_control
from domain.audit.endings import ClockTrail, check_ending, is_ending
from domain.audit.report import AuditReport
from domain.audit.signatures import MoveDecoder, check_signature
from domain.contract.chance import SCHEME, HmacRng
from domain.contract.core import Outcome, RuleError, Ruleset
from domain.contract.endings import with_absent, with_dropouts
from domain.games import UnknownGameError, content_hash, find_ruleset
from domain.ledger.records import CONCLUDED_TYPE, CREATED_TYPE, decode_payload


def _seed(
    rows: list[AuditRow], server_seed: bytes | None, report: AuditReport
) -> bytes | None:
    created = rows[0].body
    if rows[-1].type == CONCLUDED_TYPE:
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


def _events_after_the_end(rows: list[AuditRow], report: AuditReport) -> bool:
    """Whether anything follows the first ``GameConcluded`` (each is named).

    The server never appends to a finished game, so an event there was
    inserted around it, e.g. a second ``GameConcluded`` with the chain
    recomputed: a view could not apply it, and the audit says why.
    """
    ended = next((r.version for r in rows if r.type == CONCLUDED_TYPE), None)
    if ended is None:
        return False
    after = [r for r in rows if r.version > ended]
    for row in after:
        report.fail(
            row.version,
            "conclusion",
            f"a second GameConcluded at event {row.version}: the game ended at "
            f"event {ended}, and the server never appends to a finished game"
            if row.type == CONCLUDED_TYPE
            else f"event {row.version} ({row.type}) follows the game's "
            f"conclusion at event {ended}",
        )
    return bool(after)


def audit_records(
    game_id: str,
    raw: Sequence[tuple[int, str, bytes]],
    server_seed: bytes | None = None,
    decode_move: MoveDecoder | None = None,
) -> AuditReport:
    """Verify one game's rows; see the module docstring for what is checked."""
    report = AuditReport(game_id=game_id, events=len(raw))
    rows = check_chain(game_id, raw, report)
    if not rows or rows[0].type != CREATED_TYPE:
        report.fail(1, "genesis", f"the first event is not {CREATED_TYPE}")
        return report
    if report.failures:
        return report  # semantic checks on a broken chain would only add noise
    if _events_after_the_end(rows, report):
        return report
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
    trail = ClockTrail(created, created["seat_count"])
    standing = ControlTrail(created["seat_count"])
    for decision, group_iter in groupby(rows[1:], key=lambda r: r.body["decision"]):
        group = list(group_iter)
        decided = [r for r in group if r.type != CONCLUDED_TYPE]
        first = group[0]
        if is_control(first):
            if first.version != decision + 1 or len(group) != 1:
                report.fail(first.version, "decision", "a control out of sequence")
            standing.check(trail, ruleset.to_act(state), first, report)
            continue
        if is_ending(first):
            if first.version != decision + 1:
                report.fail(first.version, "decision", "an ending out of sequence")
            standing.check_agreed(first, report)
            check_ending(trail, ruleset, state, group, report)
            continue
        automatic = decision > 1 and trail.is_automatic(first)
        if automatic:
            trail.check_automatic(ruleset, state, first, report)
        if decision > 1:
            standing.check_move(trail, first, report)
            trail.check_move(first, report)
        if keys and decision > 1 and not automatic:
            check_signature(game_id, first, keys, ruleset, decode_move, report)
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
        for row, payload in zip(decided, payloads):
            state = trail.follow(ruleset, state, row, payload)
        concluded = [r for r in group if r.type == CONCLUDED_TYPE]
        if concluded:
            trail.stop(concluded[0])
        if ruleset.is_over(state):
            if not concluded:
                report.fail(
                    group[-1].version,
                    "conclusion",
                    "the game ended but no conclusion was recorded",
                )
            elif Outcome.model_validate(concluded[0].body["outcome"]) != with_absent(
                with_dropouts(_scored(ruleset, state), trail.dropped), trail.absent
            ):
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


def _scored(ruleset: Ruleset[Any], state: Any) -> Outcome:
    outcome: Outcome | None = ruleset.outcome(state)
    assert outcome is not None  # the rules say the game is over
    return outcome
