"""Regenerate the committed ``.proto`` files and protobuf/gRPC stubs: one command.

Stubs are committed so that installing the service needs no code generation,
and a test regenerates them into a temporary folder and diffs, so a .proto
edit without regenerated stubs fails CI.

Two kinds of ``.proto``:

- the services' and the four original games' files under ``protos/ledger/v1``,
  written by hand (the games' ones mirror their models; the contract test
  checks the mirror);
- a game whose ``.proto`` starts with :data:`schema.MARKER` (or does
  not exist yet) gets it *written from its pydantic models* first, field
  numbers kept (:mod:`services.proto.schema`).  A game registered from
  outside this package keeps its ``.proto`` and stubs next to its code: the
  path comes from ``Ruleset.stubs_module`` (``tests.games.tictactoe.
  tictactoe_pb2`` -> ``tests/games/tictactoe/tictactoe.proto``).

Usage: ``python -m services.proto.generate [name ...]``: every registered game
(``LEDGER_GAMES`` included, see :mod:`domain.games`); names like ``thalara``
limit the run to those files.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from domain.contract.core import Ruleset
from services.proto import schema

ROOT = Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"


def proto_files() -> list[Path]:
    return sorted(PROTOS.glob("ledger/v1/*.proto"))


def game_proto(ruleset: Ruleset[Any]) -> tuple[Path, Path]:
    """(include root, ``.proto`` path) of a game, from its stubs module's name."""
    parts = ruleset.stubs_module.removesuffix("_pb2").split(".")
    root = PROTOS if parts[0] == "ledger" else ROOT
    return root, root.joinpath(*parts[:-1], parts[-1] + ".proto")


def is_generated(path: Path) -> bool:
    """Whether ``path`` is (to be) written from the models, not by hand."""
    return not path.exists() or path.read_text().startswith(schema.MARKER)


def render_game_proto(ruleset: Ruleset[Any]) -> str | None:
    """The generated text of a game's ``.proto``; ``None`` if hand-written."""
    _, path = game_proto(ruleset)
    if not is_generated(path):
        return None
    old = path.read_text() if path.exists() else ""
    return schema.render(ruleset, old)


def write_game_protos(games: Iterable[Ruleset[Any]]) -> list[Path]:
    """Write every generated game ``.proto`` that changed; returns those written."""
    written = []
    for ruleset in games:
        text = render_game_proto(ruleset)
        _, path = game_proto(ruleset)
        if text is not None and (not path.exists() or path.read_text() != text):
            path.write_text(text)
            written.append(path)
    return written


def _protoc(root: Path, files: list[Path], out_dir: Path) -> None:
    import grpc_tools
    from grpc_tools import protoc

    include = Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{root}",
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *[str(p.relative_to(root)) for p in files],
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed: " + " ".join(args))


def generate(
    out_dir: Path,
    only: list[str] | None = None,
    games: Iterable[Ruleset[Any]] = (),
) -> None:
    """Run protoc for every .proto under ``protos/`` and every game of ``games``
    kept outside it (or just ``only``) into ``out_dir``.

    :raises RuntimeError: if protoc reports an error.
    """

    def wanted(p: Path) -> bool:
        return not only or p.name in only or p.stem in only

    _protoc(PROTOS, [p for p in proto_files() if wanted(p)], out_dir)
    for pkg in (out_dir / "ledger", out_dir / "ledger" / "v1"):
        init = pkg / "__init__.py"
        if not init.exists():
            init.write_text(
                '"""Generated protobuf stubs for package ledger.v1 (do not edit)."""\n'
            )
    for ruleset in games:
        root, path = game_proto(ruleset)
        if root != PROTOS and wanted(path):
            _protoc(root, [path], out_dir)


def main() -> int:
    from domain.games import all_games

    games = all_games()
    for path in write_game_protos(games):
        print(f"wrote {path.relative_to(ROOT)} from the models")
    generate(ROOT, sys.argv[1:] or None, games)
    print(f"generated stubs for {len(proto_files())} proto files into ledger/v1/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
