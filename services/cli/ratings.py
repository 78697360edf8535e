"""``ledger ratings GAME_TYPE``: the OpenSkill leaderboard, or one player's history."""

from __future__ import annotations

import typer

from services.cli import locate
from services.cli.root import app, console, listing


@app.command()
def ratings(
    game_type: str = typer.Argument(
        ..., metavar="GAME_TYPE", help="e.g. thalara (rated games have player ids)."
    ),
    player: str | None = typer.Option(
        None, metavar="PLAYER_ID", help="Show this player's rating history instead."
    ),
    limit: int = typer.Option(20, min=1, max=1000, help="Rows to show."),
    target: str | None = locate.TARGET,
) -> None:
    """Leaderboard by conservative rating (mu - 3 sigma), from the running server.

    Only games created with player ids are rated (`ledger demo --player-ids a,b`).
    """
    from ledger.v1 import read_service_pb2 as pb
    from ledger.v1 import read_service_pb2_grpc as rpc

    game_type = locate.canonical_game(game_type)
    stub = locate.stub(rpc.RatingServiceStub, target)
    if player:
        history = stub.GetRatingHistory(
            pb.GetRatingHistoryRequest(
                game_type=game_type, player_id=player, page_size=limit
            ),
            timeout=30,
        )
        changes = (
            (
                c.game_id,
                str(c.event_version),
                str(c.rank),
                f"{c.mu_before:.2f} → {c.mu:.2f}",
                f"{c.sigma:.2f}",
                f"{c.ordinal:.2f}",
            )
            for c in history.changes
        )
        columns = ("game id", "event", "rank", "mu", "sigma", "ordinal")
        console.print(listing(columns, changes, f"{player} in {game_type}"))
        if not history.changes:
            console.print(f"no rated {game_type} games for {player}")
        return
    board = stub.GetLeaderboard(
        pb.GetLeaderboardRequest(game_type=game_type, page_size=limit), timeout=30
    )
    rows = (
        (
            str(r.rank),
            r.player_id,
            f"{r.ordinal:.2f}",
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            str(r.games),
        )
        for r in board.ratings
    )
    columns = ("rank", "player", "ordinal", "mu", "sigma", "games")
    console.print(listing(columns, rows, f"{game_type} ratings"))
    if not board.ratings:
        console.print(
            f"no rated {game_type} games yet: "
            f"`ledger demo --game {game_type} --player-ids ann,bob` plays one"
        )
