"""``ledger projections status|rebuild``: the read models' position and lag."""

from __future__ import annotations

import typer
from rich.table import Table

from services.cli.failures import USAGE, UserError
from services.cli.locate import open_ledger
from services.cli.root import console, projections_app
from services.runtime.settings import Settings


@projections_app.command("status")
def projections_status() -> None:
    """Each view's position, lag behind the head of the log, whether it
    stopped at an event it cannot apply (then: which, and why), and the games
    it stopped applying (an event after the game's conclusion); then each
    tournament stopped by a result it refused."""
    from services.runtime.bootstrap import view_runners

    settings = Settings()
    ledger = open_ledger(settings)
    table = Table("view", "position", "head", "lag", "state")
    stops = []
    for runner in view_runners(ledger.datastore, create_tables=settings.create_tables):
        runner.ensure_tables()
        status = runner.status()
        state = "following"
        if status.stalled is not None:
            state = f"[red]stopped at {status.stalled.position}[/]"
            stops.append(f"{status.view}: {status.stalled.reason}")
        if status.stopped_count:
            state += f", [red]{status.stopped_count} game(s) stopped[/]"
            stops.extend(f"{status.view}: {g.reason}" for g in status.stopped_games)
            if status.stopped_count > len(status.stopped_games):
                more = status.stopped_count - len(status.stopped_games)
                stops.append(f"{status.view}: and {more} more game(s)")
        table.add_row(
            status.view,
            str(status.position),
            str(status.head),
            str(status.lag),
            state,
        )
    console.print(table)
    for stop in stops:
        console.print(f"[red]stopped[/] {stop}", highlight=False)
    from services.tournaments.results import halted

    with ledger.datastore.transaction(commit=False) as curs:
        refused = halted(curs)
    for alarm in refused:
        console.print(
            f"[red]tournament stopped[/] {alarm['tournament_id']}: game "
            f"{alarm['game_id']}'s result was refused ({alarm['reason']})",
            highlight=False,
        )


@projections_app.command("rebuild")
def projections_rebuild(
    name: str = typer.Argument(..., help="View name (see `status`)."),
) -> None:
    """Rebuild one view from scratch, with a progress bar."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from projections import registry
    from services.runtime.bootstrap import view_runners

    if name not in registry.VIEWS:
        raise UserError(
            f"unknown view {name!r}; known: {', '.join(sorted(registry.VIEWS))}", USAGE
        )
    ledger = open_ledger()
    (runner,) = view_runners(ledger.datastore, [name])
    runner.ensure_tables()
    runner.reset()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(f"rebuilding {name}", total=runner.status().head or 1)
        applied = runner.catch_up(
            lambda position, head: progress.update(
                task, completed=position, total=head or 1
            )
        )
    console.print(f"[green]rebuilt {name}[/]: {applied} log positions applied")
