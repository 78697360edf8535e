"""An in-process server on the session's ledger leaves that ledger as it found it.

Why: the server's event hub LISTENs and feeds the ledger's
:class:`~services.ledger.heads.Heads`, which is what lets the ledger's cache vouch
for the games it holds.  A hub still attached after its test delivers
NOTIFYs to tests that are about their absence, and a stopped hub whose heads
still vouch makes the session ledger answer from copies no notification will
ever correct.
"""

from __future__ import annotations

import random
import uuid

import pytest

from domain.games import find_game
from tests.e2e.client import create
from tests.support.database import scalar
from tests.support.server import serve_in_process, wait_until

pytestmark = pytest.mark.e2e
pytest_plugins = ["pytester"]
THALARA = find_game("thalara")
LISTENERS = (
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE datname = current_database() AND query LIKE 'LISTEN %%'"
)


def test_a_torn_down_server_leaves_the_session_ledger_deaf(
    settings, ledger, fresh_ledger, superuser
):
    before = scalar(superuser.execute(LISTENERS))
    with serve_in_process(settings, ledger) as server:
        wait_until(lambda: server.running.hub.connected, "the hub never listened")
        table = create(server, "thalara", players=2, characters=["myrja", "canto"])
        gid = uuid.UUID(table.game_id)
        assert ledger.cache.vouched(gid) is not None  # listening: memory vouches

    assert ledger.heads.epoch == 0, "the stopped hub left the ledger's heads vouching"
    assert not server.running.hub.connected
    wait_until(
        lambda: scalar(superuser.execute(LISTENERS)) == before,
        "the hub's LISTEN connection outlived the server",
    )
    # a move recorded by another process, with nobody left to notify this one:
    # the session ledger reads it from the store instead of vouching for its copy
    game = fresh_ledger.load(gid)
    seat = game.to_act()[0]
    command = THALARA.random_command(game.state, seat, random.Random(3))
    moved = fresh_ledger.submit(gid, command, seat, str(uuid.uuid4()))
    assert ledger.cache.vouched(gid) is None
    assert ledger.load(gid).version == moved.last_version


INNER_CONFTEST = """
pytest_plugins = ["tests.support.database", "tests.support.server"]
"""
INNER_SERVER_MODULE = """
from tests.support.server import wait_until

def test_the_server_listens_for_the_session_ledger(grpc_server, ledger):
    wait_until(lambda: grpc_server.running.hub.connected, "the hub never listened")
    assert ledger.heads.epoch != 0
"""
INNER_LATER_MODULE = """
def test_a_later_module_finds_the_session_ledger_deaf(ledger):
    assert ledger.heads.epoch == 0
"""


def test_the_grpc_server_fixture_is_gone_before_the_next_module(pytester):
    """The shared ``grpc_server`` fixture, in a session of its own: a module
    after the one that used it gets the session ledger with no listener."""
    pytester.makeconftest(INNER_CONFTEST)
    pytester.makepyfile(
        test_a_server=INNER_SERVER_MODULE, test_b_later=INNER_LATER_MODULE
    )
    result = pytester.runpytest_inprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
