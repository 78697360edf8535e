"""Every code name the docs cite in backticks still exists, so the docs cannot drift.

Why a test: a rename moves every import with it, but a page that says
``GameCache.load`` keeps saying it.  The pages are read the way a newcomer
reads them: a path must be a file or folder of the repository; a dotted name
must resolve (``services.api.errors.abort`` by import, ``GameCache.load`` by
finding the class and its member, ``log_tail.LogTail`` by finding the module); a
``LEDGER_*`` setting must be one the code reads; and an identifier that looks
like code (``submit_move``, ``GameLedger``) must be defined somewhere in the
product, the protos, the deployment files or the tests.

Plain words, commands, flags, JSON and SQL snippets are not code names, and
:func:`code_names` leaves them out.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGES = ("domain", "services", "projections", "bench", "tests", "ledger")
"""Top-level packages whose dotted names are imported to check them."""
SOURCES = ("domain", "services", "projections", "bench", "tests", "clients", "deploy")
"""Where an identifier may be defined (``protos/`` too, read apart)."""

SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
DOTTED = re.compile(rf"^{IDENTIFIER}(\.{IDENTIFIER})+(\(\))?$")
PATH = re.compile(r"^[\w.-]+(/[\w.*-]*)+$")
SETTING = re.compile(r"^(LEDGER_[A-Z0-9_]+)(=.*)?$")
CODE_WORD = re.compile(
    r"^(?:[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|_\w+)(\(\))?$"
)
"""CamelCase with two humps (``GameLedger``) or snake_case (``submit_move``)."""


def code_names(text: str) -> list[str]:
    """The backticked spans of ``text`` that name code, paths or settings."""
    names = []
    in_block = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            continue
        for span in SPAN.findall(line):
            span = span.strip()
            if (
                DOTTED.match(span)
                or PATH.match(span)
                or SETTING.match(span)
                or CODE_WORD.match(span)
            ):
                names.append(span)
    return names


@cache
def python_files() -> tuple[Path, ...]:
    return tuple(
        path
        for top in SOURCES
        for path in (ROOT / top).rglob("*.py")
        if ".venv" not in path.parts and "node_modules" not in path.parts
    )


@cache
def defined_names() -> frozenset[str]:
    """Every name defined in the product, the tests, the protos and deploy files."""
    names: set[str] = set()
    names.update(dir(builtins))
    for path in python_files():
        if path == Path(__file__):
            continue  # the names this test plants as missing
        tree = ast.parse(path.read_text(), str(path))
        docstrings = {
            id(body[0].value)
            for node in ast.walk(tree)
            if isinstance(
                node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
            )
            and (body := node.body)
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        }
        names.add(path.stem)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
                names.update(a.arg for a in node.args.args) if not isinstance(
                    node, ast.ClassDef
                ) else None
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)  # a library's method the code calls, too
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
            elif isinstance(node, ast.ImportFrom):
                names.update(a.name for a in node.names)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                # table, column, metric and reason names live in strings;
                # docstrings and messages only mention names, so a string
                # with spaces adds only its snake_case words (SQL names)
                if re.fullmatch(r"[\w.:/*-]+", node.value):
                    names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", node.value))
                else:
                    names.update(re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", node.value))
    for pattern in (
        "**/*.proto",
        "deploy/**/*",
        "clients/**/*.js",
        "services/dashboard/static/*.js",
        "services/dashboard/templates/*.html",
        ".ci/*",
        "pyproject.toml",
    ):
        for path in ROOT.glob(pattern):
            if path.is_file() and not {"node_modules", ".venv"} & set(path.parts):
                names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.read_text()))
    return frozenset(names)


@cache
def settings() -> frozenset[str]:
    """``LEDGER_*`` names: the service's settings, and any other the code reads."""
    from services.runtime.settings import Settings

    prefix = Settings.model_config.get("env_prefix", "")
    return frozenset(
        {f"{prefix}{field}".upper() for field in Settings.model_fields}
        | {n for n in defined_names() if n.startswith("LEDGER_")}
    )


@cache
def proto_packages() -> frozenset[str]:
    return frozenset(
        match
        for path in ROOT.glob("**/*.proto")
        if ".venv" not in path.parts
        for match in re.findall(r"^package ([\w.]+);", path.read_text(), re.MULTILINE)
    )


@cache
def modules_named(stem: str) -> tuple[Path, ...]:
    return tuple(p for p in python_files() if p.stem == stem)


@cache
def classes() -> dict[str, list[ast.ClassDef]]:
    found: dict[str, list[ast.ClassDef]] = {}
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return found


def members(node: ast.ClassDef | ast.Module) -> set[str]:
    """Names a class or module body defines (methods, attributes, nested classes)."""
    names = set()
    for child in ast.walk(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(child.name)
        elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
        elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Store):
            names.add(child.attr)
        elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
            names.add(child.target.id)
        elif isinstance(child, ast.ImportFrom):
            names.update(a.asname or a.name for a in child.names)
    return names


def resolves_by_import(dotted: str) -> bool | None:
    """Import the longest importable prefix and walk the rest as attributes.

    ``None`` when no prefix imports (the name is not a Python path at all).
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return resolves_by_attributes(obj, parts[cut:])
    return None


def resolves_by_attributes(obj: object, attributes: list[str]) -> bool:
    for attr in attributes:
        if not hasattr(obj, attr):
            return False
        obj = getattr(obj, attr)
    return True


EXTERNAL = frozenset(
    {
        "synchronous_standby_names",
        "log_parser_stats",
        "pg_test_fsync",
        "grpc.optimization_target",
    }
)
"""Names of other tools (PostgreSQL's settings and programs, grpc core's
options) that the docs cite and the code never spells."""

FILE_SUFFIXES = (
    ".py",
    ".md",
    ".proto",
    ".js",
    ".css",
    ".html",
    ".json",
    ".yaml",
    ".sh",
)


def resolves(name: str) -> bool:
    """Whether ``name`` (see the module docstring) names something that exists."""
    name = name.removesuffix("()")
    if setting := SETTING.match(name):
        return setting.group(1) in settings() or name.endswith("_*")
    if name in defined_names() or name in EXTERNAL:
        return True
    if name.endswith(FILE_SUFFIXES) and "/" not in name:
        return any(ROOT.glob(f"**/*{name}"))  # a file named on its own
    if PATH.match(name):
        head = name.split("/")[0]
        if head.isupper() or head == "..":  # `DATA_DIR/server.json`, `../shared/`
            return True  # a placeholder, or a file outside the repository
        if (ROOT / head).exists():
            return any(ROOT.glob(name.rstrip("/"))) or (ROOT / name).exists()
        if name.endswith(FILE_SUFFIXES):  # relative to a folder the page names
            return any(ROOT.glob(f"**/{name}"))
        return True  # a data-dir file or a format name (`ledger-export/v1`)
    if name in proto_packages():
        return True
    if DOTTED.match(name):
        head, *rest = name.split(".")
        if hasattr(builtins, head):  # `list.remove`
            return resolves_by_attributes(getattr(builtins, head), rest)
        if head in classes():  # Class.member
            return any(rest[0] in members(c) for c in classes()[head])
        for path in modules_named(head):  # module.name[.member]
            if rest[0] in members(ast.parse(path.read_text(), str(path))):
                return True
        if head in PACKAGES or not modules_named(head):
            imported = resolves_by_import(name)
            if imported is not None:
                return imported
        return head not in PACKAGES and all(part in defined_names() for part in rest)
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_code_name_on_the_page_exists(page):
    missing = sorted({n for n in code_names(page.read_text()) if not resolves(n)})
    assert missing == [], f"{page.relative_to(ROOT)} names code that does not exist"


def test_the_reader_finds_code_names_and_skips_prose():
    text = (
        "Run `ledger serve`, see `GameCache.load`, `services/api/errors.py`,\n"
        "`LEDGER_WORKERS=2`, `submit_move()`, `thalara` and `--quick`.\n"
        "```\n`not_read`\n```\n"
    )
    assert code_names(text) == [
        "GameCache.load",
        "services/api/errors.py",
        "LEDGER_WORKERS=2",
        "submit_move()",
    ]


@pytest.mark.parametrize(
    "name",
    [
        "services.api.errors.no_such_function",
        "GameCache.no_such_method",
        "services/api/no_such_module.py",
        "LEDGER_NO_SUCH_SETTING",
        "no_such_function_anywhere",
        "log_tail.no_such_name",
    ],
)
def test_a_renamed_or_removed_name_is_reported(name):
    assert not resolves(name)


@pytest.mark.parametrize(
    "name",
    [
        "services.api.errors",
        "GameCache.load",
        "services/api/errors.py",
        "LEDGER_WORKERS",
        "submit_move",
        "log_tail.LogTail",
    ],
)
def test_names_that_exist_resolve(name):
    assert resolves(name)


TRACKER = re.compile(r"\bissues? ?#?[0-9]+\b", re.IGNORECASE)


def test_no_product_file_or_page_points_at_the_issue_tracker():
    """Code, help texts, bench reports and docs explain themselves."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for top in ("domain", "services", "projections", "bench", "docs", "tests")
        for path in sorted((ROOT / top).rglob("*"))
        if path.suffix in {".py", ".md", ".html", ".js", ".json"}
        and path != Path(__file__)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if TRACKER.search(line)
    ] + [
        f"README.md:{number}"
        for number, line in enumerate((ROOT / "README.md").read_text().splitlines(), 1)
        if TRACKER.search(line)
    ]
    assert found == []
