"""The product packages and the bench import each other without cycles, lazy imports included.

Why a test: a function-level import that closes a loop runs fine until the
day the order of first use changes, and no linter sees it.  Python only runs
a package's ``__init__`` before its submodules, so the graph here is what the
interpreter would execute:

- every ``import`` statement counts, at module level or inside a function;
  imports under ``if TYPE_CHECKING:`` do not, since they never run;
- ``from pkg import name`` is an edge to ``pkg.name`` when that is a module,
  else to ``pkg``;
- importing ``a.b.c`` also runs ``a`` and ``a.b``, so those are edges too,
  except for the importer's own enclosing packages (a package's ``__init__``
  importing its submodules is not a cycle unless a submodule imports back).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).parents[2]
PRODUCT = ("domain", "services", "projections")
BENCH = ("bench",)
"""The benchmark harness: not product code, but a loop there (the full run and
the ladder alone calling into each other) is as fragile as one in services."""

Graph = dict[str, set[str]]


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> source file, for every module under ``packages``."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, skipping ``if TYPE_CHECKING:`` bodies."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]))
        else:
            yield from _imports(node)


def _targets(
    node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, known: set[str]
) -> Iterator[str]:
    """The modules an import statement names: ``pkg.name`` if a module, else ``pkg``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    if node.level:
        package = importer if is_package else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base


def import_graph(root: Path, packages: Iterable[str]) -> Graph:
    """Module -> the modules of ``packages`` that importing it runs.

    A module named by an import is an edge even when it is one of the
    importer's own packages (``from domain.games import X`` inside
    ``domain.games.thorgal`` runs back into ``domain/games/__init__.py``);
    the packages that merely enclose a named module are edges only when they
    do not enclose the importer too.
    """
    files = module_files(root, packages)
    known = set(files)
    graph: Graph = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = {name.rsplit(".", n)[0] for n in range(name.count(".") + 1)}
        for node in _imports(tree):
            for target in _targets(node, name, is_package, known):
                if target not in known:
                    continue
                graph[name].add(target)
                parts = target.split(".")
                for n in range(1, len(parts)):
                    enclosing = ".".join(parts[:n])
                    if enclosing in known and enclosing not in own:
                        graph[name].add(enclosing)
        graph[name].discard(name)
    return graph


def find_cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module.

    Each cycle is a path ``[a, b, ..., a]``; components are found with
    Tarjan's algorithm (iteratively, so deep graphs do not hit the recursion
    limit) and a shortest loop through the component's first module is shown.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return [_loop(graph, set(c), c[0]) for c in sorted(components)]


def _loop(
    graph: Mapping[str, Iterable[str]], members: set[str], start: str
) -> list[str]:
    """A shortest path from ``start`` back to itself inside ``members``."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child not in members:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    nxt.append(child)
        frontier = nxt
    raise AssertionError(f"{start} is in no loop of {sorted(members)}")


def test_the_product_packages_and_the_bench_import_without_cycles() -> None:
    cycles = find_cycles(import_graph(ROOT, PRODUCT + BENCH))
    assert not cycles, "import cycles:\n" + "\n".join(
        " -> ".join(cycle) for cycle in cycles
    )


def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_lazy_import_that_closes_a_loop_is_a_cycle(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from . import engine, flow  # registers\n",
            "pkg/engine.py": (
                "def run():\n    from .flow import after\n    return after()\n"
            ),
            "pkg/flow.py": "from pkg.items import fold\n\ndef after(): ...\n",
            "pkg/items.py": "def fold():\n    from . import flow\n",
            "pkg/sub/__init__.py": "from pkg.sub import leaf\n",
            "pkg/sub/leaf.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg.sub import leaf\n"
            ),
        },
    )
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.engine"] == {"pkg.flow"}
    assert graph["pkg.sub.leaf"] == set()
    assert find_cycles(graph) == [["pkg.flow", "pkg.items", "pkg.flow"]]


def test_a_package_importing_its_submodules_is_no_cycle(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg import a\nfrom .a import X\n",
            "pkg/a.py": "from . import b\nX = b\n",
            "pkg/b.py": "import json\n",
            "other/__init__.py": "",
            "other/user.py": "from pkg.b import json\n",
        },
    )
    graph = import_graph(tmp_path, ["pkg", "other"])
    assert graph["other.user"] == {"pkg", "pkg.b"}
    assert find_cycles(graph) == []


def test_a_submodule_importing_its_package_closes_a_loop(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import X\nY = 1\n",
            "pkg/a.py": "def f():\n    from pkg import Y\n",
        },
    )
    cycles = find_cycles(import_graph(tmp_path, ["pkg"]))
    assert cycles == [["pkg", "pkg.a", "pkg"]]
