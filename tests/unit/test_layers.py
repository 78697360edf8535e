"""Dependencies point inward (docs/architecture.md): checked on every import, lazy ones too.

Two levels of rules.  Between the top-level packages: the rules (``domain``)
import no adapter, the views (``projections``) no service.  Inside
``services/``, between its role subpackages: each may import only the roles
listed for it in :data:`SERVICE_ROLES`, so, for example, the gRPC edge
(``api``) reaches the database only through the ledger, and storage knows
nothing of the API that serves it.
"""

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

SERVICE_ROLES: dict[str, frozenset[str]] = {
    "observability": frozenset(),
    "proto": frozenset(),
    "storage": frozenset({"observability"}),
    "ledger": frozenset({"storage", "proto", "observability"}),
    "live": frozenset({"ledger", "storage", "observability"}),
    "tournaments": frozenset({"ledger", "storage"}),
    "api": frozenset({"ledger", "live", "tournaments", "proto", "observability"}),
    "dashboard": frozenset(
        {"ledger", "live", "tournaments", "proto", "storage", "observability"}
    ),
    "runtime": frozenset(
        {
            "api",
            "dashboard",
            "ledger",
            "live",
            "tournaments",
            "proto",
            "storage",
            "observability",
        }
    ),
    "cli": frozenset(
        {
            "api",
            "dashboard",
            "ledger",
            "live",
            "tournaments",
            "proto",
            "runtime",
            "storage",
            "observability",
        }
    ),
}
"""Role subpackage of ``services`` -> the other roles it may import (inner ones only)."""

DOMAIN_PARTS: dict[str, frozenset[str]] = {
    "contract": frozenset(),
    "words": frozenset({"contract"}),
    "games": frozenset({"contract", "words"}),
    "ledger": frozenset({"contract", "words", "games"}),
    "audit": frozenset({"contract", "words", "games", "ledger"}),
    "tournament": frozenset({"contract", "games", "ledger"}),
}
"""Concept subpackage of ``domain`` -> the others it may import.

A game sees only the contract and the words, so a ruleset never learns how
its events are stored; the log never calls the audit that re-checks it.
"""


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


def role_violations(
    package: Path, rules: dict[str, frozenset[str]] = SERVICE_ROLES
) -> list[str]:
    """Imports from one subpackage of ``package`` into one its rule does not allow.

    ``rules`` maps each subpackage to the others it may import: the roles of
    ``services`` by default, or the concepts of ``domain``.
    """
    found = []
    top = package.name
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if len(parts) < 2:  # the package's own __init__.py
            continue
        role = parts[0]
        allowed = rules.get(role)
        if allowed is None:
            found.append(f"{path.relative_to(package.parent)}: no rule for {role!r}")
            continue
        for line, module in imported_modules(path):
            names = module.split(".")
            if names[0] != top:
                continue
            if len(names) == 1:
                found.append(f"{path}:{line} imports the {top} package itself")
            elif names[1] != role and names[1] not in allowed:
                found.append(
                    f"{path.relative_to(package.parent)}:{line} ({role}) imports {module}"
                )
    return found


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


def test_every_role_of_services_has_a_rule():
    roles = {
        p.name for p in (ROOT / "services").iterdir() if (p / "__init__.py").exists()
    }
    assert roles == set(SERVICE_ROLES)


def test_each_role_of_services_imports_only_inner_roles():
    assert role_violations(ROOT / "services") == []


def test_a_role_reaching_outward_is_reported(tmp_path):
    """Storage importing the API is the kind of edge the rules exist to stop."""
    services = tmp_path / "services"
    for role in ("storage", "ledger", "api"):
        (services / role).mkdir(parents=True)
        (services / role / "__init__.py").write_text("")
    (services / "api" / "auth.py").write_text("from services.ledger import moves\n")
    (services / "storage" / "store.py").write_text(
        "def f():\n    from services.api.auth import x\n"
    )
    assert role_violations(services) == [
        "services/storage/store.py:2 (storage) imports services.api.auth"
    ]


def test_the_dashboard_reaching_into_the_grpc_edge_is_reported(tmp_path):
    """The dashboard reads through the service layer, as the gRPC edge does: a
    page that borrows a servicer (or the edge's auth) is reported."""
    services = tmp_path / "services"
    for role in ("ledger", "api", "dashboard"):
        (services / role).mkdir(parents=True)
        (services / role / "__init__.py").write_text("")
    (services / "dashboard" / "reader.py").write_text(
        "from services.ledger.reading.game_reads import GameReads\n"
        "def f():\n    from services.api.replay_servicer import ReplayServicer\n"
    )
    planted = "services/dashboard/reader.py:3 (dashboard) imports services.api"
    assert role_violations(services) == [planted + ".replay_servicer"]


def test_every_part_of_domain_has_a_rule():
    parts = {
        p.name for p in (ROOT / "domain").iterdir() if (p / "__init__.py").exists()
    }
    assert parts == set(DOMAIN_PARTS)


def test_each_part_of_domain_imports_only_the_parts_below_it():
    assert role_violations(ROOT / "domain", DOMAIN_PARTS) == []


def test_a_game_reaching_into_the_log_is_reported(tmp_path):
    """A ruleset that reads the stored format is the edge the domain rules stop."""
    domain = tmp_path / "domain"
    for part in ("contract", "games", "ledger"):
        (domain / part).mkdir(parents=True)
        (domain / part / "__init__.py").write_text("")
    (domain / "games" / "dice.py").write_text(
        "from domain.contract import core\nfrom domain.ledger.records import seal\n"
    )
    assert role_violations(domain, DOMAIN_PARTS) == [
        "domain/games/dice.py:2 (games) imports domain.ledger.records"
    ]
