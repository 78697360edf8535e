"""A rule-blind gRPC client: plays any game using only ListLegalMoves and SubmitMove.

This is the API's promise made executable: a bot, the load generator, a
fuzzer or a client in another language needs no game rules, only the typed
moves the server lists.  ``ledger demo`` and the end-to-end tests use it.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import any_pb2

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.proto import convert


@dataclass
class Connection:
    channel: grpc.Channel
    stub: pb_grpc.GameServiceStub

    @classmethod
    def open(
        cls,
        target: str,
        credentials: grpc.ChannelCredentials | None = None,
        options: list[tuple[str, Any]] | None = None,
    ) -> Connection:
        """A connection to ``target``: TLS with ``credentials``, else plaintext."""
        channel = (
            grpc.secure_channel(target, credentials, options)
            if credentials is not None
            else grpc.insecure_channel(target, options)
        )
        return cls(channel, pb_grpc.GameServiceStub(channel))

    def call(
        self,
        method: str,
        request: Any,
        token: str | None = None,
        timeout: float = 30,
        **kw: Any,
    ) -> Any:
        metadata = (("authorization", f"Bearer {token}"),) if token else None
        return getattr(self.stub, method)(
            request, metadata=metadata, timeout=timeout, **kw
        )


@dataclass
class Table:
    game_id: str
    tokens: dict[int, str]  # seat -> token
    created: pb.CreateGameResponse | None  # None: a tournament round dealt it
    moves: int = 0
    log: list[str] = field(default_factory=list)


def create(
    conn: Connection,
    game_type: str,
    token: str | None = None,
    entropy: tuple[str, ...] = (),
    player_ids: tuple[str, ...] = (),
    **setup: Any,
) -> Table:
    """Create a game; the setup is built from the game's own setup message."""
    ruleset = find_game(game_type)
    request = pb.CreateGameRequest(
        game_type=game_type,
        setup=convert.model_to_any(ruleset, ruleset.setup_model(**setup)),
        entropy=list(entropy),
        player_ids=list(player_ids),
    )
    response = conn.call("CreateGame", request, token)
    tokens = {seat: t.token for t in response.tokens for seat in t.seats}
    return Table(response.game.game_id, tokens, response)


def legal_moves(
    conn: Connection, table: Table, seat: int, limit: int = 600
) -> list[any_pb2.Any]:
    moves: list[any_pb2.Any] = []
    page = ""
    while len(moves) < limit:
        listed = conn.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(
                game_id=table.game_id, seat=seat, page_size=200, page_token=page
            ),
            table.tokens[seat],
        )
        moves.extend(listed.moves)
        page = listed.next_page_token
        if not page:
            break
    return moves


def play_one(
    conn: Connection, table: Table, rnd: random.Random
) -> pb.SubmitMoveResponse | None:
    """Submit one random legal move for a random seat that must act; None when over."""
    # with a seat's token: a spectator may watch a delayed game some moves behind
    any_seat = table.tokens[min(table.tokens)]
    game = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id), any_seat).game
    if game.status == "ended":
        return None
    seat = rnd.choice(list(game.to_act))
    moves = legal_moves(conn, table, seat)
    if not moves:
        raise AssertionError(f"seat {seat} must act but was offered no move")
    move = rnd.choice(moves)
    response = conn.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id, command_id=str(uuid.uuid4()), move=move, seat=seat
        ),
        table.tokens[seat],
    )
    table.moves += 1
    table.log.append(
        f"seat {seat}: {move.TypeName()} -> events {response.first_version}..{response.last_version}"
    )
    return response


def play_to_end(
    conn: Connection, table: Table, seed: int = 0, max_moves: int = 5000
) -> int:
    rnd = random.Random(seed)
    for count in range(max_moves):
        if play_one(conn, table, rnd) is None:
            return count
    raise AssertionError("game did not end")
