"""``ledger audit`` on a live database: the log, every copy of its head, and receipts.

:func:`domain.audit.game_audit.audit_records` proves a log is internally consistent, but
a database superuser can rewrite a log *consistently* (edit, recompute every
hash).  So this module also checks what the log alone cannot:

- every other place that records the game's head agrees with the log:
  ``ledger_games`` (version, status, head hash, winners, created/ended time),
  ``ledger_commands`` (each idempotency key names a move the log holds, and
  each move of the log has its key);
- the receipts the server stored, signed with a key the database does not
  hold (any key of the deployment's keyring, inside its window): each must
  match the log, and a game created with a ``receipt_key``
  must have one for every decision;
- receipts a player kept (``ledger audit --receipts FILE``): the strongest
  check, since a superuser can delete stored receipts but not the copies;
- the signer's own record of the heads it signed (kept with the key, out of
  the database): the log must still hold the highest one, so a game rolled
  back and replayed, or a finished game whose ending was deleted, fails
  however well the side tables were repaired (check ``signer``);
- a finished game's final head was signed by the ledger (check ``signed
  head``), the rule ``ledger verify`` applies to an export, so the two agree
  even when a rewrite strips ``receipt_key`` from the game's first event;
- with ``--against CHECKPOINT_FILE`` (:func:`audit_against`): every game's
  head the checkpoint pinned is still in its log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any
from uuid import UUID

from google.protobuf import any_pb2

from domain.audit.game_audit import audit_records
from domain.audit.report import AuditReport
from domain.ledger.checkpoints import (
    Checkpoint,
    Rollback,
    checkpoint_problem,
    rollbacks,
)
from domain.ledger.receipts import Keyring, Receipt, check_receipts, vouched
from domain.ledger.records import CONCLUDED_TYPE as CONCLUDED
from domain.ledger.records import ENDING_KINDS, load
from services.proto import convert

CLOCK_SLACK = timedelta(minutes=15)
"""``ledger_games.created_at`` is the database host's clock at insert, the
event's timestamp the server host's clock when deciding: equal up to commit
delay and clock skew between the hosts.  Generous on purpose (a false alarm
costs trust); closer back-dating is the receipts' job."""


def decode_signed_move(ruleset: Any, move_type: str, move: bytes) -> Any:
    """How the API parses a move's bytes (for the signature check)."""
    return convert.command_from_any(
        ruleset, any_pb2.Any(type_url=move_type, value=move)
    )


@dataclass(frozen=True)
class _Receipted:
    """One stored game as its stored receipts are checked against it: its
    rows as stored and decoded, the receipts, and the keys that verify them."""

    gid: str
    rows: list[tuple[int, str, bytes]]
    records: list[tuple[int, str, dict[str, Any]]]
    stored: list[Receipt]
    key: bytes | Keyring


def audit_game(
    ledger: Any,
    game_id: UUID,
    held: Iterable[Receipt] = (),
    keys: bytes | Keyring | None = None,
) -> AuditReport:
    """Everything ``ledger audit`` checks for one stored game.

    ``keys`` verify receipts: a pinned key or keyring (default: the
    ledger's keyring, so receipts from before a rotation still verify).
    """
    rows = ledger.read_records(game_id)
    gid = str(game_id)
    server_seed = None
    if rows and rows[-1][1] != CONCLUDED:
        server_seed = ledger.seed_of(game_id)
    report = audit_records(
        gid, rows, server_seed=server_seed, decode_move=decode_signed_move
    )
    key = keys if keys is not None else ledger.keyring
    records = [(v, t, load(d)) for v, t, d in rows]
    _check_listing(records, ledger.game_row(game_id), report)
    _check_commands(records, ledger.command_rows(game_id), report)
    receipted = _Receipted(gid, rows, records, ledger.stored_receipts(game_id), key)
    _check_stored_receipts(receipted, report)
    _check_final_head(receipted, report)
    check_signer_record(ledger, gid, records, report)
    held = list(held)
    for problem in check_receipts(gid, rows, held, key, origin="held"):
        report.fail(problem.version, problem.check, problem.detail)
    report.receipts_verified += sum(1 for r in held if r.game_id == gid)
    report.failures.sort(key=lambda f: f.version)
    return report


CHECKPOINT_ITSELF = "-"
"""The ``game_id`` of a problem with the checkpoint, not with one game."""


@dataclass(frozen=True)
class AgainstCheckpoint:
    """What ``ledger audit --against`` found: how many games, which rolled back."""

    games: int
    problems: list[Rollback]


def audit_against(
    ledger: Any,
    checkpoint: Checkpoint,
    keys: bytes | Keyring | None = None,
    game_id: UUID | None = None,
) -> AgainstCheckpoint:
    """Every game head ``checkpoint`` pinned (or ``game_id``'s) is still in its log.

    The checkpoint must be the ledger's (its signature, ``keys`` or the
    ledger's keyring), and this host's checkpoint log must hold its tree
    (the same root at its size): the pinned heads are read from that log,
    never from the database.
    """
    ring = keys if keys is not None else ledger.keyring
    problem = checkpoint_problem(checkpoint, ring)
    if problem is not None:
        return AgainstCheckpoint(0, [Rollback(CHECKPOINT_ITSELF, 0, problem)])
    log = ledger.head_signer.checkpoints
    root = None if log is None else log.root_at(checkpoint.tree_size)
    if root != checkpoint.root_hash:
        return AgainstCheckpoint(
            0,
            [
                Rollback(
                    CHECKPOINT_ITSELF,
                    0,
                    "this host's checkpoint log does not hold the checkpoint's tree "
                    "(restore checkpoint-leaves.ndjson from a backup of the data dir)",
                )
            ],
        )
    pinned = log.heads_at(checkpoint.tree_size) if log is not None else {}
    if game_id is not None:
        pinned = {k: v for k, v in pinned.items() if k == str(game_id)}
    hashes = {
        gid: {v: load(d).get("hash") for v, _t, d in ledger.read_records(UUID(gid))}
        for gid in pinned
    }
    return AgainstCheckpoint(len(pinned), rollbacks(pinned.values(), hashes))


def cross_checks(ledger: Any, game_id: UUID, report: AuditReport) -> None:
    """What an export alone cannot show, added to ``report`` (the dashboard's
    badge verifies the export, then these): the listing row and the signer's
    record agree with the log."""
    rows = ledger.read_records(game_id)
    records = [(v, t, load(d)) for v, t, d in rows]
    _check_listing(records, ledger.game_row(game_id), report)
    check_signer_record(ledger, str(game_id), records, report)


def check_signer_record(
    ledger: Any,
    gid: str,
    records: list[tuple[int, str, dict[str, Any]]],
    report: AuditReport,
) -> None:
    """The log still holds the highest head the signer recorded for the game."""
    record = getattr(ledger.head_signer, "record", None)
    if record is None:
        return
    signed = record.last(gid)
    if signed is None:
        return
    hashes = {v: r.get("hash") for v, _t, r in records}
    if signed.version not in hashes:
        end = max(hashes, default=0)
        report.fail(
            min(signed.version, end + 1),
            "signer",
            f"the ledger signed version {signed.version}, but the log ends at {end}: "
            "the game was rolled back in the database",
        )
    elif hashes[signed.version] != signed.head_hash:
        report.fail(
            signed.version,
            "signer",
            f"the ledger signed version {signed.version} with another hash: "
            "history up to it was rewritten",
        )


def _check_final_head(game: _Receipted, report: AuditReport) -> None:
    """A finished game's final head carries the ledger's signature, whatever
    its first event says about receipts (as ``ledger verify`` requires)."""
    if not game.records or game.records[-1][1] != CONCLUDED:
        return
    version, _type, head = game.records[-1]
    final = [r for r in game.stored if r.version == version]
    if not final:
        report.fail(
            version,
            "signed head",
            "no ledger-signed final head: the ledger never vouched for how "
            "this game ended",
        )
    elif check_receipts(game.gid, game.rows, final, game.key, origin="stored") or (
        final[0].head_hash != head.get("hash")
    ):
        report.fail(version, "signed head", "the final head's receipt does not verify")


def absent_game(
    ledger: Any,
    game_id: UUID,
    held: Iterable[Receipt],
    keys: bytes | Keyring | None = None,
) -> str | None:
    """What a game missing from this database means, given receipts for it.

    After a point-in-time restore, a game created after the restore point
    is simply not there; a player's receipts are what prove it existed.
    Receipts the deployment's keys vouch for name the moment the server
    signed them, so the answer can say when the game was played: after the
    point this database was restored to (or its rows were deleted since).
    ``None`` when no receipt for it verifies: then it is just not found.
    """
    gid = str(game_id)
    key = keys if keys is not None else ledger.keyring
    signed = vouched((r for r in held if r.game_id == gid), key)
    if not signed:
        return None
    first = min(signed, key=lambda r: (r.version, r.timestamp))
    return (
        f"game {gid} is not in this database, yet {len(signed)} receipt(s) signed "
        f"by this deployment's key name it; the first (event {first.version}) was "
        f"signed at {first.timestamp}: the game was created after the restore point "
        "this database was restored to (or its rows were deleted since)"
    )


def _check_listing(
    records: list[tuple[int, str, dict[str, Any]]],
    row: dict[str, Any] | None,
    report: AuditReport,
) -> None:
    if not records:
        return
    head_version, head_type, head = records[-1]
    if row is None:
        report.fail(head_version, "listing", "the game has no ledger_games row")
        return
    created = records[0][2]
    ended = head_type == CONCLUDED
    if row["version"] != head_version:
        report.fail(
            min(row["version"], head_version),
            "listing",
            f"ledger_games says version {row['version']}, the log ends at {head_version}"
            + (" (events were deleted)" if row["version"] > head_version else ""),
        )
    if (row["status"] == "ended") != ended:
        report.fail(
            head_version,
            "listing",
            f"ledger_games says {row['status']!r} but the log "
            + ("concludes" if ended else "has no GameConcluded"),
        )
    if row.get("head_hash") and row["head_hash"] != head["hash"]:
        report.fail(
            head_version,
            "listing",
            "ledger_games' head hash differs from the log's last event",
        )
    if row["game_type"] != created["body"]["game_type"]:
        report.fail(1, "listing", "ledger_games names another game type")
    if list(row["player_ids"] or []) != list(created["body"].get("player_ids", [])):
        report.fail(1, "listing", "ledger_games names other players")
    if ended:
        winners = head["body"]["outcome"]["winners"]
        if list(row["winners"] or []) != list(winners):
            report.fail(head_version, "listing", "ledger_games names other winners")
        if row["ended_at"] is not None and row["ended_at"] != datetime.fromisoformat(
            head["timestamp"]
        ):
            report.fail(
                head_version,
                "listing",
                "ledger_games' end time differs from GameConcluded's",
            )
    stamp = datetime.fromisoformat(created["timestamp"])
    if stamp.tzinfo is not None and abs(row["created_at"] - stamp) > CLOCK_SLACK:
        report.fail(
            1,
            "listing",
            "GameCreated's timestamp is far from when ledger_games recorded the game "
            "(back-dated?)",
        )


def _check_commands(
    records: list[tuple[int, str, dict[str, Any]]],
    rows: list[dict[str, Any]],
    report: AuditReport,
) -> None:
    """Each move in the log has its idempotency row and each row its move."""
    moves: dict[str, tuple[int, int, Any]] = {}
    for group in _appends(records):
        body = group[0][2]["body"]
        if body.get("command_id") is not None:
            moves[body["command_id"]] = (group[0][0], group[-1][0], body.get("actor"))
    head = records[-1][0] if records else 0
    keyed = {row["command_id"]: row for row in rows}
    for command_id, row in keyed.items():
        found = moves.get(command_id)
        if found is None:
            report.fail(
                min(row["first_version"], head + 1),
                "commands",
                f"command {command_id!r} was recorded at events {row['first_version']}-"
                f"{row['last_version']} but the log has no such move",
            )
        elif found != (row["first_version"], row["last_version"], row["actor"]):
            report.fail(
                found[0],
                "commands",
                f"command {command_id!r}: the log and ledger_commands disagree on its events",
            )
    for command_id, (first, _last, _actor) in moves.items():
        if command_id not in keyed:
            report.fail(
                first,
                "commands",
                f"move {command_id!r} has no idempotency row (inserted outside the server?)",
            )


def _decisions(
    records: list[tuple[int, str, dict[str, Any]]],
) -> list[list[tuple[int, str, dict[str, Any]]]]:
    """The log's events grouped by decision (GameCreated opens decision 1)."""

    def decision(record: tuple[int, str, dict[str, Any]]) -> Any:
        return 1 if record[0] == 1 else record[2]["body"].get("decision")

    return [list(g) for _d, g in groupby(records, key=decision)]


def _appends(
    records: list[tuple[int, str, dict[str, Any]]],
) -> list[list[tuple[int, str, dict[str, Any]]]]:
    """The log's decisions, each with the decisions the ledger made right
    after it for seats that dropped out: those are stored in the same append
    as the move or ending that led to them, under its idempotency row and
    its one receipt (which vouches for every event before it)."""
    out: list[list[tuple[int, str, dict[str, Any]]]] = []
    dropped: set[int] = set()
    for group in _decisions(records):
        type_, body = group[0][1], group[0][2]["body"]
        automatic = (
            type_ not in ENDING_KINDS
            and body.get("command_id") is None
            and body.get("actor") in dropped
        )
        if out and automatic:
            out[-1].extend(group)
        else:
            out.append(list(group))
        concluded = any(r[1] == CONCLUDED for r in group)
        if type_ in ENDING_KINDS and body.get("seat") is not None and not concluded:
            dropped.add(body["seat"])
    return out


def _check_stored_receipts(game: _Receipted, report: AuditReport) -> None:
    stored = game.stored
    for problem in check_receipts(game.gid, game.rows, stored, game.key, "stored"):
        report.fail(problem.version, problem.check, problem.detail)
    report.receipts_verified += len(stored)
    records = game.records
    if not records or not records[0][2]["body"].get("receipt_key"):
        return  # a game from before receipts
    if {"sequence", "hash", "chain", "encoding"} & {f.check for f in report.failures}:
        return  # a broken chain has no trustworthy decisions to count
    # every decision's last event (its conclusion included) must have a receipt
    ends = {group[-1][0] for group in _appends(records)}
    have = {r.version for r in stored}
    for version in sorted(ends - have):
        report.fail(
            version,
            "receipt (stored)",
            "the server issued no receipt for this move: it was not recorded by the server",
        )
