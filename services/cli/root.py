"""The ``ledger`` Typer app, its command groups and the console they print to.

Every command module (``services/cli/<group>.py``) imports ``app`` or a group
from here and registers its commands; ``services/cli/__init__.py`` imports the
modules.  Adding a command is one module plus one line in ``COMMANDS`` there
(or, outside ``services/``, a ``ledger.commands`` entry point).

Errors are handled once, here: :class:`LedgerGroup` wraps every command, so a
user mistake prints one line (``services/cli/failures.py``) and exits non-zero
whichever command raised it; only ``--debug`` shows a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from typer._click.exceptions import UsageError
from typer.core import TyperGroup, TyperOption
from typer.exceptions import TyperException

from services.cli import failures


@dataclass
class Flags:
    """The root options, read by the commands that care (serve, the handler)."""

    verbose: bool = False
    debug: bool = False


FLAGS = Flags()
#: Closed when the command ends, e.g. the database pools a command opened
#: (matters when commands run in-process, as in tests).
CLEANUP = contextlib.ExitStack()


# Typer 0.29 vendors click (``typer._click``): its usage errors are these, not
# the ``click`` package's, and Typer exports no public name for their base.


def usage_line(exc: UsageError) -> str:
    """A wrong command line as one line, pointing at the help that fixes it."""
    where = exc.ctx.command_path if exc.ctx is not None else "ledger"
    return f"{exc.format_message()} (see `{where} --help`)"


def _refuse_usage(exc: UsageError) -> typer.Exit:
    typer.secho(f"error: {usage_line(exc)}", err=True, fg="red")
    return typer.Exit(failures.USAGE)


class LedgerGroup(TyperGroup):
    """The root group: turns known exceptions into one line and an exit code.

    A wrong command line (unknown option or command, a bad value, a missing
    argument) is one line too, exit 2, instead of click's usage box: the
    root's own options are parsed in :meth:`parse_args`, every subcommand's
    inside :meth:`invoke`.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except UsageError as exc:
            raise _refuse_usage(exc) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            with CLEANUP:
                return super().invoke(ctx)
        except UsageError as exc:
            raise _refuse_usage(exc) from None
        except (typer.Exit, typer.Abort, TyperException):
            raise  # typer's own exits
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except Exception as exc:
            line, code = failures.describe(exc)
            if line is None and FLAGS.debug:
                raise
            if line is None:
                line = (
                    f"internal error: {type(exc).__name__}: {exc} "
                    "(run `ledger --debug ...` for the traceback)"
                )
            typer.secho(f"error: {line}", err=True, fg="red")
            raise typer.Exit(code) from None


# Typer 0.29 labels every flag ``<bool>`` in --help, though a flag takes no
# value; show nothing in the type column for flags, as click does.
_display_type_rich = TyperOption.display_type_rich


def _flag_aware_display_type(self: TyperOption, ctx: Any) -> str | None:
    return None if self.is_flag else _display_type_rich(self, ctx)


TyperOption.display_type_rich = _flag_aware_display_type  # type: ignore[method-assign]

app = typer.Typer(
    cls=LedgerGroup,
    help="Game Ledger: event-sourced, auditable tabletop games over gRPC.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)
console = Console()
if not console.is_terminal and "COLUMNS" not in os.environ:
    # piped or captured: rich would assume 80 columns and cut the game ids
    console.width = 160


def listing(
    columns: Sequence[str], rows: Iterable[Sequence[str]], title: str | None = None
) -> Table:
    """``rows`` (one string a cell) under ``columns``: every command that
    lists things prints one of these."""
    table = Table(*columns, title=title)
    for row in rows:
        table.add_row(*row)
    return table


@app.callback()
def _root(
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show the engine logs (PostgreSQL, gRPC)."
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Show a traceback for unexpected errors."
    ),
) -> None:
    """Game Ledger: event-sourced, auditable tabletop games over gRPC."""
    FLAGS.verbose, FLAGS.debug = verbose or debug, debug
    quiet_logging(FLAGS.verbose)


def quiet_logging(verbose: bool) -> None:
    """Warnings only, unless --verbose: the embedded PostgreSQL is chatty.

    ``pgserver`` logs every initdb/pg_ctl run at INFO with its full output, and
    platformdirs warns on every start when ``XDG_RUNTIME_DIR`` is unset (it
    falls back to /tmp, which is fine for us).
    """
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if verbose:  # ``serve --verbose`` after the root callback configured WARNING
        logging.getLogger().setLevel(level)
    else:
        from platformdirs.api import RuntimeDirWarning

        warnings.filterwarnings("ignore", category=RuntimeDirWarning)


def group(name: str, help: str) -> typer.Typer:
    """A ``ledger NAME ...`` command group, registered on the root app."""
    sub = typer.Typer(help=help, no_args_is_help=True)
    app.add_typer(sub, name=name)
    return sub


games_app = group("games", "Inspect stored games.")
projections_app = group("projections", "Inspect and rebuild the read models.")
db_app = group("db", "Set up the database: tables, triggers, grants.")
nats_app = group("nats", "Set up NATS JetStream for live fan-out (as the NATS admin).")
