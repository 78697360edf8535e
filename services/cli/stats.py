"""``ledger stats GAME_TYPE``: lengths, scores, win rates, facets and fairness."""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from services.cli import locate
from services.cli.root import app, console, listing


def _distributions(stats: Any) -> Table:
    measures = ("min", "median", "mean", "p90", "max")
    rows = []
    for label in ("rounds", "moves", "seconds", "scores"):
        d = getattr(stats, label)
        rows.append((label, str(d.count), *(f"{getattr(d, f):.1f}" for f in measures)))
    return listing(("finished games", "count", *measures), rows)


def _win_rates(title: str, rates: Any, value: str = "seat") -> Table:
    rows = (
        (
            str(w.players) if w.players else "any",
            w.value or f"seat {w.seat + 1}",  # people count seats from 1
            str(w.games),
            str(w.wins),
            f"{w.win_rate:.1%}",
        )
        for w in rates
    )
    return listing(("players", value, "games", "wins", "win rate"), rows, title)


@app.command()
def stats(
    game_type: str = typer.Argument(..., metavar="GAME_TYPE", help="e.g. thalara."),
    players: int = typer.Option(
        0, min=0, help="Only games with this many players (0: every count)."
    ),
    facet: str | None = typer.Option(
        None,
        metavar="KEY",
        help="Win rate and frequency by one facet (keys are listed by default).",
    ),
    fairness: bool = typer.Option(
        False, "--fairness", help="Chi-square fit of every die roll and shuffle."
    ),
    termination: str = typer.Option(
        "",
        metavar="HOW",
        help="Only games that ended this way: completed, resigned, timed_out, "
        "forfeited, adjudicated, team_won, team_lost (aborted games count in none).",
    ),
    target: str | None = locate.TARGET,
) -> None:
    """Statistics of one game type, from the running server's views."""
    from ledger.v1 import read_service_pb2 as pb
    from ledger.v1 import read_service_pb2_grpc as rpc

    game_type = locate.canonical_game(game_type)
    stub = locate.stub(rpc.StatsServiceStub, target)
    if facet:
        got = stub.GetFacetStats(
            pb.GetFacetStatsRequest(
                game_type=game_type, key=facet, players=players, page_size=100
            ),
            timeout=30,
        )
        console.print(
            _win_rates(f"{game_type} win rate by {facet}", got.win_rates, facet)
        )
        shares = ((f.value, str(f.count), f"{f.share:.1%}") for f in got.frequency)
        console.print(listing((facet, "count", "share"), shares, f"{facet} frequency"))
        return
    if fairness:
        fit = stub.GetFairness(pb.GetFairnessRequest(game_type=game_type), timeout=30)
        fits = (
            (
                d.distribution,
                d.kind,
                str(d.outcomes),
                str(d.total),
                f"{d.statistic:.2f}",
                f"{d.p_value:.3f}",
            )
            for d in fit.fits
        )
        columns = ("distribution", "kind", "outcomes", "total", "chi-square", "p-value")
        console.print(listing(columns, fits, f"{game_type} fairness"))
        return
    got = stub.GetGameTypeStats(
        pb.GetGameTypeStatsRequest(
            game_type=game_type, players=players, termination=termination
        ),
        timeout=30,
    )
    how = f" ({termination})" if termination else ""
    console.print(
        f"[bold]{game_type}[/]: {got.started} games started, {got.finished} finished{how}"
    )
    if got.by_termination:
        console.print(
            "ended: "
            + ", ".join(f"{t.termination} {t.games}" for t in got.by_termination),
            highlight=False,
        )
    if not got.started:
        console.print(
            f"no {game_type} games yet: `ledger demo --game {game_type}` plays one"
        )
        return
    console.print(_distributions(got))
    console.print(_win_rates("win rate by seat", got.by_seat))
    if got.by_first_player:
        console.print(
            _win_rates("win rate of the first player", got.by_first_player, "first")
        )
    elif got.finished:
        console.print(
            f"{game_type} records no first player (turn order is not fixed), "
            "so there is no first-player win rate",
            highlight=False,
        )
    if got.facet_keys:
        console.print(
            f"facets (--facet KEY): {', '.join(got.facet_keys)}; also --fairness",
            highlight=False,
        )
