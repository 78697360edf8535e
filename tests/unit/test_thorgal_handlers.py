"""Every Thorgal task op and question kind has a handler in the engine.

Why: the engine is built from an explicit list of handler tables
(``rules/__init__``), so a table left off the list, or an op a card names
that no module handles, would otherwise surface as a ``KeyError`` in the
middle of a game.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from domain.games.thorgal import rules
from domain.games.thorgal.cards import Effect, Mod
from domain.games.thorgal.content import content_packs, load
from domain.games.thorgal.rules.engine import PLACING, Engine, Handlers

RULES_DIR = Path(rules.__file__).parent


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _walk(getattr(value, name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _walk(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)


def content_ops() -> set[str]:
    """The ops every shipped pack's cards schedule (an ``extra`` modifier: ``action``)."""
    ops: set[str] = set()
    for pack in content_packs():
        for value in _walk(load(pack.name)):
            if isinstance(value, Effect):
                ops.add(value.op)
            elif isinstance(value, Mod) and value.kind == "extra":
                ops.add("action")
    return ops


def _literal_calls() -> Iterator[tuple[str, str]]:
    """``("task", op)`` for ``Task(op="...")``, ``("question", kind)`` for
    ``ctx.ask("...")``/``ctx.ask_tile("...")`` written in the rules' source."""
    for path in sorted(RULES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "Task":
                for kw in node.keywords:
                    if kw.arg == "op" and isinstance(kw.value, ast.Constant):
                        yield "task", str(kw.value.value)
            elif (
                isinstance(func, ast.Attribute)
                and func.attr in ("ask", "ask_tile")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                yield "question", str(node.args[0].value)


def test_every_op_a_card_or_a_rule_schedules_has_a_handler() -> None:
    scheduled = content_ops() | {op for what, op in _literal_calls() if what == "task"}
    assert scheduled, "found no ops: the scan is broken"
    assert sorted(scheduled - rules.ENGINE.tasks.keys()) == []


def test_every_question_asked_has_a_resume() -> None:
    asked = set(PLACING) | {k for what, k in _literal_calls() if what == "question"}
    assert sorted(asked - rules.ENGINE.resumes.keys()) == []


def test_every_rules_module_with_handlers_is_in_the_engine() -> None:
    tables = {id(table) for table in rules.TABLES}
    for info in pkgutil.iter_modules([str(RULES_DIR)]):
        module = importlib.import_module(f"{rules.__name__}.{info.name}")
        table = getattr(module, "HANDLERS", None)
        if isinstance(table, Handlers):
            assert id(table) in tables, f"{info.name}.HANDLERS is not in rules.TABLES"


def test_two_tables_handling_one_op_is_an_error() -> None:
    a, b = Handlers(), Handlers()
    a.handler("gain")(lambda ctx, task: None)
    b.handler("gain")(lambda ctx, task: None)
    with pytest.raises(ValueError, match="gain"):
        Engine.of((a, b), idle=lambda ctx: False)
