"""The HTTP/2 transport's limits: the grpc core options ``ledger serve`` sets.

Why a module of its own: these are the limits a call meets before any of our
code runs, so a wrong default here fails silently.  grpc core queues calls
that have arrived but that the ``grpc.aio`` server has not picked up yet (it
starts one call per turn of its loop); past ``grpc.server.max_pending_requests``
(1,000 by default) it cancels new ones with ``CANCELLED``.  A burst of a few
thousand spectators opening ``StreamGameEvents`` on a busy server lost streams
that way, with no log line and a status their clients read as their own
cancellation (docs/decisions.md, "Pending calls").  The queue is bounded by
``LEDGER_PENDING_CALLS`` instead, with the hard limit (over which grpc refuses
with ``RESOURCE_EXHAUSTED``) at twice that.
"""

from __future__ import annotations

from services.proto import limits


def server_options(workers: int, pending_calls: int) -> list[tuple[str, int]]:
    """The options for one of ``workers`` processes sharing a port."""
    return [
        ("grpc.so_reuseport", 1 if workers > 1 else 0),
        ("grpc.max_receive_message_length", limits.MAX_REQUEST_BYTES),
        ("grpc.server.max_pending_requests", pending_calls),
        ("grpc.server.max_pending_requests_hard_limit", 2 * pending_calls),
    ]
