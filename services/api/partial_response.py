"""Partial responses: the fields of ``SubmitMoveResponse`` a caller asked for.

Why: presenting a move's events as the caller may see them and the game's
summary is most of what a ``SubmitMove`` answer costs the server, and a
client that tracks the game itself (it knows whose turn comes next) needs
only the acknowledgement.  ``SubmitMoveRequest.response_mask`` names the
fields to fill, as ``google.protobuf.FieldMask`` paths (AIP-157's partial
responses); fields not named are left unset.  The move is recorded the same
either way: the mask shapes the answer, never what is stored.
"""

from __future__ import annotations

from google.protobuf.field_mask_pb2 import FieldMask

from domain.contract.core import InvalidCommandError
from ledger.v1 import game_service_pb2 as pb

SUBMIT_RESPONSE_FIELDS = frozenset(pb.SubmitMoveResponse.DESCRIPTOR.fields_by_name)
"""Every field a ``SubmitMove`` answer has, and so every path a mask may name."""

ALL = "*"


def response_fields(mask: FieldMask) -> frozenset[str]:
    """The answer's fields ``mask`` names; an unset or empty mask, or ``*``, names them all.

    :raises InvalidCommandError: a path that is not a field of the answer
        (nested paths included: a field is filled whole or not at all).
    """
    paths = list(mask.paths)
    if not paths or ALL in paths:
        return SUBMIT_RESPONSE_FIELDS
    unknown = [
        (f"response_mask.paths[{i}]", f"{path!r} is not a field of SubmitMoveResponse")
        for i, path in enumerate(paths)
        if path not in SUBMIT_RESPONSE_FIELDS
    ]
    if unknown:
        raise InvalidCommandError(
            "response_mask names fields SubmitMoveResponse does not have; "
            f"it has {', '.join(sorted(SUBMIT_RESPONSE_FIELDS))}",
            violations=tuple(unknown),
        )
    return frozenset(paths)
