"""The NATS admin's step in tests: the stream, made as ``ledger nats setup`` makes it.

The servers never create the stream (their NATS user may not): a test that
starts its own ``nats-server`` runs this first, and again after a NATS that
lost its store comes back.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from services.live.nats_options import NatsOptions
from services.live.nats_stream import StreamSetupError, set_up


def setup_stream(
    url: str,
    user: str | None = None,
    password: str | None = None,
    tls_ca: Path | None = None,
    replicas: int = 1,
    within: float = 30.0,
) -> str:
    """Create (or update) the stream, retrying while JetStream starts; what was done."""
    options = NatsOptions(user=user, password=password, tls_ca=tls_ca)
    deadline = time.monotonic() + within
    while True:
        try:
            return asyncio.run(set_up(url, options, replicas, 3.0))
        except StreamSetupError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
