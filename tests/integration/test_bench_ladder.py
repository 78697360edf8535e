"""Every rung of the cost ladder (``bench/ladder_server.py``, ``ledger serve``)
starts and answers a real ``SubmitMove`` the way its rung promises.

Rungs that play games are given one real move and must record it as the
ledger does; the rungs that replay canned responses must answer with the
canned bytes (and the auth rung must refuse a token it does not know).
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from bench import canned_baseline, ladder, loadgen, procs
from bench.ladder_server import CANNED_RUNGS
from bench.nullserver import read_canned
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from projections import registry
from tests.support.database import scratch_database

THALARA = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
PLAYING_RUNGS = ("convert", "rules", "commit", "notify", "serve_views_off", "serve")


@pytest.fixture(scope="module")
def url(server_url: str) -> Iterator[str]:
    with scratch_database(server_url, "ledger_ladder") as url:
        yield url


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    path = procs.make_workdir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _one_move(target: str) -> dict[str, Any]:
    """Create a thalara game, list the seat's moves, submit the first one."""
    with grpc.insecure_channel(target) as channel:
        stub = pb_grpc.GameServiceStub(channel)
        created = stub.CreateGame(
            loadgen.create_request("thalara", THALARA), timeout=10
        )
        seat = created.game.to_act[0]
        token = next(t.token for t in created.tokens if seat in t.seats)
        listed = stub.ListLegalMoves(
            pb.ListLegalMovesRequest(
                game_id=created.game.game_id, seat=seat, page_size=5
            ),
            metadata=loadgen.auth(token),
            timeout=10,
        )
        submitted = stub.SubmitMove(
            pb.SubmitMoveRequest(
                game_id=created.game.game_id,
                command_id=str(uuid.uuid4()),
                move=listed.moves[0],
                seat=seat,
            ),
            metadata=loadgen.auth(token),
            timeout=10,
        )
        got = stub.GetGame(pb.GetGameRequest(game_id=created.game.game_id))
    return {
        "created": created,
        "listed": listed,
        "submitted": submitted,
        "got": got,
    }


@pytest.fixture(scope="module")
def moves(url: str, workdir: Path) -> dict[str, dict[str, Any]]:
    out = {}
    for rung in PLAYING_RUNGS:
        server = ladder.start_rung(rung, workdir, database_url=url)
        try:
            out[rung] = _one_move(server.target)
        finally:
            server.stop()
    return out


@pytest.mark.parametrize("rung", PLAYING_RUNGS)
def test_a_playing_rung_records_the_move_it_is_given(
    rung: str, moves: dict[str, dict[str, Any]]
) -> None:
    seen = moves[rung]
    created, listed, submitted = seen["created"], seen["listed"], seen["submitted"]
    game_id = created.game.game_id
    assert listed.version == created.game.version and listed.moves
    assert submitted.game.game_id == game_id and not submitted.replayed
    assert submitted.first_version == listed.version + 1
    assert submitted.last_version >= submitted.first_version
    assert len(submitted.events) == submitted.last_version - listed.version
    assert submitted.receipt.signature
    if rung == "convert":  # decides nothing: the game stays where it was
        assert seen["got"].game.version == created.game.version
    else:
        assert submitted.game.version == submitted.last_version
        assert seen["got"].game.version == submitted.last_version


@pytest.fixture(scope="module")
def canned(moves: dict[str, dict[str, Any]], workdir: Path) -> Path:
    seen = moves["serve"]
    captured = {
        "CreateGame": [seen["created"].SerializeToString()],
        "ListLegalMoves": [seen["listed"].SerializeToString()],
        "SubmitMove": [seen["submitted"].SerializeToString()],
    }
    path = workdir / "canned.json"
    canned_baseline.write_canned(path, canned_baseline.canned_responses(captured))
    return path


@pytest.mark.parametrize("rung", CANNED_RUNGS)
def test_a_canned_rung_answers_the_full_servers_response(
    rung: str, canned: Path, workdir: Path
) -> None:
    expected = {k.rsplit("/", 1)[1]: v for k, v in read_canned(str(canned)).items()}
    server = ladder.start_rung(rung, workdir, canned=canned)
    try:
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.GameServiceStub(channel)
            created = stub.CreateGame(
                loadgen.create_request("thalara", THALARA), timeout=10
            )
            token = created.tokens[0].token
            request = pb.SubmitMoveRequest(
                game_id=created.game.game_id,
                command_id=str(uuid.uuid4()),
                seat=created.game.to_act[0],
            )
            submitted = stub.SubmitMove(
                request, metadata=loadgen.auth(token), timeout=10
            )
            assert submitted.SerializeToString() == expected["SubmitMove"]
            assert submitted.game.status == "active"
            stranger = loadgen.auth("not-a-token-of-this-game")
            if rung == "auth":
                with pytest.raises(grpc.RpcError) as refused:
                    stub.SubmitMove(request, metadata=stranger, timeout=10)
                assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            else:  # nothing checks tokens below the auth rung
                assert stub.SubmitMove(request, metadata=stranger, timeout=10)
    finally:
        server.stop()


def test_the_full_server_is_measured_once_its_views_reach_the_log_head(
    url: str, workdir: Path, moves: dict[str, dict[str, Any]]
) -> None:
    import psycopg

    server = ladder.start_rung("serve", workdir, database_url=url)
    try:
        waited = ladder.wait_for_views(url, timeout=60)
    finally:
        server.stop()
    assert waited is not None
    with psycopg.connect(url, autocommit=True) as conn:
        # no event of a view's own topics is left past its tracked row (the
        # moves after it are no view's events)
        for name, tracked in conn.execute(
            "SELECT view, position FROM projection_tracking"
        ).fetchall():
            pending = conn.execute(
                "SELECT count(*) FROM ledger_events WHERE notification_id > %s"
                " AND topic = ANY(%s)",
                (tracked, list(registry.view(name).topics)),
            ).fetchone()
            assert pending == (0,), name
        # ratings reads every GameCreated, so from position 0 it has events to apply
        slowest = conn.execute(
            "SELECT view, position FROM projection_tracking WHERE view = 'ratings'"
        ).fetchone()
        assert slowest is not None
        view, position = slowest
        # one view behind its events, and no server to move it: not caught up
        conn.execute(
            "UPDATE projection_tracking SET position = 0 WHERE view = %s", (view,)
        )
        try:
            assert ladder.wait_for_views(url, timeout=0.5) is None
        finally:
            conn.execute(
                "UPDATE projection_tracking SET position = %s WHERE view = %s",
                (position, view),
            )
