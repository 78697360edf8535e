"""The rebuild's shortcuts rebuild exactly what the validating path rebuilds.

A rebuild decodes stored payloads without validation
(:mod:`domain.ledger.records.trusted`), builds decoded events without their
dataclass ``__init__`` and replays without eventsourcing's per-event protocol
check (:mod:`domain.ledger.replay`).  The reference here is the path they replace:
``model_validate`` of each payload, the event's constructor and
``project_aggregate``.  Equality is checked with ``repr`` too, which tells a
tuple from a list and ``1`` from ``1.0`` where ``==`` does not.
"""

from __future__ import annotations

import gzip
import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import project_aggregate
from pydantic import field_validator

from domain.contract.core import Model
from domain.games import all_games, find_game
from domain.ledger import records, stored_events
from domain.ledger.aggregate import Game
from domain.ledger.records.trusted import trusted_decoder
from domain.ledger.replay import replay
from tests.support.examples import every_example, every_example_id

GOLDEN = Path(__file__).parents[1] / "golden"
FILES = sorted(GOLDEN.glob("**/*.ndjson.gz"))


def reference_event(game_id: uuid.UUID, version: int, type_: str, record: dict):
    """The validating path: ``model_validate`` and the event class's ``__init__``."""
    event = stored_events.decode_record(game_id, version, type_, record)
    return type(event)(**vars(event))


def as_text(obj: object) -> str:
    """Every attribute's ``repr`` (in name order: the paths set them in another)."""
    return repr(sorted(vars(obj).items()))


def assert_same_rebuild(game_id: uuid.UUID, rows: list[tuple[int, str, bytes]]):
    trusted = [
        stored_events.decode(game_id, v, t, data, trusted=True) for v, t, data in rows
    ]
    validated = [
        reference_event(game_id, v, t, records.load(data)) for v, t, data in rows
    ]
    for fast, slow in zip(trusted, validated, strict=True):
        assert type(fast) is type(slow)
        assert fast == slow
        assert as_text(fast) == as_text(slow)
        payload = getattr(fast, "payload", None)
        if payload is not None:
            assert payload.model_fields_set == slow.payload.model_fields_set
    game, reference = replay(None, trusted), project_aggregate(None, validated)
    assert game.version == len(rows)
    assert vars(game) == vars(reference)
    assert as_text(game) == as_text(reference)


def golden_rows(path: Path) -> tuple[uuid.UUID, list[tuple[int, str, bytes]]]:
    lines = [json.loads(x) for x in gzip.decompress(path.read_bytes()).splitlines()]
    header = next(x for x in lines if x["kind"] == "header")
    rows = [
        (x["version"], x["type"], records.canonical_json(x["record"]))
        for x in lines
        if x["kind"] == "event"
    ]
    return uuid.UUID(header["game_id"]), rows


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_every_golden_game_rebuilds_as_the_validating_path_rebuilds_it(path):
    assert_same_rebuild(*golden_rows(path))


def random_game_rows(game_type: str, setup: dict, seed: int):
    ruleset = find_game(game_type)
    rnd = random.Random(seed)
    secret = rnd.randbytes(32)
    game = Game.create(ruleset, ruleset.setup_model.model_validate(setup), secret)
    for _ in range(3000):
        if game.is_over:
            break
        seat = rnd.choice(game.to_act())
        command = ruleset.random_command(game.state, seat, rnd)
        assert command is not None, "a game that is not over has a move"
        game.act(command, seat, secret, str(uuid.uuid4()))
    assert game.is_over
    events: list[Any] = list(game.collect_events())
    rows = [(e.originator_version, game.type_name(e), e.stored) for e in events]
    return game.id, rows


@pytest.mark.parametrize(
    ("game_type", "setup"), every_example(), ids=every_example_id()
)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_rebuild_as_the_validating_path_rebuilds_them(
    game_type, setup, seed
):
    assert_same_rebuild(*random_game_rows(game_type, setup, seed))


def test_every_event_of_every_game_decodes_without_validation():
    """Otherwise the rebuild quietly falls back to validating that event."""
    unconverted = [
        f"{game.name}.{cls.__name__}"
        for game in all_games()
        for cls in game.event_types
        if trusted_decoder(cls) is None
    ]
    assert unconverted == []


def test_a_stored_body_that_is_not_the_event_s_dump_is_still_refused():
    """An unknown or missing field is not guessed at: validation says which."""
    event_type = "thorgal.TurnBegan"
    with pytest.raises(ValueError, match="extra"):
        records.decode_payload(
            event_type,
            {"payload": {"round": 1, "turn": 1, "seat": 0, "bogus": 1}},
            trusted=True,
        )
    with pytest.raises(ValueError, match="seat"):
        records.decode_payload(
            event_type, {"payload": {"round": 1, "turn": 1}}, trusted=True
        )


def test_a_body_that_leaves_out_defaulted_fields_decodes_as_validation_fills_them():
    for event_type, payload in (
        ("thorgal.DeckShuffled", {"deck": "enemy"}),
        ("thorgal.ChoiceMade", {"seat": 1, "kind": "pick"}),
    ):
        body = {"payload": payload}
        fast = records.decode_payload(event_type, body, trusted=True)
        slow = records.decode_payload(event_type, body)
        assert fast == slow
        assert repr(fast) == repr(slow)
        assert fast.model_fields_set == slow.model_fields_set == set(payload)


class Floats(Model):
    x: float


class Checked(Model):
    n: int

    @field_validator("n")
    @classmethod
    def _small(cls, n: int) -> int:
        return min(n, 9)


class Node(Model):
    v: int
    kids: tuple[Node, ...] = ()


class HoldsFloats(Model):
    inner: Floats | None = None


def test_a_model_the_converter_does_not_cover_is_left_to_validation():
    """A float (``1`` must become ``1.0``), a validator that changes a value, a
    model holding itself, or a model holding any of those."""
    for cls in (Floats, Checked, Node, HoldsFloats):
        assert trusted_decoder(cls) is None, cls.__name__


def test_decoded_payloads_with_the_same_fields_share_one_fields_set():
    body = {"payload": {"round": 1, "turn": 1, "seat": 0}}
    first = records.decode_payload("thorgal.TurnBegan", body, trusted=True)
    again = records.decode_payload("thorgal.TurnBegan", body, trusted=True)
    assert first.model_fields_set is again.model_fields_set
