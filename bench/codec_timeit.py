"""Before/after timeit of the record codec, on golden games.

``python -m bench.codec_timeit tests/golden/thorgal/v1/2p.ndjson.gz ...``

"Before" is what each move cost until the codec: the body built twice (hash
input in the aggregate, stored record in the mapper), each encoded with
:mod:`json`, and records parsed with :mod:`json`.  "After" is
:func:`domain.ledger.records.seal` and :func:`domain.ledger.stored_events.decode`.  Both run in
one process, interleaved, so the ratio holds on a busy machine.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.ledger import records, stored_events
from domain.ledger.aggregate import Game


def stdlib(value: Any) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def per_item(fn: Callable[[], object], count: int) -> float:
    """Best of 7 runs of 10, in µs per item."""
    return min(timeit.repeat(fn, number=10, repeat=7)) / 10 / count * 1e6


def compare(path: Path) -> None:
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    gid = json.loads(lines[0])["game_id"]
    items = [json.loads(x) for x in lines if json.loads(x)["kind"] == "event"]
    raws = [(i["version"], i["type"], stdlib(i["record"])) for i in items]
    events = [stored_events.decode(gid, v, t, raw) for v, t, raw in raws]
    moves = [
        (e, vars(e), t)
        for e, (_, t, _) in zip(events, raws)
        if isinstance(e, Game.Decided)
    ]

    def encode_before() -> None:
        for e, f, t in moves:
            stamp = e.timestamp.isoformat()
            head = {"alg": records.ALG, "timestamp": stamp, "prev_hash": e.prev_hash}
            doc = {**head, "game_id": gid, "version": e.originator_version, "type": t}
            digest = hashlib.sha256(
                stdlib({**doc, "body": records.decided_body(f), "nonce": "ab"})
            ).hexdigest()
            stdlib({**head, "hash": digest, "body": records.decided_body(f)})

    def encode_after() -> None:
        for e, f, t in moves:
            records.seal(
                game_id=gid,
                version=e.originator_version,
                type_=t,
                timestamp=e.timestamp.isoformat(),
                prev_hash=e.prev_hash,
                body=records.decided_body(f),
                nonce="ab",
            )

    def decode_before() -> None:
        for v, t, raw in raws:
            stored_events.decode_record(gid, v, t, json.loads(raw))

    def decode_after() -> None:
        for v, t, raw in raws:
            stored_events.decode(gid, v, t, raw)

    print(f"{path}: {len(moves)} moves, {len(raws)} records")
    for name, before, after, count in (
        ("encode+hash one event", encode_before, encode_after, len(moves)),
        ("decode one record", decode_before, decode_after, len(raws)),
    ):
        b, a = per_item(before, count), per_item(after, count)
        print(f"  {name}: {b:.1f} µs -> {a:.1f} µs ({b / a:.2f}x)")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        compare(Path(arg))
