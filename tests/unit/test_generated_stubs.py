"""The committed stubs are exactly what protoc generates from protos/ (CI guard)."""

from __future__ import annotations

from pathlib import Path

from services.protogen import ROOT, generate, proto_files


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
        "stubs missing or extra: run python -m services.protogen"
    )
    stale = [
        str(p)
        for p in generated
        if (tmp_path / p).read_bytes() != (ROOT / p).read_bytes()
    ]
    assert not stale, f"stale stubs {stale}: run python -m services.protogen and commit"


# ------------------------------------------------- protos written from the models


def test_a_generated_game_proto_is_exactly_what_its_models_give():
    """Tic-tac-toe's .proto is written from its models: no hand-mirroring to drift."""
    from services.protogen import game_proto, render_game_proto
    from tests.games.tictactoe import GAME

    _, path = game_proto(GAME)
    assert path == ROOT / "tests" / "games" / "tictactoe" / "tictactoe.proto"
    assert render_game_proto(GAME) == path.read_text(), (
        "run LEDGER_GAMES=tictactoe=tests.games.tictactoe python -m services.protogen"
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
    assert not stale, f"stale stubs {stale}: run python -m services.protogen"


def test_field_numbers_are_kept_new_ones_appended_and_dropped_ones_reserved():
    from services.proto_from_models import read_numbers, render
    from tests.games.tictactoe import GAME

    old = (
        "message MarkPlaced {\n  int32 cell = 7;\n  int32 gone = 2;\n}\n"
        "message Event {\n  oneof kind {\n    MarkPlaced mark_placed = 5;\n  }\n}\n"
    )
    numbers = read_numbers(render(GAME, old))
    assert numbers["MarkPlaced"]["cell"] == 7
    assert numbers["MarkPlaced"]["seat"] == 8
    assert 2 in numbers["MarkPlaced"].values()  # as `reserved 2;`
    assert "gone" not in numbers["MarkPlaced"]
    assert numbers["Event"] == {"mark_placed": 5, "game_started": 6}
    assert render(GAME, old) == render(GAME, old)
