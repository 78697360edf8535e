"""Every game names its shipped content "sample", and games stored under an
older name still load, verify and read as "sample"."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from domain.games import all_games, find_game
from domain.ledger.stored_events import decode_record
from services.api.presenters import listed, summary
from services.ledger.callers import Principal

THORGAL_SOLO = (
    Path(__file__).parents[1] / "golden" / "thorgal" / "v1" / "solo.ndjson.gz"
)
OLD_NAME = "SAMPLE CONTENT: The Warlord of the Fjord"


def test_every_game_names_its_shipped_content_sample():
    assert {g.name: g.content_label for g in all_games()} == {
        g.name: "sample" for g in all_games()
    }


def stored_thorgal_game():
    lines = gzip.decompress(THORGAL_SOLO.read_bytes()).decode().splitlines()
    game_id = json.loads(lines[0])["game_id"]
    items = [json.loads(x) for x in lines if json.loads(x)["kind"] == "event"]
    game = None
    for item in items:
        event = decode_record(game_id, item["version"], item["type"], item["record"])
        game = event.mutate(game)
    return items[0]["record"]["body"]["content"], game


def test_a_game_stored_under_the_old_name_reads_as_sample_in_get_and_list():
    recorded, game = stored_thorgal_game()
    assert recorded == OLD_NAME  # the record itself is never rewritten
    got = summary(game, Principal(admin=True), ended=True)
    row = {
        "game_id": game.id,
        "game_type": "thorgal",
        "players": 1,
        "seats": 2,
        "version": game.version,
        "status": "ended",
        "content": recorded,
        "created_at": game.created_on,
        "player_ids": [],
        "spectator_delay": None,
    }
    assert got.content == listed(row, Principal(admin=True)).content == "sample"
    assert find_game("thorgal").content_name("sample") == "sample"
