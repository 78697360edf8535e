"""Ledger events to stored records and back (``Game.Created``/``Decided``/``Concluded``).

Why the aggregate is imported inside the functions: :mod:`domain.aggregate`
imports this package to seal its events, so this side waits until called.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from domain.core import Outcome
from domain.games import find_ruleset
from domain.records.bodies import (
    concluded_body,
    created_body,
    decided_body,
    decode_payload,
)
from domain.records.canonical import canonical_json, load
from domain.records.names import (
    ALG,
    ALG_V1,
    CONCLUDED_TYPE,
    CREATED_TYPE,
    SNAPSHOT_TYPE,
)
from domain.records.snapshots import decode_aggregate_state


def encode_event(event: Any) -> bytes:
    """The stored record of an event that :func:`seal` did not encode.

    The aggregate seals every event it records, so this serves only events
    built elsewhere (decoded ones, tests).
    """
    from domain.aggregate import Game  # the aggregate imports this module

    fields = vars(event)
    if isinstance(event, Game.Created):
        body = created_body(fields)
    elif isinstance(event, Game.Concluded):
        body = concluded_body(fields)
    elif isinstance(event, Game.Decided):
        body = decided_body(fields)
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
    originator_id: Any, version: int, type_: str, record: dict[str, Any]
) -> Any:
    """Rebuild a ledger event (or snapshot) from its type name and parsed record.

    :raises UnknownGameError, KeyError: for a type name no registered game has.
    """
    from domain.aggregate import Game  # the aggregate imports this module

    originator_id = (
        originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
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
        )
    if type_ == CONCLUDED_TYPE:
        return Game.Concluded(  # type: ignore[call-arg]  # eventsourcing's metaclass makes events dataclasses; mypy cannot see it
            **common,
            **chain,
            outcome=Outcome.model_validate(body["outcome"]),
            seed=body["seed"],
            decision=body["decision"],
        )
    return Game.Decided(  # type: ignore[call-arg]  # eventsourcing's metaclass makes events dataclasses; mypy cannot see it
        **common,
        **chain,
        payload=decode_payload(type_, body),
        decision=body["decision"],
        actor=body["actor"],
        command_id=body["command_id"],
        command=body["command"],
        signed=body.get("signed"),
    )


def decode(originator_id: Any, version: int, type_: str, data: bytes) -> Any:
    """Rebuild a ledger event (or snapshot) from its stored row."""
    return decode_record(originator_id, version, type_, load(data))
