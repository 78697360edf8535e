"""``ledger bench`` arrives as a plugin: services/ never imports bench/.

The import direction is checked on the source (every ``import`` statement
under ``services/``), and the command is checked to come from the
``ledger.commands`` entry point group rather than from a services module.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from services import cli
from services.cli import app

SERVICES = Path(cli.__file__).resolve().parents[1]


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_nothing_in_services_imports_bench() -> None:
    offenders = sorted(
        str(path.relative_to(SERVICES.parent))
        for path in SERVICES.rglob("*.py")
        if any(m == "bench" or m.startswith("bench.") for m in _imported_modules(path))
    )
    assert offenders == []


def test_bench_is_registered_through_the_entry_point_group() -> None:
    assert "bench" in cli.PLUGINS
    result = CliRunner().invoke(app, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert " bench " in result.output


class _EntryPoint:
    def __init__(self, name: str, target: Any) -> None:
        self.name, self._target = name, target

    def load(self) -> Any:
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_a_broken_plugin_costs_only_its_own_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh = typer.Typer()

    def register(target: typer.Typer) -> None:
        target.command(name="works")(lambda: None)

    monkeypatch.setattr(cli, "app", fresh)
    monkeypatch.setattr(
        cli,
        "entry_points",
        lambda group: [
            _EntryPoint("broken", ImportError("no module named matplotlib")),
            _EntryPoint("works", register),
        ],
    )
    assert cli.load_plugins() == ["works"]
    assert [c.name for c in fresh.registered_commands] == ["works"]
    assert "command 'broken' unavailable" in capsys.readouterr().err
