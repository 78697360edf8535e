"""``CheckpointService``: the ledger's signed checkpoints and their proofs.

The checkpoints come from the signer's files beside its key (see
``services.ledger.head_signer``), never from the database.  A checkpoint and
a consistency proof name only tree sizes and hashes; an inclusion proof names
a game's head (its version and hash), so it is given to whoever may export
the game: the admin, or everyone once the game ended.
"""

from __future__ import annotations

import json
from typing import Any

from domain.contract.core import InvalidCommandError
from domain.ledger.checkpoints import Checkpoint, CheckpointError
from ledger.v1 import checkpoint_service_pb2 as pb
from ledger.v1 import checkpoint_service_pb2_grpc as pb_grpc
from services.api.auth import current_principal
from services.api.rpc import guarded, parse_game_id
from services.ledger.application import GameLedger
from services.ledger.reading.game_reads import GameReads


def _size(value: int, field: str) -> int | None:
    """:raises InvalidCommandError: for a negative size (0 means the latest)."""
    if value < 0:
        raise InvalidCommandError(
            f"{field} must be 0 (the latest) or a checkpoint's tree size",
            violations=((field, "negative"),),
        )
    return value or None


def checkpoint_message(checkpoint: Checkpoint) -> pb.SignedCheckpoint:
    return pb.SignedCheckpoint(
        tree_size=checkpoint.tree_size,
        root_hash=bytes.fromhex(checkpoint.root_hash),
        timestamp=checkpoint.timestamp,
        key_id=checkpoint.key_id,
        signature=checkpoint.signature,
        json=json.dumps(checkpoint.to_json(), sort_keys=True),
    )


class CheckpointServicer(pb_grpc.CheckpointServiceServicer):
    def __init__(self, ledger: GameLedger, reads: GameReads) -> None:
        self._ledger = ledger
        self._reads = reads

    def _log(self) -> Any:
        log = self._ledger.head_signer.checkpoints
        if log is None:
            raise CheckpointError("this server keeps no checkpoints")
        return log

    def _checkpoint(self, size: int | None) -> Checkpoint:
        found = [
            c for c in self._log().checkpoints() if size is None or c.tree_size == size
        ]
        if not found:
            raise CheckpointError(
                "no checkpoint has been published yet"
                if size is None
                else f"no checkpoint of tree size {size}"
            )
        return found[-1]

    @guarded
    async def GetCheckpoint(
        self, request: pb.GetCheckpointRequest, context: Any
    ) -> pb.SignedCheckpoint:
        size = _size(request.tree_size, "tree_size")
        found = await self._ledger.io(self._checkpoint, size)
        return checkpoint_message(found)

    @guarded
    async def GetInclusionProof(
        self, request: pb.GetInclusionProofRequest, context: Any
    ) -> pb.InclusionProof:
        game_id = parse_game_id(request.game_id)
        size = _size(request.tree_size, "tree_size")
        await self._reads.check_exportable(current_principal.get(), game_id)
        checkpoint = await self._ledger.io(self._checkpoint, size)
        proof = await self._ledger.io(
            self._log().inclusion, str(game_id), checkpoint.tree_size
        )
        return pb.InclusionProof(
            game_id=proof.head.game_id,
            version=proof.head.version,
            head_hash=proof.head.head_hash,
            leaf_index=proof.index,
            tree_size=proof.tree_size,
            path=list(proof.path),
            rule=list(proof.rule),
            json=json.dumps(proof.to_json(), sort_keys=True),
        )

    @guarded
    async def GetConsistencyProof(
        self, request: pb.GetConsistencyProofRequest, context: Any
    ) -> pb.ConsistencyProof:
        prior = _size(request.prior_size, "prior_size")
        if prior is None:
            raise InvalidCommandError(
                "prior_size must be the tree size of a checkpoint you hold",
                violations=(("prior_size", "required"),),
            )
        size = _size(request.tree_size, "tree_size")
        later = await self._ledger.io(self._checkpoint, size)
        await self._ledger.io(self._checkpoint, prior)  # a published size only
        proof = await self._ledger.io(self._log().consistency, prior, later.tree_size)
        return pb.ConsistencyProof(
            prior_size=proof.prior_size,
            tree_size=proof.tree_size,
            path=list(proof.path),
            rule=list(proof.rule),
            subset=list(proof.subset),
        )
