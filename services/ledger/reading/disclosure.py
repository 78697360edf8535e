"""What a caller may see of one game right now: the single disclosure policy.

Every read of a game (``GetGame``, ``StreamGameEvents``, ``SubmitMove``'s
answer, ``ListFrames``, ``StreamReplay``, ``ExportGame``, the dashboard's
pages) asks :func:`disclose` and presents events and views through the
:class:`~domain.contract.core.Viewer` it returns, so no entrypoint can reveal
more, or less, than another.

The policy (``docs/decisions.md``, "Leaks: what is public when"):

- **While a game runs**, a seat token sees its own seats' secrets, the admin
  everything, anyone else (no token, another game's token, a tournament
  token) only public information; chain hashes only to the admin (an unsalted
  hash of a record with a hidden hand could be brute-forced).
- **While a game with a spectator delay runs** (``domain/ledger/spectator.py``),
  spectators see it that many moves or seconds behind; players and the
  admin keep the live view.
- **Once it has ended, everything is public** to everyone: hands, hidden
  selections, deck orders and hashes.  The concluding event reveals the seed,
  and every shuffle and draw is derivable from it, so redacting anything
  after the end would hide nothing from a determined reader while stopping
  players and organisers from checking the game themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from domain.contract.core import ADMIN, Viewer
from domain.ledger.spectator import Mark, marks_of, parse_delay, visible_version

if TYPE_CHECKING:
    from uuid import UUID

    from domain.ledger.aggregate import Game
    from services.ledger.callers import Principal


@dataclass(frozen=True)
class Disclosure:
    """How one caller sees one game at one moment."""

    viewer: Viewer
    """Redact events and views for this viewer."""
    show_hashes: bool
    """Whether chain hashes may be shown."""
    upto: int
    """The newest version this caller may see (below the head for a spectator
    of a game with a spectator delay)."""


def is_delayed_for(principal: Principal, head: Game) -> bool:
    """Whether the spectator delay applies to this caller now (then
    :func:`disclose` needs the game's decision marks)."""
    return (
        not head.is_over
        and bool(head.spectator_delay)
        and principal.viewer_for(head.id).is_spectator
    )


def disclose(
    principal: Principal,
    head: Game,
    marks: Callable[[], Sequence[Mark]] | None = None,
    now: datetime | None = None,
) -> Disclosure:
    """The caller's disclosure of the game whose newest state is ``head``.

    ``head`` must be the game *now* (not a past version): whether it has
    ended decides what is public, for past versions too.  ``marks`` gives the
    game's decision marks; it is called only when :func:`is_delayed_for`.

    :raises ValueError: for a delayed game and no ``marks``.
    """
    if head.is_over:
        return Disclosure(ADMIN, True, head.version)
    viewer = principal.viewer_for(head.id)
    upto = head.version
    if is_delayed_for(principal, head):
        delay = parse_delay(head.spectator_delay)
        if delay is not None:
            if marks is None:
                raise ValueError("a delayed game's disclosure needs its decision marks")
            upto = visible_version(delay, marks(), now or datetime.now(UTC))
    return Disclosure(viewer, principal.admin, upto)


class SpectatorWindow:
    """:func:`disclose` with the decision marks read from the ledger (and
    kept, per game, growing with the log), plus the spectator's game itself.

    The one helper every reader of "the game as this caller may see it now"
    uses (through :class:`~services.ledger.reading.game_reads.GameReads`).
    :meth:`disclose` and :meth:`game_for` block (they may read the store);
    :meth:`sight` is their async twin, which hops to the ledger's executor
    only when the delay applies.
    """

    def __init__(self, ledger: Any, size: int = 2_000) -> None:
        self._ledger = ledger
        self._size = size
        self._marks: dict[UUID, list[Mark]] = {}

    def marks(self, game_id: UUID, head_version: int) -> list[Mark]:
        """Decision marks up to ``head_version`` (always a decision boundary:
        a move's events are saved together)."""
        known = self._marks.get(game_id, [])
        have = known[-1].version if known else 0
        if have < head_version:
            known = known + marks_of(
                self._ledger.store.events(game_id, have, head_version)
            )
            if game_id not in self._marks and len(self._marks) >= self._size:
                self._marks.pop(next(iter(self._marks)))
            self._marks[game_id] = known
        return [m for m in known if m.version <= head_version]

    def disclose(
        self, principal: Principal, head: Game, now: datetime | None = None
    ) -> Disclosure:
        return disclose(principal, head, lambda: self.marks(head.id, head.version), now)

    async def sight(self, principal: Principal, head: Game) -> Disclosure:
        """:meth:`disclose` for async callers: no thread hop unless delayed."""
        if is_delayed_for(principal, head):
            sight: Disclosure = await self._ledger.io(self.disclose, principal, head)
            return sight
        return disclose(principal, head)

    def game_for(self, principal: Principal, game_id: UUID) -> tuple[Game, Disclosure]:
        """The game as ``principal`` may see it now (the head, or for a
        delayed spectator the version they may see) and how to present it."""
        head = self._ledger.load(game_id)
        sight = self.disclose(principal, head)
        if sight.upto < head.version:
            return self._ledger.load(game_id, sight.upto), sight
        return head, sight
