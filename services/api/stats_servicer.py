"""``StatsService``: game-type statistics, facets, player histories and fairness.

Thin like the other read services: each RPC waits for the views when asked
and maps rows from :mod:`projections.stats_queries` or
:mod:`projections.fairness` to messages.  Its own module because the
statistics messages are many and wide.
"""

from __future__ import annotations

from typing import Any

from domain.contract.core import InvalidCommandError, Termination
from ledger.v1 import game_service_pb2 as game_pb
from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as pb_grpc
from services.api import presenters
from services.api.read_rpc import Page, ReadModels, from_row, known_game
from services.api.rpc import guarded

STATS = ("stats",)
"""The view the statistics read (``projections.stats``): only it must have
applied a caller's write, and another view's stop does not fail them."""
FAIRNESS = "fairness"


def _distribution(d: dict[str, Any]) -> Any:
    from ledger.v1 import read_service_pb2 as rpb

    return rpb.Distribution(
        count=d["count"] or 0,
        min=d["min"] or 0,
        max=d["max"] or 0,
        mean=d["mean"] or 0,
        median=d["median"] or 0,
        p90=d["p90"] or 0,
        histogram=[
            rpb.Bucket(lo=b["lo"], hi=b["hi"], count=b["count"]) for b in d["histogram"]
        ],
    )


def _rate(r: dict[str, Any], value: str = "") -> Any:
    return pb.WinRate(
        players=r.get("players") or 0,
        seat=r.get("seat") or 0,
        value=value or str(r.get("value", "")),
        games=r["games"],
        wins=r["wins"],
        win_rate=r["win_rate"] or 0.0,
    )


def _facet_sources(curs: Any, game_type: str, key: str) -> set[str]:
    """Where facet ``key`` is kept (``seat``, ``event`` or both).

    :raises InvalidCommandError: for a key no finished game of the type has,
        naming the keys there are (a typo must not read as "no data").
    """
    from projections import stats_queries as q

    known: dict[str, set[str]] = {}
    for row in q.facet_keys(curs, game_type):
        known.setdefault(row["key"], set()).add(row["source"])
    if key not in known:
        listed = ", ".join(sorted(known)) or "none yet (no finished games)"
        raise InvalidCommandError(
            f"{game_type} has no facet {key!r}; known: {listed}",
            violations=(("key", f"not a {game_type} facet"),),
        )
    return known[key]


class StatsServicer(pb_grpc.StatsServiceServicer):
    def __init__(self, models: ReadModels) -> None:
        self._models = models

    @guarded
    async def GetGameTypeStats(
        self, request: pb.GetGameTypeStatsRequest, context: Any
    ) -> pb.GameTypeStats:
        from projections import stats_queries as q

        known_game(request.game_type)
        ended = parse_termination(request.termination)
        players = request.players or None

        def read(curs: Any) -> pb.GameTypeStats:
            counts = q.games_count(curs, request.game_type, ended)
            return pb.GameTypeStats(
                game_type=request.game_type,
                started=counts[0]["started"] if counts else 0,
                finished=counts[0]["finished"] if counts else 0,
                rounds=_distribution(
                    q.length_distribution(
                        curs,
                        request.game_type,
                        "rounds",
                        players=players,
                        termination=ended,
                    )
                ),
                moves=_distribution(
                    q.length_distribution(
                        curs,
                        request.game_type,
                        "moves",
                        players=players,
                        termination=ended,
                    )
                ),
                seconds=_distribution(
                    q.length_distribution(
                        curs,
                        request.game_type,
                        "seconds",
                        players=players,
                        termination=ended,
                    )
                ),
                scores=_distribution(
                    q.score_distribution(
                        curs, request.game_type, players=players, termination=ended
                    )
                ),
                by_seat=[
                    _rate(r)
                    for r in q.win_rate_by_seat(curs, request.game_type, ended)
                    if players is None or r["players"] == players
                ],
                by_first_player=[
                    _rate(r, "first" if r["first"] else "other")
                    for r in q.win_rate_by_first_player(curs, request.game_type, ended)
                    if players is None or r["players"] == players
                ],
                facet_keys=sorted(
                    {k["key"] for k in q.facet_keys(curs, request.game_type)}
                ),
                by_termination=[
                    pb.TerminationCount(termination=r["termination"], games=r["games"])
                    for r in q.termination_counts(curs, request.game_type)
                ],
            )

        return await self._models.read(request, context, read, views=STATS)

    @guarded
    async def GetFacetStats(
        self, request: pb.GetFacetStatsRequest, context: Any
    ) -> pb.FacetStats:
        from projections import stats_queries as q

        known_game(request.game_type)
        if not request.key:
            raise InvalidCommandError("key is required (see GameTypeStats.facet_keys)")
        page = Page.asked(
            "GetFacetStats",
            request,
            100,
            1000,
            q=request.game_type,
            k=request.key,
            n=request.players,
        )

        def read(curs: Any) -> pb.FacetStats:
            sources = _facet_sources(curs, request.game_type, request.key)
            rates = q.win_rate_by_facet(
                curs, request.game_type, request.key, request.players or None
            )
            frequency = (
                q.facet_frequency if "event" in sources else q.seat_facet_frequency
            )
            freq = frequency(
                curs,
                request.game_type,
                request.key,
                limit=page.limit,
                offset=page.offset,
            )
            return pb.FacetStats(
                key=request.key,
                # the rates cover the requested player count (0: every count)
                win_rates=[_rate({**r, "players": request.players}) for r in rates],
                frequency=[
                    pb.FacetCount(
                        value=str(r["value"]), count=r["count"], share=r["share"] or 0.0
                    )
                    for r in page.shown(freq)
                ],
                next_page_token=page.next_token(freq),
            )

        return await self._models.read(request, context, read, views=STATS)

    @guarded
    async def GetPlayerHistory(
        self, request: pb.GetPlayerHistoryRequest, context: Any
    ) -> pb.PlayerHistory:
        from projections import stats_queries as q

        if not request.player_id:
            raise InvalidCommandError("player_id is required")
        if request.game_type:
            known_game(request.game_type)
        page = Page.asked(
            "GetPlayerHistory", request, p=request.player_id, q=request.game_type
        )
        rows = await self._models.read_page(
            request,
            context,
            page,
            q.player_history,
            request.player_id,
            request.game_type or None,
            views=STATS,
        )
        return pb.PlayerHistory(
            games=[
                pb.PlayerGame(
                    game_id=str(r["game_id"]),
                    game_type=r["game_type"],
                    seat=r["seat"],
                    rank=r["rank"] or 0,
                    score=r["score"] or 0,
                    won=bool(r["won"]),
                    players=r["players"],
                    ended_at=r["ended_at"].isoformat() if r["ended_at"] else "",
                    rounds=r["rounds"] or 0,
                    moves=r["moves"] or 0,
                    termination=r["termination"] or "",
                    termination_kind=presenters.kind(
                        game_pb.Termination, r["termination"] or ""
                    ),
                )
                for r in page.shown(rows)
            ],
            next_page_token=page.next_token(rows),
        )

    @guarded
    async def GetFairness(
        self, request: pb.GetFairnessRequest, context: Any
    ) -> pb.Fairness:
        from projections import fairness as f

        known_game(request.game_type)

        def read(curs: Any) -> list[dict[str, Any]]:
            return f.fairness(curs, request.game_type) + f.first_player_fairness(
                curs, request.game_type
            )

        fits = await self._models.read(request, context, read, views=(*STATS, FAIRNESS))
        return pb.Fairness(
            game_type=request.game_type,
            fits=[from_row(pb.DistributionFit, d) for d in fits],
        )


def parse_termination(raw: str) -> str | None:
    """A ``termination`` filter: empty for none, else one of ``Termination``'s values.

    :raises InvalidCommandError: naming the values there are.
    """
    if not raw:
        return None
    known = [t.value for t in Termination]
    if raw not in known:
        raise InvalidCommandError(
            f"termination must be one of {known}",
            violations=(("termination", f"one of {known}"),),
        )
    return raw
