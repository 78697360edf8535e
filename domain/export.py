"""NDJSON export of one game, and its offline verification.

Format ``ledger-export/v1``, one JSON object per line:

1. ``{"kind": "header", "format", "game_id", "game_type", "events", "hash_alg", "rng_scheme", "seed_commitment"}``
2. one ``{"kind": "event", "version", "type", "record"}`` per stored event, where
   ``record`` is exactly the stored record (timestamp, prev_hash, hash, body);
3. ``{"kind": "seed", "seed": hex or null, "commitment"}``;
4. ``{"kind": "result", "outcome": {...} or null, "head_hash"}``;
5. one ``{"kind": "receipt", ...}`` per receipt the server issued for the game
   (:class:`domain.receipts.Receipt`), when the exporter has them; the header
   then carries ``receipt_key``, the server's public key (hex);
6. for a finished game, last: ``{"kind": "signed_head", "version",
   "head_hash", "outcome", "receipt": {...}}``, the ledger's signature over
   its final head (the receipt the server issued, with its ``key_id``, when
   the concluding move was stored; never signed at export time).

Why the signed head: receipts in the file only pin what they cover.  A
rewrite of the ending (other legal moves with the seed, the chain
recomputed, the later receipts deleted) leaves receipts that all still
verify.  So verification with a key requires the final head itself to be
signed: the version and hash of the last event, whose hashed record holds
the outcome, so the signature covers the outcome too.  The ledger signs a
head only when it records it (see "Receipts" in docs/decisions.md), so
nobody can have a rewritten ending signed after the fact.

Receipts in an export are checked against the header's key; an auditor who
got the key elsewhere (``GetLedgerKey``) pins it (``ledger verify
--public-key``), since whoever forged an export could also swap the key.

Why the raw records and not a friendlier shape: the auditor must hash exactly
what the ledger hashed; with the records, :func:`domain.audit.audit_records`
verifies the chain, the seed and every decision without the database.  The
header, seed and result lines are conveniences, so verification also checks
they agree with the records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from domain.audit import audit_records
from domain.audit_report import AuditReport
from domain.audit_signatures import MoveDecoder
from domain.receipts import Receipt, check_receipts, is_valid
from domain.records import ALG, CONCLUDED_TYPE, canonical_json, load

FORMAT = "ledger-export/v1"


def export_lines(
    game_id: str,
    rows: Sequence[tuple[int, str, bytes]],
    receipts: Sequence[Receipt] = (),
    public_key: bytes | None = None,
) -> Iterator[str]:
    """The export, line by line (no trailing newlines)."""
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
        **({"receipt_key": public_key.hex()} if public_key is not None else {}),
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


def _line(**fields: Any) -> str:
    return canonical_json(fields).decode("utf-8")


def verify_lines(
    lines: Iterable[str],
    public_key: bytes | None = None,
    decode_move: MoveDecoder | None = None,
) -> AuditReport:
    """Verify an export offline; failures name the event (or line) that fails.

    ``public_key`` pins the server's receipt key (else the header's is used);
    with a key, a finished game must end with a signed head that key
    verifies and the chain reaches (check ``signed head``);
    ``decode_move`` lets the audit check signed moves' bytes (see
    :func:`domain.audit.audit_records`).
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
    _check_receipts(game_id, rows, receipts, header or {}, public_key, report)
    _check_signed_head(game_id, rows, head, _key(header or {}, public_key), report)
    report.failures.sort(key=lambda f: f.version)
    return report


def _check_receipts(
    game_id: str,
    rows: list[tuple[int, str, bytes]],
    receipts: list[Receipt],
    header: dict[str, Any],
    pinned: bytes | None,
    report: AuditReport,
) -> None:
    if not receipts:
        return
    key = _key(header, pinned) or b""
    if pinned is not None and header.get("receipt_key") not in (None, pinned.hex()):
        report.fail(0, "receipt (export)", "the export names another receipt key")
    for problem in check_receipts(game_id, rows, receipts, key, origin="export"):
        report.fail(problem.version, problem.check, problem.detail)
    report.receipts_verified += len(receipts)


def _key(header: dict[str, Any], pinned: bytes | None) -> bytes | None:
    """The key receipts are checked against: the pinned one, else the header's."""
    if pinned is not None:
        return pinned
    try:
        return bytes.fromhex(header.get("receipt_key") or "") or None
    except (TypeError, ValueError):
        return b""


def _check_signed_head(
    game_id: str,
    rows: list[tuple[int, str, bytes]],
    head: dict[str, Any] | None,
    key: bytes | None,
    report: AuditReport,
) -> None:
    """With a key, a finished game's final head must be signed by it."""
    if key is None or not rows or rows[-1][1] != CONCLUDED_TYPE:
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
    elif receipt.game_id != game_id or not is_valid(receipt, key):
        report.fail(
            version,
            "signed head",
            "the final head's signature does not verify with the ledger's key",
        )
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
