"""Races over the real gRPC server: lost races, stale moves and retried commands.

What a client can rely on (docs/guarantees.md): with
``expected_version`` exactly one move per decision point is accepted and the
other is ``ABORTED``; without it the move is decided against the state it
actually meets, so a move that was legal when listed but is not any more is
``FAILED_PRECONDITION`` naming the rule; a retried ``command_id`` returns the
original result.  Every refusal stores nothing: the head version, the stored
event rows and the recorded command ids are checked, not just the status.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domain.games import find_game
from domain.games.thalara.commands import Pass
from ledger.v1 import game_service_pb2 as pb
from services.proto import convert
from tests.e2e.client import Table, create, legal_moves, thalara_in_play

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
PASS = convert.command_to_any(THALARA, Pass())


# ------------------------------------------------------------------ helpers


def details_of(
    error: grpc.RpcError,
) -> tuple[grpc.StatusCode, error_details_pb2.ErrorInfo]:
    status = rpc_status.from_call(error)
    assert status is not None, "the error carries no google.rpc.Status details"
    infos = []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            infos.append(info)
    assert len(infos) == 1, status
    return error.code(), infos[0]


def head(server: Any, table: Table) -> pb.GameSummary:
    return server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game


def stored(server: Any, superuser: Any, table: Table) -> tuple[int, int, list[str]]:
    """(events the admin stream has, event rows in PostgreSQL, recorded command ids)."""
    streamed = list(
        server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True),
            server.admin_token,
        )
    )
    assert [e.version for e in streamed] == list(range(1, len(streamed) + 1))
    gid = uuid.UUID(table.game_id)
    rows = superuser.execute(
        "SELECT count(*) FROM ledger_events WHERE originator_id = %s", (gid,)
    ).fetchone()[0]
    commands = [
        r[0]
        for r in superuser.execute(
            "SELECT command_id FROM ledger_commands WHERE game_id = %s ORDER BY first_version",
            (gid,),
        )
    ]
    return len(streamed), rows, commands


def submit(
    server: Any,
    table: Table,
    seat: int,
    move: Any,
    command_id: str | None = None,
    expected_version: int | None = None,
) -> pb.SubmitMoveResponse:
    request = pb.SubmitMoveRequest(
        game_id=table.game_id, command_id=command_id or str(uuid.uuid4()), move=move
    )
    if expected_version is not None:
        request.expected_version = expected_version
    return server.call("SubmitMove", request, table.tokens[seat])


def view(server: Any, table: Table) -> Any:
    response = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), server.admin_token
    )
    return convert.model_from_any(THALARA, response.view, THALARA.view_model)


def decoded(move: Any) -> Any:
    return convert.command_from_any(THALARA, move)


def one_card_two_conflicts(moves: list[Any]) -> tuple[Any, Any]:
    """Two listed spell-less ``PlayCard`` moves of the same card into different conflicts."""
    plays = [(m, decoded(m)) for m in moves]
    plays = [
        (m, c) for m, c in plays if type(c).__name__ == "PlayCard" and c.spell is None
    ]
    for move, command in plays:
        for other, second in plays:
            if second.card == command.card and second.conflict != command.conflict:
                return move, other
    raise AssertionError("no card can be played into two conflicts")


# ------------------------------------------------------------------ (a) expected_version


def test_two_moves_racing_on_one_expected_version_one_is_accepted_the_other_aborted(
    grpc_server, superuser
):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    version = head(grpc_server, table).version
    assert set(head(grpc_server, table).to_act) == {
        0,
        1,
    }  # the secret selection: both may act
    moves = {seat: legal_moves(grpc_server, table, seat, limit=1)[0] for seat in (0, 1)}
    ids = {seat: f"race-{seat}" for seat in (0, 1)}
    before = stored(grpc_server, superuser, table)
    barrier = threading.Barrier(2)
    results: dict[int, Any] = {}

    def race(seat: int) -> None:
        barrier.wait()
        try:
            results[seat] = submit(
                grpc_server,
                table,
                seat,
                moves[seat],
                ids[seat],
                expected_version=version,
            )
        except grpc.RpcError as error:
            results[seat] = error

    threads = [threading.Thread(target=race, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    won = [s for s, r in results.items() if isinstance(r, pb.SubmitMoveResponse)]
    lost = [s for s, r in results.items() if isinstance(r, grpc.RpcError)]
    assert len(won) == 1 and len(lost) == 1, results
    winner, loser = won[0], lost[0]
    accepted = results[winner]
    assert not accepted.replayed and accepted.first_version == version + 1
    code, info = details_of(results[loser])
    assert code == grpc.StatusCode.ABORTED
    assert info.reason == "CONCURRENT_MOVE" and info.domain == "ledger.v1"
    assert results[loser].details()

    # nothing of the loser is stored: one decision point, one move
    streamed, rows, commands = stored(grpc_server, superuser, table)
    assert head(grpc_server, table).version == accepted.last_version
    assert streamed == rows == accepted.last_version == before[0] + len(accepted.events)
    assert commands == [ids[winner]]
    assert view(grpc_server, table).players[loser].ready is False

    # the loser's command id was never recorded: at the new version it goes in as new
    retried = submit(
        grpc_server,
        table,
        loser,
        moves[loser],
        ids[loser],
        expected_version=accepted.last_version,
    )
    assert not retried.replayed and retried.first_version == accepted.last_version + 1


def test_a_second_move_on_a_stale_expected_version_is_aborted_and_stores_nothing(
    grpc_server, superuser
):
    table = thalara_in_play(grpc_server)
    seat = head(grpc_server, table).to_act[0]
    listed = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, page_size=50),
        table.tokens[seat],
    )
    first, second = one_card_two_conflicts(list(listed.moves))
    accepted = submit(grpc_server, table, seat, first, expected_version=listed.version)
    after = stored(grpc_server, superuser, table)
    with pytest.raises(grpc.RpcError) as caught:
        submit(
            grpc_server, table, seat, second, "stale", expected_version=listed.version
        )
    code, info = details_of(caught.value)
    assert code == grpc.StatusCode.ABORTED and info.reason == "CONCURRENT_MOVE"
    assert f"not {listed.version}" in caught.value.details()
    assert stored(grpc_server, superuser, table) == after
    assert head(grpc_server, table).version == accepted.last_version


# ------------------------------------------------------------------ (b) no longer legal


def test_a_listed_move_made_illegal_by_the_seats_own_earlier_move_is_refused_naming_the_rule(
    grpc_server, superuser
):
    table = thalara_in_play(grpc_server)
    starter = head(grpc_server, table).to_act[0]
    other = 1 - starter
    submit(grpc_server, table, starter, PASS)
    assert list(head(grpc_server, table).to_act) == [other]
    moves = legal_moves(grpc_server, table, other)  # listed once, at this version
    first, stale = one_card_two_conflicts(moves)
    card = decoded(first).card
    played = submit(grpc_server, table, other, first)
    assert list(head(grpc_server, table).to_act) == [
        other
    ]  # the starter passed: other plays on
    assert card not in view(grpc_server, table).players[other].hand
    before = stored(grpc_server, superuser, table)

    with pytest.raises(grpc.RpcError) as caught:
        submit(grpc_server, table, other, stale, "stale-card")  # no expected_version
    code, info = details_of(caught.value)
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert (
        info.reason == "ILLEGAL_MOVE"
        and info.metadata["rule"] == "thalara.card-not-in-hand"
    )
    assert "thalara.card-not-in-hand" in caught.value.details()
    assert stored(grpc_server, superuser, table) == before
    assert head(grpc_server, table).version == played.last_version


def test_a_move_that_lost_a_race_to_another_server_process_is_redecided_and_refused(
    grpc_server, superuser, ledger, fresh_ledger
):
    """The server's cached game is stale: saving conflicts, the move is re-decided on
    the new state, and the rule that now forbids it is named."""
    table = thalara_in_play(grpc_server)
    starter = head(grpc_server, table).to_act[0]
    other = 1 - starter
    submit(grpc_server, table, starter, PASS)
    first, stale = one_card_two_conflicts(legal_moves(grpc_server, table, other))
    # the same seat's other client reaches another server process first
    elsewhere = fresh_ledger.submit(
        uuid.UUID(table.game_id), decoded(first), other, "other-process"
    )
    assert not elsewhere.replayed
    gid = uuid.UUID(table.game_id)
    held = ledger.cache.held_version(gid)
    assert held is not None and held < elsewhere.last_version  # the server is behind
    # PostgreSQL's side only: the server may not have heard of the other
    # process's move yet, so its stream can still end a version short here
    _, rows, commands = stored(grpc_server, superuser, table)

    with pytest.raises(grpc.RpcError) as caught:
        submit(grpc_server, table, other, stale, "lost-the-race")
    code, info = details_of(caught.value)
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert info.metadata["rule"] == "thalara.card-not-in-hand"
    # nothing stored, and the stream now shows every stored event
    assert stored(grpc_server, superuser, table) == (rows, rows, commands)
    assert commands[-1] == "other-process"
    assert head(grpc_server, table).version == elsewhere.last_version


# ------------------------------------------------------------------ (c) retried command ids


def test_a_retried_command_id_returns_the_original_result_and_stores_nothing(
    grpc_server, superuser
):
    table = thalara_in_play(grpc_server)
    seat = head(grpc_server, table).to_act[0]
    listed = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, page_size=50),
        table.tokens[seat],
    )
    move, same_card_elsewhere = one_card_two_conflicts(list(listed.moves))
    original = submit(
        grpc_server, table, seat, move, "once", expected_version=listed.version
    )
    assert not original.replayed
    after = stored(grpc_server, superuser, table)
    # the game moves on: the other seat passes, so the card is long gone from the hand
    submit(grpc_server, table, 1 - seat, PASS)
    moved_on = stored(grpc_server, superuser, table)
    assert moved_on[0] > after[0]

    for expected in (
        None,
        listed.version,
    ):  # a retry may carry its original expected_version
        again = submit(
            grpc_server, table, seat, move, "once", expected_version=expected
        )
        assert again.replayed
        assert (again.first_version, again.last_version) == (
            original.first_version,
            original.last_version,
        )
        assert [
            (e.version, e.type, e.payload.SerializeToString()) for e in again.events
        ] == [
            (e.version, e.type, e.payload.SerializeToString()) for e in original.events
        ]
        assert again.log_position == original.log_position
        assert stored(grpc_server, superuser, table) == moved_on

    # the same move under a new id is decided afresh (and is now illegal) ...
    with pytest.raises(grpc.RpcError) as caught:
        submit(grpc_server, table, seat, move, "twice")
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    # ... and the old id for a different move is refused
    with pytest.raises(grpc.RpcError) as caught:
        submit(grpc_server, table, seat, same_card_elsewhere, "once")
    assert details_of(caught.value)[1].reason == "COMMAND_ID_REUSED"
    assert caught.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert stored(grpc_server, superuser, table) == moved_on
