"""``ledger``: run the service and inspect the ledger from a terminal.

One module per command group; importing them registers their commands on
``services.cli.root.app``.  A new command group is a new module here plus one
entry in ``COMMANDS``.
"""

from __future__ import annotations

import importlib
import os

# gRPC core logs at INFO to stderr (e.g. "skipping fork() handlers" when the
# embedded PostgreSQL stops); set before grpc is first imported.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

from services.cli.root import app

COMMANDS = (
    "serve",
    "games",
    "demo",
    "ratings",
    "stats",
    "tournament",
    "projections",
    "db",
    "bench",
)
for _name in COMMANDS:
    importlib.import_module(f"services.cli.{_name}")


def main() -> None:
    app()


__all__ = ["app", "main"]
