"""``ledger db setup``: tables, triggers and grants, run as the owner."""

from __future__ import annotations

import typer
from rich.table import Table

from services.cli.root import console, db_app
from services.runtime.settings import Settings


@db_app.command("setup")
def db_setup(
    service_role: str | None = typer.Option(
        None,
        help="Grant this existing LOGIN role exactly what the service needs "
        "(it then runs with LEDGER_CREATE_TABLES=false).",
    ),
) -> None:
    """Apply the schema migrations the database lacks, as the owner (LEDGER_DATABASE_URL).

    Idempotent: each migration runs once, in order, and is recorded in
    ledger_schema_migrations (services/storage/migrations.py).  With --service-role, earlier grants to that role are replaced
    by SELECT/INSERT on the append-only tables (never UPDATE, DELETE or
    TRUNCATE), the updates the side tables and views need, the events
    sequences and the events-lock function (services/storage/roles.py).
    """
    from projections.runner import SetupRequiredError
    from services.cli.locate import probe_database
    from services.runtime.bootstrap import setup_database
    from services.storage.roles import ServiceRoleError

    settings = Settings()
    if settings.database_url:  # PostgreSQL's reason, not the pool's timeout
        probe_database(settings.database_url)
    try:
        report = setup_database(settings, service_role)
    except (SetupRequiredError, ServiceRoleError) as exc:
        console.print(f"[red]{exc}[/]")
        raise typer.Exit(2) from None
    for name in report.migrated:
        console.print(f"applied migration {name}")
    console.print(
        f"[green]schema at version {report.schema_version}: "
        "tables, triggers and functions are in place[/]"
    )
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
        console.print(
            f"[yellow]not granted (unknown to services/storage/roles.py)[/]: {', '.join(report.not_granted)}"
        )
