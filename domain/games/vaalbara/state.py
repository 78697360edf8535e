"""State models: everything the decider knows (``view`` shows each viewer part)."""

from __future__ import annotations

from domain.contract.core import Model, State

from .content import CLANS, INITIATIVE, LANDS, STARTING_VP

SETUP = "setup"
ASSIGNMENT = "assignment"
RESOLUTION = "resolution"
OVER = "over"

CHARACTER_STEP = "character"
FIGHTER_STEP = "fighter"
LAND_STEP = "land"


class PlayerState(Model):
    """One seat: its clan deck, hand, discard, Realm and VP."""

    clan: str
    deck: tuple[str, ...] = ()
    """Face-down clan deck, top first."""
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    """Face-up discard pile, oldest first."""
    chosen: str | None = None
    """Character placed face down this Assignment (secret until revealed)."""
    nonce: str | None = None
    """Hex nonce of the commitment to ``chosen``."""
    played: str | None = None
    """Revealed character lying in the Realm until its action is resolved."""
    realm: tuple[str, ...] = ()
    vp: int = STARTING_VP


class VaalbaraState(State):
    """The full table."""

    players: tuple[PlayerState, ...]
    phase: str = SETUP
    round: int = 0
    land_deck: tuple[str, ...] = ()
    """Face-down Land deck, top first; the top card's back shows the Omens."""
    first_row: tuple[str, ...] = ()
    second_row: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    """This round's characters by seat once revealed (empty before)."""
    current: int | None = None
    """Seat whose turn it is during Resolution."""
    step: str = ""
    done: tuple[int, ...] = ()
    """Seats that finished their turn this round, in playing order."""
    fighter_pending: tuple[int, ...] = ()
    final_scores: tuple[int, ...] = ()
    final_omens: tuple[str, ...] = ()

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def omens(self) -> tuple[str, ...]:
        """The Omens in force: the back of the Land deck's top card.

        The pack guarantees a card is always left; the clan order is only a
        fallback for packs that run dry.
        """
        return LANDS[self.land_deck[0]].omens if self.land_deck else CLANS

    def omens_rank(self, seat: int) -> int:
        """0 for the best-ranked clan on the current Omens."""
        return self.omens.index(self.players[seat].clan)

    def initiative_key(self, seat: int) -> tuple[int, int]:
        """Turn-order key: initiative first, then Omens."""
        return (INITIATIVE[self.revealed[seat]], self.omens_rank(seat))

    def neighbours(self, seat: int) -> tuple[int, ...]:
        """Left and right seats; just one in a 2-player game."""
        n = self.player_count
        return tuple(sorted({(seat - 1) % n, (seat + 1) % n}))
