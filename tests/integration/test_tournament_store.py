"""The tournament store's reads that serve other parts than the desk: the
dashboard's list and change detection, and the organiser credentials."""

from __future__ import annotations

import uuid

import pytest

from services.storage import tournament_store
from services.tournaments import organisers
from services.tournaments.desk import TournamentDesk

pytestmark = pytest.mark.postgres


@pytest.fixture
def desk(isolated_ledger):
    desk = TournamentDesk(isolated_ledger.env_for_peers, isolated_ledger)
    yield desk
    desk.close()


def read(desk: TournamentDesk, fn, *args):
    with desk.datastore.transaction(commit=False) as curs:
        return fn(curs, *args)


def test_tournaments_are_listed_newest_first_from_their_creation_events(desk):
    older, _ = desk.create("older", "terralore", "round_robin", 0, 2, {})
    newer, _ = desk.create("newer", "vaalbara", "swiss_ffa", 3, 3, {})

    listed = read(desk, tournament_store.newest, 2)

    assert listed == [
        {
            "tournament_id": newer.id,
            "name": "newer",
            "game_type": "vaalbara",
            "format": "swiss_ffa",
        },
        {
            "tournament_id": older.id,
            "name": "older",
            "game_type": "terralore",
            "format": "round_robin",
        },
    ]


def test_a_tournaments_version_follows_its_events(desk):
    tournament, _ = desk.create("versions", "terralore", "round_robin", 0, 2, {})
    before = read(desk, tournament_store.version, tournament.id)
    desk.register(tournament.id, "ann")
    assert read(desk, tournament_store.version, tournament.id) == before + 1 == 2
    assert read(desk, tournament_store.version, uuid.uuid4()) == 0


def test_an_organiser_token_is_recognised_and_stored_only_hashed(desk):
    token = organisers.issue(desk.datastore, "the club")
    assert organisers.is_organiser(desk.datastore, token)
    assert not organisers.is_organiser(desk.datastore, token + "x")
    with desk.datastore.transaction(commit=False) as curs:
        curs.execute("SELECT token_hash, label FROM organiser_tokens")
        rows = curs.fetchall()
    assert [r["label"] for r in rows] == ["the club"]
    assert token not in {r["token_hash"] for r in rows}
