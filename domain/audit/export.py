"""NDJSON export of one game, and its offline verification.

Format ``ledger-export/v1``, one JSON object per line:

1. ``{"kind": "header", "format", "game_id", "game_type", "events", "hash_alg", "rng_scheme", "seed_commitment"}``
2. one ``{"kind": "event", "version", "type", "record"}`` per stored event, where
   ``record`` is exactly the stored record (timestamp, prev_hash, hash, body);
3. ``{"kind": "seed", "seed": hex or null, "commitment"}``;
4. ``{"kind": "result", "outcome": {...} or null, "head_hash"}``;
5. one ``{"kind": "receipt", ...}`` per receipt the server issued for the game
   (:class:`domain.ledger.receipts.Receipt`), when the exporter has them; the header
   then carries ``receipt_key``, the server's signing public key (hex), and,
   when the deployment has rotated keys, ``receipt_keys``: its whole keyring
   (:meth:`domain.ledger.receipts.Keyring.to_json`);
6. for a finished game: ``{"kind": "signed_head", "version",
   "head_hash", "outcome", "receipt": {...}}``, the ledger's signature over
   its final head (the receipt the server issued, with its ``key_id``, when
   the concluding move was stored; never signed at export time);
7. when the ledger has published one: ``{"kind": "checkpoint", ...}``, its
   latest signed checkpoint (:class:`domain.ledger.checkpoints.Checkpoint`),
   and ``{"kind": "inclusion", "head", "index", "tree_size", "path",
   "rule"}``, the proof that the game's head is a leaf of it.

Why the checkpoint: the ledger's checkpoints are built from the signer's
own record of the heads it signed, not from the database, so a game the
database rolled back (its ending deleted, the row set back to ``active``)
still has its old head in the checkpoint, and the export no longer reaches
it (check ``checkpoint``).

Why the signed head: receipts in the file only pin what they cover.  A
rewrite of the ending (other legal moves with the seed, the chain
recomputed, the later receipts deleted) leaves receipts that all still
verify.  So verification with a key requires the final head itself to be
signed: the version and hash of the last event, whose hashed record holds
the outcome, so the signature covers the outcome too.  The ledger signs a
head only when it records it (see "Receipts" in docs/decisions.md), so
nobody can have a rewritten ending signed after the fact.

Receipts in an export are checked against the header's keys; an auditor who
got the keys elsewhere (``GetLedgerKey``) pins them (``ledger verify
--public-key``, once per key), since whoever forged an export could also
swap the keys.

Why the raw records and not a friendlier shape: the auditor must hash exactly
what the ledger hashed; with the records, :func:`domain.audit.game_audit.audit_records`
verifies the chain, the seed and every decision without the database.  The
header, seed and result lines are conveniences, so verification also checks
they agree with the records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from domain.audit.game_audit import audit_records
from domain.audit.report import AuditReport
from domain.audit.signatures import MoveDecoder
from domain.ledger.checkpoints import (
    Checkpoint,
    Inclusion,
    checkpoint_problem,
    rollbacks,
)
from domain.ledger.receipts import Keyring, Receipt, check_receipts
from domain.ledger.records import ALG, CONCLUDED_TYPE, canonical_json, load

FORMAT = "ledger-export/v1"


def export_lines(
    game_id: str,
    rows: Sequence[tuple[int, str, bytes]],
    receipts: Sequence[Receipt] = (),
    public_key: bytes | Keyring | None = None,
    checkpoint: Checkpoint | None = None,
    inclusion: Inclusion | None = None,
) -> Iterator[str]:
    """The export, line by line (no trailing newlines).

    ``public_key``: the server's key, or its keyring (signing key first);
    ``checkpoint`` and ``inclusion``: the ledger's latest checkpoint and the
    proof of this game's head in it.
    """
    ring = Keyring.of(public_key) if isinstance(public_key, bytes) else public_key
    keys: dict[str, Any] = {}
    if ring is not None and ring.keys:
        keys["receipt_key"] = ring.keys[0].public_key.hex()
        if len(ring.keys) > 1 or ring.keys[0].not_before or ring.keys[0].not_after:
            keys["receipt_keys"] = ring.to_json()
    records = [(v, t, load(s)) for v, t, s in rows]
    created = records[0][2]["body"] if records else {}
    concluded = (
        records[-1][2]["body"] if records and records[-1][1] == CONCLUDED_TYPE else None
    )
    yield _line(
        kind="header",
        format=FORMAT,
        game_id=game_id,
        game_type=created.get("game_type"),
        events=len(records),
        hash_alg=ALG,
        rng_scheme=created.get("rng_scheme"),
        seed_commitment=created.get("seed_commitment"),
        **keys,
    )
    for version, type_, record in records:
        yield _line(kind="event", version=version, type=type_, record=record)
    yield _line(
        kind="seed",
        seed=concluded["seed"] if concluded else None,
        commitment=created.get("seed_commitment"),
    )
    yield _line(
        kind="result",
        outcome=concluded["outcome"] if concluded else None,
        head_hash=records[-1][2]["hash"] if records else None,
    )
    for receipt in receipts:
        yield _line(kind="receipt", **receipt.to_json())
    final = next(
        (r for r in receipts if concluded and r.version == records[-1][0]), None
    )
    if final is not None:
        yield _line(
            kind="signed_head",
            version=final.version,
            head_hash=final.head_hash,
            outcome=concluded["outcome"] if concluded else None,
            receipt=final.to_json(),
        )
    if checkpoint is not None:
        yield _line(**checkpoint.to_json())
        if inclusion is not None:
            yield _line(kind="inclusion", **inclusion.to_json())


def _line(**fields: Any) -> str:
    return canonical_json(fields).decode("utf-8")


def verify_lines(
    lines: Iterable[str],
    public_key: bytes | Keyring | None = None,
    decode_move: MoveDecoder | None = None,
) -> AuditReport:
    """Verify an export offline; failures name the event (or line) that fails.

    ``public_key`` pins the server's receipt key or keyring (else the
    header's are used);
    with keys (pinned or the header's), a finished game must end with a
    signed head they verify and the chain reaches (check ``signed head``);
    ``decode_move`` lets the audit check signed moves' bytes (see
    :func:`domain.audit.game_audit.audit_records`).
    """
    header: dict[str, Any] | None = None
    head: dict[str, Any] | None = None
    receipts: list[Receipt] = []
    rows: list[tuple[int, str, bytes]] = []
    extras: dict[str, dict[str, Any]] = {}
    problems: list[tuple[int, str, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = load(line)
            kind = item["kind"]
        except (ValueError, KeyError, TypeError):
            version = len(rows) + 1 if header is not None else 0
            problems.append(
                (
                    version,
                    "encoding",
                    f"line {number} is not valid JSON (expected event {version})",
                )
            )
            if header is not None:
                rows.append((version, "?", b"{}"))
            continue
        if kind == "header":
            header = item
        elif kind == "receipt":
            try:
                receipts.append(Receipt.from_json(item))
            except ValueError as exc:
                problems.append(
                    (int(item.get("version") or 0), "receipt (export)", str(exc))
                )
        elif kind == "signed_head":
            head = item
        elif kind == "event":
            rows.append(
                (
                    item.get("version", -1),
                    item.get("type", "?"),
                    canonical_json(item.get("record")),
                )
            )
        else:
            extras[kind] = item
    game_id = (header or {}).get("game_id", "?")
    report = (
        audit_records(game_id, rows, decode_move=decode_move)
        if rows
        else AuditReport(game_id=game_id)
    )
    for version, check, detail in problems:
        report.fail(version, check, detail)
    if header is None or header.get("format") != FORMAT:
        report.fail(0, "format", f"missing or unknown header (expected {FORMAT})")
    elif header.get("events") != len(rows):
        report.fail(
            len(rows),
            "format",
            f"header says {header.get('events')} events, found {len(rows)}",
        )
    _check_trailer(rows, extras, report)
    ring = None
    if public_key is not None or receipts or "receipt_key" in (header or {}):
        ring = _ring(header or {}, public_key, report)
    if receipts and ring is not None:
        for problem in check_receipts(game_id, rows, receipts, ring, origin="export"):
            report.fail(problem.version, problem.check, problem.detail)
        report.receipts_verified += len(receipts)
    _check_signed_head(game_id, rows, head, ring, report)
    _check_checkpoint(game_id, rows, extras, ring, report)
    report.failures.sort(key=lambda f: f.version)
    return report


def _check_checkpoint(
    game_id: str,
    rows: list[tuple[int, str, bytes]],
    extras: dict[str, dict[str, Any]],
    ring: Keyring | None,
    report: AuditReport,
) -> None:
    """The checkpoint the export carries is the ledger's, holds this game's
    head, and the events reach that head with its hash."""
    if "checkpoint" not in extras:
        return
    try:
        checkpoint = Checkpoint.from_json(extras["checkpoint"])
        inclusion = (
            Inclusion.from_json(extras["inclusion"]) if "inclusion" in extras else None
        )
    except ValueError as exc:
        report.fail(0, "checkpoint", str(exc))
        return
    version = inclusion.head.version if inclusion is not None else 0
    if ring is not None and (problem := checkpoint_problem(checkpoint, ring)):
        report.fail(version, "checkpoint", problem)
        return
    if inclusion is None:
        return
    if inclusion.head.game_id != game_id:
        report.fail(version, "checkpoint", "the inclusion proof is another game's")
        return
    if problem := inclusion.problem(checkpoint):
        report.fail(version, "checkpoint", problem)
        return
    hashes: dict[int, str] = {}
    for stored_version, _type, data in rows:
        try:
            hashes[stored_version] = load(data)["hash"]
        except (ValueError, KeyError, TypeError):
            continue
    for rollback in rollbacks([inclusion.head], {game_id: hashes}):
        report.fail(rollback.version, "checkpoint", rollback.detail)


def _ring(
    header: dict[str, Any], pinned: bytes | Keyring | None, report: AuditReport
) -> Keyring:
    """The keys receipts are checked against: the pinned ones, else the header's."""
    named = header.get("receipt_key")
    if pinned is not None:
        ring = Keyring.of(pinned) if isinstance(pinned, bytes) else pinned
        if named is not None and named not in {k.public_key.hex() for k in ring.keys}:
            report.fail(0, "receipt (export)", "the export names another receipt key")
        return ring
    try:
        return (
            Keyring.from_json(header["receipt_keys"])
            if "receipt_keys" in header
            else Keyring.of(bytes.fromhex(named or ""))
        )
    except ValueError as exc:
        report.fail(0, "receipt (export)", f"the header's keys: {exc}")
        return Keyring(())


def _check_signed_head(
    game_id: str,
    rows: list[tuple[int, str, bytes]],
    head: dict[str, Any] | None,
    ring: Keyring | None,
    report: AuditReport,
) -> None:
    """With keys, a finished game's final head must be signed by one of them."""
    if ring is None or not ring.keys or not rows or rows[-1][1] != CONCLUDED_TYPE:
        return
    version = rows[-1][0]
    if head is None:
        report.fail(
            version,
            "signed head",
            "the export has no ledger-signed final head: the ledger never "
            "vouched for how this game ended",
        )
        return
    try:
        receipt = Receipt.from_json(head.get("receipt") or {})
        record = load(rows[-1][2])
    except (ValueError, KeyError, TypeError) as exc:
        report.fail(version, "signed head", f"malformed signed head: {exc}")
        return
    claims = (head.get("version"), head.get("head_hash"), head.get("outcome"))
    if claims != (receipt.version, receipt.head_hash, record["body"].get("outcome")):
        report.fail(
            version, "signed head", "the signed head's fields differ from its receipt"
        )
    elif receipt.game_id != game_id:
        report.fail(version, "signed head", "the signed head is another game's")
    elif problems := check_receipts(game_id, rows, [receipt], ring, origin="export"):
        for problem in problems:
            report.fail(version, "signed head", problem.detail)
    elif (receipt.version, receipt.head_hash) != (version, record.get("hash")):
        report.fail(
            version,
            "signed head",
            f"the ledger signed event {receipt.version} as the final head, but "
            f"the chain ends at {version} with another hash: the ending was rewritten",
        )


def _check_trailer(
    rows: list[tuple[int, str, bytes]], extras: dict[str, Any], report: AuditReport
) -> None:
    if not rows or rows[-1][1] != CONCLUDED_TYPE:
        return
    try:
        body = load(rows[-1][2])["body"]
    except (ValueError, KeyError):
        return
    if extras.get("seed", {}).get("seed") != body.get("seed"):
        report.fail(
            rows[-1][0], "seed", "the seed line differs from the concluding event"
        )
    if extras.get("result", {}).get("outcome") != body.get("outcome"):
        report.fail(
            rows[-1][0],
            "conclusion",
            "the result line differs from the concluding event",
        )
