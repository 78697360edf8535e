"""``--seat N``: one seat on the command line, counted from 1 as ``ledger play``
shows seats.

Shared by every command that acts for one seat (play, resign, the draw
commands, add-time), so each reads a seat the same way and says only what
the seat is for.
"""

from __future__ import annotations

from typing import Any

import typer


def seat_option(help_text: str, default: Any = None) -> Any:
    """``--seat N`` (at least 1); ``default`` ``...`` makes it required."""
    return typer.Option(default, "--seat", min=1, metavar="N", help=help_text)
