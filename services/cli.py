"""``ledger``: run the service and inspect the ledger from a terminal.

Commands talk to the database directly (same settings as the server), so an
operator or auditor can verify games even when the gRPC server is down.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Optional
from uuid import UUID

import typer
from rich.console import Console
from rich.table import Table

from domain.audit import audit_records
from services.bootstrap import build_ledger, wire
from services.settings import Settings

app = typer.Typer(help="Game Ledger: event-sourced, auditable tabletop games over gRPC.", no_args_is_help=True)
games_app = typer.Typer(help="Inspect stored games.", no_args_is_help=True)
app.add_typer(games_app, name="games")
projections_app = typer.Typer(help="Inspect and rebuild the read models.", no_args_is_help=True)
app.add_typer(projections_app, name="projections")
db_app = typer.Typer(help="Set up the database: tables, triggers, grants.", no_args_is_help=True)
app.add_typer(db_app, name="db")
console = Console()


def _game_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise typer.BadParameter(f"{raw!r} is not a game id (UUID)") from None


@app.command()
def serve(
    listen: Optional[str] = typer.Option(None, help="Address to bind, e.g. 0.0.0.0:50051."),
    workers: Optional[int] = typer.Option(None, help="Server processes sharing the port (SO_REUSEPORT)."),
    log_level: str = typer.Option("INFO", help="Logging level."),
) -> None:
    """Run the gRPC server (embedded PostgreSQL unless LEDGER_DATABASE_URL is set)."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = Settings()
    if listen:
        settings = settings.model_copy(update={"listen": listen})
    if workers:
        settings = Settings.model_validate({**settings.model_dump(), "workers": workers})
    wiring = wire(settings)
    where = "embedded PostgreSQL in " + str(settings.data_dir) if not settings.database_url else "configured PostgreSQL"
    console.print(f"[bold]ledger[/] serving on [cyan]{settings.listen}[/] using {where}")
    if settings.admin_token is None:
        console.print(f"admin token: {settings.data_dir / 'admin-token'}")
    if settings.workers > 1:
        from services.server import serve_workers

        console.print(f"{settings.workers} worker processes share the port")
        serve_workers(wiring)
        return
    from services.server import serve as run

    asyncio.run(run(wiring))


@app.command()
def audit(game_id: str = typer.Argument(..., help="The game to verify.")) -> None:
    """Verify a game's hash chain and seed, and re-derive every decision."""
    gid = _game_id(game_id)
    ledger = build_ledger(Settings())
    rows = ledger.read_records(gid)
    if not rows:
        console.print(f"[red]game {gid} not found[/]")
        raise typer.Exit(2)
    server_seed = None
    if rows[-1][1] != "ledger.GameConcluded":
        server_seed = ledger.seed_of(gid)
    report = audit_records(str(gid), rows, server_seed=server_seed)
    console.print(
        f"game {gid} ({report.game_type}): {report.events} events, "
        f"{report.decisions_rederived} decisions re-derived, seed: {report.seed_source}"
    )
    _conclude(report, "hash chain intact, seed matches its commitment, every decision re-derived")


def _conclude(report: Any, ok_message: str) -> None:
    """OK, or every failure with the event it names (exit 1)."""
    if report.ok:
        console.print(f"[bold green]OK[/]: {ok_message}")
        return
    for failure in report.failures:
        console.print(f"[bold red]FAIL[/] {failure}")
    raise typer.Exit(1)


@games_app.command("list")
def games_list(
    limit: int = typer.Option(20, min=1, max=500), game_type: Optional[str] = typer.Option(None, "--type")
) -> None:
    """The newest games."""
    ledger = build_ledger(Settings())
    table = Table("type", "players", "version", "status", "created")
    table.add_column("game id", no_wrap=True, min_width=36)
    for row in ledger.list_games(limit, None, game_type):
        table.add_row(
            row["game_type"], str(row["players"]), str(row["version"]),
            row["status"], row["created_at"].isoformat(timespec="seconds"), str(row["game_id"]),
        )
    console.print(table)


@games_app.command("show")
def games_show(game_id: str, at_version: Optional[int] = typer.Option(None, "--at")) -> None:
    """One game's admin view (everything), optionally as it was at a version."""
    from domain.core import ADMIN

    gid = _game_id(game_id)
    ledger = build_ledger(Settings())
    game = ledger.load(gid, at_version)
    console.print(f"[bold]{game.game_type}[/] {gid} version {game.version} ({'ended' if game.is_over else 'active'})")
    if game.outcome:
        console.print(f"outcome: {game.outcome.model_dump(mode='json')}")
    console.print_json(data=game.ruleset.view(game.state, ADMIN).model_dump(mode="json"))


@app.command()
def demo(
    game: str = typer.Option("thalara", help="Game type."),
    players: int = typer.Option(2, help="Number of players."),
    target: str = typer.Option("127.0.0.1:50051", help="Server address."),
    seed: int = typer.Option(0, help="Seed of the random move choice (client side)."),
    setup: str = typer.Option("{}", help='Extra setup fields as JSON, e.g. \'{"characters": ["myrja", "canto", "accaina"]}\'.'),
) -> None:
    """Create a game on a running server and play it to the end with random legal moves.

    Uses only the public API (ListLegalMoves -> SubmitMove with each seat's token),
    like any rule-blind client in any language would.
    """
    import json
    import random

    from domain.games import find_game
    from ledger.v1 import game_service_pb2 as pb
    from services import client, mapping

    conn = client.Connection.open(target)
    ruleset = find_game(game)
    table = client.create(conn, game, entropy=(f"demo-{seed}",), **{"players": players, **json.loads(setup)})
    console.print(f"created {game} game [bold]{table.game_id}[/] with {len(table.tokens)} seat tokens")
    rnd = random.Random(seed)
    while (response := client.play_one(conn, table, rnd)) is not None:
        if table.moves <= 5 or table.moves % 25 == 0:
            console.print(f"move {table.moves}: {table.log[-1]}")
    first_seat = min(table.tokens)
    got = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[first_seat])
    view = mapping.model_from_any(ruleset, got.view, ruleset.view_model)
    console.print(f"game over after {table.moves} moves, {got.game.version} events; outcome ranks {list(got.game.outcome.ranks)}")
    console.print(f"seat {first_seat}'s final view:")
    console.print_json(data=view.model_dump(mode="json"))
    console.print(f"verify it: [bold]ledger audit {table.game_id}[/]")


@app.command()
def export(game_id: str, out: Optional[str] = typer.Option(None, "--out", "-o", help="File (default: stdout).")) -> None:
    """Write a game as NDJSON (ledger-export/v1): enough to verify it offline."""
    import sys

    from domain.export import export_lines

    gid = _game_id(game_id)
    rows = build_ledger(Settings()).read_records(gid)
    if not rows:
        console.print(f"[red]game {gid} not found[/]")
        raise typer.Exit(2)
    text = "".join(line + "\n" for line in export_lines(str(gid), rows))
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


@app.command()
def verify(file: str = typer.Argument(..., help="An NDJSON export.")) -> None:
    """Verify an export offline: hash chain, seed, every decision, trailer lines."""
    from domain.export import verify_lines

    with open(file, encoding="utf-8") as fh:
        report = verify_lines(fh)
    console.print(f"{report.game_type} game {report.game_id}: {report.events} events, "
                  f"{report.decisions_rederived} decisions re-derived, seed: {report.seed_source}")
    _conclude(report, "the export verifies")


@app.command()
def replay(
    game_id: str,
    at: int = typer.Option(1, help="Start at this event."),
    step: bool = typer.Option(False, "--step", help="Wait for Enter between frames."),
) -> None:
    """Step through a game frame by frame (admin view) in the terminal."""
    from rich.panel import Panel

    from domain.aggregate import record_type
    from domain.core import ADMIN

    gid = _game_id(game_id)
    ledger = build_ledger(Settings())
    for event, game in ledger.frames(gid, max(0, at - 1), 100_000):
        payload = getattr(event, "payload", None)
        title = f"event {event.originator_version}: {record_type(game.game_type, event)}"
        body = payload.model_dump_json() if payload is not None else ""
        console.print(Panel(body or "(ledger event)", title=title, expand=False))
        if step:
            view = game.ruleset.view(game.state, ADMIN)
            console.print_json(data=view.model_dump(mode="json"))
            if input("[enter: next, q: quit] ").strip().lower() == "q":
                return


@app.command()
def project(
    metrics_port: Optional[int] = typer.Option(
        None, min=0, max=65535,
        help="Serve Prometheus /metrics (projection lag and position) on this port; 0 = off. "
        "Default: LEDGER_METRICS_PORT.",
    ),
) -> None:
    """Run the projection views as their own process (follows the log live)."""
    import signal
    import threading

    from projections import registry
    from projections.runner import Projector
    from services.bootstrap import database_url

    settings = Settings()
    port = settings.metrics_port if metrics_port is None else metrics_port
    if port:  # first, so a port in use fails before anything runs
        from prometheus_client import start_http_server

        start_http_server(port)
        console.print(f"metrics on :{port}/metrics")
    ledger = build_ledger(settings)
    projector = Projector(
        registry.runners(ledger.datastore, create_tables=settings.create_tables), database_url(settings)
    )
    projector.start()
    console.print(f"projecting {', '.join(r.view.name for r in projector.runners)}; Ctrl-C to stop")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    projector.stop()


@projections_app.command("status")
def projections_status() -> None:
    """Each view's position and lag behind the head of the log."""
    from projections import registry

    settings = Settings()
    ledger = build_ledger(settings)
    table = Table("view", "position", "head", "lag")
    for runner in registry.runners(ledger.datastore, create_tables=settings.create_tables):
        runner.ensure_tables()
        status = runner.status()
        table.add_row(status.view, str(status.position), str(status.head), str(status.lag))
    console.print(table)


@projections_app.command("rebuild")
def projections_rebuild(name: str = typer.Argument(..., help="View name (see `status`).")) -> None:
    """Rebuild one view from scratch, with a progress bar."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from projections import registry

    if name not in registry.VIEWS:
        raise typer.BadParameter(f"unknown view {name!r}; known: {sorted(registry.VIEWS)}")
    ledger = build_ledger(Settings())
    (runner,) = registry.runners(ledger.datastore, [name])
    runner.ensure_tables()
    runner.reset()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task(f"rebuilding {name}", total=runner.status().head or 1)
        applied = runner.catch_up(lambda position, head: progress.update(task, completed=position, total=head or 1))
    console.print(f"[green]rebuilt {name}[/]: {applied} log positions applied")


@db_app.command("setup")
def db_setup(
    service_role: Optional[str] = typer.Option(
        None, help="Grant this existing LOGIN role exactly what the service needs "
        "(it then runs with LEDGER_CREATE_TABLES=false).",
    ),
) -> None:
    """Create every table, trigger and function as the owner (LEDGER_DATABASE_URL).

    Idempotent.  With --service-role, earlier grants to that role are replaced
    by SELECT/INSERT on the append-only tables (never UPDATE, DELETE or
    TRUNCATE), the updates the side tables and views need, the events
    sequences and the events-lock function (services/db_roles.py).
    """
    from projections.runner import SetupRequiredError
    from services.bootstrap import setup_database
    from services.db_roles import ServiceRoleError

    try:
        report = setup_database(Settings(), service_role)
    except (SetupRequiredError, ServiceRoleError) as exc:
        console.print(f"[red]{exc}[/]")
        raise typer.Exit(2) from None
    console.print("[green]tables, triggers and functions are in place[/]")
    if report.role is None:
        return
    table = Table("table", f"granted to {report.role}")
    for name, privileges in report.tables.items():
        table.add_row(name, ", ".join(privileges))
    for sequence in report.sequences:
        table.add_row(sequence, "USAGE, SELECT")
    table.add_row("ledger_lock_events(text)", "EXECUTE")
    console.print(table)
    if report.not_granted:
        console.print(f"[yellow]not granted (unknown to services/db_roles.py)[/]: {', '.join(report.not_granted)}")


@app.command()
def bench(
    quick: bool = typer.Option(False, "--quick", help="Tiny sizes: keeps the harness working in CI."),
    out: str = typer.Option("bench/results", help="Where JSON, markdown and PNG results go."),
) -> None:
    """Run the benchmark harness (bench/): throughput, latency, rebuild, baselines."""
    from bench.harness import run_all

    run_all(quick=quick, out_dir=out)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
