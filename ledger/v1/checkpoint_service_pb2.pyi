from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class GetCheckpointRequest(_message.Message):
    __slots__ = ("tree_size",)
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    tree_size: int
    def __init__(self, tree_size: _Optional[int] = ...) -> None: ...

class SignedCheckpoint(_message.Message):
    __slots__ = ("tree_size", "root_hash", "timestamp", "key_id", "signature", "json")
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    ROOT_HASH_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    tree_size: int
    root_hash: bytes
    timestamp: str
    key_id: str
    signature: bytes
    json: str
    def __init__(self, tree_size: _Optional[int] = ..., root_hash: _Optional[bytes] = ..., timestamp: _Optional[str] = ..., key_id: _Optional[str] = ..., signature: _Optional[bytes] = ..., json: _Optional[str] = ...) -> None: ...

class GetInclusionProofRequest(_message.Message):
    __slots__ = ("game_id", "tree_size")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    tree_size: int
    def __init__(self, game_id: _Optional[str] = ..., tree_size: _Optional[int] = ...) -> None: ...

class InclusionProof(_message.Message):
    __slots__ = ("game_id", "version", "head_hash", "leaf_index", "tree_size", "path", "rule", "json")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    HEAD_HASH_FIELD_NUMBER: _ClassVar[int]
    LEAF_INDEX_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    version: int
    head_hash: str
    leaf_index: int
    tree_size: int
    path: _containers.RepeatedScalarFieldContainer[bytes]
    rule: _containers.RepeatedScalarFieldContainer[int]
    json: str
    def __init__(self, game_id: _Optional[str] = ..., version: _Optional[int] = ..., head_hash: _Optional[str] = ..., leaf_index: _Optional[int] = ..., tree_size: _Optional[int] = ..., path: _Optional[_Iterable[bytes]] = ..., rule: _Optional[_Iterable[int]] = ..., json: _Optional[str] = ...) -> None: ...

class GetConsistencyProofRequest(_message.Message):
    __slots__ = ("prior_size", "tree_size")
    PRIOR_SIZE_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    prior_size: int
    tree_size: int
    def __init__(self, prior_size: _Optional[int] = ..., tree_size: _Optional[int] = ...) -> None: ...

class ConsistencyProof(_message.Message):
    __slots__ = ("prior_size", "tree_size", "path", "rule", "subset")
    PRIOR_SIZE_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    SUBSET_FIELD_NUMBER: _ClassVar[int]
    prior_size: int
    tree_size: int
    path: _containers.RepeatedScalarFieldContainer[bytes]
    rule: _containers.RepeatedScalarFieldContainer[int]
    subset: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, prior_size: _Optional[int] = ..., tree_size: _Optional[int] = ..., path: _Optional[_Iterable[bytes]] = ..., rule: _Optional[_Iterable[int]] = ..., subset: _Optional[_Iterable[int]] = ...) -> None: ...
