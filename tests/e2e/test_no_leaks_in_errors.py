"""No leaks through errors or ListLegalMoves, over the real gRPC server.

A player may probe the server with moves that name cards they cannot see.  The
answer must not depend on where a hidden card is: a card in an opponent's hand
and one in the opponent's supply (Thalara) or deck (Terralore) get the very
same status, message and details, which never list an opponent's hidden cards.
And a player cannot list the legal moves of a seat they do not hold.
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domain.games import find_game
from domain.games.terralore.commands import Lane, PlaceCards, Play
from domain.games.thalara.commands import PlayCard
from ledger.v1 import game_service_pb2 as pb
from services.proto import convert
from tests.e2e.client import Table, create, legal_moves, thalara_in_play

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
TERRALORE = find_game("terralore")
GAMES = [
    ("thalara", {"players": 3, "characters": ["myrja", "canto", "accaina"]}),
    ("terralore", {"players": 2}),
    ("vaalbara", {"players": 3}),
    ("thorgal", {"players": 2}),
]


def refusal(call: Any) -> tuple[grpc.StatusCode, str, list[bytes], dict[str, str]]:
    """(code, message, serialized details, ErrorInfo metadata + reason) of a refused call."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    status = rpc_status.from_call(caught.value)
    assert status is not None
    info: dict[str, str] = {}
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            parsed = error_details_pb2.ErrorInfo()
            detail.Unpack(parsed)
            info = dict(parsed.metadata) | {"reason": parsed.reason}
    return (
        caught.value.code(),
        status.message,
        [d.SerializeToString() for d in status.details],
        info,
    )


def mentions(refused: tuple[Any, str, list[bytes], Any], secrets: set[str]) -> set[str]:
    """The secret strings that appear anywhere in a refusal's message or details."""
    text = refused[1].encode() + b"".join(refused[2])
    return {s for s in secrets if s.encode() in text}


def submit(server: Any, table: Table, seat: int, ruleset: Any, command: Any) -> Any:
    request = pb.SubmitMoveRequest(
        game_id=table.game_id,
        command_id=str(uuid.uuid4()),
        move=convert.command_to_any(ruleset, command),
    )
    return lambda: server.call("SubmitMove", request, table.tokens[seat])


def version(server: Any, table: Table) -> int:
    return server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game.version


# ------------------------------------------------------------------ ListLegalMoves


@pytest.mark.parametrize("game_type,setup", GAMES, ids=[g for g, _ in GAMES])
def test_listing_the_moves_of_a_seat_you_do_not_hold_is_permission_denied(
    grpc_server, game_type, setup
):
    table = create(grpc_server, game_type, **setup)
    seats = sorted(table.tokens)
    to_act = set(
        grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id)
        ).game.to_act
    )
    mine = min(to_act)  # a seat that must act (Thorgal's first player is drawn)
    token = table.tokens[mine]
    others = [s for s in seats if s != mine]

    def listing(seat: int, tok: str | None = token, page: str = "") -> Any:
        request = pb.ListLegalMovesRequest(
            game_id=table.game_id, seat=seat, page_token=page
        )
        return lambda: grpc_server.call("ListLegalMoves", request, tok)

    nowhere = refusal(listing(99))
    assert nowhere[0] == grpc.StatusCode.PERMISSION_DENIED
    for seat in others:
        refused = refusal(listing(seat))
        assert refused[0] == grpc.StatusCode.PERMISSION_DENIED
        assert refused[3]["reason"] == "PERMISSION_DENIED"
        # the answer is the same whether or not the seat exists or must act now
        assert refused[1] == nowhere[1].replace("99", str(seat))
        assert refused[3] == nowhere[3]
        # and carries none of that seat's moves (what the admin may list for it)
        theirs = grpc_server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=table.game_id, seat=seat, page_size=50),
            grpc_server.admin_token,
        )
        assert bool(theirs.moves) == (seat in to_act)
        for move in theirs.moves:
            assert move.value not in refused[1].encode() + b"".join(refused[2])

    # a page token of my own listing does not open another seat's list
    own = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, seat=mine, page_size=1),
        token,
    )
    # every game opens with more than one move for a seat that must act: a 2nd page
    assert own.next_page_token
    assert (
        refusal(listing(others[0], page=own.next_page_token))[0]
        == grpc.StatusCode.PERMISSION_DENIED
    )
    # another game's token, and no token at all
    elsewhere = create(grpc_server, game_type, **setup)
    assert (
        refusal(listing(mine, elsewhere.tokens[mine]))[0]
        == grpc.StatusCode.PERMISSION_DENIED
    )
    assert refusal(listing(mine, None))[0] == grpc.StatusCode.UNAUTHENTICATED


def test_listed_thalara_moves_name_only_the_players_own_hand_and_public_cards(
    grpc_server, ledger
):
    table = thalara_in_play(grpc_server)
    state = ledger.load(uuid.UUID(table.game_id)).state
    seat = state.current
    hidden = set(state.players[1 - seat].hand) | set(state.players[1 - seat].supply)
    played = {p.card for c in state.conflicts for p in c.plays}
    moves = [
        convert.command_from_any(THALARA, m)
        for m in legal_moves(grpc_server, table, seat)
    ]
    plays = [m for m in moves if isinstance(m, PlayCard)]
    assert plays and {m.card for m in plays} <= set(state.players[seat].hand)
    targets = {
        m.spell.target
        for m in plays
        if m.spell is not None and m.spell.target is not None
    }
    assert targets <= played | {m.card for m in plays}
    assert not {m.card for m in plays} & hidden


# ------------------------------------------------------------------ illegal moves


def test_playing_a_card_from_an_opponents_hand_reveals_nothing_about_that_hand(
    grpc_server, ledger
):
    table = thalara_in_play(grpc_server)
    state = ledger.load(uuid.UUID(table.game_id)).state
    assert state.phase == "play"
    me, them = state.current, 1 - state.current
    opponent = state.players[them]
    assert opponent.hand and opponent.supply
    hidden = set(opponent.hand) | set(opponent.supply)
    conflict = state.conflicts[0].artifact
    before = version(grpc_server, table)

    probes = {
        "their hand": opponent.hand[0],
        "their supply": opponent.supply[0],
        "my supply": state.players[me].supply[0],
    }
    answers = {
        where: refusal(
            submit(
                grpc_server, table, me, THALARA, PlayCard(card=card, conflict=conflict)
            )
        )
        for where, card in probes.items()
    }
    hand_answer = answers["their hand"]
    assert hand_answer[0] == grpc.StatusCode.FAILED_PRECONDITION
    assert hand_answer[3] == {
        "rule": "thalara.card-not-in-hand",
        "reason": "ILLEGAL_MOVE",
    }
    # in their hand or in their supply: the server says exactly the same thing
    assert answers["their hand"] == answers["their supply"] == answers["my supply"]
    for answer in answers.values():
        assert not mentions(answer, hidden)
    assert version(grpc_server, table) == before


def test_placing_an_opponents_terralore_card_reveals_neither_their_hand_nor_their_deck(
    grpc_server, ledger
):
    table = create(grpc_server, "terralore", players=2)
    state = ledger.load(uuid.UUID(table.game_id)).state
    assert state.phase == "play"
    opponent = state.players[1]
    hidden = set(opponent.hand) | set(opponent.deck)
    before = version(grpc_server, table)
    answers = [
        refusal(
            submit(
                grpc_server,
                table,
                0,
                TERRALORE,
                PlaceCards(
                    plays=(Play(card=card, lane=Lane.DEFENDING),),
                    discards=(),
                    destroys=(),
                ),
            )
        )
        for card in (opponent.hand[0], opponent.deck[0])
    ]
    assert answers[0][0] == grpc.StatusCode.FAILED_PRECONDITION
    assert answers[0][3] == {"rule": "terralore.not-in-hand", "reason": "ILLEGAL_MOVE"}
    assert answers[0] == answers[1]
    assert not mentions(answers[0], hidden)
    assert version(grpc_server, table) == before
