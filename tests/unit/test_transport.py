"""The HTTP/2 options ``ledger serve`` gives grpc core."""

from __future__ import annotations

from services.api import transport
from services.proto import limits


def test_the_server_does_not_probe_bandwidth_and_bounds_requests() -> None:
    options = dict(transport.server_options(1, 100))
    assert options["grpc.http2.bdp_probe"] == 0
    assert options["grpc.max_receive_message_length"] == limits.MAX_REQUEST_BYTES
    assert options["grpc.server.max_pending_requests"] == 100
    assert options["grpc.server.max_pending_requests_hard_limit"] == 200


def test_workers_share_the_port_and_a_single_server_does_not() -> None:
    assert dict(transport.server_options(2, 100))["grpc.so_reuseport"] == 1
    assert dict(transport.server_options(1, 100))["grpc.so_reuseport"] == 0
