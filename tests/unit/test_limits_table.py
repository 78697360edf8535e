"""The documented limits are the enforced ones, and the walk enforces them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import tournament_service_pb2 as tpb
from services.proto import limits

DOC = Path(__file__).resolve().parents[2] / "docs" / "limits.md"


def documented(section: str) -> dict[str, int]:
    text = DOC.read_text().split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)`(?: \(each\))? \| (\d+) \|$", text, re.MULTILINE)
    found = {name: int(value) for name, value in rows}
    other = re.search(r"^\| any other [\w ]+ \| (\d+) \|$", text, re.MULTILINE)
    assert other is not None
    found["*"] = int(other.group(1))
    return found


def test_the_documented_string_limits_are_the_enforced_ones() -> None:
    assert documented("Strings") == {**limits.STRINGS, "*": limits.DEFAULT_STRING}


def test_the_documented_repeated_limits_are_the_enforced_ones() -> None:
    assert documented("Repeated fields") == {
        **limits.REPEATED,
        "*": limits.DEFAULT_REPEATED,
    }


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (pb.GetGameRequest(game_id="g" * 65), "game_id"),
        (pb.ListGamesRequest(game_type="thalara\x00"), "game_type"),
        (pb.CreateGameRequest(player_ids=["p"] * 17), "player_ids"),
        (pb.CreateGameRequest(entropy=["e" * 257]), "entropy"),
        (tpb.CreateTournamentRequest(name="n" * 201), "name"),
        (tpb.CreateTournamentRequest(setup_json="{}" * 8193), "setup_json"),
        (pb.GameSummary(status="s" * 257), "status"),
        (
            pb.CreateGameRequest(setup={"value": b"x" * 65_537}),
            "setup.value",
        ),
    ],
)
def test_the_walk_names_the_field_that_breaks_a_limit(
    message: object, field: str
) -> None:
    with pytest.raises(limits.FieldLimitError) as caught:
        limits.check_message(message)  # type: ignore[arg-type]
    assert caught.value.field == field


def test_messages_within_the_limits_pass() -> None:
    limits.check_message(
        pb.CreateGameRequest(
            game_type="thalara", player_ids=["p" * 128] * 16, entropy=["e"] * 16
        )
    )
