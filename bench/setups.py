"""The mix of games the load generator plays: every example of every registered game.

The tables come from each ruleset's declared examples (``Ruleset.examples``:
every player count and mode, checked by ``tests/unit/test_game_examples.py``),
so a game added later is benchmarked with no edit here.
"""

from __future__ import annotations

from typing import Any

from domain.games import all_games


def game_mix() -> list[tuple[str, dict[str, Any]]]:
    """(game type, setup fields) for every declared example, in registry order."""
    return [
        (ruleset.name, dict(example.setup))
        for ruleset in all_games()
        for example in ruleset.examples
    ]
