"""Vaalbara (2-5 players): explore Lands with your clan's 12 characters.

Content is a labelled SAMPLE pack (``content/sample.json``); mechanics follow
the rulebook ``002_940a4e1084aff95d.txt``.

Rule decisions where the rulebook is silent or ambiguous:

1. Victory Points are hidden: a seat sees only its own total until the game
   ends (README); every ``PointsScored``/``PointsStolen`` amount is redacted
   for other viewers, and ``GameEnded`` reveals all totals.
2. "Neighbours" are the seats to the left and right; in a 2-player game there
   is a single neighbour (README).
3. Turn-order ties, and the Hunter/Crafter ties, use the Omens on the *current*
   top card of the Land deck (README).  The next player is recomputed before
   each turn, so a Tracker's new Omens also order later tied seats.
4. The Hunter gains 3 only if it plays before *every* neighbour, the Crafter 5
   only if after every neighbour; "before" compares initiative, equal
   initiative goes to the higher clan on the current Omens (Crafter: lower).
5. The final tie-break uses the Omens shown at the end of the game (the top
   card of the Land deck after round 9) (README).  Clans are all different, so
   every rank is distinct.
6. Fighter: the player of the Fighter gains nothing; every other seat whose
   Fighter is not publicly elsewhere (discarded or played this round) is asked
   to answer (reveal for +1 VP, or decline).  Seats without a Fighter can
   only decline, so being asked leaks nothing; the Fighter's Land action waits
   for all answers.  A revealed Fighter stays in hand.
7. Falconer: steals ``min(2, victim's VP)`` from the seat that took its turn
   just before; the first player of the round steals nothing.
8. A choice character with no possible option has no effect: Midwife with
   nothing but herself (or nothing) in the discard, Pioneer with an empty
   Realm, Tracker/Pioneer with an empty Land deck (unreachable with packs
   that pass ``LandPack`` validation).  Choices are mandatory otherwise; the
   Rider may pick two Lands of the same type, which changes nothing.
9. Pioneer: the Realm Land of your choice goes to the bottom of the Land deck,
   the former bottom card joins the Realm and scores its reward against the
   Realm after the swap (a 2nd Mountain after the swap scores 10 again).  The
   bottom card is not visible before the swap.
10. Tracker: any card of the first or second row; the row card goes face down
    on top of the deck, so its back gives the Omens for the rest of the round.
11. Farmer: the doubling is a second ``PointsScored`` (reason ``"farmer"``)
    equal to the Land reward; the Farmer has no other effect.
12. River: the initiative of the character played this round (the Pioneer's
    11 when a Pioneer swaps in a River), capped at 6.
13. Setup: the first ``n`` cards drawn form the first row (the one furthest
    from the deck), the next ``n`` the second row.  After round 9 no row is
    dealt and no cards are drawn.  The pack must hold ``10n + 1`` cards for
    ``n`` players so the deck never runs dry (checked when loading).
14. Hand refill draws up to 5 from the clan deck; the Midwife's returned card
    counts toward the 5.
15. Zero rewards: Land rewards always emit a ``PointsScored`` (possibly 0);
    character effects only when they score.  A Falconer steal is always
    emitted (possibly 0) so its presence does not hint at the victim's VP.
16. Clans: seat ``i`` plays the ``i``-th clan of the pack (blue, purple,
    yellow, red, green) unless the setup lists ``clans``.
17. Assignment commitments: ``commit(nonce, "vaalbara/choice/v1|<round>|
    <seat>|<character>")``; ``CharactersRevealed`` publishes every nonce so
    anyone can check the commitments.  Fighter answers are not committed:
    they are independent yes/no answers, taken in any order.
18. Deck order is hidden from everyone but admins, including a clan deck's
    own player; the Land deck shows only its top card's Omens (its size is
    public).  The Land deck's bottom card is not shown.
19. Rules version 2 (see ``rules.outcome_v2``): the final Omens tie-break
    decides the winner only; other seats with equal VP share a rank.  Version
    1 (every tie ordered by the Omens) stays registered for games created
    under it.
"""

from __future__ import annotations

from dataclasses import replace

from domain.contract.core import Example, Ruleset
from domain.games import kit

from . import rules, setup
from .state import VaalbaraState

GAME_V1: Ruleset[VaalbaraState] = kit.ruleset(
    __name__,
    title="Vaalbara",
    min_players=setup.MIN_PLAYERS,
    max_players=setup.MAX_PLAYERS,
    examples=tuple(
        Example(f"vaalbara-{n}p", {"players": n})
        for n in range(setup.MIN_PLAYERS, setup.MAX_PLAYERS + 1)
    ),
)

GAME: Ruleset[VaalbaraState] = replace(GAME_V1, version=2, outcome=rules.outcome_v2)
VERSIONS = (GAME_V1, GAME)
"""Every rules version still replayable (see :func:`domain.games.find_ruleset`)."""

__all__ = ["GAME", "VERSIONS"]
