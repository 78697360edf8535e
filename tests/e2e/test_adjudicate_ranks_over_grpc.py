"""``Adjudicate`` with ranks no tournament can take is refused at the call.

``[1, 1, 2]``, ``[1, 2, 1]`` and ``[1, 3, 3]`` are answered
``INVALID_ARGUMENT`` with a ``BadRequest`` violation of ``ranks`` that names
the rule (``outcome.competition-ranking``) and the ranking probably meant;
nothing is stored, and the same call with a competition ranking ends the game.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domain.contract.outcomes import RANKING_RULE
from ledger.v1 import game_service_pb2 as pb
from tests.e2e.client import create

pytestmark = pytest.mark.e2e


def test_ranks_a_tournament_cannot_take_are_refused_with_the_rule(
    grpc_server: Any,
) -> None:
    table = create(grpc_server, "thalara", players=3)

    def version() -> int:
        got = grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id), grpc_server.admin_token
        )
        assert got.game.status != "ended"
        return int(got.game.version)

    before = version()
    for ranks, meant in (
        ([1, 1, 2], "[1, 1, 3]"),
        ([1, 2, 1], "[1, 3, 1]"),
        ([1, 3, 3], "[1, 2, 2]"),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            grpc_server.call(
                "Adjudicate",
                pb.AdjudicateRequest(game_id=table.game_id, ranks=ranks, reason="r"),
                grpc_server.admin_token,
            )
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        status = rpc_status.from_call(caught.value)
        assert status is not None
        violations = []
        for detail in status.details:
            bad = error_details_pb2.BadRequest()
            if detail.Unpack(bad):
                violations += [(v.field, v.description) for v in bad.field_violations]
        ((field, text),) = violations
        assert field == "ranks" and RANKING_RULE in text and meant in text, text
        assert version() == before  # nothing stored

    ended = grpc_server.call(
        "Adjudicate",
        pb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 1, 3], reason="tied"),
        grpc_server.admin_token,
    )
    assert ended.game.status == "ended"
