"""Thorgal: The Board Game (1-4 players, cooperative) as a pure decider.

Content (the sample adventure) is data in ``content/sample.json``; mechanics
are code.  Rule decisions taken where the rulebook is silent or pictorial:

- Solo: one player holds seats 0 and 1 and plays two characters; everything
  counting players counts 2.  Turn ``k`` of a round goes to seat
  ``(first + k) % seats``.
- Action chips belong to Action Row *slots*: a swap never moves a chip, and
  "a different Action card" means a different slot.
- A swap replaces the row card sharing the new card's first main action; the
  row is re-sorted by card number.  Special Action cards attach to an action
  type, so they follow their card through swaps.
- Bonus "+" and Special/Event/Item/Skill modifiers fold into one action
  context; extra actions resolve after the main action with value
  ``n x count``; effect bonuses resolve after those.
- Items (``items.py``) are single-use and tied to an action type ("any" =
  the multicolored icon); each is used at a moment the rulebook allows, and
  each moment is a move: ``before`` Items at the start of their action
  (Journey step 1: never partway through a Journey); Combat Items once the
  Enemy card is drawn and before the roll (dice and upgrades "before the
  Combat roll"), and Items adding no dice or upgrades also after the roll
  ("may be resolved before or after the Combat roll"); ``after`` Items
  (printed "After resolving an action") once their action is resolved.  An
  Item's effects resolve when it is used ("rolls 1 additional die, gains 1
  Good and then discards the Item"); extra actions it grants come after the
  action.  The Skill follows the same Combat timings.
- Heal: ``heal n arg=k`` discards up to ``n`` Wound tiles of size at most
  ``k`` (blank: any size), one at a time, never splitting a tile; a covered
  Heal space is an unspecified Heal (any 1 tile).  The sample's Heals are
  single tiles with a size limit.
- The Skill flips back only by paying its refresh goods, and is used at most
  once per round.  The refresh ("at any time") is offered only in its
  owner's ``prepare`` step (before their action or their Combat roll).
- Move: the player chooses destination and route.  Routes are simple paths
  within the value; per destination only routes not dominated in (Red, Blue)
  crossings are offered, each as ``MoveTo{area, reds, blues}``.  A Red border triggers the adventure's red
  effect per crossing; a Blue border costs the adventure's good per crossing,
  payable by any consenting character in the mover's Area.  Closed Areas (number
  above the round) cannot be entered or crossed.  No destination = no effect.
- Journey: the value is the number of tiles; the first tile must touch the
  leftmost column; later tiles touch the last tile and lie at or right of the
  path's rightmost column.  Collect tokens block Journey tiles.
- Collect: cells ``R``/``Y`` show an Area-specific icon with a penalty; the
  penalty resolves once.  Several sources: the player picks one good type.
- Assign: only goods still required may be assigned; another character's
  goods need that owner's ``agree`` (a move by the owner); a refusal excludes
  that owner for the rest of the action.  Assigning stops when the
  requirement is met.  Placing a Cost token on a Location needing several
  good types asks which good it raises (``cost_good``).
- Spending goods (Side Plots, Blue borders, Skill refreshes) follows
  ``payments.py``: the payer picks who pays each unit among characters in
  the Area (``pay_from``); another owner must ``agree`` (``pay_consent``).
  Nothing is spent until every unit has a payer; a cancel or running out of
  payers drops what the payment was for (``TasksDropped``).
- Sacrifice cover tokens depict a Sacrifice of ``I2``.
- Combat: value adds ``value - 1`` yellow dice; tiles are placed one by one,
  each touching the tiles already placed; unplaceable tiles are dropped.
  Die order: yellow < orange < red < black.  Merged enemies: the fighting
  player lays the drawn cards out left to right (``enemy_order``).
- Losing goods "as a group" ("all Characters together must discard 3 total")
  is an effect on every character, wherever they are, not spending from
  another's supply: the consent rule is written for spending ("Each time you
  spend Goods ... from any Character's supply that is present in your Area,
  as long as they agree"), and a mandatory discard cannot be refused.  Who
  discards is an ambiguity ("players can choose any of these ways"), chosen
  unit by unit by the acting player (``group_pay``); no consent is asked.
- Unfulfilled negative effects are resolved as far as possible, then give
  each affected character a 1-cell Wound (``I1``), placed by its owner as any
  Wound.  A good you do not have affects you (alone) or every character (as a
  group).  Board effects (place an Enemy, Blockade, Cost or Sacrifice cover
  token where no Location qualifies; Upgrade with no Enemy token to upgrade)
  affect every character, whoever triggered them (an Event, an Entry read in
  an action): they refer to no single Character ("If the game effect refers to
  a single Character, they are the only Character that gains the Wound"), and
  the rulebook's one board case wounds all ("If you must Upgrade a Massive, all
  Characters resolve the Unfulfilled effect (gain 1 Wound) instead").  "Place
  N tokens/Enemies" places them one at a time, each a choice; if some cannot
  be placed the effect is unfulfilled (one Wound each, not one per token).  A 6th
  Threat becomes a Wound of size equal to the Threat count (5).  Degrading a
  Minor, or with no token, does nothing.  Mystical tokens are never upgraded.
- Experience beyond level 7 gives the bonus of the chosen track.
- Event phase choices are made by the First player; immediate effects of the
  new Event resolve before the adventure's special-round effects.  Event deck:
  the second deck when the team holds at least ``threat_switch`` Threats.  Empty
  decks reshuffle their discard (recorded); the Terrain deck never reshuffles.
- Side Plots cost 1 ``plot_cost`` good, paid as above.  A Location whose effect read an Entry gets an Entry token and
  cannot be used again.
- Sample adventure tuning: 8 rounds; the Citadel opens in round 3 and touches
  the Village; the Warlord is a Moderate enemy.  A goal-directed team wins
  it reliably and random legal play wins a few percent of games (the first
  random win of the fixed seed sweep ``i.to_bytes(32)`` is seed 68).
- Moves are typed: no JSON strings, so any client reads them from reflection.  Every open question
  (``Pending``) lists its answers as typed ``Option`` messages (a ``oneof``:
  ``GiveGood{from_seat, good}``, ``PickEnemy{location, index}``,
  ``MoveTo{area, reds, blues}``, ``Proceed{}`` for "go on / skip / done" ...,
  see ``commands.Option``); ``Choose{option}`` answers with one of them verbatim, so
  the view, ``ListLegalMoves`` and ``SubmitMove`` use one form.  Tile questions
  list ``shapes`` and are answered by ``PlaceTile{shape, rotation, mirrored,
  row, col}``: mirror left-right if ``mirrored``, then ``rotation`` quarter
  turns clockwise, top-left corner of the bounding box on ``(row, col)``.
  Poses covering the same cells are the same move (accepted either way);
  ``legal_commands`` lists each placement once, with its first pose
  (unmirrored, fewest turns).  Option text names (``give:1:ore``) exist only
  for tests and logs (``options.notation``), never on the wire.
- Stored events are the game's facts; the resolution stack is not logged
  step by step.  ``decide`` runs the stack privately (``Ctx.tasks``); the
  state needs it only where resolution stops for a player, so each stop is
  one ``ChoiceOffered`` event (the question with its typed options, plus the
  steps still to resolve after the answer) and each answer a ``ChoiceMade``.
  ``evolve`` takes the stack from ``ChoiceOffered`` and empties it at
  ``TurnBegan``/``AdventureEnded`` (where it is empty), so replay without the
  seed rebuilds the exact state, and never runs rule logic.  The die of the
  ``roll_wound`` effect is its own fact (``WoundRolled``).  A stop's event
  carries the stack, not a diff, because the stack is short (a few tasks) and
  a replay can then start from any stop.
- Outcome: a win gives every seat rank 1; a loss is ``TEAM_LOST`` with no
  winners and every seat rank 1.
"""

from __future__ import annotations

from domain.contract.core import Example, Ruleset
from domain.games import kit

from .state import ThorgalState

GAME: Ruleset[ThorgalState] = kit.ruleset(
    __name__,
    title="Thorgal: The Board Game",
    min_players=1,
    max_players=4,
    content_label_aliases=("SAMPLE CONTENT: The Warlord of the Fjord",),
    examples=(
        Example("thorgal-solo", {"players": 1}),
        Example("thorgal-2p", {"players": 2}),
        Example("thorgal-3p", {"players": 3}),
        Example("thorgal-4p", {"players": 4}),
    ),
)

__all__ = ["GAME"]
