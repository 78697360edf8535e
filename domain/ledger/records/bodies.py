"""Each ledger event's hashed body, and a game's own event from its body.

Why together: these functions are the body layout in both directions, so a
field added on one side is seen next to the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.contract.core import Command, Event, Outcome
from domain.games import find_game
from domain.ledger.records.names import (
    CONCLUDED_TYPE,
    CONTROL_KINDS,
    CREATED_TYPE,
    ENDING_KINDS,
    SNAPSHOT_TYPE,
)
from domain.ledger.records.trusted import trusted_decoder

if TYPE_CHECKING:
    from domain.contract.core import Ruleset


def created_body(fields: dict[str, Any]) -> dict[str, Any]:
    """``GameCreated``'s hashed body.

    ``ruleset_version`` and ``content_hash`` (absent from games created
    before rules were versioned: those are version 1), ``seat_keys`` only for
    games whose moves must be signed, ``receipt_key`` (the id of the key that
    signs this game's receipts) only when the server signs receipts.
    """
    optional = {
        key: list(fields[key]) if key == "seat_keys" else fields[key]
        for key in ("seat_keys", "receipt_key")
        if fields.get(key)
    }
    body = {
        **optional,
        "ruleset_version": fields["ruleset_version"],
        "content_hash": fields["content_hash"],
        "game_type": fields["game_type"],
        "setup": fields["setup"].model_dump(mode="json"),
        "seat_count": fields["seat_count"],
        "seed_commitment": fields["seed_commitment"],
        "rng_scheme": fields["rng_scheme"],
        "entropy": list(fields["entropy"]),
        "content": fields["content"],
        "player_ids": list(fields["player_ids"]),
    }
    if fields.get("spectator_delay"):  # only when set: older games hash as before
        body["spectator_delay"] = dict(fields["spectator_delay"])
    if fields.get("time_control"):  # likewise: untimed games hash as before
        body["time_control"] = dict(fields["time_control"])
    return body


def command_record(command: Command) -> dict[str, Any]:
    """How a decision's command is recorded (the audit re-validates it)."""
    return {"type": type(command).__name__, "fields": command.model_dump(mode="json")}


def _unless_none(
    body: dict[str, Any], fields: dict[str, Any], *keys: str
) -> dict[str, Any]:
    """``body`` plus each of ``keys`` whose value in ``fields`` is not ``None``.

    Why absent rather than ``null``: these fields came after records were
    written without them; left out when unset, those records hash as before.
    """
    body.update({key: fields[key] for key in keys if fields.get(key) is not None})
    return body


def decided_body(fields: dict[str, Any]) -> dict[str, Any]:
    """A game event's hashed body: its payload and the decision it belongs to."""
    body = {key: fields[key] for key in ("decision", "actor", "command_id", "command")}
    body["payload"] = fields["payload"].model_dump(mode="json")
    return _unless_none(body, fields, "signed")


def concluded_body(fields: dict[str, Any]) -> dict[str, Any]:
    """``GameConcluded``'s hashed body: the outcome and the revealed seed."""
    return {
        "outcome": outcome_record(fields["outcome"]),
        "seed": fields["seed"],
        "decision": fields["decision"],
    }


def outcome_record(outcome: Outcome | None) -> dict[str, Any] | None:
    """An outcome as stored: ``absent`` only when a seat was absent, so an
    outcome without one is stored exactly as before the field existed."""
    if outcome is None:
        return None
    record: dict[str, Any] = outcome.model_dump(mode="json")
    if not record.get("absent"):
        record.pop("absent", None)
    return record


def ended_body(fields: dict[str, Any]) -> dict[str, Any]:
    """A ledger ending's hashed body (``ledger.SeatResigned`` and the others):
    who ended the game (``by``), which seat it concerns, why, and for a
    timeout the deadline that passed."""
    body = {key: fields[key] for key in ("kind", "seat", "by", "reason", "decision")}
    return _unless_none(body, fields, "deadline_ms")


def control_body(fields: dict[str, Any]) -> dict[str, Any]:
    """A referee's control's hashed body (``ledger.GamePaused`` and the
    others): what it was, who gave it (``by``), the seat it concerns and, for
    added time, how many milliseconds."""
    body = {key: fields[key] for key in ("kind", "seat", "by", "decision")}
    return _unless_none(body, fields, "ms")


def record_body(type_: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The hashed body of an event stored under ``type_``, from its fields:
    the type name says which layout, so a caller never pairs them by hand.

    :raises ValueError: for a snapshot, which is not a link of the chain.
    """
    if type_ == CREATED_TYPE:
        return created_body(fields)
    if type_ == CONCLUDED_TYPE:
        return concluded_body(fields)
    if type_ in ENDING_KINDS:
        return ended_body(fields)
    if type_ in CONTROL_KINDS:
        return control_body(fields)
    if type_ == SNAPSHOT_TYPE:
        raise ValueError("a snapshot has no hashed body")
    return decided_body(fields)


def decided_type(game_type: str, payload: Event) -> str:
    """The stored type name of a game's own event: ``<game>.<EventClass>``."""
    return f"{game_type}.{type(payload).__name__}"


def decode_payload(
    type_: str,
    body: dict[str, Any],
    ruleset: Ruleset[Any] | None = None,
    trusted: bool = False,
) -> Event:
    """A game's own event from its type name and stored body.

    ``ruleset`` is the rules version the game was created under (default:
    the game's newest).  ``trusted``: the body was read from the ledger's own
    table, so it is converted without validation where
    :func:`~domain.ledger.records.trusted.trusted_decoder` can (the same event).

    :raises UnknownGameError: for a type name of no registered game.
    :raises KeyError: for an event name the game does not have.
    """
    game_type, _, name = type_.partition(".")
    rules = ruleset if ruleset is not None else find_game(game_type)
    cls = rules.events_by_name[name]
    build = trusted_decoder(cls) if trusted else None
    event: Event = (build or cls.model_validate)(body["payload"])
    return event
