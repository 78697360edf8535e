"""A client over several ``ledger serve`` processes: round-robin start, failover.

What a client of the stateless tier does (``deploy/local/``,
``docs/scale-out.md``): client ``index`` starts on server ``index % n``; an
``UNAVAILABLE`` or ``DEADLINE_EXCEEDED`` answer moves it to the next server
and re-raises, so the caller resends the *same* request (same command id)
there.  Idempotent ``SubmitMove`` makes that safe when the dead server had
committed the move before dying.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import grpc

from services.api.client import Connection

FAILOVER = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


class _Channels:
    def __init__(self, connections: list[Connection]) -> None:
        self._connections = connections

    def close(self) -> None:
        for conn in self._connections:
            conn.channel.close()


class FailoverConnection:
    """Duck-types :class:`services.api.client.Connection` (``call``, ``channel.close``)."""

    def __init__(self, targets: list[str], index: int = 0) -> None:
        self.targets = targets
        self._connections = [Connection.open(t) for t in targets]
        self.current = index % len(targets)
        self.channel = _Channels(self._connections)
        self.answered: Counter[str] = Counter()
        """Calls each target answered (any status but a failover one)."""
        self.failovers = 0

    def call(
        self, method: str, request: Any, token: str | None = None, **kw: Any
    ) -> Any:
        target = self.targets[self.current]
        try:
            answer = self._connections[self.current].call(method, request, token, **kw)
        except grpc.RpcError as exc:
            if exc.code() in FAILOVER:
                self.current = (self.current + 1) % len(self.targets)
                self.failovers += 1
            else:
                self.answered[target] += 1
            raise
        self.answered[target] += 1
        return answer


def connect(target: str, index: int = 0) -> Any:
    """One target: a plain :class:`Connection`; ``"a,b,c"``: a :class:`FailoverConnection`."""
    targets = target.split(",")
    if len(targets) == 1:
        return Connection.open(target)
    return FailoverConnection(targets, index)
