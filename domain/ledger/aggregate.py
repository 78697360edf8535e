"""The generic ``Game`` aggregate: one eventsourcing ``Aggregate`` for every ruleset.

Why one aggregate class and not one per game: the ledger's guarantees (hash
chain, committed seed, idempotent decisions, conclusion with the revealed
seed) are the same for every game, and a game only contributes its pure
decider.  Each ``Decided`` event carries the game's own domain event as its
payload, and the mapper stores it under the game's own type name
(``thalara.CardPlayed``), so the event store holds real domain events.

Every stored event is a link of the hash chain (:mod:`domain.ledger.records.sealing`) and
names the *decision* it belongs to (the version the decision followed, which
is also the label of that decision's chance stream) so an auditor can group
events back into decisions and re-run them.  Appending a decision's events as
links is the aggregate's own (:meth:`Game.append_decided`), because each link
reads and moves the chain's head, which is the aggregate's state; sealing one
is :func:`domain.ledger.event_links.link`.  The checked creation fields are
:func:`domain.ledger.creation.creation_fields`; the stored record of each event
is :mod:`domain.ledger.records`; building events back from records is
:mod:`domain.ledger.stored_events`; replay is :mod:`domain.ledger.replay`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from datetime import datetime, timedelta
from typing import Any

from eventsourcing.domain import Aggregate

from domain.contract.chance import HmacRng, seed_commitment
from domain.contract.core import (
    Command,
    Event,
    GameOverError,
    InvalidCommandError,
    Model,
    Outcome,
    Ruleset,
    Seat,
    Termination,
)
from domain.contract.endings import (
    AbortAfterLeavingError,
    AbortTooLateError,
    ClockFlaggedError,
    ClockRunningError,
    Consequence,
    DroppedOutError,
    EndingKind,
    aborted,
    adjudicated,
    agreed_draw,
    double_forfeit,
    drops_out,
    seat_left,
    with_absent,
    with_dropouts,
)
from domain.games import find_ruleset
from domain.ledger import controls
from domain.ledger.clocks import (
    ABSENT_PLAYER_RULES,
    UNTIMED,
    Clock,
    ClockKind,
    TimeControl,
    absent_seats,
    add_time,
    can_add_time,
    check_abort_limit,
    control_of,
    millis,
    next_deadline,
    pause,
    resume,
    stop,
    tick,
)
from domain.ledger.controls import ControlKind, GamePausedError
from domain.ledger.creation import creation_fields
from domain.ledger.event_links import link
from domain.ledger.records import (
    CONCLUDED_TYPE,
    CONTROL_TYPES,
    CREATED_TYPE,
    ENDED_TYPES,
    GENESIS,
    command_record,
    decided_type,
    record_body,
)
from domain.ledger.signatures import SignedMove, require_signature
from domain.ledger.spectator import SpectatorDelay

__all__ = ["Game", "SeedMismatchError", "record_type"]


class SeedMismatchError(RuntimeError):
    """Raised when the seed supplied does not match the game's commitment."""


class Link(Aggregate.Event):
    """An event that extends a game's log: a link of its hash chain.

    The chain fields are :func:`domain.ledger.event_links.link`'s; ``stored``
    is keyword-only so that each event's own fields, which have no defaults,
    may follow it.
    """

    prev_hash: str
    hash: str
    nonce: str | None
    stored: bytes | None = field(default=None, compare=False, repr=False, kw_only=True)
    """The stored record, encoded once when the event was appended
    (:func:`domain.ledger.records.seal`); ``None`` for a decoded event."""


class Game(Aggregate):
    """A game of any registered type, rebuilt by replaying its events."""

    class Created(Aggregate.Created):
        game_type: str
        setup: Any
        seat_count: int
        seed_commitment: str
        rng_scheme: str
        entropy: tuple[str, ...]
        content: str
        player_ids: tuple[str, ...]
        ruleset_version: int
        content_hash: str
        seat_keys: tuple[str, ...]
        receipt_key: str | None
        prev_hash: str
        hash: str
        nonce: str | None
        spectator_delay: dict[str, int] | None = None
        """``{"moves": n}`` or ``{"seconds": s}`` (:mod:`domain.ledger.spectator`)."""
        time_control: dict[str, Any] | None = None
        """:meth:`domain.ledger.clocks.TimeControl.record`, ``None`` for no clock."""
        stored: bytes | None = field(default=None, compare=False, repr=False)
        """The stored record, encoded once when the event was appended
        (:func:`domain.ledger.records.seal`); ``None`` for a decoded event."""

    class Decided(Link):
        payload: Any
        decision: int
        actor: Any
        command_id: Any
        command: Any
        signed: Any

        def apply(self, game: Game) -> None:
            if game.clock is None:
                game.state = game.ruleset.evolve(game.state, self.payload)
            else:
                before = game.ruleset.to_act(game.state)
                game.state = game.ruleset.evolve(game.state, self.payload)
                after = game.ruleset.to_act(game.state)
                game.clock = tick(
                    game.clock,
                    game.control,
                    millis(self.timestamp),
                    playing(before, game.dropped),
                    playing(after, game.dropped),
                    self.actor,
                    self.command is not None,
                )
            if self.command is not None and self.actor not in game.dropped:
                game.moves_made += 1  # the ledger's moves for a dropped seat: not play
                game.draw_offer = controls.after_move(game.draw_offer, self.actor)
            game.head_hash = self.hash

    class Concluded(Link):
        outcome: Any
        seed: str
        decision: int

        def apply(self, game: Game) -> None:
            game.outcome = self.outcome
            game.revealed_seed = self.seed
            game.head_hash = self.hash
            if game.clock is not None:
                game.clock = stop(game.clock, millis(self.timestamp))

    class Controlled(Link):
        """A referee's control that does not end the game
        (:mod:`domain.ledger.controls`): an arbiter's pause, resume or added
        time, or a seat's draw offer or its decline.  Its own decision; the
        rules never see it."""

        kind: str
        seat: int | None
        by: str
        decision: int
        ms: int | None

        def apply(self, game: Game) -> None:
            game.head_hash = self.hash
            at = millis(self.timestamp)
            kind = ControlKind(self.kind)
            if kind is ControlKind.PAUSED:
                game.paused = True
                if game.clock is not None:
                    game.clock = pause(game.clock, at)
            elif kind is ControlKind.RESUMED:
                game.paused = False
                if game.clock is not None:
                    game.clock = resume(game.clock, at)
            elif kind is ControlKind.TIME_ADDED:
                assert game.clock is not None and self.seat is not None
                assert self.ms is not None
                game.clock = add_time(game.clock, game.control, self.seat, self.ms)
            elif kind is ControlKind.DRAW_OFFERED:
                assert self.seat is not None
                game.draw_offer = self.seat
                game.offered_at = controls.offered(
                    game.offered_at, self.seat, game.moves_made
                )
            else:
                game.draw_offer = None

    class Ended(Link):
        """The ledger ended the game beyond its rulebook (:mod:`domain.contract.endings`).

        Followed by ``Concluded`` in the same decision, which carries the
        outcome, so every reader of outcomes reads them in one place; except
        when a seat resigns or runs out of time in a game whose ruleset lets
        it drop out and more than one seat is still playing: then only that
        seat leaves (its clock stops and the ledger moves for it).
        """

        kind: str
        seat: int | None
        by: str
        reason: str
        decision: int
        deadline_ms: int | None

        def apply(self, game: Game) -> None:
            game.head_hash = self.hash
            everyone_absent = False
            if self.kind == EndingKind.TIMED_OUT.value and game.clock is not None:
                absent = absent_now(game, millis(self.timestamp))
                if absent:
                    game.absent = absent
                    everyone_absent = all_absent(game)
            if not everyone_absent and leaves_by_dropping_out(
                game, self.kind, self.seat
            ):
                assert self.seat is not None
                game.dropped = (*game.dropped, self.seat)
                if drops_out(game.seat_count, game.dropped):
                    if game.clock is not None:  # only the leaver's clock stops
                        game.clock = tick(
                            game.clock,
                            TimeControl(),
                            millis(self.timestamp),
                            (self.seat,),
                            (),
                            None,
                            False,
                        )
                    return
            game.ending = self.kind
            if game.clock is not None:
                game.clock = stop(game.clock, millis(self.timestamp))

    def __init__(
        self,
        game_type: str,
        setup: Model,
        seat_count: int,
        seed_commitment: str,
        rng_scheme: str,
        entropy: tuple[str, ...],
        content: str,
        player_ids: tuple[str, ...],
        hash: str,
        ruleset_version: int = 1,
        content_hash: str = "",
        seat_keys: tuple[str, ...] = (),
        receipt_key: str | None = None,
        spectator_delay: dict[str, int] | None = None,
        time_control: dict[str, Any] | None = None,
    ) -> None:
        self.game_type = game_type
        self.ruleset_version = ruleset_version
        self.content_hash = content_hash
        self.seat_keys = tuple(seat_keys)
        self.receipt_key = receipt_key
        self.setup = setup
        self.seat_count = seat_count
        self.seed_commitment = seed_commitment
        self.rng_scheme = rng_scheme
        self.entropy = tuple(entropy)
        self.content = content
        self.player_ids = tuple(player_ids)
        self.spectator_delay = spectator_delay
        self.head_hash = hash
        self.state = self.ruleset.initial_state(setup)
        self.outcome: Outcome | None = None
        self.revealed_seed: str | None = None
        self.time_control = time_control
        self.control = control_of(time_control)
        self.clock: Clock | None = (
            Clock.start(self.control, seat_count) if self.control.is_timed else None
        )
        self.moves_made = 0
        self.ending: str | None = None
        self.dropped: tuple[Seat, ...] = ()
        """The seats that dropped out (:attr:`Consequence.DROPS_OUT`), in the
        order they left; the ledger makes their moves."""
        self.absent: tuple[Seat, ...] = ()
        """The seats found absent when a no-show was recorded (rules 2:
        :func:`domain.ledger.clocks.absent_seats`), named by every outcome."""
        self.paused = False
        """An arbiter paused the game: no clock runs and no seat may move."""
        self.draw_offer: Seat | None = None
        """The seat whose draw offer stands (:mod:`domain.ledger.controls`)."""
        self.offered_at: tuple[int, ...] = (controls.NEVER_OFFERED,) * seat_count
        """``moves_made`` when each seat last offered a draw (once per move)."""

    # ------------------------------------------------------------ queries

    @property
    def ruleset(self) -> Ruleset[Any]:
        """The rules this game was created under (older games: version 1)."""
        return find_ruleset(self.game_type, getattr(self, "ruleset_version", 1))

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def to_act(self) -> tuple[Seat, ...]:
        return () if self.is_over else tuple(self.ruleset.to_act(self.state))

    def type_name(self, event: Any) -> str:
        """The stable stored type name of one of this game's events."""
        return record_type(self.game_type, event)

    # ------------------------------------------------------------ commands

    @classmethod
    def create(
        cls,
        ruleset: Ruleset[Any],
        setup: Model,
        seed: bytes,
        entropy: tuple[str, ...] = (),
        game_id: Any = None,
        player_ids: tuple[str, ...] = (),
        spectator_delay: SpectatorDelay | None = None,
        seat_keys: tuple[str, ...] = (),
        receipt_key: str | None = None,
        time_control: TimeControl | None = None,
        now: datetime | None = None,
        referee_rules: int | None = None,
    ) -> Game:
        """Create a game and append its opening decision (shuffles, first player).

        ``referee_rules``: the referee's rules the game is played under
        (:data:`~domain.ledger.clocks.ABSENT_PLAYER_RULES`, the default); an
        older version only to play a game again exactly as it was recorded.

        :raises InvalidCommandError: when ``setup`` is not this ruleset's
            setup, or the time control allows an abort after too many moves.
        """
        fields = creation_fields(
            ruleset,
            setup,
            seed,
            entropy,
            player_ids,
            spectator_delay,
            seat_keys,
            receipt_key,
        )
        fields["time_control"] = stored_control(
            time_control or UNTIMED,
            fields["seat_count"],
            referee_rules or ABSENT_PLAYER_RULES,
        )
        timestamp = now or cls.Created.create_timestamp()
        game_id = game_id or cls.create_id()
        chain = link(
            game_id=str(game_id),
            version=1,
            type_=CREATED_TYPE,
            timestamp=timestamp,
            prev_hash=GENESIS,
            body=record_body(CREATED_TYPE, fields),
        )
        game = cls._create(
            cls.Created, id=game_id, timestamp=timestamp, **chain, **fields
        )
        game._decide_opening(seed, now)
        return game

    def _rng(self, seed: bytes) -> HmacRng:
        if seed_commitment(seed) != self.seed_commitment:
            raise SeedMismatchError(
                f"seed does not match the commitment of game {self.id}"
            )
        return HmacRng.for_decision(seed, str(self.id), self.entropy, self.version)

    def _decide_opening(self, seed: bytes, now: datetime | None) -> None:
        decision = self.version
        events = self.ruleset.start(self.state, self._rng(seed))
        self._append_decision(decision, events, None, None, None, seed, at=now)

    def act(
        self,
        command: Command,
        actor: Seat,
        seed: bytes,
        command_id: str | None,
        signed: SignedMove | None = None,
        now: datetime | None = None,
    ) -> list[Any]:
        """Decide ``command`` for ``actor`` and append the resulting events.

        Returns the new ledger events (``Decided``/``Concluded``).  ``now``
        is the ledger's clock reading (default: the system clock); every
        event of the decision is stamped with it.

        :raises GameOverError: when the game has ended.
        :raises ClockFlaggedError: a seat's time ran out before ``now``; the
            caller records the timeout with :meth:`time_out`.
        :raises RuleError: from the ruleset when the command is not allowed.
        :raises MissingSignatureError, BadSignatureError: a game with seat
            keys and a move not signed by the acting seat's key.
        """
        if self.is_over:
            raise GameOverError()
        if not 0 <= actor < self.seat_count:
            raise InvalidCommandError(f"seat {actor} does not exist in this game")
        if actor in self.dropped:
            raise DroppedOutError(actor)
        if self.paused:
            raise GamePausedError()
        now = now or self.Decided.create_timestamp()
        self._check_flag(now)
        decision = self.version
        require_signature(
            self.seat_keys, str(self.id), actor, command_id, decision, signed
        )
        events = self.ruleset.decide(self.state, command, actor, self._rng(seed))
        if not events:
            raise RuntimeError(
                f"{self.game_type}.decide returned no events for {command!r}"
            )
        before = len(self.pending_events)
        self._append_decision(
            decision,
            events,
            actor,
            command_id,
            command_record(command),
            seed,
            signed.to_record() if signed is not None else None,
            at=now,
        )
        self._play_for_dropped(seed, now)
        return self.pending_events[before:]

    # ------------------------------------------------------------ endings

    def flagged(self, now: datetime) -> tuple[Seat, int] | None:
        """The seat whose time ran out at or before ``now``, and its deadline."""
        if self.clock is None or self.is_over:
            return None
        due = next_deadline(self.clock, self.control)
        if due is None or due[1] > millis(now):
            return None
        return due

    def next_deadline(self) -> tuple[Seat, int] | None:
        """The next seat to run out of time and when (epoch ms), if running."""
        if self.clock is None or self.is_over:
            return None
        return next_deadline(self.clock, self.control)

    def _check_flag(self, now: datetime) -> None:
        due = self.flagged(now)
        if due is not None:
            raise ClockFlaggedError(*due)

    def _check_open(self, seat: Seat | None) -> None:
        if self.is_over:
            raise GameOverError()
        if seat is not None and not 0 <= seat < self.seat_count:
            raise InvalidCommandError(f"seat {seat} does not exist in this game")

    def resign(
        self, seat: Seat, seed: bytes, by: str, now: datetime | None = None
    ) -> list[Any]:
        """``seat`` concedes: the ruleset's consequence (two players: the
        other seat wins).

        :raises GameOverError, InvalidCommandError, ClockFlaggedError.
        """
        self._check_open(seat)
        if seat in self.dropped:
            raise DroppedOutError(seat)
        now = now or self.Ended.create_timestamp()
        self._check_flag(now)
        outcome = self._leaving(Termination.RESIGNED, seat)
        return self._end(EndingKind.RESIGNED, seat, by, "", outcome, seed, now)

    def abort(
        self,
        by: str,
        reason: str,
        seed: bytes,
        now: datetime | None = None,
        seat: Seat | None = None,
    ) -> list[Any]:
        """Call the game off: allowed only before ``abort_before_moves`` moves
        and while no deadline has passed; a seat may not once a seat has
        left (its result would be erased), an arbiter still may.

        ``seat``: the seat asking, when a player asks (``None``: an arbiter).
        A deadline that has passed is the game's result already (a timeout
        or a forfeit), so the abort is refused with ``clock.flagged`` and the
        caller records that ending instead, as for a late move.

        :raises GameOverError, DroppedOutError, ClockFlaggedError,
            AbortAfterLeavingError, AbortTooLateError.
        """
        self._check_open(seat)
        if seat is not None and seat in self.dropped:
            raise DroppedOutError(seat)
        now = now or self.Ended.create_timestamp()
        self._check_flag(now)
        if seat is not None and self.dropped:
            raise AbortAfterLeavingError(self.dropped)
        if self.moves_made >= self.control.abort_before_moves:
            raise AbortTooLateError(self.control.abort_before_moves)
        outcome = aborted(self.seat_count, reason or "aborted")
        return self._end(EndingKind.ABORTED, None, by, reason, outcome, seed, now)

    def adjudicate(
        self,
        ranks: tuple[int, ...],
        reason: str,
        by: str,
        seed: bytes,
        now: datetime | None = None,
    ) -> list[Any]:
        """Record an arbiter's result: ``ranks[seat]`` with a reason.

        :raises GameOverError, InvalidCommandError: a rank per seat is needed.
        """
        self._check_open(None)
        if len(ranks) != self.seat_count:
            raise InvalidCommandError(
                f"ranks: one per seat ({self.seat_count})",
                violations=(("ranks", f"needs {self.seat_count} ranks"),),
            )
        outcome = adjudicated(tuple(ranks), reason)
        now = now or self.Ended.create_timestamp()
        return self._end(EndingKind.ADJUDICATED, None, by, reason, outcome, seed, now)

    def time_out(self, seed: bytes, now: datetime, by: str) -> list[Any]:
        """Record the timeout of the seat whose deadline passed by ``now``.

        A seat that never moved within the no-show window forfeits
        (``forfeited``, unrated); otherwise it ran out of time (``timed_out``).

        :raises GameOverError, ClockRunningError: no deadline has passed.
        """
        self._check_open(None)
        due = self.flagged(now)
        if due is None or self.clock is None:
            raise ClockRunningError()
        seat, deadline = due
        no_show = self.control.no_show_seconds > 0 and not self.clock.moved[seat]
        termination = Termination.FORFEITED if no_show else Termination.TIMED_OUT
        absent = absent_now(self, millis(self._stamp(now)))
        if absent and all_absent(self, absent):
            outcome: Outcome | None = double_forfeit(
                self.seat_count, self.dropped, absent
            )
        else:
            outcome = self._leaving(termination, seat)
        return self._end(
            EndingKind.TIMED_OUT, seat, by, "", outcome, seed, now, deadline
        )

    def accept_draw(
        self, seat: Seat, seed: bytes, now: datetime | None = None
    ) -> list[Any]:
        """``seat`` accepts the other seat's standing draw offer: the game
        ends drawn (:func:`domain.contract.endings.agreed_draw`).

        :raises GameOverError, GamePausedError, DrawOfferError, ClockFlaggedError:
        """
        self._check_open(seat)
        if self.paused:
            raise GamePausedError()
        controls.check_answer(seat, self.draw_offer)
        now = now or self.Ended.create_timestamp()
        self._check_flag(now)
        outcome = agreed_draw(self.seat_count)
        return self._end(
            EndingKind.AGREED, seat, f"seat:{seat}", "", outcome, seed, now
        )

    # ------------------------------------------------------------ controls

    def pause(self, by: str, now: datetime | None = None) -> list[Any]:
        """An arbiter holds the game: every clock stops where it stands, no
        deadline passes and no seat may move until :meth:`resume`.

        :raises GameOverError, PauseStateError, ClockFlaggedError: a deadline
            had already passed (the timeout is recorded first).
        """
        self._check_open(None)
        controls.check_pause(self.paused, pausing=True)
        now = now or self.Controlled.create_timestamp()
        self._check_flag(now)
        return self._control(ControlKind.PAUSED, None, by, now)

    def resume(self, by: str, now: datetime | None = None) -> list[Any]:
        """The clocks run again from where the pause held them.

        :raises GameOverError, PauseStateError:
        """
        self._check_open(None)
        controls.check_pause(self.paused, pausing=False)
        return self._control(ControlKind.RESUMED, None, by, now)

    def add_time(
        self, seat: Seat, ms: int, by: str, now: datetime | None = None
    ) -> list[Any]:
        """An arbiter gives ``seat`` ``ms`` more (:func:`domain.ledger.clocks.add_time`).

        :raises GameOverError, InvalidCommandError, AddTimeError, ClockFlaggedError:
        """
        self._check_open(None)
        controls.check_added(seat, self.seat_count, ms)
        if self.clock is None or self.control.kind is ClockKind.NONE:
            raise controls.AddTimeError("clock.none", "this game has no clock")
        if seat in self.dropped:
            raise DroppedOutError(seat)
        if not can_add_time(self.clock, self.control, seat):
            raise controls.AddTimeError(
                "clock.not-running",
                f"seat {seat}'s per-move clock is not running: its next move"
                " gets the full limit anyway",
            )
        now = now or self.Controlled.create_timestamp()
        self._check_flag(now)
        return self._control(ControlKind.TIME_ADDED, seat, by, now, ms)

    def offer_draw(self, seat: Seat, now: datetime | None = None) -> list[Any]:
        """``seat`` offers a draw (:func:`domain.ledger.controls.check_offer`).

        :raises GameOverError, GamePausedError, DrawOfferError, ClockFlaggedError:
        """
        self._check_open(seat)
        if self.paused:
            raise GamePausedError()
        controls.check_offer(
            seat,
            self.seat_count,
            self.to_act(),
            self.draw_offer,
            self.offered_at,
            self.moves_made,
        )
        now = now or self.Controlled.create_timestamp()
        self._check_flag(now)
        return self._control(ControlKind.DRAW_OFFERED, seat, f"seat:{seat}", now)

    def decline_draw(self, seat: Seat, now: datetime | None = None) -> list[Any]:
        """``seat`` declines the other seat's standing offer.

        :raises GameOverError, GamePausedError, DrawOfferError:
        """
        self._check_open(seat)
        if self.paused:
            raise GamePausedError()
        controls.check_answer(seat, self.draw_offer)
        return self._control(ControlKind.DRAW_DECLINED, seat, f"seat:{seat}", now)

    def _control(
        self,
        kind: ControlKind,
        seat: Seat | None,
        by: str,
        now: datetime | None,
        ms: int | None = None,
    ) -> list[Any]:
        """Append one control as a decision of its own."""
        before = len(self.pending_events)
        self._append_decided_by(
            self.Controlled, CONTROL_TYPES, kind, seat, by, now, ms=ms
        )
        return self.pending_events[before:]

    def _leaving(self, termination: Termination, seat: Seat) -> Outcome | None:
        """The outcome when ``seat`` leaves by ``termination`` (it resigns or
        runs out of time), worked out before its ending is recorded;
        ``None``: it drops out and the others play on.

        Whether it drops out follows from the ruleset's consequence, as the
        ending's replay (:meth:`Ended.apply`) and the audit re-derive it.
        """
        consequence = self.ruleset.consequence(self.state, seat)
        dropped = self.dropped
        if consequence is Consequence.DROPS_OUT:
            dropped = (*dropped, seat)
        return seat_left(termination, seat, self.seat_count, consequence, dropped)

    def _play_for_dropped(self, seed: bytes, at: datetime) -> None:
        """Make every move the game waits for from a seat that dropped out
        (the ruleset's automatic command), each its own decision, until it
        waits only on seats still playing or is over.  Stamped ``at``: a
        dropped seat never thinks, so it never spends clock time."""
        while not self.is_over:
            waiting = [s for s in self.ruleset.to_act(self.state) if s in self.dropped]
            if not waiting:
                return
            seat = waiting[0]
            command = self.ruleset.automatic_command(self.state, seat)
            decision = self.version
            events = self.ruleset.decide(self.state, command, seat, self._rng(seed))
            self._append_decision(
                decision, events, seat, None, command_record(command), seed, at=at
            )

    def _end(
        self,
        kind: EndingKind,
        seat: Seat | None,
        by: str,
        reason: str,
        outcome: Outcome | None,
        seed: bytes,
        now: datetime,
        deadline_ms: int | None = None,
    ) -> list[Any]:
        """Append the ending and the conclusion as one decision.

        ``outcome`` ``None``: the ending's seat drops out and the others play
        on, the ledger making the dropped seats' moves at once wherever the
        game waits on them; only the last drop-out, when one seat is left
        playing, is followed by a conclusion.
        """
        before = len(self.pending_events)
        decision = self._append_ending(kind, seat, by, reason, seed, now, deadline_ms)
        if outcome is None:
            self._play_for_dropped(seed, now)
        else:
            self._append_conclusion(outcome, seed, decision, now)
        return self.pending_events[before:]

    def _append_ending(
        self,
        kind: EndingKind,
        seat: Seat | None,
        by: str,
        reason: str,
        seed: bytes,
        now: datetime,
        deadline_ms: int | None,
    ) -> int:
        """Append the ending event of a new decision; returns that decision.

        :raises SeedMismatchError: (from ``_rng``) if ``seed`` is not the
            game's: the seed must match before a conclusion reveals it.
        """
        self._rng(seed)
        return self._append_decided_by(
            self.Ended,
            ENDED_TYPES,
            kind,
            seat,
            by,
            now,
            reason=reason,
            deadline_ms=deadline_ms,
        )

    def _append_conclusion(
        self, outcome: Outcome | None, seed: bytes, decision: int, at: datetime | None
    ) -> None:
        """Append ``Concluded`` to ``decision``, revealing the seed; the
        outcome names the seats found absent (none: unchanged), except an
        arbiter's, which is recorded exactly as the arbiter gave it."""
        if outcome is not None and outcome.termination is not Termination.ADJUDICATED:
            outcome = with_absent(outcome, self.absent)
        self._append_link(
            self.Concluded,
            CONCLUDED_TYPE,
            outcome=outcome,
            seed=seed.hex(),
            decision=decision,
            at=at,
        )

    # ------------------------------------------------------------ the chain

    def _append_decision(
        self,
        decision: int,
        events: Iterable[Any],
        actor: Seat | None,
        command_id: str | None,
        command: dict[str, Any] | None,
        seed: bytes,
        signed: dict[str, Any] | None = None,
        at: datetime | None = None,
    ) -> None:
        """Append one ``Decided`` per domain event of ``decision`` (the command
        and its signature on the first only), and ``Concluded`` if the game is
        over.  This is the one place a decided domain event becomes a ledger
        event, the same for every game."""
        for index, payload in enumerate(events):
            self.append_decided(
                payload,
                decision=decision,
                actor=actor,
                command_id=command_id,
                command=command if index == 0 else None,
                signed=signed if index == 0 else None,
                at=at,
            )
        if self.ruleset.is_over(self.state):
            scored = self.ruleset.outcome(self.state)
            outcome = with_dropouts(scored, self.dropped) if scored else scored
            self._append_conclusion(outcome, seed, decision, at)

    def append_decided(self, payload: Any, **fields: Any) -> None:
        """Append ``payload`` (one of the game's events) as a ``Decided`` event.

        Public for the rebuild benchmark, which appends real payloads to build
        long games without deciding them.  ``fields``: ``decision``, ``actor``,
        ``command_id``, ``command``, ``signed``, and ``at`` (the timestamp).
        """
        self._append_link(
            self.Decided,
            self.type_name(payload),
            payload=payload,
            **fields,
        )

    def _stamp(self, at: datetime) -> datetime:
        """The timestamp the next event read ``at`` is stamped with: at least
        a microsecond after the event before (see :meth:`_append_link`)."""
        if at <= self.modified_on:
            return self.modified_on + timedelta(microseconds=1)
        return at

    def _append_decided_by(
        self,
        cls: type,
        types: dict[str, str],
        kind: EndingKind | ControlKind,
        seat: Seat | None,
        by: str,
        at: datetime | None,
        **fields: Any,
    ) -> int:
        """Append an event the ledger records itself (an ending, a control) as
        a decision of its own, stored under its kind's type name; returns
        that decision."""
        decision = self.version
        self._append_link(
            cls,
            types[kind.value],
            at=at,
            kind=kind.value,
            seat=seat,
            by=by,
            decision=decision,
            **fields,
        )
        return decision

    def _append_link(
        self,
        cls: type,
        type_: str,
        at: datetime | None = None,
        **fields: Any,
    ) -> None:
        """Trigger event ``cls`` with ``fields``, sealed as the chain's next
        link and stamped ``at`` (default: now).

        Every event of a decision is given the same reading of the ledger's
        clock; each is stamped at least a microsecond after the event before,
        so a game's timestamps strictly increase (a record moved in time is
        then always a change the receipts catch), and the clocks, which count
        milliseconds, are unaffected.
        """
        timestamp = self._stamp(at or cls.create_timestamp())  # type: ignore[attr-defined]  # an eventsourcing event class
        chain = link(
            game_id=str(self.id),
            version=self.version + 1,
            type_=type_,
            timestamp=timestamp,
            prev_hash=self.head_hash,
            body=record_body(type_, fields),
        )
        self.trigger_event(cls, timestamp=timestamp, **chain, **fields)


def playing(seats: Iterable[Seat], dropped: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """``seats`` without those that dropped out: a dropped seat's clock never
    runs (the ledger moves for it at once)."""
    return tuple(s for s in seats if s not in dropped)


def leaves_by_dropping_out(game: Game, kind: str, seat: Seat | None) -> bool:
    """Whether an ending of ``kind`` for ``seat`` drops it out rather than
    ending the game (the ruleset's consequence in the game's state now)."""
    return (
        seat is not None
        and kind in (EndingKind.RESIGNED.value, EndingKind.TIMED_OUT.value)
        and game.ruleset.consequence(game.state, seat) is Consequence.DROPS_OUT
    )


def stored_control(
    control: TimeControl, seat_count: int, rules: int
) -> dict[str, Any] | None:
    """The time control a new game stores: played under the referee's
    ``rules``, or ``None`` for a game without clock or abort settings.

    :raises InvalidCommandError: ``abort_before_moves`` above one move per
        seat: a game aborted, unrated, after many moves would be a result
        erased, not a game called off.
    """
    check_abort_limit(control, seat_count)
    record = control.model_copy(update={"rules": rules}).to_record()
    if record.keys() <= {"kind", "rules"} and record["kind"] == "none":
        return None
    return record


def absent_now(game: Game, at_ms: int) -> tuple[Seat, ...]:
    """The seats absent in ``game`` at ``at_ms`` (those found before too)."""
    assert game.clock is not None
    found = absent_seats(game.clock, game.control, at_ms)
    return tuple(sorted({*game.absent, *found})) if found else game.absent


def all_absent(game: Game, absent: tuple[Seat, ...] | None = None) -> bool:
    """Whether every seat still playing is absent: a double forfeit."""
    gone = set(game.absent if absent is None else absent)
    return bool(gone) and all(
        s in gone for s in range(game.seat_count) if s not in game.dropped
    )


def record_type(game_type: str, event: Any) -> str:
    """``ledger.GameCreated``, ``ledger.GameConcluded`` or ``<game>.<EventClass>``."""
    if isinstance(event, Game.Created):
        return CREATED_TYPE
    if isinstance(event, Game.Concluded):
        return CONCLUDED_TYPE
    if isinstance(event, Game.Ended):
        return ENDED_TYPES[event.kind]
    if isinstance(event, Game.Controlled):
        return CONTROL_TYPES[event.kind]
    payload = event.payload if isinstance(event, Game.Decided) else event
    if not isinstance(payload, Event):
        raise TypeError(f"not a game event: {event!r}")
    return decided_type(game_type, payload)
