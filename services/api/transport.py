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

Bandwidth probing is off (``grpc.http2.bdp_probe``): grpc core otherwise
pings the client from time to time while it receives data, to grow its
receive window for large uploads.  The largest request this server accepts
is 1 MiB and a move is a few hundred bytes, so there is nothing to grow, and
with the probe off the server measured fewer CPU milliseconds per move and
more moves per second (docs/performance.md, "Levers pulled").  The price: a
request near 1 MiB over a long link takes a few more round trips, at the
default window, than a probed window would.
"""

from __future__ import annotations

from pathlib import Path

import grpc

from services.proto import limits


def server_options(workers: int, pending_calls: int) -> list[tuple[str, int]]:
    """The options for one of ``workers`` processes sharing a port."""
    return [
        ("grpc.so_reuseport", 1 if workers > 1 else 0),
        ("grpc.max_receive_message_length", limits.MAX_REQUEST_BYTES),
        ("grpc.server.max_pending_requests", pending_calls),
        ("grpc.server.max_pending_requests_hard_limit", 2 * pending_calls),
        ("grpc.http2.bdp_probe", 0),
    ]


def server_credentials(
    cert: Path, key: Path, client_ca: Path | None = None
) -> grpc.ServerCredentials:
    """TLS with ``cert``/``key`` (PEM); with ``client_ca``, mutual TLS.

    With a client CA, a client must present a certificate that CA signed:
    the TLS handshake refuses any other before a call exists (the client
    sees ``UNAVAILABLE``).  Bearer tokens still decide what a caller may do;
    the certificate only decides who may connect.
    """
    return grpc.ssl_server_credentials(
        [(key.read_bytes(), cert.read_bytes())],
        root_certificates=client_ca.read_bytes() if client_ca else None,
        require_client_auth=client_ca is not None,
    )


def client_credentials(
    roots: Path | None,
    cert: Path | None = None,
    key: Path | None = None,
) -> grpc.ChannelCredentials:
    """TLS for a client: trusting ``roots`` (PEM; None: the system's CAs),
    presenting ``cert``/``key`` to a mutual-TLS server when given."""
    return grpc.ssl_channel_credentials(
        root_certificates=roots.read_bytes() if roots else None,
        private_key=key.read_bytes() if key else None,
        certificate_chain=cert.read_bytes() if cert else None,
    )
