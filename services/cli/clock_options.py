"""``--clock`` and ``--no-show``: a game's time control, as one short spec.

Shared by ``ledger games create`` and ``ledger tournament create``, so both
read a clock the same way: ``fischer:300+2`` (a 300-second bank, 2 seconds
added after each move), ``per-move:60``, ``correspondence:3`` (days a move)
or ``none``.  The spec is checked here against the ledger's own
:class:`~domain.ledger.clocks.TimeControl`, so a mistake is one line before
any call.
"""

from __future__ import annotations

import re
from typing import Any

import typer

from services.cli.failures import USAGE, UserError

CLOCK = typer.Option(
    None,
    "--clock",
    metavar="SPEC",
    help="Every game's clock: fischer:BASE+INC (seconds, e.g. fischer:300+2), "
    "per-move:SECONDS, correspondence:DAYS or none.",
)
NO_SHOW = typer.Option(
    0,
    "--no-show",
    min=0,
    metavar="SECONDS",
    help="A seat that has not moved this long after being asked forfeits "
    "(unrated); needs --clock. 0: only the clock applies.",
)

_SPECS = {
    "fischer": re.compile(r"(\d+)\+(\d+)"),
    "per-move": re.compile(r"(\d+)"),
    "correspondence": re.compile(r"(\d+)"),
}


def time_control(spec: str | None, no_show: int = 0) -> Any:
    """The ``ledger.v1.TimeControl`` of ``--clock``/``--no-show`` (``None``: no clock).

    :raises UserError: (usage) for a spec that is not one of the forms above,
        or periods the ledger refuses.
    """
    from pydantic import ValidationError

    from domain.ledger.clocks import TimeControl
    from ledger.v1 import game_service_pb2 as pb

    if spec is None or spec == "none":
        if no_show:
            raise UserError("--no-show needs a --clock (e.g. fischer:300+2)", USAGE)
        return None
    kind, _, value = spec.partition(":")
    pattern = _SPECS.get(kind)
    matched = pattern.fullmatch(value) if pattern else None
    if matched is None:
        raise UserError(
            f"--clock {spec!r}: use fischer:BASE+INC, per-move:SECONDS, "
            "correspondence:DAYS or none",
            USAGE,
        )
    numbers = [int(n) for n in matched.groups()]
    fields: dict[str, Any] = {
        "kind": kind.replace("-", "_"),
        "no_show_seconds": no_show,
    }
    if kind == "fischer":
        fields["base_seconds"], fields["increment_seconds"] = numbers
    elif kind == "per-move":
        fields["per_move_seconds"] = numbers[0]
    else:
        fields["days_per_move"] = numbers[0]
    try:
        TimeControl.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "--clock"
        raise UserError(f"--clock {spec!r}: {where}: {first['msg']}", USAGE) from None
    return pb.TimeControl(**fields)
