"""The one cache of decided games: read-through, LRU by count, vouched fresh.

Why one: moves, ``GetGame``, ``ListLegalMoves`` and live streams all want
"the game now" without a round trip.  This cache owns the only copy a process
keeps and the only rule for when it may answer: an entry is current while
:class:`~services.ledger.heads.Heads` (fed by the LISTEN/NOTIFY connection) vouches
that no process has recorded a newer version since the entry's epoch.
Otherwise :meth:`GameCache.load` reads the store: the events after the held
version (one small SELECT) or, for a game not held, snapshot plus events.

Why shells: entries are shared between threads and never mutated.  Every
caller gets :func:`shell`, a private copy whose state objects are the same
immutable values; a move decides on its shell and :meth:`GameCache.committed`
publishes that shell as the new entry, replacing the old one whole.

The redacted views and legal-move lists are pure functions of (game, version,
viewer or seat), so the cache keeps them too (:meth:`view`,
:meth:`legal_moves`): computed once per version and viewer, whoever asks.

Why the derived values and the recent events live beside the entries, in
smaller LRUs, and not in them: with 10,000 open games (most idle) they were
two thirds of what a held game cost (a tail of ~16 event objects and a list
of legal-move models each, ~17 of ~28 KiB).  Both serve games being played
now, so they are kept for the most recently used :data:`DERIVED_GAMES` and
:data:`TAIL_GAMES` games only, and each viewer or seat keeps one version (the
newest asked): a game's derived values of an older version go when a newer
one is computed.  An idle game costs its decided state and little else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.ledger.aggregate import Game
from services.ledger.lru import Lru

if TYPE_CHECKING:
    from services.ledger.heads import Heads
    from services.storage.store import LedgerStore

RECENT_EVENTS = 16
"""Events kept per game for live streams: a wake-up usually needs only the last
move's few; older ones are read from the store (bounded memory per game)."""
TAIL_GAMES = 1024
"""Games whose recent events are kept (the most recently written or read)."""
DERIVED_GAMES = 1024
"""Games whose views and legal moves are kept (the most recently asked)."""

V = TypeVar("V")


class GameNotFoundError(LookupError):
    """Raised when no game has the requested id."""


def shell(game: Game) -> Game:
    """A private copy of a shared aggregate: states are immutable, so only the
    shell and its pending-events list need copying before deciding a move."""
    copy = object.__new__(Game)
    copy.__dict__.update(game.__dict__)
    copy._pending_events = []
    return copy


@dataclass(frozen=True, slots=True)
class _Entry:
    game: Game
    epoch: int
    """:attr:`Heads.epoch` taken before ``game`` was read or committed."""


class GameCache:
    def __init__(
        self,
        size: int,
        heads: Heads,
        store: LedgerStore,
        rebuild: Callable[[UUID, int | None], Game],
        tail_games: int = TAIL_GAMES,
        derived_games: int = DERIVED_GAMES,
    ) -> None:
        self._entries: Lru[UUID, _Entry] = Lru(size)
        self._seeds: Lru[UUID, bytes] = Lru(max(size, 1) * 8)
        self._tails: Lru[UUID, tuple[Any, ...]] = Lru(tail_games)
        """The last events up to some version, contiguous (never empty)."""
        self._derived: Lru[UUID, dict[Any, tuple[int, Any]]] = Lru(derived_games)
        """Per game: (kind, viewer or seat) -> (version, value), one version each."""
        self._heads = heads
        self._store = store
        self._rebuild = rebuild
        """Snapshot plus events from the store (eventsourcing's repository)."""

    # ------------------------------------------------------------ games

    def vouched(self, game_id: UUID) -> Game | None:
        """The game now if memory can vouch for it (no I/O), else ``None``."""
        entry = self._vouched_entry(game_id)
        return None if entry is None else shell(entry.game)

    def load(self, game_id: UUID, at: int | None = None) -> Game:
        """The game now (vouched, or read from the store), or at version ``at``.

        :raises GameNotFoundError:
        """
        if at is not None:
            return self._rebuilt(game_id, at)
        entry = self._vouched_entry(game_id)
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
        entry = self._vouched_entry(game_id)
        if entry is None and self._entries.get(game_id) is not None:
            entry = self._refresh(game_id)
        if entry is None:
            game = self.load(game_id)
            return game, self._store.events(game_id, after, game.version, limit)
        return self._tail(entry, after, limit) or (
            shell(entry.game),
            self._store.events(game_id, after, entry.game.version, limit),
        )

    def vouched_since(
        self, game_id: UUID, after: int, limit: int = 256
    ) -> tuple[Game, list[Any]] | None:
        """:meth:`since` if memory can answer it alone (no I/O), else ``None``."""
        entry = self._vouched_entry(game_id)
        return None if entry is None else self._tail(entry, after, limit)

    def committed(self, game: Game, epoch: int, new_events: list[Any]) -> None:
        """This process committed ``new_events`` on top of the game's previous
        version: publish ``game`` (the shell they were decided on), known
        current since ``epoch`` (taken before the commit)."""
        if self._publish(game, epoch).game is game:
            self._extend_tail(game.id, new_events)

    def doubt(self, game_id: UUID) -> None:
        """A commit on the game went unanswered (its connection lost or cut,
        its caller gone): it may be stored or not, so the held copy is no
        longer vouched for, and the next call reads what the store has
        beyond it.  Only its epoch changes: a later NOTIFY or refresh
        corrects it as usual."""
        entry = self._entries.get(game_id)
        if entry is not None and entry.epoch != 0:
            self._entries.put(game_id, _Entry(entry.game, 0))  # 0: never vouched

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
        value: V = self._derive(game, ("view", viewer), lambda: compute(game, viewer))
        return value

    def legal_moves(self, game: Game, seat: int) -> Any:
        """The seat's legal moves now: empty when it is not to act, and while
        an arbiter holds the game paused (a move offered then would only be
        refused with ``game.paused``)."""

        def compute() -> Any:
            acting = not game.is_over and not game.paused and seat in game.to_act()
            return game.ruleset.legal_moves(game.state, seat) if acting else ()

        return self._derive(game, ("moves", seat), compute)

    def held_derived(self, game_id: UUID) -> dict[Any, int]:
        """(kind, viewer or seat) -> the version whose value is held (for tests
        and diagnostics)."""
        slot = self._derived.get(game_id) or {}
        return {key: version for key, (version, _) in slot.items()}

    def _derive(self, game: Game, key: Any, compute: Callable[[], Any]) -> Any:
        """The value held for ``key`` at ``game.version``, else ``compute()``,
        kept unless a newer version's is held (one version per key)."""
        slot = self._derived.get(game.id)
        held = None if slot is None else slot.get(key)
        if held is not None and held[0] == game.version:
            return held[1]
        value = compute()
        if held is None or held[0] < game.version:  # replaced whole: never mutated
            self._derived.put(game.id, {**(slot or {}), key: (game.version, value)})
        return value

    # ------------------------------------------------------------ inside

    def _vouched_entry(self, game_id: UUID) -> _Entry | None:
        entry = self._entries.get(game_id)
        if entry is not None and self._heads.is_newest(
            game_id, entry.game.version, entry.epoch
        ):
            return entry
        return None

    def _refresh(self, game_id: UUID) -> _Entry:
        """Read what the store has beyond the held entry (or the whole game)."""
        epoch = self._heads.epoch  # before the read: it is current since then
        old = self._entries.get(game_id)
        if old is None:
            return self._publish(self._rebuilt(game_id, None), epoch)
        events = self._store.events(game_id, old.game.version)
        if not events:
            return self._publish(old.game, epoch)
        game = shell(old.game)
        for event in events:
            event.mutate(game)
        entry = self._publish(game, epoch)
        if entry.game is game:
            self._extend_tail(game_id, events)
        return entry

    def _extend_tail(self, game_id: UUID, events: list[Any]) -> None:
        """Keep ``events`` (just published) after the held tail they continue."""
        held = self._tails.get(game_id)
        tail = tuple(events)
        if held and held[-1].originator_version == events[0].originator_version - 1:
            tail = held + tail
        self._tails.put(game_id, tail[-RECENT_EVENTS:])

    def _tail(
        self, entry: _Entry, after: int, limit: int
    ) -> tuple[Game, list[Any]] | None:
        game = entry.game
        if after >= game.version:
            return shell(game), []
        recent = self._tails.get(game.id)
        if (  # a tail up to this very version, reaching back to ``after``
            recent
            and recent[-1].originator_version == game.version
            and recent[0].originator_version <= after + 1
        ):
            tail = [e for e in recent if e.originator_version > after]
            return shell(game), tail[:limit]
        return None

    def _rebuilt(self, game_id: UUID, at: int | None) -> Game:
        try:
            return self._rebuild(game_id, at)
        except AggregateNotFoundError:
            raise GameNotFoundError(f"game {game_id} not found") from None

    def _publish(self, game: Game, epoch: int) -> _Entry:
        old = self._entries.get(game.id)
        if old is not None and old.game.version > game.version:
            return old  # a slower reader must not replace a newer write
        entry = _Entry(game, epoch)
        self._entries.put(game.id, entry)
        return entry
