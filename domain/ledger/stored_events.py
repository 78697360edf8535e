"""Ledger events to stored records and back (``Game.Created``/``Decided``/``Concluded``).

Why apart from :mod:`domain.ledger.records`: that package owns the record's bytes
(type names, canonical JSON, bodies, the hash input) and knows nothing of
the aggregate, so the aggregate can seal its events with it.  Building the
aggregate's event objects from a record, and the record of an event that was
not sealed when it was recorded, needs the aggregate, so it lives here, one
layer above both.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

from domain.contract.core import Outcome
from domain.games import find_ruleset
from domain.ledger.aggregate import Game
from domain.ledger.records import (
    ALG,
    ALG_V1,
    CONTROL_KINDS,
    CREATED_TYPE,
    ENDING_KINDS,
    LEDGER_TYPES,
    SNAPSHOT_TYPE,
    canonical_json,
    concluded_body,
    control_body,
    created_body,
    decided_body,
    decode_aggregate_state,
    decode_payload,
    ended_body,
    load,
)


def encode_event(event: Any) -> bytes:
    """The stored record of an event that :func:`domain.ledger.records.seal` did not encode.

    The aggregate seals every event it records, so this serves only events
    built elsewhere (decoded ones, tests).
    """
    fields = vars(event)
    if isinstance(event, Game.Created):
        body = created_body(fields)
    elif isinstance(event, Game.Concluded):
        body = concluded_body(fields)
    elif isinstance(event, Game.Decided):
        body = decided_body(fields)
    elif isinstance(event, Game.Ended):
        body = ended_body(fields)
    elif isinstance(event, Game.Controlled):
        body = control_body(fields)
    else:
        raise TypeError(f"cannot store {event!r}")
    record: dict[str, Any] = {
        "alg": ALG if event.nonce is not None else ALG_V1,
        "timestamp": event.timestamp.isoformat(),
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "body": body,
    }
    if event.nonce is not None:
        record["nonce"] = event.nonce
    return canonical_json(record)


def decode_record(
    originator_id: Any,
    version: int,
    type_: str,
    record: dict[str, Any],
    trusted: bool = False,
) -> Any:
    """Rebuild a ledger event (or snapshot) from its type name and parsed record.

    ``trusted``: read from the ledger's own table (see :func:`domain.ledger.records.decode_payload`).

    :raises UnknownGameError, KeyError: for a type name no registered game has.
    """
    originator_id = (
        originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
    )
    if type_ not in LEDGER_TYPES:  # a game's own event: nearly every row
        body = record["body"]
        return _stored_event(
            Game.Decided,
            {
                "originator_id": originator_id,
                "originator_version": version,
                "timestamp": datetime.fromisoformat(record["timestamp"]),
                "prev_hash": record["prev_hash"],
                "hash": record["hash"],
                "nonce": record.get("nonce"),
                "payload": decode_payload(type_, body, trusted=trusted),
                "decision": body["decision"],
                "actor": body["actor"],
                "command_id": body["command_id"],
                "command": body["command"],
                "signed": body.get("signed"),
                "stored": None,
            },
        )
    common = {
        "originator_id": originator_id,
        "originator_version": version,
        "timestamp": datetime.fromisoformat(record["timestamp"]),
    }
    topic = f"{Game.__module__}:{Game.__qualname__}"
    if type_ == SNAPSHOT_TYPE:
        return Game.Snapshot(
            **common, topic=topic, state=decode_aggregate_state(record["aggregate"])
        )
    chain = {
        "prev_hash": record["prev_hash"],
        "hash": record["hash"],
        "nonce": record.get("nonce"),
    }
    body = record["body"]
    if type_ == CREATED_TYPE:
        rules_version = body.get("ruleset_version", 1)  # unversioned: version 1
        ruleset = find_ruleset(body["game_type"], rules_version)
        return Game.Created(  # type: ignore[call-arg]  # eventsourcing's metaclass makes events dataclasses; mypy cannot see it
            **common,
            **chain,
            originator_topic=topic,
            game_type=body["game_type"],
            setup=ruleset.setup_model.model_validate(body["setup"]),
            seat_count=body["seat_count"],
            seed_commitment=body["seed_commitment"],
            rng_scheme=body["rng_scheme"],
            entropy=tuple(body["entropy"]),
            content=body["content"],
            player_ids=tuple(body.get("player_ids", ())),
            spectator_delay=body.get("spectator_delay"),
            ruleset_version=rules_version,
            content_hash=body.get("content_hash", ""),
            seat_keys=tuple(body.get("seat_keys", ())),
            receipt_key=body.get("receipt_key"),
            time_control=body.get("time_control"),
        )
    if type_ in ENDING_KINDS:
        return _stored_event(
            Game.Ended,
            {
                **common,
                **chain,
                **_decided_by(body),
                "reason": body["reason"],
                "deadline_ms": body.get("deadline_ms"),
            },
        )
    if type_ in CONTROL_KINDS:
        return _stored_event(
            Game.Controlled,
            {
                **common,
                **chain,
                **_decided_by(body),
                "ms": body.get("ms"),
            },
        )
    return _stored_event(
        Game.Concluded,
        {
            **common,
            **chain,
            "outcome": Outcome.model_validate(body["outcome"]),
            "seed": body["seed"],
            "decision": body["decision"],
            "stored": None,
        },
    )


def _decided_by(body: dict[str, Any]) -> dict[str, Any]:
    """The fields an ending and a control share: a decision of its own, of a
    ``kind``, for a ``seat`` (or none), taken ``by`` someone named."""
    return {
        "kind": body["kind"],
        "seat": body["seat"],
        "by": body["by"],
        "decision": body["decision"],
        "stored": None,
    }


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def _stored_event(cls: type, values: dict[str, Any]) -> Any:
    """An event of dataclass ``cls`` holding exactly ``values``, one per field.

    Why not ``cls(**values)``: the generated ``__init__`` of a frozen dataclass
    sets each field through ``object.__setattr__`` and was a third of decoding
    a stored ``Decided``; replay builds thousands.  Its only check,
    ``originator_id`` being a UUID, holds here (:func:`decode_record` converts
    it).  A field set here but missing from ``cls``, or the other way round, is
    an error, so a field added to an event cannot be silently left unset.
    """
    if values.keys() != _field_names(cls):
        raise TypeError(
            f"{cls.__qualname__} fields {sorted(_field_names(cls))},"
            f" decoded {sorted(values)}"
        )
    event: Any = object.__new__(cls)
    object.__setattr__(event, "__dict__", values)
    return event


def decode(
    originator_id: Any, version: int, type_: str, data: bytes, trusted: bool = False
) -> Any:
    """Rebuild a ledger event (or snapshot) from its stored row."""
    return decode_record(originator_id, version, type_, load(data), trusted)
