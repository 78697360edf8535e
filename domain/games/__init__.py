"""The registry of rulesets: adding a game is one folder plus one line here.

Games are imported lazily so that a broken or slow-to-import ruleset cannot
take the others down, and so ``find_game`` can raise a clear error.

A game that lives outside this package (a plug-in, or the tic-tac-toe test
game under ``tests/games/``) is registered without editing this file: by
:func:`register` in-process, or for every process that reads the environment
(server, CLI, workers) by ``LEDGER_GAMES="name=module,name=module"``.  Both
name a module exporting ``GAME``, exactly like a line of :data:`REGISTRY`.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.contract.core import Ruleset

#: name -> module that exports ``GAME``.  One line per game.
REGISTRY: dict[str, str] = {
    "thalara": "domain.games.thalara",
    "terralore": "domain.games.terralore",
    "thorgal": "domain.games.thorgal",
    "vaalbara": "domain.games.vaalbara",
}


ENV_VAR = "LEDGER_GAMES"
"""Extra games for this process: ``name=module`` pairs, comma-separated."""

_extra: dict[str, str] = {}


def parse_games_setting(raw: str) -> dict[str, str]:
    """``"a=pkg.a, b=pkg.b"`` -> ``{"a": "pkg.a", "b": "pkg.b"}``.

    :raises ValueError: for an entry that is not ``name=module``.
    """
    out: dict[str, str] = {}
    for entry in filter(None, (e.strip() for e in raw.split(","))):
        name, sep, module = (p.strip() for p in entry.partition("="))
        if not sep or not name or not module:
            raise ValueError(f"{ENV_VAR} entry {entry!r} is not name=module")
        out[name] = module
    return out


def register(name: str, module: str) -> None:
    """Register the game exported as ``GAME`` by ``module`` under ``name``.

    :raises ValueError: if ``name`` is already a different game's.
    """
    known = modules()
    if known.get(name, module) != module:
        raise ValueError(f"game {name!r} is already registered as {known[name]!r}")
    _extra[name] = module


def modules() -> dict[str, str]:
    """name -> module of every registered game: :data:`REGISTRY`, then
    ``LEDGER_GAMES``, then :func:`register` calls."""
    return {
        **REGISTRY,
        **parse_games_setting(os.environ.get(ENV_VAR, "")),
        **_extra,
    }


class UnknownGameError(LookupError):
    """Raised when a game type name is not in the registry."""


class UnknownRulesVersionError(UnknownGameError):
    """Raised when a game names a rules version this code does not have."""


_loaded: dict[str, Ruleset[Any]] = {}
_by_name: dict[str, Ruleset[Any]] = {}
"""Lookups already answered: ``find_game`` runs once per applied event on replay."""


def find_game(name: str) -> Ruleset[Any]:
    """Return the ruleset registered under ``name`` (or one of its aliases).

    :raises UnknownGameError: if no registered game has that name.
    """
    found = _by_name.get(name)
    if found is not None:
        return found
    key = name.strip().lower()
    for game in all_games():
        if key == game.name or key in game.aliases:
            _by_name[name] = game
            return game
    raise UnknownGameError(f"unknown game type {name!r}; known: {sorted(modules())}")


def all_games() -> list[Ruleset[Any]]:
    """Every registered ruleset, imported on first use."""
    registered = modules()
    for name, module in registered.items():
        if name not in _loaded:
            _loaded[name] = _import_game(name, module)
    return [_loaded[n] for n in registered]


def _import_game(name: str, module: str) -> Ruleset[Any]:
    """The ``GAME`` of ``module``; a registration that names a module which is
    not there (a typo in ``LEDGER_GAMES``) is a configuration mistake to be
    named as such, not an internal error.

    :raises UnknownGameError: if the module cannot be imported or has no ``GAME``.
    """
    try:
        return importlib.import_module(module).GAME  # type: ignore[no-any-return]
    except (ImportError, AttributeError) as exc:
        raise UnknownGameError(
            f"game {name!r} is registered as module {module!r}, which has no GAME"
            f" to load ({type(exc).__name__}: {exc}); check {ENV_VAR}"
        ) from exc


_versions: dict[tuple[str, int], Ruleset[Any]] = {}
_content: dict[tuple[str, str | None], str] = {}


def find_ruleset(name: str, version: int | None) -> Ruleset[Any]:
    """The ruleset ``name`` exactly as it was at ``version`` (``None``: the newest).

    Why: a game is replayed and audited with the rules it was created under,
    so a rules fix never changes how an old game verifies.  A game package
    lists every version it still supports in ``VERSIONS`` (default: only
    ``GAME``).

    :raises UnknownGameError: for an unregistered name.
    :raises UnknownRulesVersionError: for a version no longer (or not yet) here.
    """
    game = find_game(name)
    if version is None or version == game.version:
        return game
    found = _versions.get((game.name, version))
    if found is None:
        module = importlib.import_module(modules()[game.name])
        for ruleset in getattr(module, "VERSIONS", (game,)):
            _versions[(game.name, ruleset.version)] = ruleset
        found = _versions.get((game.name, version))
    if found is None:
        raise UnknownRulesVersionError(
            f"{game.name} has no rules version {version} (newest: {game.version})"
        )
    return found


def rules_versions(name: str) -> tuple[Ruleset[Any], ...]:
    """Every supported version of ``name``, oldest first."""
    game = find_game(name)
    module = importlib.import_module(modules()[game.name])
    return tuple(sorted(getattr(module, "VERSIONS", (game,)), key=lambda r: r.version))


def content_hash(name: str, pack: str | None = None) -> str:
    """SHA-256 over the game's content pack files (``content/*``), hex.

    Recorded in ``GameCreated`` so an audit can tell when the cards a game
    was dealt from are no longer the ones shipped.  ``pack``: the setup's
    pack name, when the game has several (only ``content/<pack>.json`` then
    counts, so adding another pack changes no game's hash).  The digest
    covers each file's name and bytes, sorted by name.
    """
    game = find_game(name)
    digest = _content.get((game.name, pack))
    if digest is None:
        folder = resources.files(modules()[game.name]).joinpath("content")
        entries = (
            sorted((e for e in folder.iterdir() if e.is_file()), key=lambda e: e.name)
            if folder.is_dir()
            else []
        )
        if pack is not None:
            entries = [e for e in entries if e.name == f"{pack}.json"]
        h = hashlib.sha256()
        for entry in entries:
            h.update(entry.name.encode() + b"\0")
            h.update(hashlib.sha256(entry.read_bytes()).digest())
        digest = _content[(game.name, pack)] = h.hexdigest()
    return digest
