"""``ledger``: run the service and inspect the ledger from a terminal.

One module per command group; importing them registers their commands on
``services.cli.root.app``.  A new command group is a new module here plus one
entry in ``COMMANDS``.

Commands that live outside ``services/`` (``ledger bench`` in ``bench/``)
are plugins: an installed distribution names a ``register(app)`` callable in
the ``ledger.commands`` entry point group, so ``services`` never imports them.
"""

from __future__ import annotations

import importlib
import os
import sys
from importlib.metadata import entry_points

# gRPC core logs at INFO to stderr (e.g. "skipping fork() handlers" when the
# embedded PostgreSQL stops); set before grpc is first imported.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

from services.cli.root import app

COMMANDS = (
    "serve",
    "games",
    "endings",
    "replay",
    "play",
    "demo",
    "ratings",
    "stats",
    "tournament",
    "arbiter",
    "draws",
    "projections",
    "db",
    "nats",
)
for _name in COMMANDS:
    importlib.import_module(f"services.cli.{_name}")

#: The entry point group plugins register their commands through.
PLUGIN_GROUP = "ledger.commands"


def load_plugins() -> list[str]:
    """Register every ``ledger.commands`` entry point on ``app``; their names.

    A plugin that fails to load (an optional extra missing, say) costs only its
    own command: ``ledger serve`` must not depend on the benchmark's imports.
    """
    loaded = []
    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        try:
            ep.load()(app)
        except Exception as exc:  # noqa: BLE001 - one broken plugin, not the CLI
            print(
                f"ledger: command {ep.name!r} unavailable ({type(exc).__name__}: {exc})",
                file=sys.stderr,
            )
            continue
        loaded.append(ep.name)
    return loaded


PLUGINS = load_plugins()


def main() -> None:
    app()


__all__ = ["app", "main"]
