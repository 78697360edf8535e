"""Canonical JSON: the bytes every record is stored and hashed as.

Why orjson, and why it falls back: encoding and decoding are on every move and
every replay, and orjson is several times faster than :mod:`json`.  But the
hash covers these bytes, so they must stay byte-identical to what
``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` wrote
for every record already stored.  orjson differs for integers beyond 64 bits
(it raises) and in how it writes some floats (``1e-7`` for ``1e-07``,
``0.00006103515625`` for ``6.103515625e-05``), so a document with a float or
such an integer is encoded with :mod:`json` (game records hold neither).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

SORTED = orjson.OPT_SORT_KEYS
"""orjson's option for canonical key order (for callers splicing fragments)."""
_DOT_FLOAT = re.compile(rb"\.[0-9]+(?:e[-+][0-9]+)?(?:[,\]}]|$)")
_EXP_FLOAT = re.compile(rb"e[-+][0-9]+(?:[,\]}]|$)")
_ONLY_DIGITS = bytes(48 if 48 <= i <= 57 else 120 for i in range(256))  # 0-9 -> "0"
_LONG_RUN = b"0" * 19


def _has_float(data: bytes) -> bool:
    """Whether orjson's output has a float token (both write one with ``.`` or
    ``e+``/``e-``).  Text in a string that looks like one only costs a slower,
    still exact, encoding.  Finding the few candidates first is what keeps this
    cheap next to the encoding it guards."""
    for needle, token in ((b".", _DOT_FLOAT), (b"e+", _EXP_FLOAT), (b"e-", _EXP_FLOAT)):
        at = data.find(needle)
        while at != -1:
            if token.match(data, at):
                return True
            at = data.find(needle, at + 1)
    return False


def _has_long_int(data: bytes | bytearray | memoryview) -> bool:
    """Whether ``data`` has a run of 19 digits (an integer orjson would read as
    a float, or digits in a string: those only cost a slower parse)."""
    return _LONG_RUN in bytes(data).translate(_ONLY_DIGITS)


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes: the same value always encodes the same way.

    Sorted keys, no insignificant whitespace, non-ASCII kept as UTF-8; the
    same bytes as :mod:`json` with those settings.

    >>> canonical_json({"b": 1, "a": [1, "é"]})
    b'{"a":[1,"\\xc3\\xa9"],"b":1}'
    >>> canonical_json({"small": 1e-07, "big": 2**70})
    b'{"big":1180591620717411303424,"small":1e-07}'
    """
    try:
        data = orjson.dumps(value, option=SORTED)
    except TypeError:  # an integer beyond 64 bits, or a key that is not a str
        return _stdlib_json(value)
    if _has_float(data):
        return _stdlib_json(value)
    return data


def _stdlib_json(value: Any) -> bytes:
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    ).encode("utf-8")


def load(data: bytes | bytearray | memoryview | str) -> Any:
    """Parse a stored record (or any JSON the ledger wrote), exactly.

    orjson reads integers beyond 64 bits as floats, which would change the
    bytes an auditor re-hashes; text with a run of 19 digits is parsed by
    :mod:`json` instead.

    :raises ValueError: when ``data`` is not JSON.
    """
    raw = data.encode() if isinstance(data, str) else data
    if _has_long_int(raw):
        return json.loads(bytes(raw))
    return orjson.loads(raw)
