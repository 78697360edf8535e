"""The domain errors a decider raises, and the gRPC status each one means.

Why a hierarchy under ``ValueError`` (python-chess's move errors): callers
catch one base, and the API maps each class to one status code.
"""

from __future__ import annotations


class RuleError(ValueError):
    """Raised when a command cannot be applied; base of the domain errors."""


class InvalidCommandError(RuleError):
    """Raised when a command or setup is malformed (wrong shape, unknown card id).

    Maps to ``INVALID_ARGUMENT``: the client sent something that could never be
    legal, whatever the state of the game.  ``violations`` names the offending
    fields as ``(field path, what is wrong)`` pairs, for ``BadRequest``.
    """

    def __init__(
        self, message: str = "", *, violations: tuple[tuple[str, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.violations = violations


class IllegalCommandError(RuleError):
    """Raised when a well-formed command is not allowed by the rules right now.

    Maps to ``FAILED_PRECONDITION``.  ``rule`` is a short stable identifier of
    the rule that forbids the move (e.g. ``"thalara.one-spell-per-turn"``) so
    clients can react programmatically; the message explains it to a human and
    must never mention information hidden from the actor.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


class NotYourTurnError(IllegalCommandError):
    """Raised when a seat acts while the rules give the decision to someone else."""

    def __init__(self, message: str = "it is not your turn") -> None:
        super().__init__("turn-order", message)


class GameOverError(IllegalCommandError):
    """Raised when any command reaches a game that has already ended."""

    def __init__(self) -> None:
        super().__init__("game-over", "the game has ended")
