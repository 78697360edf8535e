"""The decider: decide / legal_commands / to_act / outcome.

``decide`` validates one command, emits its events, then lets
:func:`.flow.advance` append whatever the rules force until the next decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from domain.contract.chance import commit
from domain.contract.core import (
    GameOverError,
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
    Outcome,
    Termination,
    ranks_from_scores,
)

from .. import commands as cmd
from .. import events as ev
from ..content import CHARACTERS, INITIATIVE, LANDS
from ..evolve import evolve
from ..state import (
    ASSIGNMENT,
    CHARACTER_STEP,
    FIGHTER_STEP,
    LAND_STEP,
    OVER,
    RESOLUTION,
    SETUP,
    VaalbaraState,
)
from .characters import CHOICE_CHARACTERS, apply_choice, generate_choices
from .flow import advance
from .lands import land_reward

if TYPE_CHECKING:
    from domain.contract.core import Command, Event, Rng


def choice_payload(seat: int, round_number: int, character: str) -> str:
    """The canonical text a character choice is committed to."""
    return f"vaalbara/choice/v1|{round_number}|{seat}|{character}"


def _check_turn(state: VaalbaraState, actor: int, step: str) -> None:
    if state.phase != RESOLUTION or state.step != step:
        raise IllegalCommandError(
            "vaalbara.wrong-step", f"this is not a {step} decision"
        )
    if step == FIGHTER_STEP:
        if actor not in state.fighter_pending:
            raise NotYourTurnError("you are not answering a Fighter call")
    elif actor != state.current:
        raise NotYourTurnError()


def _decide_command(
    state: VaalbaraState, command: Command, actor: int, rng: Rng
) -> list[Event]:
    p = state.players[actor]
    match command:
        case cmd.ChooseCharacter(character=character):
            if character not in CHARACTERS:
                raise InvalidCommandError(f"unknown character {character!r}")
            if state.phase != ASSIGNMENT:
                raise IllegalCommandError(
                    "vaalbara.wrong-step", "characters are chosen during Assignment"
                )
            if p.chosen is not None:
                raise IllegalCommandError(
                    "vaalbara.already-chosen", "you already chose this round"
                )
            if character not in p.hand:
                raise IllegalCommandError(
                    "vaalbara.not-in-hand", "that character is not in your hand"
                )
            nonce = rng.token()
            commitment = commit(nonce, choice_payload(actor, state.round, character))
            return [
                ev.CharacterChosen(
                    seat=actor,
                    commitment=commitment,
                    character=character,
                    nonce=nonce.hex(),
                )
            ]
        case cmd.RevealFighter():
            _check_turn(state, actor, FIGHTER_STEP)
            if "fighter" not in p.hand:
                raise IllegalCommandError(
                    "vaalbara.fighter-reveal", "you have no Fighter in hand"
                )
            return [
                ev.FighterRevealed(seat=actor),
                ev.PointsScored(seat=actor, reason="fighter", points=1),
            ]
        case cmd.DeclineFighter():
            _check_turn(state, actor, FIGHTER_STEP)
            return [ev.FighterDeclined(seat=actor)]
        case cmd.TakeLand(card=card):
            if card not in LANDS:
                raise InvalidCommandError(f"unknown land card {card!r}")
            _check_turn(state, actor, LAND_STEP)
            if card not in state.first_row:
                raise IllegalCommandError(
                    "vaalbara.land-row", "take a Land from the first row"
                )
            realm = p.realm + (card,)
            points = land_reward(state, actor, card, realm)
            out: list[Event] = [
                ev.LandTaken(seat=actor, card=card),
                ev.PointsScored(seat=actor, reason=LANDS[card].type, points=points),
            ]
            if state.revealed[actor] == "farmer" and points:
                out.append(ev.PointsScored(seat=actor, reason="farmer", points=points))
            return out
    for character, command_type in CHOICE_CHARACTERS.items():
        if isinstance(command, command_type):
            _check_turn(state, actor, CHARACTER_STEP)
            if state.revealed[actor] != character:
                raise IllegalCommandError(
                    f"vaalbara.{character}-only",
                    f"only the {character.title()} does that",
                )
            return [
                *apply_choice(state, actor, command),
                ev.CharacterDiscarded(seat=actor, character=character),
            ]
    raise InvalidCommandError(f"not a vaalbara command: {type(command).__name__}")


def decide(state: VaalbaraState, command: Command, actor: int, rng: Rng) -> list[Event]:
    """The events ``command`` by ``actor`` decides, plus every forced follow-up.

    :raises GameOverError: after round 9.
    :raises InvalidCommandError: malformed (unknown seat, card or character).
    :raises IllegalCommandError: not allowed now (``rule`` names the rule).
    """
    if state.phase == OVER:
        raise GameOverError()
    if not 0 <= actor < state.player_count:
        raise InvalidCommandError(f"no seat {actor}")
    if state.phase == SETUP:
        raise IllegalCommandError("vaalbara.not-started", "the game has not started")
    out = _decide_command(state, command, actor, rng)
    for event in out:
        state = evolve(state, event)
    advance(state, out)
    return out


def legal_commands(state: VaalbaraState, seat: int) -> Iterator[Command]:
    """Every command ``seat`` may submit now, each accepted by ``decide``."""
    if state.phase == ASSIGNMENT:
        p = state.players[seat]
        if p.chosen is None:
            for character in sorted(set(p.hand), key=INITIATIVE.__getitem__):
                yield cmd.ChooseCharacter(character=character)
    elif state.phase == RESOLUTION:
        if state.step == FIGHTER_STEP and seat in state.fighter_pending:
            if "fighter" in state.players[seat].hand:
                yield cmd.RevealFighter()
            yield cmd.DeclineFighter()
        elif seat == state.current and state.step == CHARACTER_STEP:
            yield from generate_choices(state, seat)
        elif seat == state.current and state.step == LAND_STEP:
            for card in state.first_row:
                yield cmd.TakeLand(card=card)


def to_act(state: VaalbaraState) -> tuple[int, ...]:
    """Seats with a decision now (all unchosen seats during Assignment)."""
    if state.phase == ASSIGNMENT:
        return tuple(s for s, p in enumerate(state.players) if p.chosen is None)
    if state.phase == RESOLUTION:
        if state.step == FIGHTER_STEP:
            return state.fighter_pending
        if state.current is not None:
            return (state.current,)
    return ()


def outcome(state: VaalbaraState) -> Outcome | None:
    """Most VP wins; ties go to the clan ranked higher on the final Omens."""
    if state.phase != OVER:
        return None
    omens = state.final_omens
    keys = [
        (score, -omens.index(p.clan))
        for score, p in zip(state.final_scores, state.players)
    ]
    ranks = ranks_from_scores(keys)
    return Outcome(
        termination=Termination.COMPLETED,
        ranks=ranks,
        scores=state.final_scores,
        winners=tuple(s for s, r in enumerate(ranks) if r == 1),
        reason="most victory points after 9 rounds",
    )


def outcome_v2(state: VaalbaraState) -> Outcome | None:
    """Rules version 2: the Omens break a tie for the win only.

    The rulebook: "In case of a tie, the tied player who ranks the highest in
    the Clan's Omens is the winner."  Version 1 used the Omens to order every
    tied seat, so two seats tied for third got ranks 3 and 4; the rulebook
    breaks ties for the *winner* only, so from version 2 seats with equal VP
    that are not the winner share their rank (which ratings count as a draw
    between them).  Games created under version 1 keep version 1's ranks.
    """
    if state.phase != OVER:
        return None
    omens = state.final_omens
    winner = max(
        range(len(state.players)),
        key=lambda s: (state.final_scores[s], -omens.index(state.players[s].clan)),
    )
    ranks = ranks_from_scores(
        [(score, int(s == winner)) for s, score in enumerate(state.final_scores)]
    )
    return Outcome(
        termination=Termination.COMPLETED,
        ranks=ranks,
        scores=state.final_scores,
        winners=(winner,),
        reason="most victory points after 9 rounds",
    )
