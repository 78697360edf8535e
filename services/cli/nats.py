"""``ledger nats setup``: the JetStream stream, created by the NATS admin.

Why a command of its own, run with credentials the servers do not hold:
whoever may create the stream may also purge or delete it
(:mod:`services.live.nats_stream`).  The servers' NATS user may only
publish to the games' subjects and follow them.
"""

from __future__ import annotations

import asyncio
import os

import typer

from services.cli.failures import USAGE, UserError
from services.cli.root import console, nats_app

ADMIN_USER = "LEDGER_NATS_ADMIN_USER"
ADMIN_PASSWORD = "LEDGER_NATS_ADMIN_PASSWORD"


@nats_app.command("setup")
def nats_setup(
    replicas: int = typer.Option(
        1,
        min=1,
        max=5,
        help="Copies of the stream: 3 on a three-node NATS cluster (one node may be lost).",
    ),
    timeout: float = typer.Option(
        10.0, min=0.5, help="Seconds to wait for NATS to connect and answer."
    ),
) -> None:
    """Create the stream LEDGER_GAMES, or update it to this release's settings.

    Connects to LEDGER_NATS_URL (several URLs, comma-separated, for a
    cluster) as LEDGER_NATS_ADMIN_USER with LEDGER_NATS_ADMIN_PASSWORD (TLS as
    for the servers: LEDGER_NATS_TLS_CA, ...).  Idempotent: run it at every
    deployment, before or after the servers start (they pick the stream up).
    """
    from services.live.nats_options import NatsOptions
    from services.runtime.placeholders import refuse_placeholder
    from services.runtime.settings import Settings

    settings = Settings()
    if not settings.nats_url:
        raise UserError("set LEDGER_NATS_URL (the NATS to set up)", USAGE)
    user = os.environ.get(ADMIN_USER) or None
    password = os.environ.get(ADMIN_PASSWORD)
    if password is not None:
        try:
            refuse_placeholder(password, ADMIN_PASSWORD)
        except ValueError as exc:
            raise UserError(str(exc), USAGE) from None
    base = NatsOptions.from_settings(settings)
    options = NatsOptions(
        user=user,
        password=password if user else None,
        tls_ca=base.tls_ca,
        tls_cert=base.tls_cert,
        tls_key=base.tls_key,
    )
    from services.live.nats_stream import StreamSetupError, set_up

    try:
        done = asyncio.run(set_up(settings.nats_url, options, replicas, timeout))
    except StreamSetupError as exc:
        raise UserError(str(exc)) from None
    console.print(
        f"[green]JetStream stream LEDGER_GAMES {done}[/]: {replicas} "
        f"{'replica' if replicas == 1 else 'replicas'}, file storage"
    )
