"""Hypothesis fuzzer over every RPC of every service.

Each case sends one hostile request (random field values, hostile strings,
NUL bytes, invalid UTF-8, corrupt ``Any`` payloads, forged page and bearer
tokens, extreme sizes, or bytes that are no message at all) to an RPC drawn
from the service descriptors, and asserts:

* the status is one a client may be given (never INTERNAL or UNKNOWN);
* the call ends before its deadline (no hang; only a live stream that is
  legitimately waiting for the next event may still be open at its deadline);
* a rejected call stores no row in any table of events, commands, games,
  tokens or tournaments.

``LEDGER_FUZZ_CASES`` sets the number of cases (default 200, CI-sized; the
full run is 10000).  The status histogram is written to
``LEDGER_FUZZ_REPORT`` (default ``<pytest tmp>/fuzz-histogram.json``) and
printed.
"""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games import all_games, find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from services.proto import convert
from tests.e2e.client import create, legal_moves, play_to_end
from tests.fuzz.strategies import Context, metadata, request_body
from tests.support.database import ledger_for
from tests.support.examples import every_example, examples
from tests.support.rpcs import Method, all_methods

pytestmark = pytest.mark.e2e

CASES = int(os.environ.get("LEDGER_FUZZ_CASES", "200"))
ALLOWED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.ALREADY_EXISTS,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNAVAILABLE,
}
LIVE_STREAMS = {
    "/ledger.v1.GameService/StreamGameEvents",
    "/ledger.v1.TournamentService/StreamStandings",
    "/grpc.health.v1.Health/Watch",
    "/ledger.v1.SeatSessionService/Play",
}
"""Streams that follow live changes: open at their deadline is waiting, not hung."""
UNARY_DEADLINE = 20.0
STREAM_DEADLINE = 10.0
LIVE_DEADLINE = 1.0
"""A live stream has answered or refused well within this if it ever will."""
STREAM_READS = 3
STORED = (
    "ledger_events",
    "ledger_commands",
    "ledger_games",
    "ledger_seat_tokens",
    "ledger_game_secrets",
    "ledger_snapshots",
    "tournaments_events",
    "tournament_tokens",
    "tournament_games",
    "tournament_seat_tokens",
    "organiser_tokens",
)
"""Every table a request can write to (views are written by the projector)."""
METHODS = all_methods()
ROLES = {
    "/ledger.v1.GameService/SubmitMove": "seat 0",
    "/ledger.v1.GameService/ListLegalMoves": "seat 0",
    "/ledger.v1.SeatSessionService/Play": "seat 0",
    "/ledger.v1.ReplayService/ExportGame": "admin",
    "/ledger.v1.GameService/Adjudicate": "admin",
    "/ledger.v1.GameService/Abort": "admin",
    "/ledger.v1.GameService/OfferDraw": "finished seat",
    "/ledger.v1.GameService/AcceptDraw": "finished seat",
    "/ledger.v1.GameService/DeclineDraw": "finished seat",
    "/ledger.v1.ArbiterService/AddTime": "admin",
    "/ledger.v1.ArbiterService/PauseGame": "admin",
    "/ledger.v1.ArbiterService/ResumeGame": "admin",
    "/ledger.v1.ArbiterService/PauseRound": "tournament organiser",
    "/ledger.v1.ArbiterService/ResumeRound": "tournament organiser",
    "/ledger.v1.TournamentService/CreateTournament": "organiser",
    "/ledger.v1.TournamentService/IssueOrganiserToken": "admin",
    "/ledger.v1.TournamentService/RegisterPlayer": "tournament organiser",
    "/ledger.v1.TournamentService/WithdrawPlayer": "tournament organiser",
    "/ledger.v1.TournamentService/StartRound": "tournament organiser",
    "/ledger.v1.TournamentService/FinishTournament": "tournament organiser",
    "/ledger.v1.TournamentService/ReplayAbortedGame": "tournament organiser",
    "/ledger.v1.TournamentService/GetMyGames": "tournament player",
}
"""The token a valid request of the "mutant" mode needs, used half the time."""


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@pytest.fixture(scope="module", name="settings")
def own_settings(quiet_settings: Any) -> Any:
    """A database of this module's own: the first call asking for the log's
    head waits for the views to apply it, and on the session's database
    that is every earlier module's backlog, longer than a call's deadline."""
    return quiet_settings


@pytest.fixture(scope="module")
def ledger(quiet_settings: Any) -> Any:
    with ledger_for(quiet_settings) as app:
        yield app


@pytest.fixture(scope="module")
def context(grpc_server: Any) -> Context:
    """A running and a finished game, a tournament, and every kind of token."""
    admin = grpc_server.admin_token
    game_type, setup = examples("thalara-2p")[0]
    running = create(grpc_server, game_type, **setup)
    game_type, setup = examples("vaalbara-2p")[0]
    finished = create(grpc_server, game_type, **setup)
    play_to_end(grpc_server, finished, seed=1)
    tournaments = trpc.TournamentServiceStub(grpc_server.channel)
    organiser = tournaments.IssueOrganiserToken(
        tpb.IssueOrganiserTokenRequest(label="fuzz"), metadata=bearer(admin)
    ).organiser_token
    cup = tournaments.CreateTournament(
        tpb.CreateTournamentRequest(
            name="fuzz cup", game_type="terralore", format="swiss", rounds=2
        ),
        metadata=bearer(organiser),
    )
    tid = cup.tournament.tournament_id
    players = [f"fuzz-{n}" for n in range(2)]
    player_tokens = [
        tournaments.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=p),
            metadata=bearer(cup.organiser_token),
        ).player_token
        for p in players
    ]
    page = grpc_server.stub.ListGames(pb.ListGamesRequest(page_size=1))
    moves = legal_moves(grpc_server, running, 0, limit=20)
    setups = [  # every declared example: valid templates the fuzzer mutates
        convert.model_to_any(
            find_game(game_type), find_game(game_type).setup_model.model_validate(setup)
        )
        for game_type, setup in every_example()
    ]
    ctx = Context(
        game_ids=[running.game_id, finished.game_id, str(uuid.uuid4()), "nope"],
        tournament_ids=[tid, str(uuid.uuid4())],
        player_ids=players,
        game_types=[g.name for g in all_games()],
        page_tokens=[page.next_page_token],
        moves=moves,
        setups=setups,
        bearer_tokens={
            "admin": admin,
            "seat 0": running.tokens[0],
            "seat 1": running.tokens[1],
            "finished seat": finished.tokens[0],
            "organiser": organiser,
            "tournament organiser": cup.organiser_token,
            "tournament player": player_tokens[0],
        },
    )
    ctx.templates = templates(running.game_id, finished.game_id, tid, ctx)
    return ctx


def templates(running: str, finished: str, tid: str, ctx: Context) -> dict[str, Any]:
    """Valid requests per RPC, for the fuzzer's "mutant" mode."""
    from grpc_health.v1 import health_pb2
    from grpc_reflection.v1alpha import reflection_pb2

    from ledger.v1 import arbiter_service_pb2 as apb
    from ledger.v1 import checkpoint_service_pb2 as cpb
    from ledger.v1 import read_service_pb2 as rpb
    from ledger.v1 import session_service_pb2 as spb

    arbiter = "/ledger.v1.ArbiterService/"
    checkpoints = "/ledger.v1.CheckpointService/"
    game, replay, rating, stats, cups = (
        "/ledger.v1.GameService/",
        "/ledger.v1.ReplayService/",
        "/ledger.v1.RatingService/",
        "/ledger.v1.StatsService/",
        "/ledger.v1.TournamentService/",
    )
    games = [running, finished]
    found: dict[str, list[Any]] = {
        game + "CreateGame": [
            pb.CreateGameRequest(game_type=s.type_url.split(".")[-2], setup=s)
            for s in ctx.setups
        ],
        game + "SubmitMove": [
            pb.SubmitMoveRequest(game_id=running, command_id=str(n), move=m)
            for n, m in enumerate(ctx.moves)
        ],
        game + "GetGame": [pb.GetGameRequest(game_id=g, at_version=2) for g in games],
        game + "ListLegalMoves": [
            pb.ListLegalMovesRequest(game_id=running, seat=0, page_size=3)
        ],
        game + "StreamGameEvents": [
            pb.StreamGameEventsRequest(game_id=g, stop_at_head=True) for g in games
        ],
        game + "ListGames": [pb.ListGamesRequest(page_size=2)],
        # the endings on the finished game: a valid request cannot end the
        # running game the other seeds need
        game + "Resign": [pb.ResignRequest(game_id=finished)],
        game + "Abort": [pb.AbortRequest(game_id=finished, reason="fuzz")],
        game + "Adjudicate": [
            pb.AdjudicateRequest(game_id=finished, ranks=[1, 2], reason="fuzz")
        ],
        game + "ClaimTimeout": [pb.ClaimTimeoutRequest(game_id=finished)],
        # the controls likewise: a pause of the running game would hold it
        game + "OfferDraw": [pb.OfferDrawRequest(game_id=finished)],
        game + "AcceptDraw": [pb.AcceptDrawRequest(game_id=finished)],
        game + "DeclineDraw": [pb.DeclineDrawRequest(game_id=finished)],
        arbiter + "AddTime": [
            apb.AddTimeRequest(game_id=finished, seat=0, added_ms=1_000)
        ],
        arbiter + "PauseGame": [apb.PauseGameRequest(game_id=finished)],
        arbiter + "ResumeGame": [apb.ResumeGameRequest(game_id=finished)],
        arbiter + "PauseRound": [apb.PauseRoundRequest(tournament_id=tid)],
        arbiter + "ResumeRound": [apb.ResumeRoundRequest(tournament_id=tid)],
        replay + "ListFrames": [
            rpb.ListFramesRequest(game_id=g, page_size=3) for g in games
        ],
        replay + "StreamReplay": [rpb.StreamReplayRequest(game_id=finished)],
        replay + "ExportGame": [rpb.ExportGameRequest(game_id=finished)],
        rating + "GetLeaderboard": [rpb.GetLeaderboardRequest(game_type="vaalbara")],
        rating + "GetRatingHistory": [
            rpb.GetRatingHistoryRequest(game_type="vaalbara", player_id="fuzz-0")
        ],
        stats + "GetGameTypeStats": [rpb.GetGameTypeStatsRequest(game_type="vaalbara")],
        stats + "GetFacetStats": [
            rpb.GetFacetStatsRequest(game_type="vaalbara", key="clan", page_size=2)
        ],
        stats + "GetPlayerHistory": [rpb.GetPlayerHistoryRequest(player_id="fuzz-0")],
        stats + "GetFairness": [rpb.GetFairnessRequest(game_type="vaalbara")],
        cups + "CreateTournament": [
            tpb.CreateTournamentRequest(
                name="cup", game_type="terralore", format="swiss", rounds=2
            )
        ],
        cups + "IssueOrganiserToken": [tpb.IssueOrganiserTokenRequest(label="club")],
        cups + "RegisterPlayer": [
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id="fuzz-9")
        ],
        cups + "WithdrawPlayer": [
            tpb.WithdrawPlayerRequest(tournament_id=tid, player_id="fuzz-1")
        ],
        cups + "StartRound": [tpb.StartRoundRequest(tournament_id=tid)],
        cups + "FinishTournament": [tpb.FinishTournamentRequest(tournament_id=tid)],
        cups + "ReplayAbortedGame": [
            tpb.ReplayAbortedGameRequest(tournament_id=tid, game_id=str(uuid.uuid4()))
        ],
        cups + "GetTournament": [tpb.GetTournamentRequest(tournament_id=tid)],
        cups + "ListRounds": [tpb.ListRoundsRequest(tournament_id=tid)],
        cups + "GetPairings": [tpb.GetPairingsRequest(tournament_id=tid, round=1)],
        cups + "GetStandings": [tpb.GetStandingsRequest(tournament_id=tid)],
        cups + "StreamStandings": [tpb.GetStandingsRequest(tournament_id=tid)],
        cups + "GetMyGames": [tpb.GetMyGamesRequest(tournament_id=tid)],
        "/ledger.v1.SeatSessionService/Play": [
            spb.PlayRequest(open=spb.OpenSession(game_id=g, page_size=3)) for g in games
        ],
        checkpoints + "GetCheckpoint": [cpb.GetCheckpointRequest()],
        checkpoints + "GetInclusionProof": [
            cpb.GetInclusionProofRequest(game_id=g) for g in games
        ],
        checkpoints + "GetConsistencyProof": [
            cpb.GetConsistencyProofRequest(prior_size=1)
        ],
        "/grpc.health.v1.Health/Check": [health_pb2.HealthCheckRequest()],
        "/grpc.health.v1.Health/Watch": [health_pb2.HealthCheckRequest()],
        "/grpc.health.v1.Health/List": [health_pb2.HealthListRequest()],
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": [
            reflection_pb2.ServerReflectionRequest(list_services="")
        ],
    }
    return found


def stored_rows(conn: psycopg.Connection[Any]) -> tuple[int, ...]:
    query = "SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in STORED)
    row = conn.execute(query).fetchone()
    assert row is not None
    return tuple(row)


NOT_VISIBLE = "VERSION_NOT_VISIBLE"
"""``ErrorInfo.reason`` of a read whose ``min_version`` was not reached in time
(``services.ledger.reading.min_version``): its code is ``DEADLINE_EXCEEDED`` by design."""


def _reason(exc: grpc.RpcError) -> str | None:
    """The ``google.rpc.ErrorInfo`` reason the server sent, if any (a deadline
    the client's own channel enforced carries none)."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(exc)
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return str(info.reason)
    return None


def send(
    channel: grpc.Channel, method: Method, body: bytes, meta: Any
) -> tuple[str, grpc.StatusCode | None]:
    """(outcome, code): code None means a live stream was still open at its
    deadline, or a read's ``min_version`` was not reached (:data:`NOT_VISIBLE`)."""
    deadline = LIVE_DEADLINE if method.path in LIVE_STREAMS else STREAM_DEADLINE
    try:
        if method.client_streaming:
            call: grpc.StreamStreamMultiCallable[bytes, bytes]
            call = channel.stream_stream(method.path)
            responses = call(iter([body]), timeout=deadline, metadata=meta)
            for count, _ in enumerate(responses, start=1):
                if count >= STREAM_READS:
                    responses.cancel()
                    return "OK", grpc.StatusCode.OK
        elif method.server_streaming:
            reader: grpc.UnaryStreamMultiCallable[bytes, bytes]
            reader = channel.unary_stream(method.path)
            responses = reader(body, timeout=deadline, metadata=meta)
            for count, _ in enumerate(responses, start=1):
                if count >= STREAM_READS:
                    responses.cancel()
                    return "OK", grpc.StatusCode.OK
        else:
            unary: grpc.UnaryUnaryMultiCallable[bytes, bytes]
            unary = channel.unary_unary(method.path)
            unary(body, timeout=UNARY_DEADLINE, metadata=meta)
    except grpc.RpcError as exc:
        code = exc.code()
        if code is grpc.StatusCode.CANCELLED:
            return "OK", grpc.StatusCode.OK
        if code is grpc.StatusCode.DEADLINE_EXCEEDED and method.path in LIVE_STREAMS:
            return "LIVE_STREAM_OPEN_AT_DEADLINE", None
        if code is grpc.StatusCode.DEADLINE_EXCEEDED and _reason(exc) == NOT_VISIBLE:
            # the server's own answer, well before this call's deadline: a read
            # waited its longest for a min_version the game has not reached
            return NOT_VISIBLE, None
        return code.name, code
    return "OK", grpc.StatusCode.OK


def test_no_request_gets_internal_unknown_a_hang_or_a_stored_row(
    grpc_server: Any, context: Context, quiet_settings: Any, tmp_path: Path
) -> None:
    channel = grpc.insecure_channel(
        f"127.0.0.1:{grpc_server.port}",
        options=[("grpc.use_local_subchannel_pool", 1)],
    )
    histogram: Counter[str] = Counter()
    by_method: dict[str, Counter[str]] = {}
    conn = psycopg.connect(quiet_settings.database_url, autocommit=True)

    @settings(
        max_examples=CASES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def case(data: Any) -> None:
        method = data.draw(st.sampled_from(METHODS), label="method")
        mode, body = request_body(context, method, data)
        role = ROLES.get(method.path)
        if mode == "mutant" and role and data.draw(st.booleans(), label="own token"):
            meta = bearer(context.bearer_tokens[role])
        else:
            meta = data.draw(metadata(context), label="metadata")
        before = stored_rows(conn)
        outcome, code = send(channel, method, body, meta)
        histogram[outcome] += 1
        by_method.setdefault(method.path, Counter())[outcome] += 1
        if code is None:
            return
        assert code in ALLOWED, f"{method.path} ({mode}) answered {code.name}"
        if code is not grpc.StatusCode.OK:
            assert stored_rows(conn) == before, f"{method.path} refused yet stored"

    try:
        case()
    finally:
        conn.close()
        channel.close()
        report = Path(os.environ.get("LEDGER_FUZZ_REPORT", tmp_path / "fuzz.json"))
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(
            json.dumps(
                {
                    "cases": sum(histogram.values()),
                    "rpcs": len(METHODS),
                    "statuses": dict(histogram.most_common()),
                    "by_rpc": {k: dict(v) for k, v in sorted(by_method.items())},
                },
                indent=2,
            )
        )
        print(f"\nfuzz status histogram ({report}):\n{report.read_text()}")


def test_a_read_waiting_for_an_unreached_version_is_an_answer_not_a_hang(
    grpc_server: Any, context: Context
) -> None:
    """What the fuzzer draws often (a ``min_version`` past the game's head)
    gets the server's documented ``VERSION_NOT_VISIBLE``, which :func:`send`
    tells apart from a call that outlived its deadline."""
    channel = grpc.insecure_channel(f"127.0.0.1:{grpc_server.port}")
    try:
        body = pb.GetGameRequest(game_id=context.game_ids[1], min_version=1000)
        meta = bearer(context.bearer_tokens["admin"])
        method = next(m for m in all_methods() if m.path.endswith("/GetGame"))
        assert send(channel, method, body.SerializeToString(), meta) == (
            NOT_VISIBLE,
            None,
        )
    finally:
        channel.close()


PLAY = "/ledger.v1.SeatSessionService/Play"
SENTINEL = "fuzz-sentinel"
"""A message with no kind, sent after the hostile one: its refusal, echoing
this ref, marks that every answer to the hostile message has arrived."""


def test_hostile_messages_inside_a_seat_session_are_answered_in_it(
    grpc_server: Any, context: Context, quiet_settings: Any
) -> None:
    """After a valid ``open``, any further message (random fields, corrupt
    moves, forged page tokens, bytes that are no message) is answered in the
    stream by an allowed status, or ends the stream with one (undecodable
    bytes); what it refused stored nothing.  Each case plays a game of its
    own: a valid resignation ends it."""
    from google.rpc import code_pb2

    from ledger.v1 import session_service_pb2 as spb

    (method,) = [m for m in METHODS if m.path == PLAY]
    game_type, setup = examples("thalara-2p")[0]
    sentinel = spb.PlayRequest(ref=SENTINEL).SerializeToString()
    allowed = {getattr(code_pb2, c.name) for c in ALLOWED}
    channel = grpc.insecure_channel(f"127.0.0.1:{grpc_server.port}")
    conn = psycopg.connect(quiet_settings.database_url, autocommit=True)

    @settings(
        max_examples=max(CASES // 4, 25),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def case(data: Any) -> None:
        _, body = request_body(context, method, data)
        table = create(grpc_server, game_type, **setup)  # one a resignation may end
        opening = spb.PlayRequest(
            ref="open", open=spb.OpenSession(game_id=table.game_id, page_size=3)
        ).SerializeToString()
        before = stored_rows(conn)
        call: grpc.StreamStreamMultiCallable[bytes, bytes]
        call = channel.stream_stream(PLAY)
        responses = call(
            iter([opening, body, sentinel]),
            timeout=STREAM_DEADLINE,
            metadata=bearer(table.tokens[0]),
        )
        kinds: list[str] = []
        try:
            for raw in responses:
                answer = spb.PlayResponse.FromString(raw)
                kind = str(answer.WhichOneof("kind"))
                if kind == "refused":
                    assert answer.refused.code in allowed, answer.refused
                    if answer.ref == SENTINEL:
                        break
                kinds.append(kind)
        except grpc.RpcError as exc:
            assert exc.code() in ALLOWED, exc.code()
        finally:
            responses.cancel()
        if "accepted" not in kinds and "control" not in kinds:
            assert stored_rows(conn) == before, f"refused yet stored: {kinds} {body!r}"

    try:
        case()
    finally:
        conn.close()
        channel.close()
