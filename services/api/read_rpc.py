"""What every read RPC shares: the views it waits on and its request checks.

The replay, rating and stats services are separate modules (one gRPC service
each); this one holds what they have in common, so none imports another.
:class:`ReadModels` is the read-your-writes wait (``min_read_token``) and
the one way a read runs a view query (on the views' datastore, which may be
a replica: see :mod:`services.storage.read_replica`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from domain.contract.core import InvalidCommandError
from projections.runner import ViewRunner, ViewStatus, wait_for_position
from services.api import page_tokens, read_tokens
from services.api.auth import current_principal
from services.ledger.io_pool import IoPool


def parse_page_size(value: int, default: int, maximum: int) -> int:
    """The page size asked for (0 means ``default``): one bound for every read RPC.

    :raises InvalidCommandError: outside ``1..maximum``.
    """
    size = value or default
    if not 1 <= size <= maximum:
        raise InvalidCommandError(f"page_size must be between 1 and {maximum}")
    return size


@dataclass(frozen=True)
class Page:
    """The page an offset-paged read RPC was asked for, checked.

    Every such RPC reads one row more than it shows (:attr:`limit`): that row
    is how it knows whether to hand out a next page token.  ``bound`` are the
    request's filters the token is signed with, so a token from one listing
    cannot page through another (:func:`services.api.page_tokens.offset`).
    """

    kind: str
    size: int
    offset: int
    bound: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def asked(
        cls,
        kind: str,
        request: Any,
        default: int = 50,
        maximum: int = 500,
        **bound: Any,
    ) -> Page:
        """The page ``request`` (its ``page_size`` and ``page_token``) asks of
        RPC ``kind``.

        :raises InvalidCommandError: for a page size outside ``1..maximum``.
        :raises PageTokenError: for a token not issued for this listing.
        """
        size = parse_page_size(request.page_size, default, maximum)
        offset = page_tokens.offset(kind, request.page_token, **bound)
        return cls(kind, size, offset, bound)

    @property
    def limit(self) -> int:
        """Rows to read: the page and one to tell whether another follows."""
        return self.size + 1

    def shown(self, rows: Sequence[Any]) -> Sequence[Any]:
        """The rows of ``rows`` (read with :attr:`limit`) this page shows."""
        return rows[: self.size]

    def next_token(self, rows: Sequence[Any]) -> str:
        """The next page's token, ``""`` when ``rows`` show this is the last."""
        return page_tokens.after_page(
            self.kind, self.offset, self.size, len(rows), **self.bound
        )


def from_row(message: Any, row: Mapping[str, Any] | Any, **fields: Any) -> Any:
    """A ``message`` whose fields are ``row``'s columns of the same names
    (columns it has no field for are left out), and ``fields`` for the rest.
    ``row`` is a view row, or a domain value (a model or a dataclass) whose
    fields are its columns.

    The views and the domain values name their columns as the messages name
    their fields, so a message restates only what it converts or renames.
    """
    names = message.DESCRIPTOR.fields_by_name
    columns = row if isinstance(row, Mapping) else vars(row)
    copied = {k: v for k, v in columns.items() if k in names and k not in fields}
    return message(**copied, **fields)


def known_game(name: str) -> None:
    """Reject an unknown game type up front, before waiting for the views.

    :raises UnknownGameError: as :func:`domain.games.find_game`.
    """
    from domain.games import find_game

    find_game(name)


class ReadModels:
    """The views a read RPC may wait on for read-your-writes."""

    def __init__(
        self,
        datastore: Any,
        runners: Sequence[ViewRunner],
        executor: Any,
        primary: ViewRunner | None = None,
    ) -> None:
        self.datastore = datastore
        self.runners = list(runners)
        self._run = IoPool(executor)
        self._primary = primary
        """A runner on the primary: the log's head is read there, since a
        replica's lags behind positions this server has already returned."""

    async def catch_up_to(
        self, position: int, context: Any, views: Sequence[str] = ()
    ) -> None:
        """Wait until the views named in ``views`` (every view when empty)
        have applied ``position`` (read-your-writes).

        Only the views a read reads: one view stopped at an event it cannot
        apply fails the reads of that view, never those of another.

        A position past the log's head waits for the head instead: no call
        returned it, and refusing it (or waiting for it to the deadline)
        told anyone where the head is, so a binary search over this field
        timed every move of a game whose spectators are held back.  Now the
        answer is the same for every position at or past the head.
        """
        if position <= 0:
            return
        runners = [r for r in self.runners if not views or r.view.name in views]
        head_of = self._primary or (self.runners[0] if self.runners else None)
        target = position
        if head_of is not None:
            target = min(position, await self._run(_log_head, head_of))
        remaining = context.time_remaining()
        timeout = 10.0 if remaining is None else max(0.0, remaining - 0.05)
        if not await self._run(wait_for_position, runners, target, timeout):
            stopped = [
                s.view
                for s in await self._run(lambda: [r.status() for r in runners])
                if s.stalled is not None and s.stalled.position <= target
            ]
            if stopped:
                await context.abort(
                    grpc.StatusCode.FAILED_PRECONDITION,
                    f"view {stopped[0]} stopped before this write at an event "
                    "it cannot apply; an operator must repair the log "
                    "(`ledger projections status`)",
                )
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                "the views have not reached this write yet",
            )

    async def statuses(self) -> list[ViewStatus]:
        """Each view's position and stop, if any (for the health service)."""
        return list(await self._run(lambda: [r.status() for r in self.runners]))

    async def read(
        self,
        request: Any,
        context: Any,
        fn: Any,
        *args: Any,
        views: Sequence[str] = (),
    ) -> Any:
        """:meth:`query`, once ``views`` (the ones ``fn`` reads) have applied
        the write the request names (:func:`requested_position`)."""
        await self.catch_up_to(requested_position(request), context, views)
        return await self.query(fn, *args)

    async def read_page(
        self,
        request: Any,
        context: Any,
        page: Page,
        fn: Any,
        *args: Any,
        views: Sequence[str] = (),
    ) -> Any:
        """:meth:`read` of a paged query: ``fn(curs, *args, limit, offset)``."""
        return await self.read(
            request, context, fn, *args, page.limit, page.offset, views=views
        )

    async def query(self, fn: Any, *args: Any) -> Any:
        def run() -> Any:
            with self.datastore.transaction(commit=False) as curs:
                return fn(curs, *args)

        return await self._run(run)


def requested_position(request: Any) -> int:
    """The log position a read request asks the views to reach: the one
    sealed in its ``min_read_token`` (issued to this caller, see
    :mod:`services.api.read_tokens`), or its deprecated ``min_log_position``.

    :raises ReadTokenError: for a read token not issued to this caller.
    """
    sealed = read_tokens.position(request.min_read_token, current_principal.get())
    return max(sealed, request.min_log_position)


def _log_head(runner: ViewRunner) -> int:
    return int(runner.status().head)
