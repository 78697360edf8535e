"""Hypothesis strategies for hostile requests, built from message descriptors.

Every request is sent as raw bytes (no client-side serializer), so the same
path carries well-formed messages with hostile values, invalid UTF-8 spliced
into a string field, and bytes that are no message at all.  Field values lean
on a :class:`Context` of real ids and tokens, so the fuzzer gets past "not a
UUID" into the code behind it.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import any_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from hypothesis import strategies as st

from tests.support.rpcs import Method

INT_EDGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
INVALID_UTF8 = (b"\xc3\x28", b"\xff", b"\xed\xa0\x80", b"\xf0\x28\x8c\x28", b"a\x80b")


def _old_token(payload: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).decode()


FORGED_PAGE_TOKENS = (
    _old_token({"o": -1}),
    _old_token({"o": 2**63}),
    _old_token([1, 2, 3]),
    _old_token({"v": 1, "s": 0, "o": -5}),
    base64.urlsafe_b64encode(b"not json").decode(),
    "eyJvIjoxfQ.AAAAAAAAAAAAAAAAAAAAAA",
    "....",
    "%%%",
)


@dataclass
class Context:
    """Real things on the server under test, for values that get far."""

    game_ids: list[str] = field(default_factory=list)
    tournament_ids: list[str] = field(default_factory=list)
    player_ids: list[str] = field(default_factory=list)
    game_types: list[str] = field(default_factory=list)
    page_tokens: list[str] = field(default_factory=list)
    moves: list[any_pb2.Any] = field(default_factory=list)
    setups: list[any_pb2.Any] = field(default_factory=list)
    templates: dict[str, list[Any]] = field(default_factory=dict)
    """RPC path -> valid requests, which the "mutant" mode alters a little."""
    bearer_tokens: dict[str, str] = field(default_factory=dict)
    """Role name -> token (admin, seats, organiser, tournament roles)."""


def weighted(*options: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of ``options``, each chosen with its relative weight."""
    table = [strategy for weight, strategy in options for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


def hostile_text() -> st.SearchStrategy[str]:
    return weighted(
        (30, st.text(max_size=40)),
        (5, st.text(max_size=300)),
        (
            10,
            st.builds(
                lambda s, i: s[:i] + "\x00" + s[i:],
                st.text(max_size=20),
                st.integers(0, 20),
            ),
        ),
        (
            10,
            st.sampled_from(
                ["", " ", "../../thalara/content/sample", "/etc/passwd", "\x00"]
            ),
        ),
        (3, st.integers(257, 20_000).map(lambda n: "x" * n)),
        (1, st.just("y" * 2_000_000)),  # past the 1 MiB request limit
    )


def json_text() -> st.SearchStrategy[str]:
    values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=8,
    )
    return st.one_of(
        values.map(json.dumps),
        st.integers(30, 100_000).map(lambda n: "[" * n),
        st.integers(30, 5_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
        hostile_text(),
    )


def string_value(ctx: Context, name: str) -> st.SearchStrategy[str]:
    """A value for a string field called ``name``."""
    pools: dict[str, list[str]] = {
        "game_id": ctx.game_ids,
        "tournament_id": ctx.tournament_ids,
        "player_id": ctx.player_ids,
        "player_ids": ctx.player_ids,
        "game_type": ctx.game_types,
        "page_token": [*ctx.page_tokens, *FORGED_PAGE_TOKENS],
        "command_id": ["c1", "c2"],
        "content": ["sample", "", "../../thalara/content/sample", "/etc/hosts"],
        "format": ["swiss", "round_robin", "swiss_ffa"],
        "key": ["character", "clan", "card"],
    }
    if name == "setup_json":
        return json_text()
    pool = [v for v in pools.get(name, []) if v]
    if not pool:
        return hostile_text()
    return weighted((4, st.sampled_from(pool)), (1, hostile_text()))


def any_value(ctx: Context) -> st.SearchStrategy[any_pb2.Any]:
    templates = [*ctx.moves, *ctx.setups]

    def corrupt(template: any_pb2.Any, how: int, data: bytes, at: int) -> any_pb2.Any:
        value = template.value
        if how == 0:
            value = data
        elif how == 1:
            value = value[: at % (len(value) + 1)]
        elif how == 2 and value:
            i = at % len(value)
            value = value[:i] + bytes([value[i] ^ 0xFF]) + value[i + 1 :]
        elif how == 3:
            value = value + b"\x0a" + bytes([len(data[:100])]) + data[:100]
        elif how == 4:
            bad = INVALID_UTF8[at % len(INVALID_UTF8)]
            value = (
                value
                + b"\x0a"
                + bytes([len(bad) + 2])
                + b"\x0a"
                + bytes([len(bad)])
                + bad
            )
        return any_pb2.Any(type_url=template.type_url, value=value)

    return st.one_of(
        st.sampled_from(templates) if templates else st.nothing(),
        st.builds(
            corrupt,
            st.sampled_from(templates) if templates else st.nothing(),
            st.integers(0, 5),
            st.binary(max_size=200),
            st.integers(0, 10_000),
        ),
        st.builds(
            lambda url, value: any_pb2.Any(type_url=url, value=value),
            st.one_of(
                st.sampled_from([t.type_url for t in templates] or ["x"]),
                hostile_text(),
            ),
            st.binary(max_size=300),
        ),
        st.just(any_pb2.Any(type_url="type.googleapis.com/x", value=b"x" * 70_000)),
    )


def scalar(ctx: Context, f: FieldDescriptor) -> st.SearchStrategy[Any]:
    if f.type == FieldDescriptor.TYPE_STRING:
        return string_value(ctx, f.name)
    if f.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=100)
    if f.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if f.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(width=32 if f.type == FieldDescriptor.TYPE_FLOAT else 64)
    if f.type == FieldDescriptor.TYPE_ENUM:
        return st.integers(-3, 10)
    lo, hi = INT_EDGES[f.type]
    edges = [v for v in (0, 1, -1, 2, 5, 1000, lo, hi, hi - 1) if lo <= v <= hi]
    return st.one_of(st.sampled_from(edges), st.integers(lo, hi), st.integers(0, 10))


def fill_one(ctx: Context, f: FieldDescriptor, data: Any, depth: int = 0) -> Any:
    """Values for field ``f`` (a list; one element unless repeated), or None."""
    if f.message_type is not None:
        if f.message_type.GetOptions().map_entry:
            return None
        if f.message_type.full_name == "google.protobuf.Any":
            return data.draw(
                st.lists(any_value(ctx), max_size=2 if f.is_repeated else 1, min_size=1)
            )
        if depth >= 3:
            return None
        return [fill(ctx, f.message_type, data, depth + 1)]
    if f.is_repeated:
        count = data.draw(st.sampled_from([0, 1, 2, 3, 17, 1001]), label="count")
        return [data.draw(scalar(ctx, f))] * count
    return [data.draw(scalar(ctx, f))]


def fill(ctx: Context, desc: Descriptor, data: Any, depth: int = 0) -> Any:
    """Draw a message of ``desc`` with a random subset of its fields set."""
    from google.protobuf import message_factory

    msg = message_factory.GetMessageClass(desc)()
    for f in desc.fields:
        if not data.draw(st.booleans(), label=f"set {f.name}"):
            continue
        values = fill_one(ctx, f, data, depth)
        if values is None:
            continue
        if f.is_repeated:
            getattr(msg, f.name).extend(values)
        elif f.message_type is not None:
            getattr(msg, f.name).CopyFrom(values[0])
        else:
            setattr(msg, f.name, values[0])
    return msg


def mutant(ctx: Context, template: Any, data: Any) -> bytes:
    """A valid request with zero to two fields redrawn: hostile, but it gets far."""
    message = type(template)()
    message.CopyFrom(template)
    fields = list(message.DESCRIPTOR.fields)
    for _ in range(data.draw(st.integers(0, 2 if fields else 0), label="mutations")):
        f = data.draw(st.sampled_from(fields), label="mutate")
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            continue
        message.ClearField(f.name)
        drawn = fill_one(ctx, f, data)
        if drawn is None:
            continue
        if f.is_repeated:
            getattr(message, f.name).extend(drawn)
        elif f.message_type is not None:
            getattr(message, f.name).CopyFrom(drawn[0])
        else:
            setattr(message, f.name, drawn[0])
    return bytes(message.SerializeToString())


def splice_invalid_utf8(desc: Descriptor, body: bytes, data: Any) -> bytes:
    """``body`` plus a string field (of ``desc``, if it has one) that is not UTF-8."""
    strings = [f for f in desc.fields if f.type == FieldDescriptor.TYPE_STRING]
    number = data.draw(st.sampled_from(strings)).number if strings else 15
    bad = data.draw(st.sampled_from(INVALID_UTF8))
    tag = _varint(number << 3 | 2)
    return body + tag + _varint(len(bad)) + bad


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def request_body(ctx: Context, method: Method, data: Any) -> tuple[str, bytes]:
    """(mode, bytes) of one hostile request for ``method``."""
    templates = ctx.templates.get(method.path, [])
    modes = ["fields", "fields", "raw", "utf8"] + ["mutant"] * (3 if templates else 0)
    mode = data.draw(st.sampled_from(modes), label="mode")
    if mode == "mutant":
        return mode, mutant(ctx, data.draw(st.sampled_from(templates)), data)
    if mode == "raw":
        return mode, data.draw(
            st.one_of(
                st.binary(max_size=64),
                st.binary(min_size=100, max_size=5_000),
                st.integers(1, 5_000).map(lambda n: b"\x0a\x80\x80\x80\x80\x10" * n),
            )
        )
    message = fill(ctx, method.request.DESCRIPTOR, data)
    body = message.SerializeToString()
    if mode == "utf8":
        body = splice_invalid_utf8(method.request.DESCRIPTOR, body, data)
    return mode, body


def metadata(ctx: Context) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    printable = st.text(
        alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=80
    )
    bearer = st.one_of(
        st.sampled_from(sorted(ctx.bearer_tokens.values()) or ["x"]),
        printable,
        st.integers(100, 6_000).map(lambda n: "t" * n),
    ).map(lambda t: ("authorization", f"Bearer {t}"))
    odd = st.sampled_from(
        [
            ("authorization", "Basic abc"),
            ("authorization", "Bearer "),
            ("authorization", "bearer"),
        ]
    )
    known = st.sampled_from(sorted(ctx.bearer_tokens.values()) or ["x"])
    return weighted(
        (3, st.just(())),
        (6, known.map(lambda t: (("authorization", f"Bearer {t}"),))),
        (2, bearer.map(lambda h: (h,))),
        (1, odd.map(lambda h: (h,))),
    )
