"""Content packs come from an allow-list of shipped files, never from a path."""

from __future__ import annotations

from typing import Any

import pytest

from domain.contract.core import InvalidCommandError
from domain.games import find_game

SETUPS: dict[str, dict[str, Any]] = {
    "thalara": {"players": 2, "characters": ["myrja", "canto"]},
    "thorgal": {"players": 2},
}
HOSTILE = [
    "../../thalara/content/sample",
    "../../thorgal/content/sample",
    "../content/sample",
    "/etc/passwd",
    "/dev/zero",
    "sample.json",
    "sample/../sample",
    "./sample",
]


def initial_state(game: str, content: str) -> Any:
    ruleset = find_game(game)
    setup = ruleset.setup_model.model_validate({**SETUPS[game], "content": content})
    return ruleset.initial_state(setup)


@pytest.mark.parametrize("game", sorted(SETUPS))
@pytest.mark.parametrize("content", HOSTILE)
def test_a_path_is_never_a_content_pack_name(game: str, content: str) -> None:
    with pytest.raises(InvalidCommandError, match="unknown content pack"):
        initial_state(game, content)


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_an_unset_content_pack_is_the_shipped_default(game: str) -> None:
    assert initial_state(game, "").content == "sample"
    assert initial_state(game, "") == initial_state(game, "sample")
