"""``ledger tournament create|register|start|standings`` over gRPC.

Organiser actions take ``--token`` (the organiser token ``create`` prints);
by default they use the admin token, which the local server keeps in the data
dir (or ``LEDGER_ADMIN_TOKEN``), so an operator needs no copy-paste.  The data
dir's token goes only to a server on this machine (:func:`locate.admin_token`).
"""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from services.cli import locate
from services.cli.failures import USAGE, UserError
from services.cli.root import console, group, listing

tournament_app = group(
    "tournament", "Run tournaments: create, register, start rounds, standings."
)

TID = typer.Argument(..., metavar="TOURNAMENT_ID", help="As printed by `create`.")
PLAYERS = typer.Argument(..., metavar="PLAYER_ID...", help="One or more player ids.")
TOKEN = typer.Option(
    None,
    "--token",
    metavar="TOKEN",
    envvar="LEDGER_ORGANISER_TOKEN",
    help="Organiser token (default: the admin token from the data dir, to a "
    "server on this machine).",
)


def parse_tournament_id(raw: str) -> str:
    """:raises UserError: (usage) when ``raw`` is not a UUID, before any call."""
    from uuid import UUID

    try:
        return str(UUID(raw))
    except ValueError:
        raise UserError(
            f"{raw!r} is not a tournament id (a UUID, as `ledger tournament create` "
            "prints it)",
            USAGE,
        ) from None


def _stub(target: str | None) -> Any:
    from ledger.v1 import tournament_service_pb2_grpc as rpc

    return locate.stub(rpc.TournamentServiceStub, target)


def _organiser(token: str | None, target: str | None) -> Any:
    return locate.bearer(token or locate.admin_token(target=target))


@tournament_app.command("create")
def create(
    name: str = typer.Argument(..., metavar="NAME", help="The tournament's name."),
    game: str = typer.Option(..., metavar="GAME_TYPE", help="e.g. thalara."),
    format: str = typer.Option(
        "swiss", metavar="FORMAT", help="round_robin, swiss or swiss_ffa."
    ),
    rounds: int = typer.Option(
        3, min=0, help="Rounds to play (0 with round_robin: as the schedule needs)."
    ),
    table_size: int = typer.Option(2, min=2, max=5, help="Players per table."),
    setup: str = typer.Option(
        "{}", metavar="JSON", help="Setup fields for every game, as a JSON object."
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        metavar="TOKEN",
        envvar="LEDGER_ORGANISER_TOKEN",
        help="An organiser credential the admin issued (default: the admin token "
        "from the data dir, to a server on this machine).",
    ),
    target: str | None = locate.TARGET,
) -> None:
    """Create a tournament and print its id and organiser token (shown once)."""
    from ledger.v1 import tournament_service_pb2 as pb
    from services.cli.demo import parse_setup

    parse_setup(setup)
    created = _stub(target).CreateTournament(
        pb.CreateTournamentRequest(
            name=name,
            game_type=locate.canonical_game(game, "--game"),
            format=format,
            rounds=rounds,
            table_size=table_size,
            setup_json=setup,
        ),
        metadata=_organiser(token, target),
        timeout=30,
    )
    t = created.tournament
    console.print(
        f"created tournament [bold]{t.tournament_id}[/] ({t.game_type}, {t.format}, {t.rounds} rounds)"
    )
    console.print(
        f"organiser token (shown once): {created.organiser_token}", highlight=False
    )
    console.print(
        f"next: ledger tournament register {t.tournament_id} ann bob carl dana"
    )


@tournament_app.command("register")
def register(
    tournament_id: str = TID,
    players: list[str] = PLAYERS,
    plain: bool = typer.Option(
        False, "--plain", help="One `PLAYER TOKEN` line each, for scripts."
    ),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Register players; prints each player's tournament token (shown once)."""
    from ledger.v1 import tournament_service_pb2 as pb

    tournament_id = parse_tournament_id(tournament_id)
    stub = _stub(target)
    table = Table("player", "tournament token (shown once)")
    for player in players:
        got = stub.RegisterPlayer(
            pb.RegisterPlayerRequest(tournament_id=tournament_id, player_id=player),
            metadata=_organiser(token, target),
            timeout=30,
        )
        table.add_row(got.player_id, got.player_token)
        if plain:
            print(got.player_id, got.player_token)
    if not plain:
        console.print(table)


@tournament_app.command("start")
def start(
    tournament_id: str = TID,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Pair the next round and create its games."""
    from ledger.v1 import tournament_service_pb2 as pb

    tournament_id = parse_tournament_id(tournament_id)
    got = _stub(target).StartRound(
        pb.StartRoundRequest(tournament_id=tournament_id),
        metadata=_organiser(token, target),
        timeout=60,
    )
    tables = ((str(t.table), ", ".join(t.players), t.game_id) for t in got.tables)
    columns = ("table", "players (seat order)", "game id")
    console.print(listing(columns, tables, f"round {got.round}"))
    if got.byes:
        console.print(f"byes: {', '.join(got.byes)}")


@tournament_app.command("standings")
def standings(
    tournament_id: str = TID,
    follow: bool = typer.Option(
        False,
        "--follow",
        help="Print them again each time they change, until the tournament "
        "finishes (results are recorded just after their games end).",
    ),
    target: str | None = locate.TARGET,
) -> None:
    """The standings now: points, tie-breaks, wins/draws/losses."""
    from ledger.v1 import tournament_service_pb2 as pb

    tournament_id = parse_tournament_id(tournament_id)
    request = pb.GetStandingsRequest(tournament_id=tournament_id)
    if not follow:
        _print_standings(_stub(target).GetStandings(request, timeout=30))
        return
    for got in _stub(target).StreamStandings(request, timeout=None):
        _print_standings(got)


def _print_standings(got: Any) -> None:
    rows = (
        (
            str(r.rank),
            r.player_id + (" (withdrawn)" if r.withdrawn else ""),
            f"{r.points:g}",
            f"{r.buchholz:g}",
            str(r.played),
            str(r.wins),
            str(r.draws),
            str(r.losses),
            str(r.byes),
        )
        for r in got.rows
    )
    columns = ("rank", "player", "points", "buchholz", "played", "W", "D", "L", "byes")
    console.print(listing(columns, rows, f"after round {got.round} ({got.status})"))
    if got.tie_breaks:
        console.print(f"tie-breaks: {', '.join(got.tie_breaks)}")


def pending_games(conn: Any, tournament_id: str, token: str) -> list[tuple[Any, Any]]:
    """The player's games in the tournament that have not ended, in round
    order, each with its ``GetGame`` summary (read with its seat token, so it
    shows what the player may see)."""
    from ledger.v1 import game_service_pb2 as gpb
    from ledger.v1 import tournament_service_pb2 as pb
    from ledger.v1 import tournament_service_pb2_grpc as rpc

    mine = rpc.TournamentServiceStub(conn.channel).GetMyGames(
        pb.GetMyGamesRequest(tournament_id=tournament_id),
        metadata=locate.bearer(token),
        timeout=30,
    )
    found = []
    for game in sorted(mine.games, key=lambda g: g.round):
        summary = conn.call(
            "GetGame", gpb.GetGameRequest(game_id=game.game_id), game.seat_token
        ).game
        if summary.status != "ended":
            found.append((game, summary))
    return found


@tournament_app.command("my-games")
def my_games(
    tournament_id: str = TID,
    token: str = typer.Option(
        ...,
        "--token",
        metavar="TOKEN",
        envvar="LEDGER_PLAYER_TOKEN",
        help="Your tournament token, as `register` printed it.",
    ),
    target: str | None = locate.TARGET,
) -> None:
    """Your games in the tournament that have not ended, and whose turn it is.

    Play them with `ledger play TOURNAMENT_ID --tournament --token TOKEN`
    (or one of them with `ledger play GAME_ID --token SEAT_TOKEN`).
    """
    from domain.words.sentences import seat_name
    from services.cli.replay import rules_and_names

    tournament_id = parse_tournament_id(tournament_id)
    found = pending_games(locate.connect(target), tournament_id, token)
    if not found:
        console.print(
            "no unfinished games: wait for the next round, or see the standings"
        )
        return
    rows = []
    for game, summary in found:
        yours = set(summary.your_seats)
        names = rules_and_names(summary)[1]
        movers = ["you" if s in yours else seat_name(names, s) for s in summary.to_act]
        rows.append(
            (
                str(game.round),
                game.game_id,
                ", ".join(f"seat {s + 1}" for s in game.seats),
                ", ".join(movers) or "-",
                game.seat_token,
            )
        )
    columns = ("round", "game id", "your seats", "to move", "seat token")
    console.print(listing(columns, rows))
