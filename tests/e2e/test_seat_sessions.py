"""``SeatSessionService.Play`` against a real server: a seat's whole game on one stream.

Each test names the promise it checks: every declared example played to its
end over sessions audits OK; a session shows its seat exactly what
``StreamGameEvents`` shows the same token (no other seat's hidden data, no
other seat's legal moves); moves are idempotent per command id; a resumed
session neither loses nor doubles an event; refusals are answered in the
stream, which goes on; and only a seat of the game opens a session.
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import session_service_pb2 as spb
from services.api.session_client import SeatSessionClient
from services.ledger.audit import audit_game
from tests.e2e.client import create
from tests.e2e.sessions import play_over_sessions, stream_events
from tests.support.examples import every_example, every_example_id, examples

pytestmark = pytest.mark.e2e


def bare(event: pb.GameEvent) -> bytes:
    """An event without the fields that depend on when it was read."""
    copy = pb.GameEvent()
    copy.CopyFrom(event)
    for name in ("hash", "prev_hash", "clocks", "next_deadline", "next_deadline_seat"):
        copy.ClearField(name)
    return copy.SerializeToString()


def until(client: SeatSessionClient, kind: str) -> list[spb.PlayResponse]:
    """Messages up to and including the next one of ``kind``."""
    seen = []
    while True:
        message = client.next()
        seen.append(message)
        if message.WhichOneof("kind") == kind:
            return seen


def info_of(refusal: spb.SessionRefusal) -> error_details_pb2.ErrorInfo:
    info = error_details_pb2.ErrorInfo()
    for detail in refusal.details:
        if detail.Unpack(info):
            return info
    raise AssertionError("no ErrorInfo")


@pytest.mark.parametrize(
    ("game_type", "setup"), every_example(), ids=every_example_id()
)
def test_every_example_played_over_sessions_audits_and_each_seat_sees_its_stream(
    grpc_server: Any, ledger: Any, game_type: str, setup: dict[str, Any]
) -> None:
    table = create(grpc_server, game_type, **setup)
    got = play_over_sessions(grpc_server.channel, table.game_id, table.tokens, seed=3)
    report = audit_game(ledger, uuid.UUID(table.game_id))
    assert report.ok, report.failures
    for token, received in got.items():
        assert received.status is grpc.StatusCode.OK, received.kinds()
        events = received.events()
        # every event once, in order, up to the conclusion
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        assert events[-1].type == "ledger.GameConcluded"
        # what StreamGameEvents shows this token: its redaction.  Hashes and
        # clocks depend on when each was read, and so does the redaction:
        # once the game has ended everything is public, so an event either
        # stream read only after the end carries the finished game's form.
        assert len(received.streamed) == len(events)
        after = stream_events(grpc_server.channel, table.game_id, token, timeout=60)
        ended = [bare(e) for e in after]  # the game has ended: its public form
        live = [bare(e) for e in events]
        streamed = [bare(e) for e in received.streamed]
        assert all(
            s == e or f in (s, e) for s, e, f in zip(streamed, live, ended, strict=True)
        )
        # the live form, where the two were read before the end, hid something
        if game_type == "terralore" and len(set(table.tokens.values())) > 1:
            assert sum(s == e != f for s, e, f in zip(streamed, live, ended)) > 0
        kinds = received.kinds()
        assert kinds[0] == "opened" and "refused" not in kinds[:1]
        # pages only for this token's own seats
        seats = {s for s, t in table.tokens.items() if t == token}
        assert {m.moves.seat for m in received.messages if m.HasField("moves")} <= seats


def thalara(server: Any) -> Any:
    game_type, setup = examples("thalara-2p")[0]
    return create(server, game_type, **setup)


def first_page(client: SeatSessionClient) -> spb.LegalMovesPage:
    return until(client, "moves")[-1].moves


def test_a_turns_first_page_carries_the_seats_board_only_when_asked(
    grpc_server: Any,
) -> None:
    table = thalara(grpc_server)
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    )
    for with_view in (False, True):
        client = SeatSessionClient(
            grpc_server.channel, table.game_id, table.tokens[0], with_view=with_view
        )
        try:
            page = first_page(client)
        finally:
            client.close()
        assert page.moves and page.HasField("view") is with_view
        if with_view:  # the board GetGame shows this seat at the same version
            assert page.version == head.game.version
            assert page.view == head.view


def test_a_resent_command_id_is_answered_replayed_and_stores_nothing(
    grpc_server: Any,
) -> None:
    table = thalara(grpc_server)
    client = SeatSessionClient(grpc_server.channel, table.game_id, table.tokens[0])
    try:
        page = first_page(client)
        client.move(page.moves[0], command_id="once")
        first = until(client, "accepted")[-1].accepted
        client.move(page.moves[0], command_id="once")
        again = until(client, "accepted")[-1].accepted
        assert not first.replayed and again.replayed
        assert (again.first_version, again.last_version) == (
            first.first_version,
            first.last_version,
        )
        head = grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
        ).game
        assert head.version == first.last_version
    finally:
        client.close()


def test_a_resumed_session_neither_loses_nor_doubles_an_event(grpc_server: Any) -> None:
    table = thalara(grpc_server)
    seen: list[int] = []
    for leg in range(6):  # a reconnect after every move of seat 0
        client = SeatSessionClient(
            grpc_server.channel,
            table.game_id,
            table.tokens[0],
            after_version=seen[-1] if seen else 0,
        )
        try:
            got = until(client, "moves")
            seen += [m.event.version for m in got if m.HasField("event")]
            client.move(got[-1].moves.moves[leg % len(got[-1].moves.moves)])
            got = until(client, "accepted")
            seen += [m.event.version for m in got if m.HasField("event")]
        finally:
            client.close()
        turn = 0
        while (
            0
            not in grpc_server.call(  # seat 1 plays through the unary calls
                "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[1]
            ).game.to_act
        ):
            other = grpc_server.call(
                "ListLegalMoves",
                pb.ListLegalMovesRequest(game_id=table.game_id, page_size=1),
                table.tokens[1],
            )
            turn += 1
            grpc_server.call(
                "SubmitMove",
                pb.SubmitMoveRequest(
                    game_id=table.game_id,
                    command_id=f"s1-{leg}-{turn}",
                    move=other.moves[0],
                ),
                table.tokens[1],
            )
    assert seen == list(range(1, len(seen) + 1)) and len(seen) > 6


def test_a_refused_move_is_answered_in_the_stream_which_goes_on(
    grpc_server: Any,
) -> None:
    table = thalara(grpc_server)
    client = SeatSessionClient(grpc_server.channel, table.game_id, table.tokens[0])
    try:
        page = first_page(client)
        ref = client.move(page.moves[0], command_id="x", expected_version=999)
        refused = until(client, "refused")[-1]
        assert refused.ref == ref
        assert refused.refused.code == grpc.StatusCode.ABORTED.value[0]
        garbage = pb.GetGameRequest(game_id="not a move")
        packed = page.moves[0].__class__()
        packed.Pack(garbage)
        ref = client.move(packed)
        refused = until(client, "refused")[-1]
        assert refused.ref == ref
        assert refused.refused.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        assert info_of(refused.refused).reason == "MALFORMED"
        ref = client.send(
            spb.PlayRequest(draw=spb.DrawAnswer(action=spb.DRAW_ACTION_ACCEPT))
        )
        refused = until(client, "refused")[-1]
        assert refused.ref == ref
        assert refused.refused.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
        assert info_of(refused.refused).reason == "ILLEGAL_MOVE"
        # the session goes on: the same move, now without the wrong version
        client.move(page.moves[0], command_id="x")
        accepted = until(client, "accepted")[-1].accepted
        assert accepted.last_version > page.version and not accepted.replayed
    finally:
        client.close()


def opening_refusal(server: Any, game_id: str, token: str | None, **kw: Any) -> Any:
    client = SeatSessionClient(server.channel, game_id, token, **kw)
    with pytest.raises(grpc.RpcError) as refused:
        until(client, "moves")
    client.close()
    return refused.value.code()


def test_only_a_seat_of_the_game_opens_a_session(grpc_server: Any) -> None:
    table, other = thalara(grpc_server), thalara(grpc_server)
    gid = table.game_id
    assert opening_refusal(grpc_server, gid, None) is grpc.StatusCode.UNAUTHENTICATED
    assert (
        opening_refusal(grpc_server, gid, "forged") is grpc.StatusCode.UNAUTHENTICATED
    )
    admin = grpc_server.admin_token
    assert opening_refusal(grpc_server, gid, admin) is grpc.StatusCode.PERMISSION_DENIED
    assert (
        opening_refusal(grpc_server, gid, other.tokens[0])
        is grpc.StatusCode.PERMISSION_DENIED
    )
    assert (
        opening_refusal(grpc_server, gid, table.tokens[0], seat=1)
        is grpc.StatusCode.PERMISSION_DENIED
    )
    assert (
        opening_refusal(grpc_server, str(uuid.uuid4()), table.tokens[0])
        is grpc.StatusCode.NOT_FOUND
    )
    assert (
        opening_refusal(grpc_server, gid, table.tokens[0], after_version=-1)
        is grpc.StatusCode.INVALID_ARGUMENT
    )


def test_the_filter_finds_every_hand_holding_all_the_cards_server_side(
    grpc_server: Any,
) -> None:
    from domain.games import find_game
    from services.api.client import legal_moves
    from services.proto import convert

    thalara_rules = find_game("thalara")

    def hand(packed: Any) -> tuple[str, ...]:
        command: Any = convert.command_from_any(thalara_rules, packed)
        return tuple(command.cards)

    table = thalara(grpc_server)
    client = SeatSessionClient(
        grpc_server.channel, table.game_id, table.tokens[0], page_size=1000
    )
    try:
        page = first_page(client)
        every = legal_moves(grpc_server, table, 0, limit=200_000)
        assert page.total_size == len(every) > 10_000
        cards = hand(every[0])
        wanted = f"{cards[1].split('@')[0].upper()} {cards[3]}"  # case-blind
        holding = [
            m.SerializeToString() for m in every if {cards[1], cards[3]} <= set(hand(m))
        ]
        found: list[bytes] = []
        client.query(filter=wanted, page_size=500)
        while True:
            got = until(client, "moves")[-1].moves
            assert got.total_size == len(holding) and got.filter == wanted
            found += [m.SerializeToString() for m in got.moves]
            if not got.next_page_token:
                break
            client.query(page_token=got.next_page_token)
        assert found == holding
        client.query(page_token="forged.token")
        refused = until(client, "refused")[-1].refused
        assert refused.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    finally:
        client.close()


def test_submit_move_answers_the_next_page_on_request(grpc_server: Any) -> None:
    game_type, setup = examples("vaalbara-2p")[0]
    table = create(grpc_server, game_type, **setup)
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game
    seat = head.to_act[0]
    listed = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, page_size=1),
        table.tokens[seat],
    )
    with pytest.raises(grpc.RpcError) as refused:
        grpc_server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id="big",
                move=listed.moves[0],
                next_moves_page_size=5000,
            ),
            table.tokens[seat],
        )
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    answer = grpc_server.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id,
            command_id="one",
            move=listed.moves[0],
            next_moves_page_size=2,
        ),
        table.tokens[seat],
    )
    assert answer.first_version == head.version + 1  # the refusal stored nothing
    after = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[seat]
    ).game
    if seat in after.to_act:
        nxt = answer.next_legal_moves
        assert nxt.version == after.version and nxt.seat == seat
        unary = grpc_server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=table.game_id, page_size=2),
            table.tokens[seat],
        )
        assert list(nxt.moves) == list(unary.moves)
        assert nxt.total_size == unary.total_size
    else:
        assert not answer.HasField("next_legal_moves")
