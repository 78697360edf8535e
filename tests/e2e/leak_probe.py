"""What a spectator can read about the ledger, as bytes, for differential leak checks.

Shared by the §1 differential test and the leak matrix: ``spectator_answers``
asks every Stats and Rating RPC (and the replay of the watched game) with no
token and returns each answer serialized, so two calls can be compared byte
for byte.  ``SETUPS`` is one table of every game type and table shape the
leak tests walk (the issue names Thalara 2p, 4p and Casual Chaos, Vaalbara,
Terralore and Thorgal).
"""

from __future__ import annotations

import os
from typing import Any

import grpc
import pytest

from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rpc
from tests.support.examples import examples

SETUP_IDS = [
    "thalara-2p",
    "thalara-4p",
    "thalara-2p-casual-chaos",
    "vaalbara-3p",
    "terralore-2p",
    "thorgal-solo",
    "thorgal-3p",
]
SETUPS: list[tuple[str, dict[str, Any]]] = examples(*SETUP_IDS)
"""The games' own declared examples (``Ruleset.examples``), by name."""

MOVES = int(os.environ.get("LEDGER_LEAK_MOVES", "6"))
"""Moves walked per game in CI; set ``LEDGER_LEAK_MOVES=200`` for a full run."""


def log_head(ledger: Any) -> int:
    """The newest log position, for ``min_log_position`` (views wait for it)."""
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute("SELECT coalesce(max(notification_id), 0) AS n FROM ledger_events")
        return int(curs.fetchone()["n"])


class Reader:
    """Stubs of every read service on one channel."""

    def __init__(self, channel: Any) -> None:
        self.replay = rpc.ReplayServiceStub(channel)
        self.ratings = rpc.RatingServiceStub(channel)
        self.stats = rpc.StatsServiceStub(channel)


def frames(
    reader: Reader, game_id: str, token: str | None, upto: int | None = None
) -> list[Any]:
    """Every frame the caller may read, in order (all pages), up to ``upto``."""
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    out: list[Any] = []
    after = 0
    while True:
        page = reader.replay.ListFrames(
            rpb.ListFramesRequest(game_id=game_id, after_version=after, page_size=500),
            metadata=metadata,
        )
        out.extend(f for f in page.frames if upto is None or f.event.version <= upto)
        if not page.next_after_version:
            return out
        after = page.next_after_version


def spectator_answers(
    reader: Reader,
    game_type: str,
    player_ids: list[str],
    position: int,
    game_id: str | None = None,
    upto: int | None = None,
    token: str | None = None,
) -> dict[str, bytes]:
    """Every Stats/Rating answer about ``game_type`` and ``player_ids`` a
    spectator (or ``token``'s holder) gets once the views reach ``position``,
    plus the spectator's replay of ``game_id`` up to version ``upto``."""
    out: dict[str, bytes] = {}
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    stats = reader.stats.GetGameTypeStats(
        rpb.GetGameTypeStatsRequest(game_type=game_type, min_log_position=position),
        metadata=metadata,
    )
    out["GetGameTypeStats"] = stats.SerializeToString(deterministic=True)
    for key in stats.facet_keys:
        out[f"GetFacetStats:{key}"] = reader.stats.GetFacetStats(
            rpb.GetFacetStatsRequest(
                game_type=game_type, key=key, min_log_position=position
            ),
            metadata=metadata,
        ).SerializeToString(deterministic=True)
    out["GetFairness"] = reader.stats.GetFairness(
        rpb.GetFairnessRequest(game_type=game_type, min_log_position=position),
        metadata=metadata,
    ).SerializeToString(deterministic=True)
    out["GetLeaderboard"] = reader.ratings.GetLeaderboard(
        rpb.GetLeaderboardRequest(game_type=game_type, min_log_position=position),
        metadata=metadata,
    ).SerializeToString(deterministic=True)
    for player in player_ids:
        out[f"GetRatingHistory:{player}"] = reader.ratings.GetRatingHistory(
            rpb.GetRatingHistoryRequest(
                game_type=game_type, player_id=player, min_log_position=position
            ),
            metadata=metadata,
        ).SerializeToString(deterministic=True)
        out[f"GetPlayerHistory:{player}"] = reader.stats.GetPlayerHistory(
            rpb.GetPlayerHistoryRequest(player_id=player, min_log_position=position),
            metadata=metadata,
        ).SerializeToString(deterministic=True)
    if game_id is not None:
        out["ListFrames"] = b"".join(
            f.SerializeToString(deterministic=True)
            for f in frames(reader, game_id, None, upto)
        )
    return out


def head_probe(
    reader: Reader, game_type: str, head: int, token: str | None = None
) -> dict[int, tuple[str, bytes]]:
    """What a binary search for the log's head over ``min_log_position``
    sees: the status and answer of the read RPCs that take one, asked at
    positions below, at and past ``head``.  A caller who may not see the
    head must get one and the same answer for all of them."""
    metadata = meta(token)
    out: dict[int, tuple[str, bytes]] = {}
    for position in (1, head // 2, head, head + 1, head + 2, 2 * head + 7, 2**62):
        calls = (
            lambda p=position: reader.stats.GetGameTypeStats(
                rpb.GetGameTypeStatsRequest(game_type=game_type, min_log_position=p),
                metadata=metadata,
            ),
            lambda p=position: reader.ratings.GetLeaderboard(
                rpb.GetLeaderboardRequest(game_type=game_type, min_log_position=p),
                metadata=metadata,
            ),
        )
        answers = []
        for call in calls:
            try:
                answers.append(("OK", call().SerializeToString(deterministic=True)))
            except grpc.RpcError as error:
                answers.append((error.code().name, (error.details() or "").encode()))
        out[position] = (
            "/".join(code for code, _ in answers),
            b"|".join(body for _, body in answers),
        )
    return out


def without_started(answers: dict[str, bytes]) -> dict[str, bytes]:
    """``answers`` with the public count of created games zeroed (a new game
    is public; its opening shuffles are not)."""
    stats = rpb.GameTypeStats.FromString(answers["GetGameTypeStats"])
    stats.started = 0
    return {**answers, "GetGameTypeStats": stats.SerializeToString(deterministic=True)}


def meta(token: str | None) -> Any:
    return (("authorization", f"Bearer {token}"),) if token else None


def refused(call: Any) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as error:
        result = call()
        if not hasattr(result, "SerializeToString"):
            list(result)
    return error.value.code()
