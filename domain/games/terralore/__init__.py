"""Terralore (2 players): two lanes, castles with 10 HP, hidden simultaneous placement.

Turn structure as the rulebook prints it: Draw -> Play -> Reveal -> Counting.
Content (cards, named decks) is the SAMPLE pack in ``content/sample.json``.

Design
------
- One command, :class:`PlaceCards`: a seat's whole face-down placement for the
  turn (plays with lanes, the cost discards, the room-making destroys), which
  may be empty.  It is recorded as :class:`PlacementCommitted` with
  ``commitment = commit(nonce, canonical JSON of the plan)``; plan and nonce
  are redacted for everyone but the owner.  The second commitment of a turn
  also decides the whole Reveal, Counting and the next Draw phase.
- Cards of a committed plan stay in hand until the Reveal
  (:class:`PlacementRevealed`), so nothing about the plan leaks before it.

Rule decisions (where the rulebook is silent or ambiguous)
----------------------------------------------------------
1. Turn 1 has no draw (hands start at 4); from turn 2 both draw 2 at the start.
2. Hand limit 7: cards drawn while the hand holds 7 go straight to the
   Graveyard and are public (``CardsDrawn.burned``).
3. End of game with both castles above 0 (README): a player who must draw 2
   and has fewer than 2 cards in the deck has run out and loses; nothing is
   drawn that phase.  Both run out in the same Draw phase -> castle HP, then
   total field points, then a draw.  Draw *effects* never cause a loss: they
   just stop at an empty deck.
4. Castles are checked after Counting only, so a heal revealed later in the
   same turn can save a castle.  HP floors at 0.  Both castles at 0 are tied
   in HP, so total field points decide, then a draw.
5. "Total points on the field" = the sum of a player's creature points in
   both lanes (bonuses are temporary and excluded).
6. Reveal order: the "losing" player is the one with less castle HP; if HP is
   equal, the one with fewer field points.  A *perfect tie* is equal HP and
   equal field points (the rulebook's Tiebreakers chain, before the cards of
   this turn are revealed).  In round 1 and on a perfect tie each player
   rolls a d6 (re-rolled while equal, all rolls recorded); the higher roll
   "goes first", i.e. takes the place of the losing player in the order
   first's defending lane -> other's attacking -> other's defending ->
   first's attacking.
7. Paying costs: the discards are any other cards from hand, declared in the
   plan and sent to the Graveyard at the Reveal.  Skills have costs too.
8. Lane limit: 4 creatures per player per lane (skills do not occupy room).
   A plan putting a lane over 4 must name exactly as many of the player's
   creatures already in that lane to destroy (to the Graveyard); nothing may
   be destroyed voluntarily.  They are destroyed when that lane is revealed,
   before its new cards (if an effect removed one first, it is skipped).
9. When a lane is revealed its cards enter in plan order; a skill resolves at
   once and goes to the Graveyard.  "Here" is the lane it was placed in.
10. Effect vocabulary (``content.EffectKind``): destroy/exile hit the
    opponent's strongest creature(s) in the lane facing "here" (ties: the
    older one), automatically, so no target is needed while cards are hidden;
    bonus adds points "here" for this turn's Counting only; damage hits the
    opponent's castle; heal heals the owner's castle and may exceed 10; draw
    draws for the owner; discard makes the opponent discard random cards.
11. Counting is simultaneous: damage to a seat = max(0, opponent's attacking
    total - this seat's defending total).
12. Outcome scores are castle HP; ``reason`` says which end condition applied.
13. The setup names a sample deck or lists 20 card ids per seat; default
    decks are "emberfall" (seat 0) and "tidewatch" (seat 1).
14. ``legal_commands`` yields each distinct plan once (discards/destroys in
    hand/lane order, plays in every within-lane order); ``decide`` accepts any
    order and records the canonical plan.
"""

from __future__ import annotations

from domain.contract.core import Example, Ruleset
from domain.games import kit

from .state import TerraloreState

GAME: Ruleset[TerraloreState] = kit.ruleset(
    __name__,
    title="Terralore",
    min_players=2,
    max_players=2,
    examples=(Example("terralore-2p", {"players": 2}),),
)

__all__ = ["GAME"]
