from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TicTacToeSetup(_message.Message):
    __slots__ = ("players",)
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    players: int
    def __init__(self, players: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("place",)
    PLACE_FIELD_NUMBER: _ClassVar[int]
    place: Place
    def __init__(self, place: _Optional[_Union[Place, _Mapping]] = ...) -> None: ...

class Place(_message.Message):
    __slots__ = ("cell",)
    CELL_FIELD_NUMBER: _ClassVar[int]
    cell: int
    def __init__(self, cell: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("game_started", "mark_placed")
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    MARK_PLACED_FIELD_NUMBER: _ClassVar[int]
    game_started: GameStarted
    mark_placed: MarkPlaced
    def __init__(self, game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., mark_placed: _Optional[_Union[MarkPlaced, _Mapping]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("first_seat",)
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    first_seat: int
    def __init__(self, first_seat: _Optional[int] = ...) -> None: ...

class MarkPlaced(_message.Message):
    __slots__ = ("seat", "cell")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cell: int
    def __init__(self, seat: _Optional[int] = ..., cell: _Optional[int] = ...) -> None: ...

class TicTacToeView(_message.Message):
    __slots__ = ("board", "to_move")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    board: _containers.RepeatedScalarFieldContainer[int]
    to_move: int
    def __init__(self, board: _Optional[_Iterable[int]] = ..., to_move: _Optional[int] = ...) -> None: ...
