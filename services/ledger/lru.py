"""A bounded LRU by count, shared by the game cache's maps.

Why not ``functools.lru_cache`` or ``cachetools``: the cache needs explicit
``put``/``pop`` from several threads without a lock, and values replaced whole.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A bounded LRU by count; each operation is atomic under the GIL, so
    readers need no lock (a value is replaced whole, never changed)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            try:
                self._items.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile
                pass
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        try:
            self._items.move_to_end(key)
        except KeyError:
            pass
        while len(self._items) > self._size:
            try:
                self._items.popitem(last=False)
            except KeyError:
                break
        return value

    def pop(self, key: K) -> None:
        self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)
