"""Dependencies point inward (docs/architecture.md): checked on every import, lazy ones too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]
FORBIDDEN = {
    "domain": ("services", "projections", "bench"),
    "projections": ("services", "bench"),
    "services": ("bench",),
}
"""Layer -> the top-level packages its modules may not import."""


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, at any depth (function-level imports included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def violations(layer: str) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for line, module in imported_modules(path)
        if module.split(".")[0] in FORBIDDEN[layer]
    ]


def test_the_walker_sees_module_and_function_level_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import services.application\n"
        "from domain import records\n"
        "def f():\n"
        "    from bench import report\n"
    )
    assert [m for _, m in imported_modules(sample)] == [
        "services.application",
        "domain",
        "bench",
    ]


def test_domain_imports_neither_services_nor_projections():
    assert violations("domain") == []


def test_projections_import_nothing_from_services():
    assert violations("projections") == []


def test_services_import_nothing_from_bench():
    assert violations("services") == []
