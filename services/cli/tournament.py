"""``ledger tournament create|register|start|show|standings|withdraw|finish|
adjudicate|replay`` over gRPC.

Organiser actions take ``--token`` (the organiser token ``create`` prints);
by default they use the admin token, which the local server keeps in the data
dir (or ``LEDGER_ADMIN_TOKEN``), so an operator needs no copy-paste.  The data
dir's token goes only to a server on this machine (:func:`locate.admin_token`).
"""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from services.cli import clock_options, locate, play_links
from services.cli.failures import USAGE, UserError
from services.cli.root import console, group, listing

tournament_app = group(
    "tournament",
    "Run tournaments: create, register, start rounds, standings, withdraw, "
    "adjudicate, replay, finish.",
)

TID = typer.Argument(..., metavar="TOURNAMENT_ID", help="As printed by `create`.")
PLAYERS = typer.Argument(..., metavar="PLAYER_ID...", help="One or more player ids.")
TOKEN = locate.token_option(
    "LEDGER_ORGANISER_TOKEN",
    "The tournament's organiser token (default: the admin token from the data "
    "dir, to a server on this machine).",
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


def organiser(token: str | None, target: str | None) -> Any:
    """The call metadata of an organiser action: ``token``, else the admin token."""
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
    clock: str | None = clock_options.CLOCK,
    no_show: int = clock_options.NO_SHOW,
    round_gap: int | None = typer.Option(
        None,
        "--round-gap",
        min=0,
        metavar="SECONDS",
        help="Start each round after the first by itself, this long after the "
        "previous round's last game ends; finish after the last round. "
        "Default: rounds start by hand (`start`).",
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
    control = clock_options.time_control(clock, no_show)
    created = _stub(target).CreateTournament(
        pb.CreateTournamentRequest(
            name=name,
            game_type=locate.canonical_game(game, "--game"),
            format=format,
            rounds=rounds,
            table_size=table_size,
            setup_json=setup,
            time_control=control,
            automatic_rounds=None
            if round_gap is None
            else pb.AutomaticRounds(gap_seconds=round_gap),
        ),
        metadata=organiser(token, target),
        timeout=30,
    )
    t = created.tournament
    console.print(
        f"created tournament [bold]{t.tournament_id}[/] ({t.game_type}, {t.format}, {t.rounds} rounds)"
    )
    if control is not None:
        console.print(f"clock: {clock}" + (f", no-show {no_show}s" if no_show else ""))
    if round_gap is not None:
        console.print(
            f"rounds after the first start {round_gap}s after the previous one ends"
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
            metadata=organiser(token, target),
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
        metadata=organiser(token, target),
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
    web: str | None = typer.Option(
        None, "--web", metavar="URL", envvar="LEDGER_WEB_URL", help=play_links.WEB_HELP
    ),
) -> None:
    """Your games in the tournament that have not ended, and whose turn it is.

    Play them with `ledger play TOURNAMENT_ID --tournament --token TOKEN`
    (or one of them with `ledger play GAME_ID --token SEAT_TOKEN`), or in a
    browser from the one-time links printed below the games.
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
    # lines, not a table: a table cuts ids and tokens with "…" in a narrow
    # terminal, and a person copies both whole into `ledger play`
    for game, summary in found:
        yours = set(summary.your_seats)
        names = rules_and_names(summary)[1]
        movers = ["you" if s in yours else seat_name(names, s) for s in summary.to_act]
        seats = ", ".join(f"seat {s + 1}" for s in game.seats)
        to_move = ", ".join(movers) or "nobody"
        head = f"round {game.round}, game {game.game_id}: you play {seats}"
        for line in (f"{head}; to move: {to_move}", f"  seat token: {game.seat_token}"):
            console.print(line, soft_wrap=True, highlight=False, markup=False)
    _print_links(web, tournament_id, token, [g for g, _ in found])


def _print_links(web: str | None, tournament_id: str, token: str, games: Any) -> None:
    """One-time browser links: each game's, then the player's games page."""
    base = play_links.dashboard_url(web)
    mine = play_links.link(base, token, {"tournament_id": tournament_id})
    if mine is None:
        console.print(f"no play links: no dashboard answers at {base} (--web URL)")
        return
    for game in games:
        url = play_links.link(base, game.seat_token, {"game_id": game.game_id})
        console.print(f"play {game.game_id}: {url or '-'}", soft_wrap=True)
    console.print(f"my games: {mine}", soft_wrap=True)


@tournament_app.command("show")
def show(tournament_id: str = TID, target: str | None = locate.TARGET) -> None:
    """The tournament: format, clock, players, round, and when the next round
    starts by itself."""
    from datetime import UTC, datetime

    from ledger.v1 import tournament_service_pb2 as pb

    tournament_id = parse_tournament_id(tournament_id)
    t = _stub(target).GetTournament(
        pb.GetTournamentRequest(tournament_id=tournament_id), timeout=30
    )
    _print_summary(t)
    if t.HasField("next_round_at"):
        at = t.next_round_at.ToDatetime(tzinfo=UTC)
        wait = max(0, int((at - datetime.now(UTC)).total_seconds()))
        console.print(
            f"round {t.current_round + 1} starts by itself at {at:%H:%M:%S} UTC "
            f"(in {wait}s)"
        )


def _print_summary(t: Any) -> None:
    console.print(
        f"{t.name}: {t.game_type}, {t.format}, round {t.current_round} of "
        f"{t.rounds}, {t.status}",
        highlight=False,
    )
    players = [p + (" (withdrawn)" if p in t.withdrawn else "") for p in t.players]
    console.print(f"players: {', '.join(players) or '-'}", highlight=False)
    if t.HasField("automatic_rounds"):
        console.print(
            f"automatic rounds: {t.automatic_rounds.gap_seconds}s after each round"
        )


@tournament_app.command("withdraw")
def withdraw(
    tournament_id: str = TID,
    player: str = typer.Argument(..., metavar="PLAYER_ID", help="Who withdraws."),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Withdraw a player: not paired in later rounds; games played still count."""
    from ledger.v1 import tournament_service_pb2 as pb

    tournament_id = parse_tournament_id(tournament_id)
    _stub(target).WithdrawPlayer(
        pb.WithdrawPlayerRequest(tournament_id=tournament_id, player_id=player),
        metadata=organiser(token, target),
        timeout=30,
    )
    console.print(f"{player} withdrew from {tournament_id}", highlight=False)


@tournament_app.command("finish")
def finish(
    tournament_id: str = TID,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """End the tournament between rounds: no further round starts."""
    from ledger.v1 import tournament_service_pb2 as pb

    tournament_id = parse_tournament_id(tournament_id)
    t = _stub(target).FinishTournament(
        pb.FinishTournamentRequest(tournament_id=tournament_id),
        metadata=organiser(token, target),
        timeout=30,
    )
    console.print(f"finished after round {t.current_round}", highlight=False)


def parse_ranks(raw: str) -> list[int]:
    """``--ranks 1,1,3``: one rank per seat, in seat order.

    :raises UserError: (usage) for anything but comma-separated whole numbers.
    """
    try:
        ranks = [int(r) for r in raw.split(",")]
    except ValueError:
        raise UserError(
            f"--ranks {raw!r}: one whole number per seat, in seat order, e.g. 1,1,3",
            USAGE,
        ) from None
    return ranks


@tournament_app.command("adjudicate")
def adjudicate(
    game_id: str = typer.Argument(..., metavar="GAME_ID", help="A game of it."),
    ranks: str = typer.Option(
        ...,
        "--ranks",
        metavar="R,R,...",
        help="Each seat's place, in seat order, 1 the best; tied seats share a "
        "place and the next place counts them (1,1,3).",
    ),
    reason: str = typer.Option(..., "--reason", help="Why (recorded, public)."),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Record a game's result as the tournament's arbiter."""
    from ledger.v1 import game_service_pb2 as gpb
    from services.cli.games import parse_game_id

    gid = str(parse_game_id(game_id))
    conn = locate.connect(target)
    got = conn.call(
        "Adjudicate",
        gpb.AdjudicateRequest(game_id=gid, ranks=parse_ranks(ranks), reason=reason),
        token or locate.admin_token(target=target),
    )
    console.print(
        f"game {gid} adjudicated: ranks {', '.join(map(str, ranks.split(',')))}"
        f" (version {got.last_version})",
        highlight=False,
    )


@tournament_app.command("replay")
def replay(
    tournament_id: str = TID,
    game_id: str = typer.Argument(..., metavar="GAME_ID", help="The aborted game."),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Replace an aborted game of the current round with a new game for the
    same players (they fetch its seat token with `my-games`)."""
    from ledger.v1 import tournament_service_pb2 as pb
    from services.cli.games import parse_game_id

    tournament_id = parse_tournament_id(tournament_id)
    gid = str(parse_game_id(game_id))
    stub = _stub(target)
    before = stub.GetPairings(
        pb.GetPairingsRequest(tournament_id=tournament_id), timeout=30
    )
    number = next((t.table for t in before.tables if t.game_id == gid), None)
    got = stub.ReplayAbortedGame(
        pb.ReplayAbortedGameRequest(tournament_id=tournament_id, game_id=gid),
        metadata=organiser(token, target),
        timeout=60,
    )
    table = next(t for t in got.tables if t.table == number)
    console.print(
        f"round {got.round}, table {table.table}: {gid} is replayed as "
        f"{table.game_id} ({', '.join(table.players)})",
        highlight=False,
    )
