import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from ledger.v1 import game_service_pb2 as _game_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AutomaticRounds(_message.Message):
    __slots__ = ("gap_seconds",)
    GAP_SECONDS_FIELD_NUMBER: _ClassVar[int]
    gap_seconds: int
    def __init__(self, gap_seconds: _Optional[int] = ...) -> None: ...

class FinishTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ReplayAbortedGameRequest(_message.Message):
    __slots__ = ("tournament_id", "game_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    game_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., game_id: _Optional[str] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("name", "game_type", "format", "rounds", "table_size", "setup_json", "spectator_delay", "time_control", "automatic_rounds")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    SETUP_JSON_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    AUTOMATIC_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    game_type: str
    format: str
    rounds: int
    table_size: int
    setup_json: str
    spectator_delay: _game_service_pb2.SpectatorDelay
    time_control: _game_service_pb2.TimeControl
    automatic_rounds: AutomaticRounds
    def __init__(self, name: _Optional[str] = ..., game_type: _Optional[str] = ..., format: _Optional[str] = ..., rounds: _Optional[int] = ..., table_size: _Optional[int] = ..., setup_json: _Optional[str] = ..., spectator_delay: _Optional[_Union[_game_service_pb2.SpectatorDelay, _Mapping]] = ..., time_control: _Optional[_Union[_game_service_pb2.TimeControl, _Mapping]] = ..., automatic_rounds: _Optional[_Union[AutomaticRounds, _Mapping]] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament", "organiser_token")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ORGANISER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament: TournamentSummary
    organiser_token: str
    def __init__(self, tournament: _Optional[_Union[TournamentSummary, _Mapping]] = ..., organiser_token: _Optional[str] = ...) -> None: ...

class IssueOrganiserTokenRequest(_message.Message):
    __slots__ = ("label",)
    LABEL_FIELD_NUMBER: _ClassVar[int]
    label: str
    def __init__(self, label: _Optional[str] = ...) -> None: ...

class IssueOrganiserTokenResponse(_message.Message):
    __slots__ = ("label", "organiser_token")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ORGANISER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    label: str
    organiser_token: str
    def __init__(self, label: _Optional[str] = ..., organiser_token: _Optional[str] = ...) -> None: ...

class RegisterPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class RegisterPlayerResponse(_message.Message):
    __slots__ = ("player_id", "player_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    player_token: str
    def __init__(self, player_id: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class WithdrawPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class StartRoundRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class TournamentSummary(_message.Message):
    __slots__ = ("tournament_id", "name", "game_type", "format", "rounds", "table_size", "players", "withdrawn", "current_round", "status", "version", "spectator_delay", "time_control", "automatic_rounds", "next_round_at")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ROUND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    AUTOMATIC_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ROUND_AT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    game_type: str
    format: str
    rounds: int
    table_size: int
    players: _containers.RepeatedScalarFieldContainer[str]
    withdrawn: _containers.RepeatedScalarFieldContainer[str]
    current_round: int
    status: str
    version: int
    spectator_delay: _game_service_pb2.SpectatorDelay
    time_control: _game_service_pb2.TimeControl
    automatic_rounds: AutomaticRounds
    next_round_at: _timestamp_pb2.Timestamp
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., game_type: _Optional[str] = ..., format: _Optional[str] = ..., rounds: _Optional[int] = ..., table_size: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., withdrawn: _Optional[_Iterable[str]] = ..., current_round: _Optional[int] = ..., status: _Optional[str] = ..., version: _Optional[int] = ..., spectator_delay: _Optional[_Union[_game_service_pb2.SpectatorDelay, _Mapping]] = ..., time_control: _Optional[_Union[_game_service_pb2.TimeControl, _Mapping]] = ..., automatic_rounds: _Optional[_Union[AutomaticRounds, _Mapping]] = ..., next_round_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Table(_message.Message):
    __slots__ = ("table", "players", "game_id", "ranks", "finished")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    table: int
    players: _containers.RepeatedScalarFieldContainer[str]
    game_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    finished: bool
    def __init__(self, table: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., game_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., finished: _Optional[bool] = ...) -> None: ...

class Round(_message.Message):
    __slots__ = ("round", "tables", "byes")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    round: int
    tables: _containers.RepeatedCompositeFieldContainer[Table]
    byes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., tables: _Optional[_Iterable[_Union[Table, _Mapping]]] = ..., byes: _Optional[_Iterable[str]] = ...) -> None: ...

class ListRoundsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ListRoundsResponse(_message.Message):
    __slots__ = ("rounds",)
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    rounds: _containers.RepeatedCompositeFieldContainer[Round]
    def __init__(self, rounds: _Optional[_Iterable[_Union[Round, _Mapping]]] = ...) -> None: ...

class GetPairingsRequest(_message.Message):
    __slots__ = ("tournament_id", "round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id", "min_log_position", "min_read_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    min_log_position: int
    min_read_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., min_log_position: _Optional[int] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class StandingRow(_message.Message):
    __slots__ = ("rank", "player_id", "points", "buchholz", "played", "wins", "draws", "losses", "withdrawn", "byes", "forfeit_wins", "forfeit_losses")
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BUCHHOLZ_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_WINS_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_LOSSES_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player_id: str
    points: float
    buchholz: float
    played: int
    wins: int
    draws: int
    losses: int
    withdrawn: bool
    byes: int
    forfeit_wins: int
    forfeit_losses: int
    def __init__(self, rank: _Optional[int] = ..., player_id: _Optional[str] = ..., points: _Optional[float] = ..., buchholz: _Optional[float] = ..., played: _Optional[int] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ..., withdrawn: _Optional[bool] = ..., byes: _Optional[int] = ..., forfeit_wins: _Optional[int] = ..., forfeit_losses: _Optional[int] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("tournament_id", "round", "rows", "tie_breaks", "status")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAKS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    rows: _containers.RepeatedCompositeFieldContainer[StandingRow]
    tie_breaks: _containers.RepeatedScalarFieldContainer[str]
    status: str
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., rows: _Optional[_Iterable[_Union[StandingRow, _Mapping]]] = ..., tie_breaks: _Optional[_Iterable[str]] = ..., status: _Optional[str] = ...) -> None: ...

class GetMyGamesRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class MyGame(_message.Message):
    __slots__ = ("round", "game_id", "seats", "seat_token")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    round: int
    game_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    seat_token: str
    def __init__(self, round: _Optional[int] = ..., game_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., seat_token: _Optional[str] = ...) -> None: ...

class GetMyGamesResponse(_message.Message):
    __slots__ = ("player_id", "games")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    games: _containers.RepeatedCompositeFieldContainer[MyGame]
    def __init__(self, player_id: _Optional[str] = ..., games: _Optional[_Iterable[_Union[MyGame, _Mapping]]] = ...) -> None: ...
