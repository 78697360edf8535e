"""The registry of rulesets: adding a game is one folder plus one line here.

Games are imported lazily so that a broken or slow-to-import ruleset cannot
take the others down, and so ``find_game`` can raise a clear error.
"""

from __future__ import annotations

import hashlib
import importlib
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.core import Ruleset

#: name -> module that exports ``GAME``.  One line per game.
REGISTRY: dict[str, str] = {
    "thalara": "domain.games.thalara",
    "terralore": "domain.games.terralore",
    "thorgal": "domain.games.thorgal",
    "vaalbara": "domain.games.vaalbara",
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
    raise UnknownGameError(f"unknown game type {name!r}; known: {sorted(REGISTRY)}")


def all_games() -> list[Ruleset[Any]]:
    """Every registered ruleset, imported on first use."""
    for name, module in REGISTRY.items():
        if name not in _loaded:
            _loaded[name] = importlib.import_module(module).GAME
    return [_loaded[n] for n in REGISTRY]


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
        module = importlib.import_module(REGISTRY[game.name])
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
    module = importlib.import_module(REGISTRY[game.name])
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
        folder = resources.files(REGISTRY[game.name]).joinpath("content")
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
