"""Prometheus metrics an operator alerts on (``deploy/prometheus/``, ``deploy/grafana/``).

Why here and not at each call site: the dashboards and rules name these
series, and ``tests/deploy/test_manifests.py`` checks every name they use is
one of ours.  Move rate and p99 latency come from one histogram of unary
calls, timed by :mod:`services.api.call_gate` around everything else (the
token lookup included), labelled by method and final status code.  Streams
are not timed (they last as long as the viewer watches); they are counted.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

RPC_SECONDS = Histogram(
    "ledger_rpc_duration_seconds",
    "Unary gRPC calls, from receipt to answer, by method and status code",
    ["method", "code"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
STREAM_SUBSCRIBERS = Gauge(
    "ledger_stream_subscribers",
    "Open StreamGameEvents calls waiting for a game's next events in this process",
)
DATABASE_ERRORS = Counter(
    "ledger_database_errors_total",
    "Calls answered UNAVAILABLE because PostgreSQL was unreachable, and failed health probes",
    ["source"],
)
TAIL_EVENTS = Counter(
    "ledger_stream_tail_events",
    "Events sent to live streams from the JetStream tail (no PostgreSQL read)",
)
TAIL_RECEIVED = Counter(
    "ledger_stream_tail_received",
    "Records this server's JetStream consumers delivered, in time or late "
    "(a consumer delivering nothing leaves it flat; one always late leaves "
    "only the tail events flat)",
)
DATABASE_UP = Gauge(
    "ledger_database_up",
    "1 while the health probe reaches PostgreSQL (grpc.health.v1 SERVING), else 0",
)
DATABASE_UP.set(1)
SIGNER_REFUSALS = Counter(
    "ledger_signer_refusals_total",
    "Heads the signer refused to sign because it had signed another history of the "
    "game (a rollback in the database): any increase is an alarm",
)
CHECKPOINTS = Counter(
    "ledger_checkpoints_total",
    "Checkpoints signed (a Merkle root over every game's signed head)",
)
