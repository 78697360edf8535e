from ledger.v1 import game_service_pb2 as _game_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class AddTimeRequest(_message.Message):
    __slots__ = ("game_id", "seat", "added_ms")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ADDED_MS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    added_ms: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., added_ms: _Optional[int] = ...) -> None: ...

class PauseGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ResumeGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class PauseRoundRequest(_message.Message):
    __slots__ = ("tournament_id", "round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class ResumeRoundRequest(_message.Message):
    __slots__ = ("tournament_id", "round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class RoundControlResponse(_message.Message):
    __slots__ = ("round", "changed_game_ids", "unchanged_game_ids")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    CHANGED_GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    round: int
    changed_game_ids: _containers.RepeatedScalarFieldContainer[str]
    unchanged_game_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., changed_game_ids: _Optional[_Iterable[str]] = ..., unchanged_game_ids: _Optional[_Iterable[str]] = ...) -> None: ...
