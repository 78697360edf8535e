"""The live game page's clocks: server-rendered, pushed by SSE, closed at the end."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domain.games import find_game
from domain.ledger.clocks import ClockKind, TimeControl
from tests.support.manual_clock import ManualClock

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


@pytest.fixture
def clock(ledger: Any) -> Iterator[ManualClock]:
    manual = ManualClock()
    before, ledger.clock = ledger.clock, manual
    yield manual
    ledger.clock = before


def sse_events(url: str, count: int) -> list[tuple[str, str]]:
    """The first ``count`` events of the stream at ``url`` (fewer if it ends)."""
    out: list[tuple[str, str]] = []
    with httpx.stream("GET", url, timeout=30) as response:
        assert response.status_code == 200
        event, data = "", []
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                data.append(line.split(":", 1)[1].strip())
            elif not line and event:
                out.append((event, "\n".join(data)))
                event, data = "", []
                if len(out) == count:
                    break
    return out


def test_a_running_games_clocks_tick_by_sse_and_stop_when_it_ends(
    ledger: Any, dashboard_url: str, clock: ManualClock
) -> None:
    control = TimeControl(kind=ClockKind.FISCHER, base_seconds=600, increment_seconds=5)
    game_id = ledger.create_game("thalara", SETUP, time_control=control).game_id
    page = httpx.get(f"{dashboard_url}/games/{game_id}", timeout=30).text
    assert f'sse-connect="/games/{game_id}/clock"' in page
    clock.advance(75)
    [(kind, fragment)] = sse_events(f"{dashboard_url}/games/{game_id}/clock", 1)
    assert kind == "clock"
    assert fragment.count('class="running"') == 2  # both choose a hand at once
    assert fragment.count(">8:45<") == 2  # 10:00 less 75 s, by the ledger's clock
    game = ledger.load(game_id)
    seat = game.to_act()[0]
    command = THALARA.random_command(game.state, seat, random.Random(1))
    ledger.submit(game_id, command, seat, str(uuid.uuid4()))
    import asyncio

    asyncio.run(ledger.resign(game_id, 1 - seat))
    events = sse_events(f"{dashboard_url}/games/{game_id}/clock", 5)
    assert [k for k, _ in events] == ["clock", "done"]
    assert 'class="running"' not in events[0][1]
    ended = httpx.get(f"{dashboard_url}/games/{game_id}", timeout=30).text
    assert "sse-connect" not in ended.split('id="replay"')[0]
    assert "Clocks at the end" in ended
    assert "Outcome: resigned" in ended


def test_a_game_without_a_clock_shows_none(ledger: Any, dashboard_url: str) -> None:
    game_id = ledger.create_game("thalara", SETUP).game_id
    page = httpx.get(f"{dashboard_url}/games/{game_id}", timeout=30).text
    assert "/clock" not in page and "Clocks" not in page
