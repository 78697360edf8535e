from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CardsSetup(_message.Message):
    __slots__ = ("players",)
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    players: int
    def __init__(self, players: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("play_card",)
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    play_card: PlayCard
    def __init__(self, play_card: _Optional[_Union[PlayCard, _Mapping]] = ...) -> None: ...

class PlayCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: int
    def __init__(self, card: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("game_started", "card_played")
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    game_started: GameStarted
    card_played: CardPlayed
    def __init__(self, game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., card_played: _Optional[_Union[CardPlayed, _Mapping]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("first_seat",)
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    first_seat: int
    def __init__(self, first_seat: _Optional[int] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...

class CardsView(_message.Message):
    __slots__ = ("moves", "totals", "last", "to_move")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    moves: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    last: int
    to_move: int
    def __init__(self, moves: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ..., last: _Optional[int] = ..., to_move: _Optional[int] = ...) -> None: ...
