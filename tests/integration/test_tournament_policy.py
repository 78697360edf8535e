"""The results policy records each tournament result exactly once, through the desk."""

from __future__ import annotations

import random
import uuid

import pytest

from domain.games import find_game
from projections.runner import ViewRunner
from projections.tournament_results import NotWiredError, TournamentResultsView
from services.tournaments.desk import TournamentDesk
from services.tournaments.results import ResultsDesk

pytestmark = pytest.mark.postgres


@pytest.fixture
def ledger(isolated_ledger):
    return isolated_ledger


def result_events(desk: TournamentDesk, tournament_id: uuid.UUID) -> int:
    with desk.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT count(*) AS n FROM tournaments_events WHERE originator_id = %s AND topic = 'tournament.ResultRecorded'",
            (tournament_id,),
        )
        return curs.fetchone()["n"]


def test_results_flow_in_once_despite_crashes_reruns_and_rebuilds(ledger):
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    tournament, _ = desk.create("policy", "terralore", "round_robin", 0, 2, {})
    for p in ("a", "b"):
        desk.register(tournament.id, p)
    started = desk.start_round(tournament.id)
    (table,) = started.state.round_records[0].tables
    game_id = uuid.UUID(table.game_id)
    ruleset, rnd = find_game("terralore"), random.Random(5)
    while not (game := ledger.load(game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(
            game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )

    unwired = ViewRunner(ledger.datastore, TournamentResultsView())
    unwired.ensure_tables()
    with pytest.raises(NotWiredError):
        unwired.catch_up()
    assert unwired.status().lag > 0  # the game's conclusion is not applied

    def policy() -> TournamentResultsView:
        return TournamentResultsView(ResultsDesk(ledger.datastore))

    runner = ViewRunner(ledger.datastore, policy(), batch_size=1)
    runner.ensure_tables()

    def crash() -> None:
        raise KeyboardInterrupt("killed mid-batch")

    while runner.status().lag:
        try:
            runner.step(before_commit=crash)
        except KeyboardInterrupt:
            break
        # batches before the game's conclusion commit normally
    assert result_events(desk, tournament.id) == 0
    with ledger.datastore.get_connection() as listener:
        listener.execute("LISTEN ledger_game_events")
        runner.catch_up()
        notes = [n.payload for n in listener.notifies(timeout=2.0, stop_after=1)]
        listener.execute("UNLISTEN *")
    assert result_events(desk, tournament.id) == 1
    version = desk.load(tournament.id).version
    assert notes == [f"{tournament.id}:{version}"]  # pushes StreamStandings
    second = ViewRunner(ledger.datastore, policy())
    second.reset()  # a rebuild replays every conclusion again
    second.catch_up()
    runner.catch_up()
    assert result_events(desk, tournament.id) == 1
    final = desk.load(tournament.id)
    assert final.state.finished
    assert (
        final.state.round_records[0].results[0].ranks
        == ledger.load(game_id).outcome.ranks
    )
