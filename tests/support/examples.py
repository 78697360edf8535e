"""Tables for tests, taken from the games' declared examples (``Ruleset.examples``).

Tests name the examples they play instead of copying setups, so a setup that
stops being valid is fixed once, in its game, and
``tests/unit/test_game_examples.py`` already fails there.
"""

from __future__ import annotations

from typing import Any

from domain.games import all_games

Table = tuple[str, dict[str, Any]]
"""(game type, setup fields), what ``tests.e2e.client.create`` takes."""


def examples(*names: str) -> list[Table]:
    """The named examples, in the order asked.

    :raises KeyError: for a name no registered game declares.
    """
    known = {e.name: (g.name, dict(e.setup)) for g in all_games() for e in g.examples}
    missing = [n for n in names if n not in known]
    if missing:
        raise KeyError(f"no game declares example(s) {missing}; known: {sorted(known)}")
    return [known[n] for n in names]


def every_example() -> list[Table]:
    return [(g.name, dict(e.setup)) for g in all_games() for e in g.examples]


def every_example_id() -> list[str]:
    return [e.name for g in all_games() for e in g.examples]


def smallest_and_largest() -> list[str]:
    """Each registered game's example with the fewest players and the one with
    the most (the first declared of equals; one name if they are the same)."""
    names: list[str] = []
    for game in filter(lambda g: g.examples, all_games()):
        ends = (
            min(game.examples, key=lambda e: e.players),
            max(game.examples, key=lambda e: e.players),
        )
        names += dict.fromkeys(e.name for e in ends)
    return names
