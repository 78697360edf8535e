"""Every registered game, played to its end over gRPC by the rule-blind client, then audited.

The rows come from the registry: each game's smallest and largest declared
example (``tests.support.examples.smallest_and_largest``), so a newly
registered game is played here without a line added.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from domain.audit.game_audit import audit_records
from domain.games import all_games
from ledger.v1 import game_service_pb2 as pb
from tests.e2e.client import create, play_to_end
from tests.support.examples import examples, smallest_and_largest

pytestmark = pytest.mark.e2e

NAMES = smallest_and_largest()
GAMES: list[tuple[str, dict[str, Any]]] = examples(*NAMES)
"""Declared examples (``Ruleset.examples``): each game's smallest and largest table."""


def test_every_registered_game_has_an_end_to_end_row():
    """A game that declares no example would have none."""
    assert {name for name, _ in GAMES} == {game.name for game in all_games()}


def test_solo_thorgal_is_one_token_controlling_two_seats(grpc_server):
    table = create(grpc_server, "thorgal", players=1)
    assert len(table.created.tokens) == 1 and list(table.created.tokens[0].seats) == [
        0,
        1,
    ]


@pytest.mark.parametrize("game_type,setup", GAMES, ids=NAMES)
def test_a_complete_game_over_grpc_audits_ok(grpc_server, ledger, game_type, setup):
    table = create(grpc_server, game_type, **setup)
    play_to_end(grpc_server, table, seed=17)
    game = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
    assert game.status == "ended" and game.outcome.termination
    gid = uuid.UUID(table.game_id)
    report = audit_records(table.game_id, ledger.read_records(gid))
    assert report.ok, report.failures
    assert report.decisions_rederived > 2


@pytest.mark.parametrize("game_type,setup", GAMES, ids=NAMES)
def test_every_rpc_shows_each_caller_exactly_their_redaction(
    grpc_server, ledger, game_type, setup
):
    """SubmitMove responses, streams and point-in-time views equal the ruleset's
    redaction for that caller; the per-game tests prove the redaction hides."""
    import random

    from domain.contract.core import ADMIN, SPECTATOR, Viewer
    from domain.games import find_game
    from services.api.client import play_one
    from services.proto import convert

    ruleset = find_game(game_type)
    table = create(grpc_server, game_type, **setup)
    gid = uuid.UUID(table.game_id)
    rnd = random.Random(99)
    responses = []
    for _ in range(40):
        response = play_one(grpc_server, table, rnd)
        if response is None:
            break
        responses.append(response)
    stored = {e.originator_version: e for e in ledger.store.events(gid)}
    # SubmitMove: the mover's own eyes
    for response in responses:
        mover = [s for s, t in table.tokens.items() if s in response.game.your_seats]
        # once the game has ended everything is public (services/ledger/reading/disclosure.py)
        viewer = ADMIN if response.game.status == "ended" else Viewer.player(*mover)
        for event in response.events:
            if event.type.startswith(game_type + "."):
                shown = convert.event_from_any(ruleset, event.payload)
                assert shown == ruleset.redact(stored[event.version].payload, viewer)
    # streams and point-in-time views, for every kind of caller
    callers = [(Viewer.player(s), t) for s, t in table.tokens.items()] + [
        (SPECTATOR, None),
        (ADMIN, grpc_server.admin_token),
    ]
    head = ledger.load(gid).version
    ended = ledger.load(gid).is_over
    for viewer, token in callers:
        viewer = ADMIN if ended else viewer
        stream = grpc_server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True),
            token,
        )
        seen = 0
        for event in stream:
            seen += 1
            if event.type.startswith(game_type + "."):
                assert convert.event_from_any(ruleset, event.payload) == ruleset.redact(
                    stored[event.version].payload, viewer
                )
        assert seen == head
        for version in sorted({2, head // 2, head}):
            got = grpc_server.call(
                "GetGame",
                pb.GetGameRequest(game_id=table.game_id, at_version=version),
                token,
            )
            expected = ruleset.view(ledger.load(gid, version).state, viewer)
            assert (
                convert.model_from_any(ruleset, got.view, ruleset.view_model)
                == expected
            )
