"""The dashboard's listen address: ``host:port``, or ``off``.

Why apart from :mod:`services.dashboard.serve`: ``ledger serve`` checks the
address before it starts anything, and with the dashboard off it never
loads the web stack (uvicorn, Starlette, Jinja2, sse-starlette: about 6 MiB
of the serving process, whose resident size with 10,000 open games is a
target in ``docs/performance.md``).  This module imports none of it.
"""

from __future__ import annotations

OFF = "off"


class InvalidListenError(ValueError):
    """Raised when an HTTP listen address is not ``host:port`` or ``off``."""


def parse_listen(value: str) -> tuple[str, int] | None:
    """``"host:port"`` -> ``(host, port)``; ``"off"`` -> ``None``.

    >>> parse_listen("127.0.0.1:8080"), parse_listen("[::1]:0"), parse_listen("off")
    (('127.0.0.1', 8080), ('::1', 0), None)
    """
    if value.strip().lower() == OFF:
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535 or not host:
        raise InvalidListenError(
            f"LEDGER_HTTP_LISTEN / --http must be host:port or 'off', not {value!r}"
        )
    return host.strip("[]"), int(port)


def check_listen(value: str, allow_off: bool = True) -> str:
    """``value`` if it parses; else the CLI's one-line error (no traceback).

    :raises typer.BadParameter:
    """
    import typer

    try:
        address = parse_listen(value)
    except InvalidListenError as exc:
        raise typer.BadParameter(str(exc)) from None
    if address is None and not allow_off:
        raise typer.BadParameter("the dashboard alone needs an address, not 'off'")
    return value
