"""An authorization header no gRPC client library would send, over raw HTTP/2.

grpc clients refuse to send a header value with a NUL or a non-ASCII byte,
so the server's answer to one is tested with a hand-built HTTP/2 request
(h2): a refused credential is UNAUTHENTICATED, never INTERNAL.
"""

from __future__ import annotations

import socket
import struct
from typing import Any

import h2.config
import h2.connection
import h2.events
import pytest

from ledger.v1 import game_service_pb2 as pb

pytestmark = pytest.mark.e2e

UNAUTHENTICATED = "16"
INVALID_ARGUMENT = "3"


def raw_call(port: int, authorization: bytes) -> dict[bytes, bytes]:
    """``ListGames`` with ``authorization`` as sent: the trailers (or headers)."""
    body = pb.ListGamesRequest(page_size=1).SerializeToString()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        conn = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=True, validate_outbound_headers=False)
        )
        conn.initiate_connection()
        conn.send_headers(
            1,
            [
                (b":method", b"POST"),
                (b":scheme", b"http"),
                (b":path", b"/ledger.v1.GameService/ListGames"),
                (b":authority", f"127.0.0.1:{port}".encode()),
                (b"content-type", b"application/grpc"),
                (b"te", b"trailers"),
                (b"authorization", authorization),
            ],
        )
        conn.send_data(1, struct.pack(">BI", 0, len(body)) + body, end_stream=True)
        sock.sendall(conn.data_to_send())
        found: dict[bytes, bytes] = {}
        while True:
            data = sock.recv(65536)
            if not data:
                return found
            for event in conn.receive_data(data):
                if isinstance(
                    event, h2.events.ResponseReceived | h2.events.TrailersReceived
                ):
                    found.update((bytes(k), bytes(v)) for k, v in event.headers)
                if isinstance(event, h2.events.StreamEnded | h2.events.StreamReset):
                    return found
            sock.sendall(conn.data_to_send())


@pytest.mark.parametrize(
    "authorization",
    [
        b"Bearer \x00abc",
        "Bearer jeton-\u00e9t\u00e9".encode(),
        b"Bearer \xff\xfe",
        b"\x00",
    ],
    ids=["NUL", "UTF-8", "not UTF-8", "only NUL"],
)
def test_an_unreadable_authorization_header_is_unauthenticated(
    grpc_server: Any, authorization: bytes
) -> None:
    answer = raw_call(grpc_server.port, authorization)
    assert answer.get(b"grpc-status") == UNAUTHENTICATED.encode(), answer


def test_a_readable_unknown_token_is_unauthenticated_the_same_way(
    grpc_server: Any,
) -> None:
    answer = raw_call(grpc_server.port, b"Bearer not-a-token")
    assert answer.get(b"grpc-status") == UNAUTHENTICATED.encode(), answer
