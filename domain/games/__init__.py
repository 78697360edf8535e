"""The registry of rulesets: adding a game is one folder plus one line here.

Games are imported lazily so that a broken or slow-to-import ruleset cannot
take the others down, and so ``find_game`` can raise a clear error.
"""

from __future__ import annotations

import importlib
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
