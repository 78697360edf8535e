"""A graceful drain: what a call meets while its server is stopping.

Why: a rolling restart, a scale-down or ``docker stop`` sends SIGTERM to a
server that is in the middle of moves and holds live streams.  Killing it
there leaves its clients to find out by timeouts; waiting for the streams
never ends (a spectator's stream lasts the game).  On SIGTERM the server
(:meth:`services.runtime.server.Running.stop`):

1. reports ``NOT_SERVING`` for every service, for good (health checks and
   load balancers stop sending calls);
2. refuses each new call with ``UNAVAILABLE`` (reason ``DRAINING``, with
   ``RetryInfo``), which a client of several servers retries on the next;
3. ends every live stream the same way, so spectators resume on another
   server with ``after_version`` = the last version they got;
4. lets each call already running finish, up to ``LEDGER_DRAIN_SECONDS``,
   while it still answers new ones ``UNAVAILABLE``; once none is left (and
   at most :data:`SETTLE` seconds more for the clients to move away) it
   stops grpc, so a drain lasts as long as its calls in flight, not the
   window.

A move is never half stored: it commits in one transaction or not at all,
and a client that saw ``UNAVAILABLE`` resends the same ``command_id``
elsewhere, which answers the stored move if the commit happened.  The
health service's own ``Watch`` is ended last, so a watcher sees the
``NOT_SERVING`` before its stream closes.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

HEALTH_PREFIX = "/grpc.health.v1.Health/"
MESSAGE = "server draining (shutting down): retry on another server"
QUIET = 0.5
"""Seconds without a new call after which a draining server's clients have
moved away (each refused call moves its client; see :meth:`Drain.finish`)."""
SETTLE = 1.5
"""Most seconds a drain waits, once its calls in flight have answered, for
clients that keep calling to move away."""


def _draining_status() -> Any:
    info = error_details_pb2.ErrorInfo(domain="ledger.v1", reason="DRAINING")
    retry = error_details_pb2.RetryInfo(
        retry_delay=duration_pb2.Duration(nanos=100_000_000)
    )
    details = []
    for message in (info, retry):
        packed = any_pb2.Any()
        packed.Pack(message)
        details.append(packed)
    return rpc_status.to_status(
        status_pb2.Status(code=code_pb2.UNAVAILABLE, message=MESSAGE, details=details)
    )


class Drain:
    """The drain switch of one server, the calls in flight and the live streams."""

    def __init__(self) -> None:
        self.draining = False
        self._streams: dict[asyncio.Task[Any], bool] = {}
        """Each live stream's task, and whether it is a health ``Watch``."""
        self.in_flight = 0
        """Unary calls still to answer (counted by :mod:`services.api.call_gate`)."""
        self._last_call = 0.0

    def start(self) -> None:
        """Refuse new calls and end every live stream but health's (idempotent)."""
        self.draining = True
        self._end_streams(health=False)

    async def finish(self, seconds: float) -> None:
        """Wait for the calls in flight to answer (up to ``seconds``), then
        briefly for the clients to stop calling, then end health's streams.

        A drain ends when its calls in flight end: clients that keep calling
        (each refused call is cheap) do not hold it to the full window.
        Why the short wait after: once grpc shuts down, a call its core has
        received but not yet handed to us is cancelled with ``CANCELLED``,
        which a client reads as its own doing.  While we wait, each new call
        is answered ``UNAVAILABLE``, so well-behaved clients move to another
        server first; :data:`QUIET` seconds without a new call, or at most
        :data:`SETTLE` seconds, and the drain is over.  A ``CANCELLED`` that
        still slips through is retried like ``UNAVAILABLE`` (the client rule
        in ``deploy/README.md``, "Graceful drain").
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline and self.in_flight:
            await asyncio.sleep(0.02)
        settle = min(deadline, loop.time() + SETTLE)
        while loop.time() < settle and (
            self.in_flight or loop.time() - self._last_call < QUIET
        ):
            await asyncio.sleep(0.02)
        self._end_streams(health=True)

    def _end_streams(self, health: bool) -> None:
        for task, is_health in list(self._streams.items()):
            if is_health == health:
                task.cancel(MESSAGE)

    async def refuse(self, context: Any) -> None:
        await context.abort_with_status(_draining_status())

    async def admit(self, context: Any, health: bool) -> None:
        """A new call: refused while draining.  One that is not health's also
        tells :meth:`finish` that the clients have not all moved away;
        health's calls are never refused (a prober must see NOT_SERVING)."""
        if not health:
            self._last_call = asyncio.get_running_loop().time()
            if self.draining:
                await self.refuse(context)

    @contextlib.contextmanager
    def stream(self, health: bool = False) -> Any:
        """Around a stream's body: its task is ended by :meth:`start` (or,
        for health's ``Watch``, by :meth:`finish`)."""
        task = asyncio.current_task()
        assert task is not None
        self._streams[task] = health
        try:
            yield
        finally:
            self._streams.pop(task, None)
