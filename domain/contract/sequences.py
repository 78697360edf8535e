"""Sized, indexable sequences of legal commands that are never materialised.

Why: "choose 7 of 20 Remnants" has 77,520 legal selections.  A generator
forces a pager to rebuild the list from the start for every page (page 776
cost 470 ms); these sequences answer ``len`` and any index directly, by
unranking combinations in ``itertools.combinations`` order, so a page
anywhere costs what the first page costs and a uniform random sample is
``rnd.sample(range(len(seq)), n)``.  A ruleset exposes one through
``Ruleset.legal_sequence``; services stay rule-blind and just index it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from math import comb
from typing import Any, TypeVar, overload

T = TypeVar("T")


class _Indexed(Sequence[T]):
    """Slicing and iteration on top of ``__len__`` and ``_at(index)``."""

    def _at(self, index: int) -> T:
        raise NotImplementedError

    def _run(self, start: int, stop: int) -> Iterator[T]:
        """Items ``start..stop-1``; subclasses step faster than one ``_at`` each."""
        for i in range(start, stop):
            yield self._at(i)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1:
                return list(self._run(start, max(start, stop)))
            return [self._at(i) for i in range(start, stop, step)]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._at(index)

    def __iter__(self) -> Iterator[T]:
        return self._run(0, len(self))


class Combinations(_Indexed[tuple[Any, ...]]):
    """``itertools.combinations(items, k)`` as a sequence: len and unranking.

    >>> c = Combinations("abcde", 3)
    >>> len(c), c[0], c[-1], c[4]
    (10, ('a', 'b', 'c'), ('c', 'd', 'e'), ('a', 'c', 'e'))
    >>> import itertools
    >>> list(c) == list(itertools.combinations("abcde", 3))
    True
    """

    def __init__(self, items: Sequence[Any], k: int) -> None:
        self._items = tuple(items)
        self._k = k
        self._len = comb(len(self._items), k) if 0 <= k else 0

    def __len__(self) -> int:
        return self._len

    def _run(self, start: int, stop: int) -> Iterator[tuple[Any, ...]]:
        """Unrank ``start`` once, then step to each next combination (O(k))."""
        if start >= stop:
            return
        n, k = len(self._items), self._k
        picked = self._positions(start)
        for _ in range(stop - start):
            yield tuple(self._items[i] for i in picked)
            i = k - 1
            while i >= 0 and picked[i] == i + n - k:
                i -= 1
            if i < 0:
                return
            picked[i] += 1
            for j in range(i + 1, k):
                picked[j] = picked[j - 1] + 1

    def _at(self, index: int) -> tuple[Any, ...]:
        return tuple(self._items[i] for i in self._positions(index))

    def _positions(self, index: int) -> list[int]:
        """The item positions of combination number ``index`` (lexicographic)."""
        n, k, out, start = len(self._items), self._k, [], 0
        for picked in range(k):
            remaining = k - picked - 1
            for i in range(start, n):
                block = comb(n - i - 1, remaining)  # combinations starting with i
                if index < block:
                    out.append(i)
                    start = i + 1
                    break
                index -= block
        return out


class Chain(_Indexed[T]):
    """Sequences one after another (e.g. subsets of every size).

    >>> list(Chain([Combinations("ab", 0), Combinations("ab", 1)]))
    [(), ('a',), ('b',)]
    """

    def __init__(self, parts: Sequence[Sequence[T]]) -> None:
        self._parts = [p for p in parts if len(p)]
        self._len = sum(len(p) for p in self._parts)

    def __len__(self) -> int:
        return self._len

    def _at(self, index: int) -> T:
        for part in self._parts:
            if index < len(part):
                return part[index]
            index -= len(part)
        raise IndexError(index)

    def _run(self, start: int, stop: int) -> Iterator[T]:
        for part in self._parts:
            size = len(part)
            if start < size and stop > 0:
                yield from part[max(start, 0) : min(stop, size)]
            start, stop = start - size, stop - size


class Mapped(_Indexed[T]):
    """``make(item)`` for every item of ``base``, computed only when indexed.

    >>> Mapped(Combinations("abc", 2), "".join)[2]
    'bc'
    """

    def __init__(self, base: Sequence[Any], make: Callable[[Any], T]) -> None:
        self._base = base
        self._make = make

    def __len__(self) -> int:
        return len(self._base)

    def _at(self, index: int) -> T:
        return self._make(self._base[index])

    def _run(self, start: int, stop: int) -> Iterator[T]:
        for item in self._base[start:stop]:
            yield self._make(item)
