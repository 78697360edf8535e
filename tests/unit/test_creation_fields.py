"""A refused creation names the request field at fault, not ``request``."""

from __future__ import annotations

from typing import Any

import pytest

from domain.contract.core import InvalidCommandError
from services.api.errors import status_for
from services.ledger.creation import new_game


def _fields(**kw: Any) -> list[str]:
    from google.rpc import error_details_pb2

    with pytest.raises(InvalidCommandError) as caught:
        new_game(None, **kw)  # type: ignore[arg-type]  # refused before signing
    fields = []
    for detail in status_for(caught.value).details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            fields += [v.field for v in bad.field_violations]
    return fields


@pytest.mark.parametrize("players", [1, 5])
def test_a_player_count_out_of_range_is_the_players_field(players: int) -> None:
    assert _fields(game_type="thalara", setup={"players": players}) == ["players"]


def test_entropy_and_player_ids_name_their_fields() -> None:
    setup = {"players": 2}
    assert _fields(game_type="thalara", setup=setup, entropy=("x",) * 9) == ["entropy"]
    assert _fields(game_type="thalara", setup=setup, player_ids=("a" * 300, "b")) == [
        "player_ids"
    ]
