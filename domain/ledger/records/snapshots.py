"""The snapshot record: a ``Game``'s whole state, and reading older layouts.

Why apart from events: a snapshot is not a link of the hash chain, and its
decoder carries the defaults for every layout older snapshots were taken in.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain.contract.core import Outcome
from domain.games import find_ruleset
from domain.ledger.clocks import Clock, TimeControl
from domain.ledger.records.canonical import canonical_json, load

if TYPE_CHECKING:
    from domain.contract.core import Ruleset

_DATETIMES = ("_created_on", "_modified_on")
UNKNOWN_MOVES = 1_000_000
"""The move count of a snapshot taken before moves were counted: too many to
abort, the safe side (such a snapshot follows at least its interval's moves)."""


def encode_aggregate_state(state: dict[str, Any]) -> dict[str, Any]:
    """A ``Game``'s snapshot state as the JSON the snapshot record holds."""
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
    out["dropped"] = list(state.get("dropped", ()))
    out["absent"] = list(state.get("absent", ()))
    out["offered_at"] = list(state.get("offered_at", ()))
    out.pop("control", None)  # rebuilt from time_control
    clock = state.get("clock")
    out["clock"] = clock.to_record() if clock is not None else None
    return out


def decode_aggregate_state(data: dict[str, Any]) -> dict[str, Any]:
    """A ``Game``'s state from a snapshot record, older layouts included."""
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
    out.setdefault("time_control", None)  # snapshots from before clocks
    out["control"] = TimeControl.model_validate(out["time_control"] or {})
    clock = data.get("clock")
    out["clock"] = Clock.from_record(clock) if clock else None
    out.setdefault("moves_made", UNKNOWN_MOVES)
    out.setdefault("ending", None)
    out["dropped"] = tuple(data.get("dropped", ()))  # snapshots from before drop-outs
    out["absent"] = tuple(data.get("absent", ()))  # from before absent seats
    # snapshots from before the referee's controls: never paused, no offers
    out.setdefault("paused", False)
    out.setdefault("draw_offer", None)
    out["offered_at"] = tuple(data.get("offered_at", ())) or (-1,) * data["seat_count"]
    return out


def encode_snapshot(timestamp: datetime, state: dict[str, Any]) -> bytes:
    """A snapshot record."""
    return canonical_json(
        {"timestamp": timestamp.isoformat(), "aggregate": encode_aggregate_state(state)}
    )


def snapshot_game_state(data: bytes, ruleset: Ruleset[Any]) -> Any:
    """Only the ruleset's state from a snapshot record (for readers of the log)."""
    return ruleset.state_model.model_validate(load(data)["aggregate"]["state"])
