"""The JetStream stream the servers publish to, managed by an admin, never by them.

Why the servers do not declare it: a NATS user that may create or update a
stream may also purge or delete it, and publish anything into it.  The
servers' user (``ledger`` in ``deploy/nats/users.conf``) may publish to the
games' subjects and follow them, nothing more; the stream is created and
updated by ``ledger nats setup``, run with the NATS admin's credentials by
whoever deploys (``deploy/local/up.sh`` does it on loopback).  A server that
finds no stream logs how to create it and keeps reading PostgreSQL.
"""

from __future__ import annotations

import asyncio
from typing import Any

STREAM = "LEDGER_GAMES"
SUBJECTS = "ledger.games.*"
TAIL = 64
"""Events kept per game, in JetStream (per subject) and in each server's tail."""
MAX_AGE = 3600.0
"""Seconds a published event stays in the stream (a catch-up reads PostgreSQL)."""
DUPLICATE_WINDOW = 120.0
"""Seconds JetStream drops a second publish of one message id (a retried publish)."""
MISSING = (
    f"JetStream stream {STREAM} does not exist: the NATS admin creates it "
    "with `ledger nats setup`"
)


def stream_config(replicas: int) -> Any:
    """The stream: file storage (it outlives a NATS restart), ``replicas`` copies."""
    from nats.js.api import StorageType, StreamConfig

    return StreamConfig(
        name=STREAM,
        subjects=[SUBJECTS],
        max_msgs_per_subject=TAIL,
        max_age=MAX_AGE,
        storage=StorageType.FILE,
        duplicate_window=DUPLICATE_WINDOW,
        num_replicas=replicas,
    )


def server_urls(url: str) -> list[str]:
    """``LEDGER_NATS_URL`` as a list: a cluster is named by several URLs, comma-separated."""
    return [part.strip() for part in url.split(",") if part.strip()]


async def declare(js: Any, replicas: int) -> str:
    """Create the stream, or update it to this configuration; what was done."""
    from nats.js.errors import NotFoundError

    config = stream_config(replicas)
    try:
        await js.stream_info(STREAM)
    except NotFoundError:
        await js.add_stream(config)
        return "created"
    await js.update_stream(config)
    return "updated"


class StreamSetupError(Exception):
    """NATS could not be reached, or refused the stream's setup: the reason, in one line."""


async def set_up(url: str, options: Any, replicas: int, timeout: float) -> str:
    """Connect as ``options`` (the admin) and :func:`declare` the stream; what was done.

    :raises StreamSetupError: naming NATS's reason (refused connection,
        authorization, permissions, no JetStream).
    """
    import nats
    from nats.errors import NoServersError

    from services.live.nats_options import reason

    failures: list[str] = []

    async def on_error(exc: Exception) -> None:
        failures.append(reason(exc))

    try:
        nc = await asyncio.wait_for(
            nats.connect(
                server_urls(url),
                allow_reconnect=False,
                connect_timeout=max(1, int(timeout)),
                error_cb=on_error,
                name="ledger-admin",
                **options.connect_arguments(url),
            ),
            timeout,
        )
    except (TimeoutError, NoServersError, OSError, nats.errors.Error) as exc:
        why = failures[-1] if failures else reason(exc)
        raise StreamSetupError(f"cannot connect to NATS at {url}: {why}") from None
    try:
        return await declare(nc.jetstream(timeout=timeout), replicas)
    except Exception as exc:  # noqa: BLE001 - NATS's answer, in one line
        why = failures[-1] if failures else reason(exc)
        raise StreamSetupError(f"NATS refused the stream setup: {why}") from None
    finally:
        await nc.close()
