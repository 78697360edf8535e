"""The stored-record format: type names, canonical encoding, hash input, decoding.

Why one module: the record is a contract with every reader that is not this
process (the auditor, an export, a projection, a client in another language),
so its layout lives in one place.  Everyone else calls these functions; nobody
repeats a type name or reads the JSON layout by hand.

A stored event is ``(type name, record)``: the type is ``ledger.GameCreated``,
``ledger.GameConcluded`` or ``<game>.<EventClass>``, and the record is the
canonical JSON (:func:`canonical_json`) of::

    {"alg", "timestamp", "prev_hash", "hash", "body", "nonce" (v2 only)}

The hash (algorithm in :mod:`domain.integrity`) is SHA-256 of the canonical
JSON of the *hash input*: the same fields plus ``game_id``, ``version`` and
``type``, minus ``hash``.  A snapshot is ``ledger.Snapshot`` with
``{"timestamp", "aggregate"}``.

Why orjson, and why it falls back: encoding and decoding are on every move and
every replay, and orjson is several times faster than :mod:`json`.  But the
hash covers these bytes, so they must stay byte-identical to what
``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` wrote
for every record already stored.  orjson differs for integers beyond 64 bits
(it raises) and in how it writes some floats (``1e-7`` for ``1e-07``,
``0.00006103515625`` for ``6.103515625e-05``), so a document with a float or
such an integer is encoded with :mod:`json` (game records hold neither).  A body is encoded once per event: the aggregate
calls :func:`seal`, which splices the same body bytes into the hash input and
the stored record, and the mapper stores those bytes as they are.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson

from domain.core import Event, Outcome
from domain.games import find_game, find_ruleset

if TYPE_CHECKING:
    from domain.core import Ruleset

CREATED_TYPE = "ledger.GameCreated"
CONCLUDED_TYPE = "ledger.GameConcluded"
SNAPSHOT_TYPE = "ledger.Snapshot"
LEDGER_PREFIX = "ledger."
"""The prefix of the ledger's own type names; a game's are ``<game>.<EventClass>``."""

ALG_V1 = "sha256-canonical-json/v1"
ALG = "sha256-canonical-json/v2"
ALGORITHMS = (ALG_V1, ALG)
GENESIS = "0" * 64

_SORTED = orjson.OPT_SORT_KEYS
_DOT_FLOAT = re.compile(rb"\.[0-9]+(?:e[-+][0-9]+)?(?:[,\]}]|$)")
_EXP_FLOAT = re.compile(rb"e[-+][0-9]+(?:[,\]}]|$)")
_ONLY_DIGITS = bytes(48 if 48 <= i <= 57 else 120 for i in range(256))  # 0-9 -> "0"
_LONG_RUN = b"0" * 19


def _has_float(data: bytes) -> bool:
    """Whether orjson's output has a float token (both write one with ``.`` or
    ``e+``/``e-``).  Text in a string that looks like one only costs a slower,
    still exact, encoding.  Finding the few candidates first is what keeps this
    cheap next to the encoding it guards."""
    for needle, token in ((b".", _DOT_FLOAT), (b"e+", _EXP_FLOAT), (b"e-", _EXP_FLOAT)):
        at = data.find(needle)
        while at != -1:
            if token.match(data, at):
                return True
            at = data.find(needle, at + 1)
    return False


def _has_long_int(data: bytes | bytearray | memoryview) -> bool:
    """Whether ``data`` has a run of 19 digits (an integer orjson would read as
    a float, or digits in a string: those only cost a slower parse)."""
    return _LONG_RUN in bytes(data).translate(_ONLY_DIGITS)


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes: the same value always encodes the same way.

    Sorted keys, no insignificant whitespace, non-ASCII kept as UTF-8; the
    same bytes as :mod:`json` with those settings.

    >>> canonical_json({"b": 1, "a": [1, "é"]})
    b'{"a":[1,"\\xc3\\xa9"],"b":1}'
    >>> canonical_json({"small": 1e-07, "big": 2**70})
    b'{"big":1180591620717411303424,"small":1e-07}'
    """
    try:
        data = orjson.dumps(value, option=_SORTED)
    except TypeError:  # an integer beyond 64 bits, or a key that is not a str
        return _stdlib_json(value)
    if _has_float(data):
        return _stdlib_json(value)
    return data


def _stdlib_json(value: Any) -> bytes:
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    ).encode("utf-8")


def load(data: bytes | bytearray | memoryview | str) -> Any:
    """Parse a stored record (or any JSON the ledger wrote), exactly.

    orjson reads integers beyond 64 bits as floats, which would change the
    bytes an auditor re-hashes; text with a run of 19 digits is parsed by
    :mod:`json` instead.

    :raises ValueError: when ``data`` is not JSON.
    """
    raw = data.encode() if isinstance(data, str) else data
    if _has_long_int(raw):
        return json.loads(bytes(raw))
    return orjson.loads(raw)


# ------------------------------------------------------------------ hash input


def hash_input(
    *,
    game_id: str,
    version: int,
    type_: str,
    timestamp: str,
    prev_hash: str,
    body: Any,
    alg: str = ALG,
    nonce: str | None = None,
) -> bytes:
    """The bytes an event's hash covers (see :mod:`domain.integrity`).

    ``body`` is the decoded body, or its canonical bytes wrapped in
    :class:`orjson.Fragment` (how :func:`seal` avoids encoding it twice).

    :raises ValueError: for an algorithm this code does not know, or a v2
        record without its nonce.
    """
    if alg not in ALGORITHMS:
        raise ValueError(f"unknown hash algorithm {alg!r}")
    if (alg == ALG) != (nonce is not None):
        raise ValueError(f"{alg} records {'need' if alg == ALG else 'have no'} nonce")
    doc = {
        "alg": alg,
        "game_id": game_id,
        "version": version,
        "type": type_,
        "timestamp": timestamp,
        "prev_hash": prev_hash,
        "body": body,
    }
    if nonce is not None:
        doc["nonce"] = nonce
    if isinstance(body, orjson.Fragment):
        return orjson.dumps(doc, option=_SORTED)  # only str/int fields around it
    return canonical_json(doc)


def seal(
    *,
    game_id: str,
    version: int,
    type_: str,
    timestamp: str,
    prev_hash: str,
    body: dict[str, Any],
    nonce: str,
) -> tuple[str, bytes]:
    """A new (v2) event's hash and its stored record, from one encoding of ``body``."""
    fragment = orjson.Fragment(canonical_json(body))
    digest = hashlib.sha256(
        hash_input(
            game_id=game_id,
            version=version,
            type_=type_,
            timestamp=timestamp,
            prev_hash=prev_hash,
            body=fragment,
            nonce=nonce,
        )
    ).hexdigest()
    record = {
        "alg": ALG,
        "timestamp": timestamp,
        "prev_hash": prev_hash,
        "hash": digest,
        "body": fragment,
        "nonce": nonce,
    }
    return digest, orjson.dumps(record, option=_SORTED)


# ------------------------------------------------------------------ bodies


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
    return body


def decided_body(fields: dict[str, Any]) -> dict[str, Any]:
    """A game event's hashed body: its payload and the decision it belongs to."""
    body = {
        "payload": fields["payload"].model_dump(mode="json"),
        "decision": fields["decision"],
        "actor": fields["actor"],
        "command_id": fields["command_id"],
        "command": fields["command"],
    }
    if fields.get("signed") is not None:
        body["signed"] = fields["signed"]
    return body


def concluded_body(fields: dict[str, Any]) -> dict[str, Any]:
    """``GameConcluded``'s hashed body: the outcome and the revealed seed."""
    return {
        "outcome": fields["outcome"].model_dump(mode="json"),
        "seed": fields["seed"],
        "decision": fields["decision"],
    }


def decided_type(game_type: str, payload: Event) -> str:
    """The stored type name of a game's own event: ``<game>.<EventClass>``."""
    return f"{game_type}.{type(payload).__name__}"


def decode_payload(
    type_: str, body: dict[str, Any], ruleset: Ruleset[Any] | None = None
) -> Event:
    """A game's own event from its type name and stored body.

    ``ruleset`` is the rules version the game was created under (default:
    the game's newest).

    :raises UnknownGameError: for a type name of no registered game.
    :raises KeyError: for an event name the game does not have.
    """
    game_type, _, name = type_.partition(".")
    rules = ruleset if ruleset is not None else find_game(game_type)
    event: Event = rules.events_by_name[name].model_validate(body["payload"])
    return event


# ------------------------------------------------------------------ snapshots

_DATETIMES = ("_created_on", "_modified_on")


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
    return out


def encode_snapshot(timestamp: datetime, state: dict[str, Any]) -> bytes:
    """A snapshot record."""
    return canonical_json(
        {"timestamp": timestamp.isoformat(), "aggregate": encode_aggregate_state(state)}
    )


def snapshot_game_state(data: bytes, ruleset: Ruleset[Any]) -> Any:
    """Only the ruleset's state from a snapshot record (for readers of the log)."""
    return ruleset.state_model.model_validate(load(data)["aggregate"]["state"])


# ------------------------------------------------------------------ events


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
