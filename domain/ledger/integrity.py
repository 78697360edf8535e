"""The per-game hash chain over a canonical encoding of each stored event.

Why a chain and not a per-row checksum: a row checksum catches an edited row
but not a deleted or reordered one.  Each event's hash covers the previous
event's hash, so any edit, deletion, insertion or reordering breaks every
link after it, and the audit can name the first event that fails.

Algorithm ``sha256-canonical-json/v1``: ``SHA-256`` of the UTF-8 canonical
JSON (sorted keys, no insignificant whitespace, non-ASCII kept;
:func:`domain.ledger.records.canonical_json`) of::

    {"alg": ALG, "game_id": str, "version": int, "type": str,
     "timestamp": ISO-8601, "prev_hash": hex, "body": {...}}

where ``body`` is everything else the event stores.  The first event's
``prev_hash`` is 64 zeros.  A new algorithm gets a new ``alg`` string and the
stored record says which one it used.

Algorithm ``sha256-canonical-json/v2`` (every record written since receipts)
adds ``"nonce": hex`` (16 random bytes, stored in the record) to the hashed
document.  Why: a head hash now leaves the server while a game runs (in the
signed receipts a player keeps), and without a secret nonce a player could
brute-force a small hidden part of the record (one face-down card) by
hashing each candidate.  The timestamp is inside the hashed document in both
versions, so a back-dated timestamp changes the event's hash and every hash
after it, which breaks every receipt issued for a later version.
"""

from __future__ import annotations

from domain.ledger import records

ALG_V1 = records.ALG_V1
ALG = records.ALG
ALGORITHMS = records.ALGORITHMS
GENESIS = records.GENESIS
canonical_json = records.canonical_json
"""The canonical encoding is the record codec's (:mod:`domain.ledger.records`)."""


event_hash = records.event_hash
"""The chain hash of one event (see module docstring): the hex SHA-256 of
:func:`domain.ledger.records.hash_input`.

:raises ValueError: for an algorithm this code does not know, or a v2
    record without its nonce.
"""
