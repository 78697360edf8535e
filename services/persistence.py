"""How game events are stored: the mapper (the recorder is in ``services.recorder``).

Why a custom mapper: eventsourcing's default stores the Python class path and
pickled-ish dict state.  We store each game event under its stable type name
(``thalara.CardPlayed``) with a canonical-JSON record that carries the hash
chain, so the rows are readable by any language and hashable by an auditor
without this code.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent

from domain.aggregate import (
    CONCLUDED_TYPE,
    CREATED_TYPE,
    Game,
    concluded_body,
    created_body,
    decided_body,
    record_type,
)
from domain.core import Outcome
from domain.games import all_games, find_game, find_ruleset
from domain.integrity import ALG, ALG_V1, canonical_json

SNAPSHOT_TYPE = "ledger.Snapshot"


def _game_of_event_class() -> dict[type, str]:
    return {cls: game.name for game in all_games() for cls in game.event_types}


class LedgerMapper(Mapper[UUID]):
    """Stores ledger events as ``(type name, canonical JSON record)``."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())
        self._games: dict[type, str] | None = None

    def _game_type_of(self, payload: Any) -> str:
        if self._games is None or type(payload) not in self._games:
            self._games = _game_of_event_class()
        return self._games[type(payload)]

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        fields = vars(domain_event)
        if isinstance(domain_event, Game.Snapshot):
            topic = SNAPSHOT_TYPE
            record: dict[str, Any] = {
                "timestamp": domain_event.timestamp.isoformat(),
                "aggregate": encode_aggregate_state(domain_event.state),
            }
        else:
            if isinstance(domain_event, Game.Created):
                topic, body = CREATED_TYPE, created_body(fields)
            elif isinstance(domain_event, Game.Concluded):
                topic, body = CONCLUDED_TYPE, concluded_body(fields)
            elif isinstance(domain_event, Game.Decided):
                topic = record_type(
                    self._game_type_of(domain_event.payload), domain_event
                )
                body = decided_body(fields)
            else:
                raise TypeError(f"cannot store {domain_event!r}")
            record = {
                "alg": ALG if domain_event.nonce is not None else ALG_V1,
                "timestamp": domain_event.timestamp.isoformat(),
                "prev_hash": domain_event.prev_hash,
                "hash": domain_event.hash,
                "body": body,
            }
            if domain_event.nonce is not None:
                record["nonce"] = domain_event.nonce
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=canonical_json(record),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        record = json.loads(stored_event.state)
        return decode_record(
            stored_event.originator_id,
            stored_event.originator_version,
            stored_event.topic,
            record,
        )


def decode_record(
    originator_id: Any, version: int, topic: str, record: dict[str, Any]
) -> Any:
    """Rebuild a ledger event (or snapshot) from its stored record."""
    originator_id = (
        originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
    )
    timestamp = datetime.fromisoformat(record["timestamp"])
    common = {
        "originator_id": originator_id,
        "originator_version": version,
        "timestamp": timestamp,
    }
    if topic == SNAPSHOT_TYPE:
        return Game.Snapshot(
            **common,
            topic=f"{Game.__module__}:{Game.__qualname__}",
            state=decode_aggregate_state(record["aggregate"]),
        )
    chain = {
        "prev_hash": record["prev_hash"],
        "hash": record["hash"],
        "nonce": record.get("nonce"),
    }
    body = record["body"]
    if topic == CREATED_TYPE:
        version = body.get("ruleset_version", 1)  # unversioned games: version 1
        ruleset = find_ruleset(body["game_type"], version)
        return Game.Created(  # type: ignore[call-arg]  # eventsourcing's metaclass makes events dataclasses; mypy cannot see it
            **common,
            **chain,
            originator_topic=f"{Game.__module__}:{Game.__qualname__}",
            game_type=body["game_type"],
            setup=ruleset.setup_model.model_validate(body["setup"]),
            seat_count=body["seat_count"],
            seed_commitment=body["seed_commitment"],
            rng_scheme=body["rng_scheme"],
            entropy=tuple(body["entropy"]),
            content=body["content"],
            player_ids=tuple(body.get("player_ids", ())),
            spectator_delay=body.get("spectator_delay"),
            ruleset_version=version,
            content_hash=body.get("content_hash", ""),
            seat_keys=tuple(body.get("seat_keys", ())),
            receipt_key=body.get("receipt_key"),
        )
    if topic == CONCLUDED_TYPE:
        return Game.Concluded(  # type: ignore[call-arg]  # eventsourcing's metaclass makes events dataclasses; mypy cannot see it
            **common,
            **chain,
            outcome=Outcome.model_validate(body["outcome"]),
            seed=body["seed"],
            decision=body["decision"],
        )
    game_type, _, name = topic.partition(".")
    payload_cls = find_game(game_type).events_by_name[name]
    return Game.Decided(  # type: ignore[call-arg]  # eventsourcing's metaclass makes events dataclasses; mypy cannot see it
        **common,
        **chain,
        payload=payload_cls.model_validate(body["payload"]),
        decision=body["decision"],
        actor=body["actor"],
        command_id=body["command_id"],
        command=body["command"],
        signed=body.get("signed"),
    )


_DATETIMES = ("_created_on", "_modified_on")


def encode_aggregate_state(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    for key in _DATETIMES:
        out[key] = state[key].isoformat()
    out["setup"] = state["setup"].model_dump(mode="json")
    out["state"] = state["state"].model_dump(mode="json")
    out["outcome"] = (
        state["outcome"].model_dump(mode="json") if state["outcome"] else None
    )
    out["entropy"] = list(state["entropy"])
    out["player_ids"] = list(state["player_ids"])
    return out


def decode_aggregate_state(data: dict[str, Any]) -> dict[str, Any]:
    ruleset = find_ruleset(data["game_type"], data.get("ruleset_version", 1))
    out = dict(data)
    out.setdefault("ruleset_version", 1)  # snapshots taken before versioning
    out.setdefault("content_hash", "")
    out["seat_keys"] = tuple(data.get("seat_keys", ()))
    out.setdefault("receipt_key", None)
    for key in _DATETIMES:
        out[key] = datetime.fromisoformat(data[key])
    out["setup"] = ruleset.setup_model.model_validate(data["setup"])
    out["state"] = ruleset.state_model.model_validate(data["state"])
    out["outcome"] = (
        Outcome.model_validate(data["outcome"]) if data["outcome"] else None
    )
    out["entropy"] = tuple(data["entropy"])
    out["player_ids"] = tuple(data["player_ids"])
    out.setdefault("spectator_delay", None)  # snapshots from before the delay
    return out
