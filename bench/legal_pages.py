"""Cost of a ``ListLegalMoves`` page by its position in a huge list.

The Thalara hand selection has 77,520 legal moves.  Pages used to be cut
from a generator rebuilt from the start, so the last page cost ~100x the
first; with indexable legal-move sequences a page anywhere should cost about
what the first costs.  This measures the median client-observed latency of a
100-move page at offsets 0, 50% and 99% of the list (same game, same seat,
a different page each call, walking away from the offset), and a
``sample`` of 100 random moves, and reports
the ratios to the first page.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import grpc

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.api import legal_pages
from services.api.client import Connection, create

PAGE = 100


def _median_ms(call: Any, repeats: int) -> float:
    """Median of ``call(i)`` for i in 1..repeats (after one warm-up call)."""
    call(0)  # the first call of a version builds the game's sequence
    times = []
    for i in range(1, repeats + 1):
        t0 = time.perf_counter()
        call(i)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def page_costs(target: str, repeats: int, admin_token: str) -> dict[str, Any]:
    """Page cost at 0%, 50% and 99% of the Thalara hand selection.

    The bench signs its own page tokens for arbitrary offsets (a client can
    only follow ``next_page_token``): it holds the server's admin token, from
    which the server derives its page-token key.
    """
    from services.api import page_tokens

    page_tokens.configure(admin_token)
    channel = grpc.insecure_channel(target)
    conn = Connection(channel, pb_grpc.GameServiceStub(channel))
    table = create(conn, "thalara", players=2)
    token = table.tokens[0]
    first = conn.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, page_size=PAGE),
        token,
    )
    total = first.total_size

    def page_at(start: int, step: int) -> Any:
        # a different page each call: encoded moves are cached by value, and
        # a repeated page would measure the cache, not the seek
        def call(i: int) -> Any:
            offset = start + step * i
            request = pb.ListLegalMovesRequest(
                game_id=table.game_id,
                page_size=PAGE,
                page_token=legal_pages.page_token(
                    table.game_id, first.version, first.seat, offset
                )
                if offset
                else "",
            )
            return conn.call("ListLegalMoves", request, token)

        return call

    starts = {
        "0%": page_at(0, PAGE),
        "50%": page_at(total // 2, PAGE),
        "99%": page_at((total * 99) // 100, -PAGE),
    }
    ms = {name: _median_ms(call, repeats) for name, call in starts.items()}
    sample = pb.ListLegalMovesRequest(game_id=table.game_id, sample=PAGE)
    ms["sample"] = _median_ms(
        lambda i: conn.call("ListLegalMoves", sample, token), repeats
    )
    channel.close()
    base = ms["0%"]
    return {
        "status": "ok",
        "total_size": total,
        "page_size": PAGE,
        "repeats": repeats,
        "median_ms": {k: round(v, 2) for k, v in ms.items()},
        "ratio_to_first": {k: round(v / base, 2) for k, v in ms.items() if base},
    }
