from google.protobuf import any_pb2 as _any_pb2
from ledger.v1 import game_service_pb2 as _game_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Frame(_message.Message):
    __slots__ = ("event", "view", "clocks")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    event: _game_service_pb2.GameEvent
    view: _any_pb2.Any
    clocks: _containers.RepeatedCompositeFieldContainer[_game_service_pb2.SeatClock]
    def __init__(self, event: _Optional[_Union[_game_service_pb2.GameEvent, _Mapping]] = ..., view: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., clocks: _Optional[_Iterable[_Union[_game_service_pb2.SeatClock, _Mapping]]] = ...) -> None: ...

class ListFramesRequest(_message.Message):
    __slots__ = ("game_id", "after_version", "page_size")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_version: int
    page_size: int
    def __init__(self, game_id: _Optional[str] = ..., after_version: _Optional[int] = ..., page_size: _Optional[int] = ...) -> None: ...

class ListFramesResponse(_message.Message):
    __slots__ = ("frames", "next_after_version")
    FRAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    frames: _containers.RepeatedCompositeFieldContainer[Frame]
    next_after_version: int
    def __init__(self, frames: _Optional[_Iterable[_Union[Frame, _Mapping]]] = ..., next_after_version: _Optional[int] = ...) -> None: ...

class StreamReplayRequest(_message.Message):
    __slots__ = ("game_id", "after_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_version: int
    def __init__(self, game_id: _Optional[str] = ..., after_version: _Optional[int] = ...) -> None: ...

class ExportGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ExportChunk(_message.Message):
    __slots__ = ("line",)
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game_type", "page_size", "page_token", "min_log_position", "min_read_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    page_size: int
    page_token: str
    min_log_position: int
    min_read_token: str
    def __init__(self, game_type: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., min_log_position: _Optional[int] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class PlayerRating(_message.Message):
    __slots__ = ("player_id", "mu", "sigma", "ordinal", "games", "rank")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    rank: int
    def __init__(self, player_id: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., ordinal: _Optional[float] = ..., games: _Optional[int] = ..., rank: _Optional[int] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("ratings", "next_page_token", "log_position")
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[PlayerRating]
    next_page_token: str
    log_position: int
    def __init__(self, ratings: _Optional[_Iterable[_Union[PlayerRating, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., log_position: _Optional[int] = ...) -> None: ...

class GetRatingHistoryRequest(_message.Message):
    __slots__ = ("game_type", "player_id", "page_size", "page_token", "min_log_position", "min_read_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    player_id: str
    page_size: int
    page_token: str
    min_log_position: int
    min_read_token: str
    def __init__(self, game_type: _Optional[str] = ..., player_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., min_log_position: _Optional[int] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("game_id", "event_version", "log_position", "rank", "mu_before", "sigma_before", "mu", "sigma", "ordinal")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_VERSION_FIELD_NUMBER: _ClassVar[int]
    LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    MU_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SIGMA_BEFORE_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    event_version: int
    log_position: int
    rank: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    ordinal: float
    def __init__(self, game_id: _Optional[str] = ..., event_version: _Optional[int] = ..., log_position: _Optional[int] = ..., rank: _Optional[int] = ..., mu_before: _Optional[float] = ..., sigma_before: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., ordinal: _Optional[float] = ...) -> None: ...

class GetRatingHistoryResponse(_message.Message):
    __slots__ = ("changes", "next_page_token")
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    next_page_token: str
    def __init__(self, changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetGameTypeStatsRequest(_message.Message):
    __slots__ = ("game_type", "players", "min_log_position", "termination", "min_read_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    players: int
    min_log_position: int
    termination: str
    min_read_token: str
    def __init__(self, game_type: _Optional[str] = ..., players: _Optional[int] = ..., min_log_position: _Optional[int] = ..., termination: _Optional[str] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class Bucket(_message.Message):
    __slots__ = ("lo", "hi", "count")
    LO_FIELD_NUMBER: _ClassVar[int]
    HI_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    lo: float
    hi: float
    count: int
    def __init__(self, lo: _Optional[float] = ..., hi: _Optional[float] = ..., count: _Optional[int] = ...) -> None: ...

class Distribution(_message.Message):
    __slots__ = ("count", "min", "max", "mean", "median", "p90", "histogram")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    MEDIAN_FIELD_NUMBER: _ClassVar[int]
    P90_FIELD_NUMBER: _ClassVar[int]
    HISTOGRAM_FIELD_NUMBER: _ClassVar[int]
    count: int
    min: float
    max: float
    mean: float
    median: float
    p90: float
    histogram: _containers.RepeatedCompositeFieldContainer[Bucket]
    def __init__(self, count: _Optional[int] = ..., min: _Optional[float] = ..., max: _Optional[float] = ..., mean: _Optional[float] = ..., median: _Optional[float] = ..., p90: _Optional[float] = ..., histogram: _Optional[_Iterable[_Union[Bucket, _Mapping]]] = ...) -> None: ...

class WinRate(_message.Message):
    __slots__ = ("players", "seat", "value", "games", "wins", "win_rate")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_FIELD_NUMBER: _ClassVar[int]
    players: int
    seat: int
    value: str
    games: int
    wins: int
    win_rate: float
    def __init__(self, players: _Optional[int] = ..., seat: _Optional[int] = ..., value: _Optional[str] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., win_rate: _Optional[float] = ...) -> None: ...

class GameTypeStats(_message.Message):
    __slots__ = ("game_type", "started", "finished", "rounds", "moves", "seconds", "scores", "by_seat", "by_first_player", "facet_keys", "by_termination")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    BY_SEAT_FIELD_NUMBER: _ClassVar[int]
    BY_FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    FACET_KEYS_FIELD_NUMBER: _ClassVar[int]
    BY_TERMINATION_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    started: int
    finished: int
    rounds: Distribution
    moves: Distribution
    seconds: Distribution
    scores: Distribution
    by_seat: _containers.RepeatedCompositeFieldContainer[WinRate]
    by_first_player: _containers.RepeatedCompositeFieldContainer[WinRate]
    facet_keys: _containers.RepeatedScalarFieldContainer[str]
    by_termination: _containers.RepeatedCompositeFieldContainer[TerminationCount]
    def __init__(self, game_type: _Optional[str] = ..., started: _Optional[int] = ..., finished: _Optional[int] = ..., rounds: _Optional[_Union[Distribution, _Mapping]] = ..., moves: _Optional[_Union[Distribution, _Mapping]] = ..., seconds: _Optional[_Union[Distribution, _Mapping]] = ..., scores: _Optional[_Union[Distribution, _Mapping]] = ..., by_seat: _Optional[_Iterable[_Union[WinRate, _Mapping]]] = ..., by_first_player: _Optional[_Iterable[_Union[WinRate, _Mapping]]] = ..., facet_keys: _Optional[_Iterable[str]] = ..., by_termination: _Optional[_Iterable[_Union[TerminationCount, _Mapping]]] = ...) -> None: ...

class GetFacetStatsRequest(_message.Message):
    __slots__ = ("game_type", "key", "players", "page_size", "page_token", "min_log_position", "min_read_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    key: str
    players: int
    page_size: int
    page_token: str
    min_log_position: int
    min_read_token: str
    def __init__(self, game_type: _Optional[str] = ..., key: _Optional[str] = ..., players: _Optional[int] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., min_log_position: _Optional[int] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class FacetCount(_message.Message):
    __slots__ = ("value", "count", "share")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    value: str
    count: int
    share: float
    def __init__(self, value: _Optional[str] = ..., count: _Optional[int] = ..., share: _Optional[float] = ...) -> None: ...

class FacetStats(_message.Message):
    __slots__ = ("key", "win_rates", "frequency", "next_page_token")
    KEY_FIELD_NUMBER: _ClassVar[int]
    WIN_RATES_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    key: str
    win_rates: _containers.RepeatedCompositeFieldContainer[WinRate]
    frequency: _containers.RepeatedCompositeFieldContainer[FacetCount]
    next_page_token: str
    def __init__(self, key: _Optional[str] = ..., win_rates: _Optional[_Iterable[_Union[WinRate, _Mapping]]] = ..., frequency: _Optional[_Iterable[_Union[FacetCount, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetPlayerHistoryRequest(_message.Message):
    __slots__ = ("player_id", "game_type", "page_size", "page_token", "min_log_position", "min_read_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    game_type: str
    page_size: int
    page_token: str
    min_log_position: int
    min_read_token: str
    def __init__(self, player_id: _Optional[str] = ..., game_type: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., min_log_position: _Optional[int] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class PlayerGame(_message.Message):
    __slots__ = ("game_id", "game_type", "seat", "rank", "score", "won", "players", "ended_at", "rounds", "moves", "termination", "termination_kind")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ENDED_AT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_KIND_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_type: str
    seat: int
    rank: int
    score: int
    won: bool
    players: int
    ended_at: str
    rounds: int
    moves: int
    termination: str
    termination_kind: _game_service_pb2.Termination
    def __init__(self, game_id: _Optional[str] = ..., game_type: _Optional[str] = ..., seat: _Optional[int] = ..., rank: _Optional[int] = ..., score: _Optional[int] = ..., won: _Optional[bool] = ..., players: _Optional[int] = ..., ended_at: _Optional[str] = ..., rounds: _Optional[int] = ..., moves: _Optional[int] = ..., termination: _Optional[str] = ..., termination_kind: _Optional[_Union[_game_service_pb2.Termination, str]] = ...) -> None: ...

class PlayerHistory(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[PlayerGame]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[PlayerGame, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetFairnessRequest(_message.Message):
    __slots__ = ("game_type", "min_log_position", "min_read_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    MIN_LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    MIN_READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    min_log_position: int
    min_read_token: str
    def __init__(self, game_type: _Optional[str] = ..., min_log_position: _Optional[int] = ..., min_read_token: _Optional[str] = ...) -> None: ...

class DistributionFit(_message.Message):
    __slots__ = ("distribution", "outcomes", "observed", "total", "expected", "statistic", "dof", "p_value", "kind")
    DISTRIBUTION_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    OBSERVED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    STATISTIC_FIELD_NUMBER: _ClassVar[int]
    DOF_FIELD_NUMBER: _ClassVar[int]
    P_VALUE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    distribution: str
    outcomes: int
    observed: _containers.RepeatedScalarFieldContainer[int]
    total: int
    expected: float
    statistic: float
    dof: float
    p_value: float
    kind: str
    def __init__(self, distribution: _Optional[str] = ..., outcomes: _Optional[int] = ..., observed: _Optional[_Iterable[int]] = ..., total: _Optional[int] = ..., expected: _Optional[float] = ..., statistic: _Optional[float] = ..., dof: _Optional[float] = ..., p_value: _Optional[float] = ..., kind: _Optional[str] = ...) -> None: ...

class Fairness(_message.Message):
    __slots__ = ("game_type", "fits")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    FITS_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    fits: _containers.RepeatedCompositeFieldContainer[DistributionFit]
    def __init__(self, game_type: _Optional[str] = ..., fits: _Optional[_Iterable[_Union[DistributionFit, _Mapping]]] = ...) -> None: ...

class TerminationCount(_message.Message):
    __slots__ = ("termination", "games")
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    termination: str
    games: int
    def __init__(self, termination: _Optional[str] = ..., games: _Optional[int] = ...) -> None: ...
