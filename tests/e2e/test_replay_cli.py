"""``ledger replay``: the log in sentences, as the token's holder may see it."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import create, play_one, play_to_end
from services.proto import convert

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
LINE = re.compile(r"^ *(\d+)  (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)  (\S.*)$")


def replay(server, *args: str):
    from services.cli import app

    target = f"127.0.0.1:{server.port}"
    return CliRunner().invoke(
        app, ["replay", *args, "--target", target], terminal_width=300
    )


def test_a_finished_game_reads_as_numbered_timed_sentences(grpc_server):
    table = create(
        grpc_server,
        "thalara",
        players=2,
        characters=["myrja", "canto"],
        player_ids=("rita", "sam"),
    )
    play_to_end(grpc_server, table, 4)
    result = replay(grpc_server, table.game_id, "--token", grpc_server.admin_token)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m]
    versions = [int(m.group(1)) for m in parsed if m]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) > 20
    assert lines[0].endswith(
        "A game of Thalara: The Last Artifacts begins: rita and sam."
    )
    assert "The game is over: " in lines[-1] and "the seed is revealed" in lines[-1]
    assert any(re.search(r"  (rita|sam) plays \S+ in the conflict", x) for x in lines)
    window = replay(grpc_server, table.game_id, "--at", "2", "--limit", "3")
    assert [int(LINE.match(x).group(1)) for x in window.output.splitlines()] == [
        2,
        3,
        4,
    ]


def test_a_running_game_shows_a_player_their_cards_and_not_the_others(grpc_server):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    rnd = random.Random(1)
    for _ in range(3):  # both hands selected, play under way
        play_one(grpc_server, table, rnd)
    got = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), grpc_server.admin_token
    )
    view = convert.model_from_any(THALARA, got.view, THALARA.view_model)
    hands = [set(p.hand) for p in view.players]
    assert all(hands)
    mine = replay(grpc_server, table.game_id, "--token", table.tokens[0]).output
    theirs = replay(grpc_server, table.game_id, "--token", table.tokens[1]).output
    words = lambda text: set(re.findall(r"[\w@#]+", text))
    assert hands[0] & words(mine) and not hands[0] & words(theirs)
    assert hands[1] & words(theirs) and not hands[1] & words(mine)
    assert re.search(r"  seat 2 selects \d+ cards\.$", mine, re.MULTILINE)


def test_demo_prints_a_short_summary_and_the_json_only_when_asked(grpc_server):
    from services.cli import app

    target = f"127.0.0.1:{grpc_server.port}"
    args = ["demo", "--game", "terralore", "--player-ids", "ann,bob", "--target"]
    short = CliRunner().invoke(app, [*args, target], terminal_width=300)
    assert short.exit_code == 0, short.output
    lines = short.output.splitlines()
    assert len(lines) == 4, short.output
    game_id = re.findall(r"created terralore game (\S+)", lines[0])[0]
    assert re.fullmatch(
        r"game over after \d+ moves, \d+ events: "
        r"(ann|bob|ann and bob) (wins|share the win) \(scores: ann \d+, bob \d+\)",
        lines[1],
    ), lines[1]
    assert lines[2:] == [
        f"read it:   ledger replay {game_id}",
        f"verify it: ledger audit {game_id}",
    ]
    full = CliRunner().invoke(app, [*args, target, "--json"], terminal_width=300)
    assert full.exit_code == 0 and "ann's final view" in full.output
    assert "seat 0" not in full.output
    assert len(full.output.splitlines()) > 20 and '"players"' in full.output
