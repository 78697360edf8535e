"""The one cache of decided games: read-through, LRU by count, vouched fresh.

Why one: moves, ``GetGame``, ``ListLegalMoves`` and live streams all want
"the game now" without a round trip.  This cache owns the only copy a process
keeps and the only rule for when it may answer: an entry is current while
:class:`~services.heads.Heads` (fed by the LISTEN/NOTIFY connection) vouches
that no process has recorded a newer version since the entry's epoch.
Otherwise :meth:`GameCache.load` reads the store: the events after the held
version (one small SELECT) or, for a game not held, snapshot plus events.

Why shells: entries are shared between threads and never mutated.  Every
caller gets :func:`shell`, a private copy whose state objects are the same
immutable values; a move decides on its shell and :meth:`GameCache.recorded`
publishes that shell as the new entry, replacing the old one whole.

The redacted views and legal-move lists are pure functions of (game, version,
viewer or seat), so the cache keeps them too (:meth:`view`,
:meth:`legal_moves`): computed once per version and viewer, whoever asks.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.aggregate import Game

if TYPE_CHECKING:
    from services.heads import Heads
    from services.store import LedgerStore

RECENT_EVENTS = 16
"""Events kept per game for live streams: a wake-up usually needs only the last
move's few; older ones are read from the store (bounded memory per game)."""

K = TypeVar("K")
V = TypeVar("V")


class GameNotFoundError(LookupError):
    """Raised when no game has the requested id."""


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


def shell(game: Game) -> Game:
    """A private copy of a shared aggregate: states are immutable, so only the
    shell and its pending-events list need copying before deciding a move."""
    copy = object.__new__(Game)
    copy.__dict__.update(game.__dict__)
    copy._pending_events = []
    return copy


@dataclass(frozen=True)
class _Entry:
    game: Game
    epoch: int
    """:attr:`Heads.epoch` taken before ``game`` was read or committed."""
    recent: tuple[Any, ...]
    """The last events up to ``game.version``, contiguous (may be empty)."""


class GameCache:
    def __init__(
        self,
        size: int,
        heads: Heads,
        store: LedgerStore,
        rebuild: Callable[[UUID, int | None], Game],
    ) -> None:
        self._entries: Lru[UUID, _Entry] = Lru(size)
        self._seeds: Lru[UUID, bytes] = Lru(max(size, 1) * 8)
        self._views: Lru[tuple[UUID, int, Any], Any] = Lru(20_000)
        self._moves: Lru[tuple[UUID, int, int], Any] = Lru(20_000)
        self._heads = heads
        self._store = store
        self._rebuild = rebuild
        """Snapshot plus events from the store (eventsourcing's repository)."""

    # ------------------------------------------------------------ games

    def current(self, game_id: UUID) -> Game | None:
        """The game now if memory can vouch for it (no I/O), else ``None``."""
        entry = self._vouched(game_id)
        return None if entry is None else shell(entry.game)

    def load(self, game_id: UUID, at: int | None = None) -> Game:
        """The game now (vouched, or read from the store), or at version ``at``.

        :raises GameNotFoundError:
        """
        if at is not None:
            return self._rebuilt(game_id, at)
        entry = self._vouched(game_id)
        return shell((entry or self._refresh(game_id)).game)

    def refresh(self, game_id: UUID) -> Game:
        """The game as the store has it now, whatever memory vouches for (after
        a conflict or a refusal that a stale copy may explain).

        :raises GameNotFoundError:
        """
        return shell(self._refresh(game_id).game)

    def since(
        self, game_id: UUID, after: int, limit: int = 256
    ) -> tuple[Game, list[Any]]:
        """The game now and up to ``limit`` of its events after ``after``.

        From memory when it can vouch for all of them; a held game memory
        cannot vouch for is first brought up to date (one read of what it
        lacks, which usually covers ``after`` too); otherwise the store.
        """
        entry = self._vouched(game_id)
        if entry is None and self._entries.get(game_id) is not None:
            entry = self._refresh(game_id)
        if entry is None:
            game = self.load(game_id)
            return game, self._store.events(game_id, after, game.version, limit)
        return self._tail(entry, after, limit) or (
            shell(entry.game),
            self._store.events(game_id, after, entry.game.version, limit),
        )

    def current_since(
        self, game_id: UUID, after: int, limit: int = 256
    ) -> tuple[Game, list[Any]] | None:
        """:meth:`since` if memory can answer it alone (no I/O), else ``None``."""
        entry = self._vouched(game_id)
        return None if entry is None else self._tail(entry, after, limit)

    def recorded(self, game: Game, epoch: int, new_events: list[Any]) -> None:
        """This process committed ``new_events`` on top of the game's previous
        version: publish ``game`` (the shell they were decided on), known
        current since ``epoch`` (taken before the commit)."""
        old = self._entries.get(game.id)
        recent: tuple[Any, ...] = ()
        if old is not None and old.game.version == new_events[0].originator_version - 1:
            recent = old.recent
        self._publish(game, epoch, (recent + tuple(new_events))[-RECENT_EVENTS:])

    def held_version(self, game_id: UUID) -> int | None:
        """The version held in memory, vouched for or not (for tests and
        diagnostics: never an answer to a read)."""
        entry = self._entries.get(game_id)
        return None if entry is None else entry.game.version

    def seed(self, game_id: UUID) -> bytes:
        """The game's secret seed (server side only).

        :raises GameNotFoundError:
        """
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self._store.seed(game_id)
            if seed is None:
                raise GameNotFoundError(f"game {game_id} not found")
            self._seeds.put(game_id, seed)
        return seed

    def held_seed(self, game_id: UUID) -> bytes | None:
        return self._seeds.get(game_id)

    def remember_seed(self, game_id: UUID, seed: bytes) -> None:
        self._seeds.put(game_id, seed)

    # ------------------------------------------------------------ derived

    def view(self, game: Game, viewer: Any, compute: Callable[[Game, Any], V]) -> V:
        """``compute(game, viewer)``, once per (game, version, viewer)."""
        key = (game.id, game.version, viewer)
        found = self._views.get(key)
        return (
            found if found is not None else self._views.put(key, compute(game, viewer))
        )

    def legal_moves(self, game: Game, seat: int) -> Any:
        """The seat's legal moves now (empty when it is not to act)."""
        key = (game.id, game.version, seat)
        found = self._moves.get(key)
        if found is None:
            acting = not game.is_over and seat in game.to_act()
            found = self._moves.put(
                key, game.ruleset.legal_moves(game.state, seat) if acting else ()
            )
        return found

    # ------------------------------------------------------------ inside

    def _vouched(self, game_id: UUID) -> _Entry | None:
        entry = self._entries.get(game_id)
        if entry is not None and self._heads.current(
            game_id, entry.game.version, entry.epoch
        ):
            return entry
        return None

    def _refresh(self, game_id: UUID) -> _Entry:
        """Read what the store has beyond the held entry (or the whole game)."""
        epoch = self._heads.epoch  # before the read: it is current since then
        old = self._entries.get(game_id)
        if old is None:
            game = self._rebuilt(game_id, None)
            recent: tuple[Any, ...] = ()
        else:
            events = self._store.events(game_id, old.game.version)
            game, recent = old.game, old.recent
            if events:
                game = shell(game)
                for event in events:
                    event.mutate(game)
                recent = (recent + tuple(events))[-RECENT_EVENTS:]
        return self._publish(game, epoch, recent)

    @staticmethod
    def _tail(entry: _Entry, after: int, limit: int) -> tuple[Game, list[Any]] | None:
        game, recent = entry.game, entry.recent
        if after >= game.version:
            return shell(game), []
        if recent and recent[0].originator_version <= after + 1:
            tail = [e for e in recent if e.originator_version > after]
            return shell(game), tail[:limit]
        return None

    def _rebuilt(self, game_id: UUID, at: int | None) -> Game:
        try:
            return self._rebuild(game_id, at)
        except AggregateNotFoundError:
            raise GameNotFoundError(f"game {game_id} not found") from None

    def _publish(self, game: Game, epoch: int, recent: tuple[Any, ...]) -> _Entry:
        old = self._entries.get(game.id)
        if old is not None and old.game.version > game.version:
            return old  # a slower reader must not replace a newer write
        entry = _Entry(game, epoch, recent)
        self._entries.put(game.id, entry)
        return entry
