"""Creating a tournament needs the admin token or an organiser credential."""

from __future__ import annotations

from typing import Any

import grpc
import psycopg
import pytest

from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc
from services.storage.recorder import hash_token
from tests.e2e.client import create

pytestmark = pytest.mark.e2e


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def new_tournament(stub: Any, token: str | None, name: str = "club night") -> Any:
    return stub.CreateTournament(
        pb.CreateTournamentRequest(
            name=name, game_type="terralore", format="swiss", rounds=2
        ),
        metadata=bearer(token) if token else None,
        timeout=10,
    )


def refused(call: Any) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value.code()


def tournaments(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT count(*) FROM tournaments_events").fetchone()
        assert row is not None
        return row[0]


def test_anyone_without_a_credential_is_refused_and_nothing_is_stored(
    grpc_server: Any, database_url: str
) -> None:
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    seat = create(grpc_server, "terralore", players=2).tokens[0]
    before = tournaments(database_url)
    assert (
        refused(lambda: new_tournament(stub, None)) is grpc.StatusCode.UNAUTHENTICATED
    )
    assert (
        refused(lambda: new_tournament(stub, seat)) is grpc.StatusCode.PERMISSION_DENIED
    )
    assert tournaments(database_url) == before


def test_the_admin_issues_organiser_tokens_that_may_create_tournaments(
    grpc_server: Any, database_url: str
) -> None:
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    issued = stub.IssueOrganiserToken(
        pb.IssueOrganiserTokenRequest(label="chess club"),
        metadata=bearer(grpc_server.admin_token),
        timeout=10,
    )
    assert issued.label == "chess club" and len(issued.organiser_token) >= 32
    created = new_tournament(stub, issued.organiser_token)
    assert created.tournament.name == "club night" and created.organiser_token
    with psycopg.connect(database_url) as conn:
        stored = conn.execute(
            "SELECT token_hash FROM organiser_tokens WHERE label = 'chess club'"
        ).fetchall()
    assert stored == [(hash_token(issued.organiser_token),)]


def test_only_the_admin_issues_organiser_tokens(grpc_server: Any) -> None:
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    request = pb.IssueOrganiserTokenRequest(label="me")
    organiser = stub.IssueOrganiserToken(
        request, metadata=bearer(grpc_server.admin_token), timeout=10
    ).organiser_token
    assert (
        refused(lambda: stub.IssueOrganiserToken(request, timeout=10))
        is grpc.StatusCode.UNAUTHENTICATED
    )
    assert (
        refused(
            lambda: stub.IssueOrganiserToken(
                request, metadata=bearer(organiser), timeout=10
            )
        )
        is grpc.StatusCode.PERMISSION_DENIED
    )


def test_a_tournament_name_is_bounded(grpc_server: Any, database_url: str) -> None:
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    before = tournaments(database_url)
    assert (
        refused(lambda: new_tournament(stub, grpc_server.admin_token, "n" * 4_000_000))
        is grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    assert (
        refused(lambda: new_tournament(stub, grpc_server.admin_token, "n" * 201))
        is grpc.StatusCode.INVALID_ARGUMENT
    )
    assert tournaments(database_url) == before
