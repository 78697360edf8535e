"""The mix of games the load generator plays: every registered ruleset.

Known-good setups for the games that need more than a player count; any other
registered game (including ones added later) is played with its minimum
player count, if its setup model accepts that alone.
"""

from __future__ import annotations

from typing import Any

from domain.games import all_games

KNOWN: dict[str, list[dict[str, Any]]] = {
    "thalara": [
        {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]},
        {"players": 2, "mode": "casual_chaos", "characters": ["accaina", "kandhran"]},
        {
            "players": 4,
            "mode": "standard",
            "characters": ["myrja", "canto", "accaina", "kandhran"],
        },
    ],
    "terralore": [{"players": 2}],
    "thorgal": [{"players": 1}, {"players": 4}],
}


def game_mix() -> list[tuple[str, dict[str, Any]]]:
    """(game type, setup fields) for every registered game, in a fixed order."""
    mix: list[tuple[str, dict[str, Any]]] = []
    for ruleset in all_games():
        candidates = KNOWN.get(ruleset.name) or [{"players": ruleset.min_players}]
        for fields in candidates:
            try:
                setup = ruleset.setup_model(**fields)
                ruleset.initial_state(setup)
            except Exception:  # noqa: BLE001 - a game we cannot set up is left out of the mix
                continue
            mix.append((ruleset.name, fields))
    return mix
