"""An aborted tournament game is replayed by the organiser, never a silent draw.

The round does not complete while a game of it was aborted; the organiser
replays it (a new game, the same players in the same seats, the same clock),
the players find it with their tournament tokens, its result completes the
round, and the aborted game's result never counts, even when the results
policy applies its conclusion again (a rebuild).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from domain.contract.core import IllegalCommandError
from domain.ledger.clocks import ClockKind, TimeControl
from projections.runner import ViewRunner
from projections.tournament_results import TournamentResultsView
from services.tournaments.desk import TournamentDesk
from services.tournaments.results import ResultsDesk

pytestmark = pytest.mark.postgres
FISCHER = TimeControl(kind=ClockKind.FISCHER, base_seconds=300, increment_seconds=2)


def test_an_aborted_game_is_replayed_and_only_the_replay_counts(
    isolated_ledger: Any,
) -> None:
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    cup, _ = desk.create("replay", "terralore", "swiss", 2, 2, {}, time_control=FISCHER)
    tokens = {p: desk.register(cup.id, p) for p in ("a", "b", "c", "d")}
    results = ViewRunner(
        ledger.datastore, TournamentResultsView(ResultsDesk(ledger.datastore))
    )
    results.ensure_tables()
    tables = desk.start_round(cup.id).state.round_records[-1].tables
    aborted, played = (uuid.UUID(t.game_id) for t in tables)
    asyncio.run(ledger.adjudicate(played, (1, 2), "arbiter", "admin"))
    with pytest.raises(IllegalCommandError) as refused:
        desk.replay_aborted(cup.id, played)
    assert refused.value.rule == "tournament.not-aborted"
    asyncio.run(ledger.abort(aborted, "seat:0", "wrong board"))
    results.catch_up()
    assert desk.load(cup.id).state.is_round_in_progress  # waits for the replay

    replayed = desk.replay_aborted(cup.id, aborted)
    table = replayed.state.round_records[-1].tables[0]
    new_game = uuid.UUID(table.game_id)
    assert new_game != aborted and table.players == tables[0].players
    # the same clock, under the same referee rules, as the game it replays
    assert ledger.load(new_game).time_control == ledger.load(aborted).time_control
    assert ledger.load(new_game).time_control["base_seconds"] == FISCHER.base_seconds
    for player in table.players:
        (mine,) = [
            g
            for g in desk.my_games(cup.id, player, tokens[player])
            if g["game_id"] == new_game
        ]
        assert mine["round"] == 1
    with pytest.raises(IllegalCommandError):  # once only
        desk.replay_aborted(cup.id, aborted)

    asyncio.run(ledger.adjudicate(new_game, (2, 1), "arbiter", "admin"))
    results.catch_up()
    state = desk.load(cup.id).state
    assert not state.is_round_in_progress
    winner = table.players[1]
    rows = {r.player_id: r for r in desk.load(cup.id).standings()}
    assert rows[winner].wins == 1 and rows[winner].draws == 0
    assert sum(r.games for r in rows.values()) == 4  # two games, two players each

    results.reset()  # a rebuild applies the aborted game's conclusion again
    results.catch_up()
    assert results.status().stalled is None
    assert desk.load(cup.id).version == replayed.version + 1


def test_a_replay_interrupted_before_it_is_saved_adopts_its_game_on_retry(
    isolated_ledger: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between the replay's new game and the saved replay: the retry
    seats the players at that game, never at a second one."""
    ledger = isolated_ledger
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    cup, _ = desk.create("retry", "terralore", "swiss", 2, 2, {}, time_control=FISCHER)
    for player in ("a", "b"):
        desk.register(cup.id, player)
    (table,) = desk.start_round(cup.id).state.round_records[-1].tables
    aborted = uuid.UUID(table.game_id)
    asyncio.run(ledger.abort(aborted, "seat:0", "wrong board"))

    created: list[uuid.UUID] = []
    create_game = ledger.create_game

    def counted(*args: Any, **kwargs: Any) -> Any:
        game = create_game(*args, **kwargs)
        created.append(game.game_id)
        return game

    monkeypatch.setattr(ledger, "create_game", counted)
    save = desk.save

    def crash(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the server died before the replay was saved")

    monkeypatch.setattr(desk, "save", crash)
    with pytest.raises(ConnectionError):
        desk.replay_aborted(cup.id, aborted)
    monkeypatch.setattr(desk, "save", save)

    replayed = desk.replay_aborted(cup.id, aborted)
    (seated,) = replayed.state.round_records[-1].tables
    assert created == [uuid.UUID(seated.game_id)]
    assert seated.players == table.players
