"""``IoPool``: how async code runs a blocking call (a store read, a snapshot
write, a view query) in the server's one thread pool.

Why one helper: the ledger, its recording tail and every servicer await
blocking work the same way and in the same pool (the ledger's, a thread per
database connection), so the pool's size bounds all of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")


class IoPool:
    """Awaitable ``fn(*args)`` in ``executor`` (``None``: the loop's default)."""

    def __init__(self, executor: Executor | None) -> None:
        self.executor = executor

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, partial(fn, *args))
