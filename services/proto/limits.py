"""The one table of input limits, and the walk that enforces it on any message.

Why one table, checked centrally: every string a client sends ends up in a log
line, an error message, a PostgreSQL ``text`` column or a JSON event.  A NUL
byte there is an error PostgreSQL raises late (after work was done); a 4 MB
tournament name is stored forever.  Checking each field in each servicer
would miss the next field someone adds, so :func:`check_message` walks every
field of every request (and of every unpacked game message) by descriptor:
a new field is covered the day it is added, with the default limit unless
this table names it.  ``docs/limits.md`` documents the same table (a test
keeps the two equal).

Limits count characters (``len(str)``), not bytes; repeated fields are bounded
by element count, ``google.protobuf.Any`` payloads by bytes.  The whole
request is also bounded by the server's ``grpc.max_receive_message_length``
(:data:`MAX_REQUEST_BYTES`), which answers ``RESOURCE_EXHAUSTED``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from domain.contract.core import InvalidCommandError

if TYPE_CHECKING:
    from google.protobuf.message import Message

MAX_REQUEST_BYTES = 1 << 20
"""A whole request message (gRPC answers RESOURCE_EXHAUSTED beyond it)."""
DEFAULT_STRING = 256
"""Characters of any string field this table does not name."""
STRINGS: dict[str, int] = {
    "game_id": 64,
    "tournament_id": 64,
    "command_id": 128,
    "game_type": 64,
    "format": 32,
    "name": 200,
    "player_id": 128,
    "player_ids": 128,
    "entropy": 256,
    "key": 128,
    "page_token": 1024,
    "setup_json": 16_384,
    "label": 200,
    "reason": 500,
}
"""Characters, by field name (the same name means the same thing everywhere)."""
DEFAULT_REPEATED = 1000
"""Elements of any repeated field this table does not name."""
REPEATED: dict[str, int] = {
    "player_ids": 16,
    "entropy": 16,
    "ranks": 64,
}
"""Elements, by field name."""
MAX_ANY_BYTES = 65_536
"""Bytes of a ``google.protobuf.Any`` payload (a setup or a move)."""
MAX_TYPE_URL = 256
"""Characters of an ``Any.type_url``."""
MAX_DEPTH = 32
"""Nesting of messages inside a request, unpacked game messages included."""
EXCERPT = 40
"""Characters of bad input an error message may quote."""


class FieldLimitError(InvalidCommandError):
    """Raised when a field breaks a limit of this table (``field`` names it)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def excerpt(value: object) -> str:
    """``repr(value)`` cut to :data:`EXCERPT` characters, for error messages.

    >>> excerpt("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
    """
    text = repr(value)
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def check_string(field: str, value: str, limit: int | None = None) -> None:
    """:raises FieldLimitError: for a NUL character or more than the limit."""
    limit = limit or STRINGS.get(field.rpartition(".")[2], DEFAULT_STRING)
    if len(value) > limit:
        raise FieldLimitError(field, f"at most {limit} characters ({len(value)} sent)")
    if "\x00" in value:
        raise FieldLimitError(field, "must not contain NUL characters")


def check_message(message: Message, path: str = "", depth: int = 0) -> None:
    """Check every set field of ``message``, recursively, against the table.

    :raises FieldLimitError: naming the first field that breaks a limit.
    """
    if depth > MAX_DEPTH:
        raise FieldLimitError(path or "request", f"nested more than {MAX_DEPTH} deep")
    if message.DESCRIPTOR.full_name == "google.protobuf.Any":
        _check_any(message, path or "request")
        return
    for field, value in message.ListFields():
        name = f"{path}.{field.name}" if path else field.name
        values = value if field.is_repeated else (value,)
        if field.is_repeated:
            limit = REPEATED.get(field.name, DEFAULT_REPEATED)
            if len(values) > limit:
                raise FieldLimitError(name, f"at most {limit} elements")
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                continue  # no request has map fields; entries are not walked
            for item in values:
                check_message(item, name, depth + 1)
        elif field.type == field.TYPE_STRING:
            for item in values:
                check_string(name, item, STRINGS.get(field.name, DEFAULT_STRING))


def _check_any(packed: Message, path: str) -> None:
    type_url: str = packed.type_url  # type: ignore[attr-defined]
    value: bytes = packed.value  # type: ignore[attr-defined]
    check_string(f"{path}.type_url", type_url, MAX_TYPE_URL)
    if len(value) > MAX_ANY_BYTES:
        raise FieldLimitError(f"{path}.value", f"at most {MAX_ANY_BYTES} bytes")


def parse_json_object(field: str, text: str) -> dict[str, object]:
    """``text`` as a JSON object, nested at most :data:`MAX_DEPTH` deep.

    The depth is measured before parsing: ``json.loads`` recurses once per
    level and a 16 KiB string of ``[`` is enough to raise ``RecursionError``.

    :raises FieldLimitError: for a string that is not such a JSON object.
    """
    check_string(field, text)
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest > MAX_DEPTH:
        raise FieldLimitError(field, f"nested more than {MAX_DEPTH} deep")
    try:
        value = json.loads(text or "{}")
    except ValueError:
        raise FieldLimitError(field, "is not JSON") from None
    if not isinstance(value, dict):
        raise FieldLimitError(field, "must be a JSON object")
    return value
