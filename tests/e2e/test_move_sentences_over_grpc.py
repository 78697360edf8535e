"""``ListLegalMoves(with_sentences)``: each move in the caller's words, from
that seat's own view, parallel to ``moves``; nothing for a caller who asks
for none, and no seat's words for a token that does not hold it."""

from __future__ import annotations

import grpc

from domain.games import find_game
from domain.words.move_words import move_sentence
from ledger.v1 import game_service_pb2 as pb
from services.proto import convert
from tests.e2e.client import create, refused, thalara_in_play

THALARA = find_game("thalara")


def _list(server, table, seat, **fields):
    return server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, seat=seat, **fields),
        table.tokens[seat],
    )


def _to_act(server, table):
    got = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), server.admin_token
    )
    return got.game.to_act[0]


def _view(server, table, seat):
    got = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[seat]
    )
    return convert.model_from_any(THALARA, got.view, THALARA.view_model)


def test_sentences_come_only_when_asked_and_parallel_to_the_moves(grpc_server):
    table = thalara_in_play(grpc_server)
    seat = _to_act(grpc_server, table)
    plain = _list(grpc_server, table, seat, page_size=50)
    assert plain.moves and not plain.sentences
    worded = _list(grpc_server, table, seat, page_size=50, with_sentences=True)
    assert len(worded.sentences) == len(worded.moves) == len(plain.moves)
    view = _view(grpc_server, table, seat)
    for move, sentence in zip(worded.moves, worded.sentences):
        command = convert.command_from_any(THALARA, move)
        assert sentence == move_sentence(THALARA, command, seat, view, {})
        assert "(card " not in sentence and "seat 0" not in sentence
    sampled = _list(grpc_server, table, seat, sample=3, with_sentences=True)
    assert len(sampled.sentences) == len(sampled.moves) == 3


def test_the_words_are_the_players_own_and_name_only_what_they_may_see(grpc_server):
    table = create(
        grpc_server,
        "thalara",
        players=2,
        characters=["myrja", "canto"],
        player_ids=("rita", "sam"),
    )
    for seat in (0, 1):
        got = _list(grpc_server, table, seat, page_size=20, with_sentences=True)
        supply = _view(grpc_server, table, seat).players[seat].supply
        assert supply, "a seat sees its own supply"
        for move, sentence in zip(got.moves, got.sentences, strict=True):
            assert sentence.startswith("take ") and sentence.endswith("into your hand")
            cards = convert.command_from_any(THALARA, move).cards
            assert set(cards) <= set(supply)
            assert all(f"{c.partition('@')[0]} (strength" in sentence for c in cards)
            assert "@" not in sentence
    code, _, _ = refused(
        lambda: grpc_server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(
                game_id=table.game_id, seat=1, with_sentences=True
            ),
            table.tokens[0],
        )
    )
    assert code is grpc.StatusCode.PERMISSION_DENIED
    code, _, _ = refused(
        lambda: grpc_server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=table.game_id, with_sentences=True),
            None,
        )
    )
    assert code is grpc.StatusCode.UNAUTHENTICATED


def test_an_admin_reads_the_named_seat_s_words(grpc_server):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    seat = 1  # the hand selection: both seats choose at once
    got = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(
            game_id=table.game_id, seat=seat, page_size=10, with_sentences=True
        ),
        grpc_server.admin_token,
    )
    view = _view(grpc_server, table, seat)
    assert got.sentences
    for move, sentence in zip(got.moves, got.sentences, strict=True):
        command = convert.command_from_any(THALARA, move)
        assert sentence == move_sentence(THALARA, command, seat, view, {})
