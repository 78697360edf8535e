"""Statistics and fairness per game type, from the stats and fairness views.

Win rates carry 95% Wilson intervals.  Fairness shows each chance
distribution's chi-square p-value as the fairness view computes it (the view
counts concluded games only: a running game's draws are hidden information).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.games import find_game
from projections import fairness as fairness_view
from projections import stats_queries as q
from services.dashboard.web import chart, query, render, wilson

TOP = 15
CHARTED_OUTCOMES = 24
"""Distributions with more outcomes (shuffle tables) get a table, not a chart."""


def _rates(rows: list[dict[str, Any]], label: Any) -> list[dict[str, Any]]:
    return [{**r, "label": label(r), "ci": wilson(r["wins"], r["games"])} for r in rows]


def _rate_chart(rows: list[dict[str, Any]]) -> str:
    """Each win rate as a point on its 95% interval (a floating bar)."""
    return chart(
        "bar",
        [r["label"] for r in rows],
        [
            {
                "type": "line",
                "label": "win rate",
                "data": [round(r["win_rate"], 4) for r in rows],
                "showLine": False,
                "pointRadius": 5,
                "order": 0,
            },
            {
                "label": "95% Wilson interval",
                "order": 1,
                "data": [[round(r["ci"][0], 4), round(r["ci"][1], 4)] for r in rows],
            },
        ],
        percent=True,
        unit_range=True,
    )


def _histogram(dist: dict[str, Any], label: str) -> str:
    buckets = dist["histogram"]
    narrow = bool(buckets) and buckets[0]["hi"] - buckets[0]["lo"] < 1
    digits = 1 if narrow else 0
    return chart(
        "bar",
        [f"{b['lo']:.{digits}f}–{b['hi']:.{digits}f}" for b in buckets],
        [{"label": label, "data": [b["count"] for b in buckets]}],
    )


def _statistics(curs: Any, game_type: str) -> dict[str, Any]:
    counts = q.games_count(curs, game_type)
    seat = _rates(
        q.win_rate_by_seat(curs, game_type),
        lambda r: f"{r['players']}p seat {r['seat'] + 1}",
    )
    first = _rates(
        q.win_rate_by_first_player(curs, game_type),
        lambda r: f"{r['players']}p {'first player' if r['first'] else 'others'}",
    )
    keys = q.facet_keys(curs, game_type)
    by_key: dict[str, list[dict[str, Any]]] = {}
    for row in q.win_rates_by_facets(curs, game_type):
        by_key.setdefault(row["key"], []).append(row)
    facets = []
    for key, key_rows in sorted(by_key.items()):
        rows = _rates(key_rows[:TOP], lambda r: r["value"])
        facets.append({"key": key, "rows": rows, "chart": _rate_chart(rows)})
    frequencies = []
    for key in sorted({k["key"] for k in keys if k["source"] == "event"}):
        rows = q.facet_frequency(curs, game_type, key, limit=TOP)
        frequencies.append(
            {
                "key": key,
                "rows": rows,
                "chart": chart(
                    "bar",
                    [r["value"] for r in rows],
                    [{"label": "share", "data": [round(r["share"], 4) for r in rows]}],
                    percent=True,
                    horizontal=True,
                ),
            }
        )
    lengths = {
        metric: q.length_distribution(curs, game_type, metric)
        for metric in ("rounds", "moves", "seconds")
    }
    scores = q.score_distribution(curs, game_type)
    return {
        "counts": counts[0] if counts else {"started": 0, "finished": 0},
        "seat": seat,
        "seat_chart": _rate_chart(seat),
        "first": first,
        "first_chart": _rate_chart(first),
        "facets": facets,
        "frequencies": frequencies,
        "lengths": lengths,
        "length_charts": {m: _histogram(d, m) for m, d in lengths.items()},
        "scores": scores,
        "score_chart": _histogram(scores, "seat-games"),
    }


async def statistics(request: Request) -> Response:
    game_type = find_game(request.path_params["game_type"]).name
    data = await query(request, _statistics, game_type)
    return render(request, "stats.html", game_type=game_type, **data)


def _fairness(curs: Any, game_type: str) -> list[dict[str, Any]]:
    fits = fairness_view.fairness(
        curs, game_type
    ) + fairness_view.first_player_fairness(curs, game_type)
    for fit in fits:
        fit["chart"] = (
            chart(
                "bar",
                [str(v + 1) for v in range(fit["outcomes"])],
                [
                    {"label": "observed", "data": fit["observed"]},
                    {
                        "label": "expected if fair",
                        "data": [round(fit["expected"], 2)] * fit["outcomes"],
                    },
                ],
            )
            if fit["outcomes"] <= CHARTED_OUTCOMES
            else None
        )
    return fits


async def fairness(request: Request) -> Response:
    game_type = find_game(request.path_params["game_type"]).name
    fits = await query(request, _fairness, game_type)
    return render(request, "fairness.html", game_type=game_type, fits=fits)


async def index(request: Request) -> Response:
    return render(request, "stats_index.html")


routes = [
    Route("/stats", index, name="stats_index"),
    Route("/stats/{game_type}", statistics, name="stats"),
    Route("/fairness/{game_type}", fairness, name="fairness"),
]
