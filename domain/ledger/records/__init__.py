"""The stored-record format: type names, canonical encoding, hash input, decoding.

Why one place: the record is a contract with every reader that is not this
process (the auditor, an export, a projection, a client in another language),
so its layout lives in one place.  Everyone else calls these functions; nobody
repeats a type name or reads the JSON layout by hand.

A stored event is ``(type name, record)``: the type is ``ledger.GameCreated``,
``ledger.GameConcluded`` or ``<game>.<EventClass>``, and the record is the
canonical JSON (:func:`canonical_json`) of::

    {"alg", "timestamp", "prev_hash", "hash", "body", "nonce" (v2 only)}

The hash (algorithm in :mod:`domain.ledger.records.sealing`) is SHA-256 of the canonical
JSON of the *hash input*: the same fields plus ``game_id``, ``version`` and
``type``, minus ``hash``.  A snapshot is ``ledger.Snapshot`` with
``{"timestamp", "aggregate"}``.

Why a package: the format is still owned in one place, this package, with
one small module per part: :mod:`~domain.ledger.records.names` (type names and hash
algorithms), :mod:`~domain.ledger.records.canonical` (the JSON bytes, and why orjson
with a :mod:`json` fallback), :mod:`~domain.ledger.records.sealing` (the hash input;
a body is encoded once per event: the aggregate calls :func:`seal`, which
splices the same body bytes into the hash input and the stored record, and the
mapper stores those bytes as they are), :mod:`~domain.ledger.records.bodies`,
:mod:`~domain.ledger.records.snapshots` and :mod:`~domain.ledger.records.moves` (a game event
read straight from its bytes).  Callers import from here (``records.seal``)
and never from the modules: this package is the format's public face.

Why no aggregate here: the package encodes and decodes bytes, and the
aggregate seals its events with it.  Turning a record into a
``Game.Created``/``Decided``/``Concluded`` is :mod:`domain.ledger.stored_events`.
"""

from __future__ import annotations

from domain.ledger.records.bodies import (
    command_record,
    concluded_body,
    control_body,
    created_body,
    decided_body,
    decided_type,
    decode_payload,
    ended_body,
    record_body,
)
from domain.ledger.records.canonical import canonical_json, load
from domain.ledger.records.moves import Move, decode_move
from domain.ledger.records.names import (
    ALG,
    ALG_V1,
    ALGORITHMS,
    CONCLUDED_TYPE,
    CONTROL_KINDS,
    CONTROL_TYPES,
    CREATED_TYPE,
    ENDED_TYPES,
    ENDING_KINDS,
    GENESIS,
    LEDGER_TYPE_PREFIX,
    LEDGER_TYPES,
    SNAPSHOT_TYPE,
)
from domain.ledger.records.sealing import event_hash, hash_input, recomputed_hash, seal
from domain.ledger.records.snapshots import (
    decode_aggregate_state,
    encode_aggregate_state,
    encode_snapshot,
    snapshot_game_state,
)

__all__ = [
    "ALG",
    "ALGORITHMS",
    "ALG_V1",
    "CONCLUDED_TYPE",
    "CONTROL_KINDS",
    "CONTROL_TYPES",
    "CREATED_TYPE",
    "ENDED_TYPES",
    "ENDING_KINDS",
    "GENESIS",
    "LEDGER_TYPES",
    "LEDGER_TYPE_PREFIX",
    "SNAPSHOT_TYPE",
    "Move",
    "canonical_json",
    "command_record",
    "concluded_body",
    "control_body",
    "created_body",
    "decided_body",
    "decided_type",
    "decode_aggregate_state",
    "decode_move",
    "decode_payload",
    "encode_aggregate_state",
    "encode_snapshot",
    "ended_body",
    "event_hash",
    "hash_input",
    "load",
    "recomputed_hash",
    "record_body",
    "seal",
    "snapshot_game_state",
]
