"""The record codec (``domain/ledger/records/``): stored bytes never drift, each event is encoded once."""

from __future__ import annotations

import doctest
import hashlib
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import domain.ledger.records.canonical
import domain.ledger.records.sealing
from domain.games import find_game
from domain.ledger import records, stored_events
from domain.ledger.aggregate import Game
from domain.ledger.records import event_hash
from services.storage.mapper import LedgerMapper


def stdlib_canonical(value: object) -> bytes:
    """The encoding every stored record was hashed with before orjson."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
    ),
    max_leaves=20,
)


def test_the_codec_doctests_pass():
    results = doctest.testmod(domain.ledger.records.canonical)
    assert results.attempted > 0
    assert results.failed == 0


@given(json_values)
def test_canonical_bytes_are_the_bytes_json_dumps_wrote(value):
    assert records.canonical_json(value) == stdlib_canonical(value)


@given(json_values)
def test_records_read_back_as_json_reads_them(value):
    data = stdlib_canonical(value)
    assert records.load(data) == json.loads(data)
    assert records.canonical_json(records.load(data)) == data


@settings(max_examples=1000)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_float_is_written_as_json_writes_it(value):
    assert records.canonical_json({"x": [value]}) == stdlib_canonical({"x": [value]})


def test_values_orjson_writes_differently_are_encoded_as_json_does():
    for value in ({"f": 1e-07, "g": [5e-9]}, 6.103515625e-05, 2**64, {"s": "e-5,"}):
        assert records.canonical_json(value) == stdlib_canonical(value)


def test_integers_orjson_reads_as_floats_are_read_exactly():
    for value in (2**64, -(2**63) - 1, {"n": [10**30]}):
        data = stdlib_canonical(value)
        assert records.load(data) == value
        assert records.canonical_json(records.load(data)) == data


def new_game() -> Game:
    ruleset = find_game("thalara")
    return Game.create(
        ruleset,
        ruleset.setup_model.model_validate({"players": 2}),
        random.Random(7).randbytes(32),
    )


def test_a_sealed_record_is_the_record_encoded_from_the_event_and_its_hash_verifies():
    game = new_game()
    events = game.collect_events()
    assert len(events) >= 2
    for event in events:
        assert event.stored is not None
        assert event.stored == stored_events.encode_event(event)
        record = records.load(event.stored)
        assert record["hash"] == event_hash(
            game_id=str(game.id),
            version=event.originator_version,
            type_=game.type_name(event),
            timestamp=record["timestamp"],
            prev_hash=record["prev_hash"],
            body=record["body"],
            alg=record["alg"],
            nonce=record["nonce"],
        )


def test_the_hash_input_splices_the_body_bytes_as_the_canonical_document_would():
    kwargs = {
        "game_id": "g",
        "version": 3,
        "type_": "thalara.CardPlayed",
        "timestamp": "2026-01-01T00:00:00+00:00",
        "prev_hash": "0" * 64,
        "nonce": "ab",
    }
    body = {"payload": {"card": "é", "n": 2**70}, "decision": 2}
    digest, stored = records.seal(body=body, **kwargs)
    doc = {
        "alg": records.ALG,
        "game_id": "g",
        "version": 3,
        "type": "thalara.CardPlayed",
        "timestamp": kwargs["timestamp"],
        "prev_hash": kwargs["prev_hash"],
        "body": body,
        "nonce": "ab",
    }
    assert digest == hashlib.sha256(stdlib_canonical(doc)).hexdigest()
    record = {k: doc[k] for k in ("alg", "timestamp", "prev_hash", "body", "nonce")}
    assert stored == stdlib_canonical({**record, "hash": digest})


def test_a_move_encodes_each_body_once_and_the_mapper_stores_those_bytes(monkeypatch):
    game = new_game()
    game.collect_events()
    calls = []
    real = records.canonical_json

    def counting(value):
        calls.append(value)
        return real(value)

    monkeypatch.setattr(domain.ledger.records.sealing, "canonical_json", counting)
    ruleset = game.ruleset
    seat = ruleset.to_act(game.state)[0]
    command = ruleset.random_command(game.state, seat, random.Random(1))
    new = game.act(command, seat, random.Random(7).randbytes(32), "c1")
    sealed = [e.stored for e in new]
    assert all(sealed)
    mapper = LedgerMapper()
    stored = [mapper.to_stored_event(event) for event in new]
    assert [s.state for s in stored] == sealed
    assert len(calls) == len(new)
    # stored once, the bytes are let go: the game cache keeps recent events
    assert [e.stored for e in new] == [None] * len(new)
    back = [mapper.to_domain_event(s) for s in stored]
    assert [b.payload for b in back if isinstance(b, Game.Decided)] == [
        e.payload for e in new if isinstance(e, Game.Decided)
    ]


def test_the_type_names_are_written_once_in_product_code():
    from pathlib import Path

    root = Path(__file__).parents[2]
    holders = {
        path.relative_to(root).as_posix()
        for folder in ("domain", "services", "projections", "bench")
        for path in (root / folder).rglob("*.py")
        if '"ledger.GameCreated"' in path.read_text()
        or '"ledger.GameConcluded"' in path.read_text()
    }
    assert holders == {"domain/ledger/records/names.py"}
