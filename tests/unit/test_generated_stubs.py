"""The committed stubs are exactly what protoc generates from protos/ (CI guard)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.games import all_games
from services.proto.generate import (
    ROOT,
    game_proto,
    generate,
    proto_files,
    render_game_proto,
)
from services.proto.schema import MARKER
from tests.games import tictactoe

GAMES = [*all_games(), tictactoe.GAME]


def test_regenerating_the_stubs_changes_nothing(tmp_path: Path):
    generate(tmp_path)
    generated = sorted(
        p.relative_to(tmp_path) for p in (tmp_path / "ledger" / "v1").glob("*_pb2*")
    )
    assert len(generated) == 3 * len(proto_files())
    committed = sorted(
        p.relative_to(ROOT) for p in (ROOT / "ledger" / "v1").glob("*_pb2*")
    )
    assert generated == committed, (
        "stubs missing or extra: run python -m services.proto.generate"
    )
    stale = [
        str(p)
        for p in generated
        if (tmp_path / p).read_bytes() != (ROOT / p).read_bytes()
    ]
    assert not stale, (
        f"stale stubs {stale}: run python -m services.proto.generate and commit"
    )


# ------------------------------------------------- protos written from the models


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_each_games_proto_is_exactly_what_its_models_give(game):
    """Every game's .proto is written from its models: no hand-mirroring to drift."""
    _, path = game_proto(game)
    assert path.read_text().startswith(MARKER), f"{path} is not generated"
    assert render_game_proto(game) == path.read_text(), (
        f"{path} differs from its models: run python -m services.proto.generate "
        "(LEDGER_GAMES=tictactoe=tests.games.tictactoe for the test game)"
    )


def test_a_game_kept_outside_protos_gets_its_stubs_next_to_it(tmp_path: Path):
    from tests.games.tictactoe import GAME

    generate(tmp_path, games=[GAME])
    folder = Path("tests") / "games" / "tictactoe"
    generated = sorted(p.name for p in (tmp_path / folder).glob("*_pb2*"))
    assert generated == [
        "tictactoe_pb2.py",
        "tictactoe_pb2.pyi",
        "tictactoe_pb2_grpc.py",
    ]
    stale = [
        name
        for name in generated
        if (tmp_path / folder / name).read_bytes()
        != (ROOT / folder / name).read_bytes()
    ]
    assert not stale, f"stale stubs {stale}: run python -m services.proto.generate"


def test_field_numbers_are_kept_new_ones_appended_and_dropped_ones_reserved():
    from services.proto.schema import read_layout, render
    from tests.games.tictactoe import GAME

    old = (
        'syntax = "proto3";\n'
        "message MarkPlaced {\n  int32 cell = 7;\n  int32 gone = 2;\n}\n"
        "message Event {\n  oneof kind {\n    MarkPlaced mark_placed = 5;\n  }\n}\n"
    )
    new = render(GAME, old)
    messages, _ = read_layout(new)
    numbers = {f.name: f.number for f in messages["MarkPlaced"].field}
    assert numbers == {"cell": 7, "seat": 8}
    assert [(r.start, r.end) for r in messages["MarkPlaced"].reserved_range] == [(2, 3)]
    assert {f.name: f.number for f in messages["Event"].field} == {
        "mark_placed": 5,
        "game_started": 6,
    }
    assert render(GAME, old) == new
