from google.protobuf import any_pb2 as _any_pb2
from ledger.v1 import game_service_pb2 as _game_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DrawAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DRAW_ACTION_UNSPECIFIED: _ClassVar[DrawAction]
    DRAW_ACTION_OFFER: _ClassVar[DrawAction]
    DRAW_ACTION_ACCEPT: _ClassVar[DrawAction]
    DRAW_ACTION_DECLINE: _ClassVar[DrawAction]
DRAW_ACTION_UNSPECIFIED: DrawAction
DRAW_ACTION_OFFER: DrawAction
DRAW_ACTION_ACCEPT: DrawAction
DRAW_ACTION_DECLINE: DrawAction

class PlayRequest(_message.Message):
    __slots__ = ("ref", "open", "move", "draw", "resign", "moves")
    REF_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    ref: str
    open: OpenSession
    move: SessionMove
    draw: DrawAnswer
    resign: SessionResign
    moves: MovesQuery
    def __init__(self, ref: _Optional[str] = ..., open: _Optional[_Union[OpenSession, _Mapping]] = ..., move: _Optional[_Union[SessionMove, _Mapping]] = ..., draw: _Optional[_Union[DrawAnswer, _Mapping]] = ..., resign: _Optional[_Union[SessionResign, _Mapping]] = ..., moves: _Optional[_Union[MovesQuery, _Mapping]] = ...) -> None: ...

class OpenSession(_message.Message):
    __slots__ = ("game_id", "after_version", "seat", "page_size", "with_view")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    WITH_VIEW_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_version: int
    seat: int
    page_size: int
    with_view: bool
    def __init__(self, game_id: _Optional[str] = ..., after_version: _Optional[int] = ..., seat: _Optional[int] = ..., page_size: _Optional[int] = ..., with_view: _Optional[bool] = ...) -> None: ...

class SessionMove(_message.Message):
    __slots__ = ("command_id", "move", "seat", "expected_version", "signature")
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    command_id: str
    move: _any_pb2.Any
    seat: int
    expected_version: int
    signature: bytes
    def __init__(self, command_id: _Optional[str] = ..., move: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., seat: _Optional[int] = ..., expected_version: _Optional[int] = ..., signature: _Optional[bytes] = ...) -> None: ...

class DrawAnswer(_message.Message):
    __slots__ = ("action", "seat")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    action: DrawAction
    seat: int
    def __init__(self, action: _Optional[_Union[DrawAction, str]] = ..., seat: _Optional[int] = ...) -> None: ...

class SessionResign(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class MovesQuery(_message.Message):
    __slots__ = ("seat", "page_token", "filter", "page_size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    page_token: str
    filter: str
    page_size: int
    def __init__(self, seat: _Optional[int] = ..., page_token: _Optional[str] = ..., filter: _Optional[str] = ..., page_size: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("ref", "opened", "event", "state", "moves", "accepted", "refused", "control")
    REF_FIELD_NUMBER: _ClassVar[int]
    OPENED_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    CONTROL_FIELD_NUMBER: _ClassVar[int]
    ref: str
    opened: SessionOpened
    event: _game_service_pb2.GameEvent
    state: _game_service_pb2.GameSummary
    moves: LegalMovesPage
    accepted: MoveAccepted
    refused: SessionRefusal
    control: ControlAccepted
    def __init__(self, ref: _Optional[str] = ..., opened: _Optional[_Union[SessionOpened, _Mapping]] = ..., event: _Optional[_Union[_game_service_pb2.GameEvent, _Mapping]] = ..., state: _Optional[_Union[_game_service_pb2.GameSummary, _Mapping]] = ..., moves: _Optional[_Union[LegalMovesPage, _Mapping]] = ..., accepted: _Optional[_Union[MoveAccepted, _Mapping]] = ..., refused: _Optional[_Union[SessionRefusal, _Mapping]] = ..., control: _Optional[_Union[ControlAccepted, _Mapping]] = ...) -> None: ...

class SessionOpened(_message.Message):
    __slots__ = ("game", "seats")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    game: _game_service_pb2.GameSummary
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game: _Optional[_Union[_game_service_pb2.GameSummary, _Mapping]] = ..., seats: _Optional[_Iterable[int]] = ...) -> None: ...

class LegalMovesPage(_message.Message):
    __slots__ = ("version", "seat", "moves", "total_size", "next_page_token", "filter", "offset", "indexes", "view")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SIZE_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    INDEXES_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    moves: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    total_size: int
    next_page_token: str
    filter: str
    offset: int
    indexes: _containers.RepeatedScalarFieldContainer[int]
    view: _any_pb2.Any
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ..., total_size: _Optional[int] = ..., next_page_token: _Optional[str] = ..., filter: _Optional[str] = ..., offset: _Optional[int] = ..., indexes: _Optional[_Iterable[int]] = ..., view: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class MoveAccepted(_message.Message):
    __slots__ = ("command_id", "first_version", "last_version", "replayed", "receipt")
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_VERSION_FIELD_NUMBER: _ClassVar[int]
    LAST_VERSION_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    command_id: str
    first_version: int
    last_version: int
    replayed: bool
    receipt: _game_service_pb2.Receipt
    def __init__(self, command_id: _Optional[str] = ..., first_version: _Optional[int] = ..., last_version: _Optional[int] = ..., replayed: _Optional[bool] = ..., receipt: _Optional[_Union[_game_service_pb2.Receipt, _Mapping]] = ...) -> None: ...

class ControlAccepted(_message.Message):
    __slots__ = ("last_version",)
    LAST_VERSION_FIELD_NUMBER: _ClassVar[int]
    last_version: int
    def __init__(self, last_version: _Optional[int] = ...) -> None: ...

class SessionRefusal(_message.Message):
    __slots__ = ("code", "message", "details")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    details: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ..., details: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ...) -> None: ...
