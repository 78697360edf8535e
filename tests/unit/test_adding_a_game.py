"""A fifth game, added as ``docs/adding-a-game.md`` says, needs no edit elsewhere.

The game is tic-tac-toe's modules renamed ``noughts`` in a temporary folder
(its folder), registered through ``LEDGER_GAMES`` (its registry line), with
its ``.proto`` and stubs written by the protogen run (rooted in that folder,
not the repository) and its golden games written by ``regenerate`` into a
copy of the corpus.  Every part of the suite that lists games reads the
registry, so each accepts it as it is: the golden corpus, the every-game
end-to-end rows, the legacy-corpus check, the example checks,
``ListGameTypes`` and the message conversion.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.audit.export import verify_lines
from domain.contract.core import Ruleset
from domain.games import all_games, find_game
from services.api import game_types
from services.proto import convert, generate
from tests.golden import regenerate
from tests.support.examples import examples, smallest_and_largest
from tests.unit import test_game_examples, test_golden

NAME = "noughts"
TICTACTOE = Path(__file__).parents[1] / "games" / "tictactoe"


@pytest.fixture
def fifth_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The game registered for this test only; yields its package's folder."""
    folder = tmp_path / NAME
    folder.mkdir()
    for module in ("__init__.py", "models.py", "rules.py"):
        text = (TICTACTOE / module).read_text()
        text = text.replace("tests.games.tictactoe", NAME).replace("tictactoe", NAME)
        (folder / module).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    for cache in ("_extra", "_loaded", "_by_name", "_versions", "_content"):
        monkeypatch.setattr(games, cache, {})
    monkeypatch.setenv(games.ENV_VAR, f"{NAME}={NAME}")
    monkeypatch.setattr(generate, "ROOT", tmp_path)
    game_types.list_game_types.cache_clear()
    yield folder
    game_types.list_game_types.cache_clear()
    for module in [m for m in sys.modules if m.split(".")[0] == NAME]:
        del sys.modules[module]


def test_a_game_from_its_folder_and_one_registry_line_is_registered(fifth_game):
    game: Ruleset[Any] = find_game(NAME)
    assert [g.name for g in all_games()][-1] == NAME
    assert [e.name for e in game.examples] == [f"{NAME}-2p"]
    assert game.stubs_module == f"{NAME}.{NAME}_pb2"
    # the registry-wide example checks, on the new game
    test_game_examples.test_examples_cover_every_player_count_and_mode(game)
    test_game_examples.test_every_example_validates_and_starts_a_table(game)


def test_one_protogen_run_gives_its_proto_and_stubs_and_the_services_use_them(
    fifth_game, tmp_path
):
    game = find_game(NAME)
    assert generate.write_game_protos([game]) == [fifth_game / f"{NAME}.proto"]
    generate.generate(tmp_path, games=[game])
    assert {p.name for p in fifth_game.glob(f"{NAME}*")} == {
        f"{NAME}.proto",
        f"{NAME}_pb2.py",
        f"{NAME}_pb2.pyi",
        f"{NAME}_pb2_grpc.py",
    }
    assert (
        generate.render_game_proto(game) == (fifth_game / f"{NAME}.proto").read_text()
    )
    stubs = importlib.import_module(game.stubs_module)
    assert stubs.DESCRIPTOR.package == f"ledger.v1.{NAME}"
    # services find its messages from the ruleset alone
    place = game.commands_by_name["Place"](cell=4)
    assert convert.command_from_any(game, convert.command_to_any(game, place)) == place
    listed = {t.name: t for t in game_types.list_game_types().game_types}
    assert listed[NAME].move_message == f"ledger.v1.{NAME}.Move"
    assert [p.example_setups[0].type_url for p in listed[NAME].content_packs] == [
        f"type.googleapis.com/ledger.v1.{NAME}.TicTacToeSetup"
    ]


def test_the_every_game_end_to_end_rows_include_it(fifth_game):
    names = smallest_and_largest()
    assert names[-1] == f"{NAME}-2p"
    assert examples(*names)[-1] == (NAME, {"players": 2})


def test_one_regenerate_run_writes_its_golden_games_and_the_corpus_checks_pass(
    fifth_game, tmp_path
):
    game = find_game(NAME)
    missing = f"{NAME}/v1/{NAME}-2p.ndjson.gz: missing"
    assert [p.partition(" (")[0] for p in regenerate.check()] == [missing]
    corpus = tmp_path / "golden"
    shutil.copytree(regenerate.HERE, corpus)
    written = regenerate.regenerate(root=corpus)
    assert written == [corpus / NAME / "v1" / f"{NAME}-2p.ndjson.gz"]
    assert regenerate.golden_games(game, corpus) == {
        written[0]: ({"players": 2}, regenerate.seed_of(f"{NAME}-2p"))
    }
    assert regenerate.check(corpus) == []
    report = verify_lines(regenerate.read_lines(written[0]))
    assert report.ok and report.concluded, report.failures
    assert not (regenerate.HERE / NAME).exists()
    # legacy games predate it: the legacy check still holds
    test_golden.test_every_game_with_legacy_games_is_still_registered()
