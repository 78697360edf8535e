"""Thorgal events: past tense, one fact each.

The resolution stack (``ThorgalState.tasks``) is not logged push by push: a
decision runs it inside ``decide`` and only the facts are stored.  The stack
matters to the state only where resolution stops for a player, so each such
stop is one event, ``ChoiceOffered`` (the question, its typed options and the
steps still to resolve after the answer), and each answer is ``ChoiceMade``.
Replay sets the stack from ``ChoiceOffered`` and clears it at ``TurnBegan``
and ``AdventureEnded`` (the stack is empty there), so it needs no rule logic
and no seed.
"""

from __future__ import annotations

from domain.contract.core import Event

from .commands import Option
from .state import Act, Combat, Pending, Task


class AdventureStarted(Event):
    seats: int
    characters: tuple[str, ...]
    first: int


class DeckShuffled(Event):
    """A deck was (re)shuffled; ``cards`` is its hidden order (admins only)."""

    deck: str
    cards: tuple[str, ...] = ()
    from_discard: bool = False
    size: int = 0
    hidden: bool = False


class CardsDrawn(Event):
    """Top cards of ``deck`` went ``to`` terrain / display / event / discard / combat."""

    deck: str
    cards: tuple[str, ...]
    to: str


class CardDiscarded(Event):
    deck: str
    card: str
    source: str = ""
    """``display`` when it left the Item Display."""


class TasksDropped(Event):
    """A payment was cancelled or ran out of payers: the ``n`` steps it paid for
    are not resolved."""

    n: int


class ChoiceOffered(Event):
    """Resolution stops for a player: the open question, with its typed options,
    and the steps still to resolve once it is answered (``tasks``, next first)."""

    pending: Pending
    tasks: tuple[Task, ...] = ()


class ChoiceMade(Event):
    """``seat`` answered a ``kind`` question: with ``option`` (``Choose``), or, for
    a tile, with the placement recorded by the next event."""

    seat: int
    kind: str
    option: Option | None = None


class TurnBegan(Event):
    round: int
    turn: int
    seat: int


class ChipPlaced(Event):
    seat: int
    chip: int
    slot: int
    card: str
    option: int = 0


class ActionPrepared(Event):
    act: Act


class ActionEnded(Event):
    seat: int
    action: str


class CharacterMoved(Event):
    seat: int
    area: str
    borders: int


class GoodsGained(Event):
    seat: int
    good: str
    n: int


class GoodsSpent(Event):
    seat: int
    good: str
    n: int


class WoundPlaced(Event):
    seat: int
    shape: str
    cells: tuple[int, ...]


class WoundRolled(Event):
    """The ``roll_wound`` effect rolled a ``die`` that shows the Wound ``shape``."""

    seat: int
    die: str
    shape: str


class WoundHealed(Event):
    seat: int
    index: int


class ThreatsChanged(Event):
    seat: int
    threats: int


class ExperienceGained(Event):
    seat: int
    track: str
    level: int


class ItemGained(Event):
    seat: int
    item: str
    source: str
    """``display``, ``deck`` or ``start``."""


class ItemUsed(Event):
    seat: int
    item: str


class SkillUsed(Event):
    seat: int
    round: int


class SkillRefreshed(Event):
    seat: int


class JourneyTilePlaced(Event):
    seat: int
    shape: str
    cells: tuple[int, ...]


class CollectTokenPlaced(Event):
    seat: int
    cell: int


class CollectTokensDiscarded(Event):
    cells: tuple[int, ...]


class GoodsAssigned(Event):
    location: str
    good: str
    from_seat: int


class AssignedGoodsDiscarded(Event):
    location: str
    goods: tuple[int, ...]


class EnemiesChanged(Event):
    location: str
    enemies: tuple[str, ...]


class LocationMarked(Event):
    location: str
    token: str
    """``blockade``, ``cover`` (sacrifice cover), ``cost`` or ``entry``."""
    good: str = ""
    """``cost`` only: the good whose requirement the token raises."""


class CombatBegan(Event):
    combat: Combat


class DiceRolled(Event):
    faces: tuple[int, ...]


class DieUpgraded(Event):
    index: int
    colour: str


class DieAdded(Event):
    colour: str


class DieRerolled(Event):
    index: int
    face: int


class CriticalActivated(Event):
    index: int


class CombatTilePlaced(Event):
    shape: str
    cells: tuple[int, ...]


class CombatTileDropped(Event):
    """No legal spot was left for these rolled tiles."""

    shapes: tuple[str, ...]


class CombatEnded(Event):
    won: bool
    uncovered: int


class EntryRead(Event):
    entry: str
    title: str
    text: str


class SidePlotChosen(Event):
    entry: str
    plot: int


class ActionCardSwapped(Event):
    old: str
    new: str
    row: tuple[str, ...]


class SpecialCardGained(Event):
    card: str


class RoundAdvanced(Event):
    round: int


class ChipsFlipped(Event):
    pass


class FirstPlayerPassed(Event):
    first: int


class AdventureEnded(Event):
    won: bool
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = tuple(
    cls
    for cls in list(globals().values())
    if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
)
