"""``ledger stats`` says what it knows and why a table is empty."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as rpc
from services.api.client import create, play_one
from tests.e2e.leak_probe import log_head

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def finished(grpc_server, ledger):
    """Two Thalara games and one Vaalbara game played to the end, in the views."""
    import random

    position = 0
    for game_type, setup in (
        ("thalara", {"players": 2, "characters": ["myrja", "canto"]}),
        ("thalara", {"players": 2, "characters": ["myrja", "canto"]}),
        ("vaalbara", {"players": 2}),
    ):
        table = create(grpc_server, game_type, **setup)
        rnd = random.Random(position)
        while play_one(grpc_server, table, rnd) is not None:
            position = log_head(ledger)
    rpc.StatsServiceStub(grpc_server.channel).GetGameTypeStats(
        pb.GetGameTypeStatsRequest(game_type="thalara", min_log_position=position),
        timeout=60,
    )
    return grpc_server


def stats(server, *args: str):
    from services.cli import app

    return CliRunner().invoke(
        app,
        ["stats", *args, "--target", f"127.0.0.1:{server.port}"],
        terminal_width=200,
    )


def rows(output: str, title: str) -> list[list[str]]:
    """The body rows of the rich table printed under ``title``."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    out = []
    for line in lines[start + 1 :]:
        if line.startswith("└"):
            break
        if line.startswith("│") and line.count("│") > 2:
            out.append([c.strip() for c in line.strip("│").split("│")])
    return out  # the header row is drawn with ┃, not │


def test_an_unknown_facet_is_refused_naming_the_known_ones(finished):
    result = stats(finished, "thalara", "--facet", "nosuch")
    assert result.exit_code == 1
    (line,) = result.output.splitlines()
    assert line.startswith("error: INVALID_ARGUMENT: ") and "'nosuch'" in line
    assert "character" in line


def test_a_seat_facet_has_its_frequency_and_the_players_it_covers(finished):
    result = stats(finished, "thalara", "--facet", "character")
    assert result.exit_code == 0, result.output
    frequency = rows(result.output, "character frequency")
    assert {r[0] for r in frequency} >= {"myrja", "canto"}
    assert all(int(r[1]) >= 2 for r in frequency if r[0] in ("myrja", "canto"))
    rates = rows(result.output, "win rate by character")
    assert rates and all(r[0] == "any" for r in rates)
    only_two = stats(finished, "thalara", "--facet", "character", "--players", "2")
    assert all(r[0] == "2" for r in rows(only_two.output, "win rate by character"))


def test_a_game_without_a_first_player_says_so(finished):
    result = stats(finished, "vaalbara")
    assert result.exit_code == 0, result.output
    assert "win rate of the first player" not in result.output
    assert "vaalbara records no first player" in result.output
    assert "win rate of the first player" in stats(finished, "thalara").output


def test_the_seat_column_counts_seats_from_1_as_people_do(finished):
    # two-player games only: other tests may have finished larger tables
    result = stats(finished, "thalara", "--players", "2")
    assert result.exit_code == 0, result.output
    seats = [row[1] for row in rows(result.output, "win rate by seat")]
    assert seats and set(seats) == {"seat 1", "seat 2"}  # the API's 0 and 1
