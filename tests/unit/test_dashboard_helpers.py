"""The dashboard's small pure helpers: Wilson intervals and listen addresses."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from services.dashboard.address import InvalidListenError, parse_listen
from services.dashboard.web import wilson


@pytest.mark.parametrize(
    "wins,games", [(0, 1), (3, 4), (5, 10), (17, 60), (99, 100), (500, 1000)]
)
def test_wilson_interval_matches_scipy(wins: int, games: int) -> None:
    expected = binomtest(wins, games).proportion_ci(0.95, method="wilson")
    low, high = wilson(wins, games)
    assert low == pytest.approx(expected.low, abs=1e-4)
    assert high == pytest.approx(expected.high, abs=1e-4)


def test_wilson_interval_of_no_games_is_everything() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_listen_addresses_parse_or_fail_with_a_clear_message() -> None:
    assert parse_listen("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert parse_listen("[::]:0") == ("::", 0)
    assert parse_listen(" OFF ") is None
    for bad in ("8080", "localhost", ":80", "host:99999", "host:http"):
        with pytest.raises(InvalidListenError, match="host:port or 'off'"):
            parse_listen(bad)
