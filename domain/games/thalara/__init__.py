"""Thalara: The Last Artifacts (Alexander Wrede, wredespiele), 2-4 players.

Mechanics follow the English rulesheet, the German edition's clarifications
and the rules README (cited below as README).  Cards and spells are data
(``content/*.json``, the shipped ``sample.json`` is *sample content*, not the
published list).

Design
------
- Card instances have table-unique ids: Remnant ``r07`` of seat 1 is
  ``r07@1``; the second Artifact set (3-4 players) is ``a05#2``.  A conflict
  is named by the id of its Artifact.
- A turn is one command, ``PlayCard(card, conflict, spell=None |
  SpellActivation(spell, conflict, target))``, or ``Pass()``.  "Play a card,
  then at most one spell" is therefore the message's shape; the spell is
  checked against the state *after* the card is placed.
- Standard mode: ``SelectHand(cards)`` is a secret simultaneous choice; the
  ``HandSelected`` event carries a public ``commitment =
  commit(nonce, {"cards", "round", "seat"} as compact sorted JSON)`` and
  the cards (owner only).  Play begins when every seat has selected.
  While the game runs a hand is never revealed as a whole (as at the
  table): ``redact`` keeps it to its owner and the admin.  Once the game has
  ended the ledger makes everything public, hands included (the revealed
  seed makes every shuffle derivable anyway; ``services/ledger/reading/disclosure.py``), so
  anyone can check every commitment.
- Casual Chaos: at the start of each round every supply is shuffled
  (``SupplyShuffled``, order admin-only) and the top cards drawn
  (``CardsDrawn``, owner-only).  At the end of a round seats holding Remnants
  choose ``ReturnRemnants(cards)`` simultaneously (any subset, possibly none).

Rule ids of ``IllegalCommandError``: ``thalara.wrong-phase``,
``turn-order`` (``NotYourTurnError``), ``game-over``,
``thalara.already-selected``, ``thalara.not-in-supply``,
``thalara.hand-size``, ``thalara.card-not-in-hand``,
``thalara.no-such-conflict``, ``thalara.not-your-spell``,
``thalara.spell-once-per-round``, ``thalara.spell-requirement``,
``thalara.spell-target``, ``thalara.already-chosen``,
``thalara.not-in-hand``, ``thalara.artifacts-stay``.  Unknown seat, card,
conflict or spell ids and repeated cards are ``InvalidCommandError``.

Decisions where the books are silent
------------------------------------
1. Casual Chaos overrides "passing returns your Remnants to the supply":
   passing keeps them in hand, so the end-of-round return choice has
   something to choose from.
2. A player with no cards in hand must still submit ``Pass`` (it is their
   only legal command); passing while holding cards is always allowed.
3. Spell requirements count the caster's own *live* cards in the target
   conflict (a destroyed card adds no energy and no strength); Artifacts
   count like Remnants.
4. Destroyed cards stay in their conflict flagged ``destroyed`` until the
   end of the round: a destroyed Remnant is then discarded, a destroyed
   Artifact returns to its owner's hand like every played Artifact.
5. Effect vocabulary (data-driven): ``bonus`` (+N to the caster in that
   conflict), ``weaken`` (-N to every other seat in that conflict), both
   until the end of the round; ``destroy`` and ``return`` act at once on one
   live target card in that conflict (``opponent``/``own``/``any``,
   optionally ``max_strength`` of the card's printed strength).  A targeted
   spell cannot be activated without a valid target.  Totals never go below 0.
6. A returned card goes to its owner's hand, except a Remnant of a seat that
   already passed in standard mode, which goes to the supply (where passing
   would have put it).
7. Conflict winner, all player counts: among the seats with at least one live
   card in the conflict, the highest total held by exactly one seat wins,
   looking past tied groups only.  2p: a tie means nobody wins.  3-4p:
   5/5/3 -> the 3 wins; 5/5 with nobody else -> nobody; 5/5/3/3 -> nobody;
   5/5/5/2 -> the 2 wins (the next-highest total after the tie).  Unwon
   Artifacts stay for the next round.
8. Refill: Artifacts are revealed until the conflict count (players + 1) is
   reached; if the stack runs out the round is played with fewer conflicts
   (README).  If no conflict is left at all the game ends (cannot happen
   with 15/30 Artifacts, but keeps the engine total).
9. "The player who last played a card" is taken literally over the whole
   game: if nobody played a card in a round, the seat that played the most
   recent card starts; before any card was played, the first player.
10. End conditions are checked at the start of each round (after Casual Chaos
    returns): a seat has won 7+ Artifacts, or a seat's supply holds fewer
    Remnants than it needs to reach 7 hand cards.  When the Artifact
    condition already holds at the end of a Casual Chaos round, nobody is
    asked to return cards.
11. Casual Chaos: a hand may exceed 7 (kept Remnants plus Artifacts won);
    then nothing is drawn.
12. Equal victory points share the place (a draw; README).
13. Characters: one copy per set, so distinct in 2p, at most two seats per
    character with 3-4 players (two sets).
"""

from __future__ import annotations

from domain.contract.core import Example, Ruleset
from domain.games import kit

from .state import ThalaraState

_CHARACTERS = ("myrja", "canto", "accaina", "kandhran")
"""The examples' characters: standard tables take the first ``n``, Casual
Chaos tables the first ``n`` starting from the third."""

GAME: Ruleset[ThalaraState] = kit.ruleset(
    __name__,
    title="Thalara: The Last Artifacts",
    min_players=2,
    max_players=4,
    examples=tuple(
        Example(
            f"thalara-{n}p" + suffix,
            {"players": n, "mode": mode, "characters": list(characters[:n])},
        )
        for mode, suffix, characters in (
            ("standard", "", _CHARACTERS),
            ("casual_chaos", "-casual-chaos", _CHARACTERS[2:] + _CHARACTERS[:2]),
        )
        for n in (2, 3, 4)
    ),
)

__all__ = ["GAME"]
