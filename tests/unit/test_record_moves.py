"""``records.decode_move``: a game event read from its bytes equals the two-step decode.

The statistics view replays every finished game through ``decode_move``
instead of ``load`` + ``decode_payload``; if the two ever disagreed (a field
read in JSON mode differently, a union member picked differently), the view's
rows would silently change.  So every event of a random game of every
registered ruleset goes through both.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from domain.games import all_games
from domain.ledger import records
from domain.ledger.records import decided_type
from domain.ledger.simulate import play_random_game


def stored(body: dict[str, object]) -> bytes:
    """A full stored record around ``body``: the fields ``decode_move`` skips too."""
    return records.canonical_json(
        {
            "alg": records.ALG,
            "timestamp": "2026-11-23T20:00:00+00:00",
            "prev_hash": "0" * 64,
            "hash": "f" * 64,
            "nonce": "ab" * 16,
            "body": body,
        }
    )


def game_records(ruleset, example):
    play = play_random_game(
        ruleset, ruleset.setup_model(**example.setup), seed=len(example.name)
    )
    version = 1
    for decision, (seat, command, events) in enumerate(play.decisions):
        for event in events:
            version += 1
            body = records.decided_body(
                {
                    "payload": event,
                    "decision": decision,
                    "actor": seat,
                    "command_id": None if command is None else f"c-{version}",
                    "command": None
                    if command is None
                    else records.command_record(command),
                }
            )
            yield decided_type(ruleset.name, event), stored(body), event


@pytest.mark.parametrize(
    "ruleset, example",
    [(g, e) for g in all_games() for e in g.examples],
    ids=lambda v: getattr(v, "name", None),
)
def test_decode_move_equals_load_then_decode_payload(ruleset, example):
    seen = 0
    for type_, data, event in game_records(ruleset, example):
        body = records.load(data)["body"]
        move = records.decode_move(type_, data, ruleset)
        expected = records.decode_payload(type_, body, ruleset)
        assert type(move.payload) is type(expected)
        assert move.payload == expected == event
        assert (move.actor, move.decision) == (body["actor"], body["decision"])
        head = records.decode_move(type_, data, ruleset, payload=False)
        assert head == (body["actor"], body["decision"], None)
        seen += 1
    assert seen > 10


def test_integers_beyond_64_bits_elsewhere_in_the_record_do_not_disturb_it():
    ruleset = all_games()[0]
    type_, data, event = next(game_records(ruleset, ruleset.examples[0]))
    record = records.load(data)
    record["body"]["command"] = {"type": "X", "fields": {"n": 2**70}}
    move = records.decode_move(type_, records.canonical_json(record), ruleset)
    assert move.payload == event


def test_a_record_without_a_decision_is_refused():
    ruleset = all_games()[0]
    type_, data, _ = next(game_records(ruleset, ruleset.examples[0]))
    record = records.load(data)
    del record["body"]["decision"]
    with pytest.raises(ValidationError):
        records.decode_move(type_, records.canonical_json(record), ruleset)
