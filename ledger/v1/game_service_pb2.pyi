import datetime

from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Termination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERMINATION_UNSPECIFIED: _ClassVar[Termination]
    TERMINATION_COMPLETED: _ClassVar[Termination]
    TERMINATION_TEAM_WON: _ClassVar[Termination]
    TERMINATION_TEAM_LOST: _ClassVar[Termination]
    TERMINATION_RESIGNED: _ClassVar[Termination]
    TERMINATION_ABORTED: _ClassVar[Termination]
    TERMINATION_ADJUDICATED: _ClassVar[Termination]
    TERMINATION_TIMED_OUT: _ClassVar[Termination]
    TERMINATION_FORFEITED: _ClassVar[Termination]
    TERMINATION_AGREED: _ClassVar[Termination]

class GameStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATUS_UNSPECIFIED: _ClassVar[GameStatus]
    GAME_STATUS_ACTIVE: _ClassVar[GameStatus]
    GAME_STATUS_ENDED: _ClassVar[GameStatus]

class Role(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_UNSPECIFIED: _ClassVar[Role]
    ROLE_PLAYER: _ClassVar[Role]
    ROLE_SPECTATOR: _ClassVar[Role]
    ROLE_ADMIN: _ClassVar[Role]
    ROLE_ORGANISER: _ClassVar[Role]
TERMINATION_UNSPECIFIED: Termination
TERMINATION_COMPLETED: Termination
TERMINATION_TEAM_WON: Termination
TERMINATION_TEAM_LOST: Termination
TERMINATION_RESIGNED: Termination
TERMINATION_ABORTED: Termination
TERMINATION_ADJUDICATED: Termination
TERMINATION_TIMED_OUT: Termination
TERMINATION_FORFEITED: Termination
TERMINATION_AGREED: Termination
GAME_STATUS_UNSPECIFIED: GameStatus
GAME_STATUS_ACTIVE: GameStatus
GAME_STATUS_ENDED: GameStatus
ROLE_UNSPECIFIED: Role
ROLE_PLAYER: Role
ROLE_SPECTATOR: Role
ROLE_ADMIN: Role
ROLE_ORGANISER: Role

class Receipt(_message.Message):
    __slots__ = ("game_id", "version", "head_hash", "timestamp", "signature", "key_id")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    HEAD_HASH_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    version: int
    head_hash: str
    timestamp: str
    signature: bytes
    key_id: str
    def __init__(self, game_id: _Optional[str] = ..., version: _Optional[int] = ..., head_hash: _Optional[str] = ..., timestamp: _Optional[str] = ..., signature: _Optional[bytes] = ..., key_id: _Optional[str] = ...) -> None: ...

class GetLedgerKeyRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LedgerKey(_message.Message):
    __slots__ = ("public_key", "key_id", "algorithm", "keys")
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    key_id: str
    algorithm: str
    keys: _containers.RepeatedCompositeFieldContainer[ReceiptKey]
    def __init__(self, public_key: _Optional[bytes] = ..., key_id: _Optional[str] = ..., algorithm: _Optional[str] = ..., keys: _Optional[_Iterable[_Union[ReceiptKey, _Mapping]]] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("game_type", "setup", "entropy", "player_ids", "spectator_delay", "seat_public_keys", "time_control")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_FIELD_NUMBER: _ClassVar[int]
    PLAYER_IDS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_FIELD_NUMBER: _ClassVar[int]
    SEAT_PUBLIC_KEYS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    setup: _any_pb2.Any
    entropy: _containers.RepeatedScalarFieldContainer[str]
    player_ids: _containers.RepeatedScalarFieldContainer[str]
    spectator_delay: SpectatorDelay
    seat_public_keys: _containers.RepeatedScalarFieldContainer[bytes]
    time_control: TimeControl
    def __init__(self, game_type: _Optional[str] = ..., setup: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., entropy: _Optional[_Iterable[str]] = ..., player_ids: _Optional[_Iterable[str]] = ..., spectator_delay: _Optional[_Union[SpectatorDelay, _Mapping]] = ..., seat_public_keys: _Optional[_Iterable[bytes]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ...) -> None: ...

class SpectatorDelay(_message.Message):
    __slots__ = ("moves", "seconds")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    moves: int
    seconds: int
    def __init__(self, moves: _Optional[int] = ..., seconds: _Optional[int] = ...) -> None: ...

class PlayerToken(_message.Message):
    __slots__ = ("player", "seats", "token")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    player: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    token: str
    def __init__(self, player: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., token: _Optional[str] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game", "tokens", "receipt")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    tokens: _containers.RepeatedCompositeFieldContainer[PlayerToken]
    receipt: Receipt
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ..., tokens: _Optional[_Iterable[_Union[PlayerToken, _Mapping]]] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ...) -> None: ...

class SubmitMoveRequest(_message.Message):
    __slots__ = ("game_id", "command_id", "move", "seat", "expected_version", "signature", "response_mask", "next_moves_page_size")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_MASK_FIELD_NUMBER: _ClassVar[int]
    NEXT_MOVES_PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    command_id: str
    move: _any_pb2.Any
    seat: int
    expected_version: int
    signature: bytes
    response_mask: _field_mask_pb2.FieldMask
    next_moves_page_size: int
    def __init__(self, game_id: _Optional[str] = ..., command_id: _Optional[str] = ..., move: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., seat: _Optional[int] = ..., expected_version: _Optional[int] = ..., signature: _Optional[bytes] = ..., response_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., next_moves_page_size: _Optional[int] = ...) -> None: ...

class SubmitMoveResponse(_message.Message):
    __slots__ = ("first_version", "last_version", "replayed", "events", "game", "log_position", "receipt", "read_token", "next_legal_moves")
    FIRST_VERSION_FIELD_NUMBER: _ClassVar[int]
    LAST_VERSION_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    first_version: int
    last_version: int
    replayed: bool
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    game: GameSummary
    log_position: int
    receipt: Receipt
    read_token: str
    next_legal_moves: ListLegalMovesResponse
    def __init__(self, first_version: _Optional[int] = ..., last_version: _Optional[int] = ..., replayed: _Optional[bool] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., game: _Optional[_Union[GameSummary, _Mapping]] = ..., log_position: _Optional[int] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ..., read_token: _Optional[str] = ..., next_legal_moves: _Optional[_Union[ListLegalMovesResponse, _Mapping]] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("game_id", "at_version", "min_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AT_VERSION_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    at_version: int
    min_version: int
    def __init__(self, game_id: _Optional[str] = ..., at_version: _Optional[int] = ..., min_version: _Optional[int] = ...) -> None: ...

class GetGameResponse(_message.Message):
    __slots__ = ("game", "view")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    view: _any_pb2.Any
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ..., view: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("termination", "ranks", "scores", "winners", "reason", "termination_kind", "absent_seats")
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_KIND_FIELD_NUMBER: _ClassVar[int]
    ABSENT_SEATS_FIELD_NUMBER: _ClassVar[int]
    termination: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    termination_kind: Termination
    absent_seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, termination: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., termination_kind: _Optional[_Union[Termination, str]] = ..., absent_seats: _Optional[_Iterable[int]] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "game_type", "players", "seats", "version", "status", "to_act", "content", "seed_commitment", "outcome", "created_at", "your_seats", "role", "setup", "revealed_seed", "head_hash", "player_ids", "spectator_delay", "status_kind", "role_kind", "ruleset_version", "time_control", "clocks", "next_deadline", "next_deadline_seat", "clock_read_at", "dropped_seats", "paused", "draw_offered_by")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    YOUR_SEATS_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SEED_FIELD_NUMBER: _ClassVar[int]
    HEAD_HASH_FIELD_NUMBER: _ClassVar[int]
    PLAYER_IDS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_FIELD_NUMBER: _ClassVar[int]
    STATUS_KIND_FIELD_NUMBER: _ClassVar[int]
    ROLE_KIND_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEADLINE_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEADLINE_SEAT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_READ_AT_FIELD_NUMBER: _ClassVar[int]
    DROPPED_SEATS_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    DRAW_OFFERED_BY_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_type: str
    players: int
    seats: int
    version: int
    status: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    content: str
    seed_commitment: str
    outcome: Outcome
    created_at: _timestamp_pb2.Timestamp
    your_seats: _containers.RepeatedScalarFieldContainer[int]
    role: str
    setup: _any_pb2.Any
    revealed_seed: str
    head_hash: str
    player_ids: _containers.RepeatedScalarFieldContainer[str]
    spectator_delay: SpectatorDelay
    status_kind: GameStatus
    role_kind: Role
    ruleset_version: int
    time_control: TimeControl
    clocks: _containers.RepeatedCompositeFieldContainer[SeatClock]
    next_deadline: _timestamp_pb2.Timestamp
    next_deadline_seat: int
    clock_read_at: _timestamp_pb2.Timestamp
    dropped_seats: _containers.RepeatedScalarFieldContainer[int]
    paused: bool
    draw_offered_by: int
    def __init__(self, game_id: _Optional[str] = ..., game_type: _Optional[str] = ..., players: _Optional[int] = ..., seats: _Optional[int] = ..., version: _Optional[int] = ..., status: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., content: _Optional[str] = ..., seed_commitment: _Optional[str] = ..., outcome: _Optional[_Union[Outcome, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., your_seats: _Optional[_Iterable[int]] = ..., role: _Optional[str] = ..., setup: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., revealed_seed: _Optional[str] = ..., head_hash: _Optional[str] = ..., player_ids: _Optional[_Iterable[str]] = ..., spectator_delay: _Optional[_Union[SpectatorDelay, _Mapping]] = ..., status_kind: _Optional[_Union[GameStatus, str]] = ..., role_kind: _Optional[_Union[Role, str]] = ..., ruleset_version: _Optional[int] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., clocks: _Optional[_Iterable[_Union[SeatClock, _Mapping]]] = ..., next_deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., next_deadline_seat: _Optional[int] = ..., clock_read_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., dropped_seats: _Optional[_Iterable[int]] = ..., paused: _Optional[bool] = ..., draw_offered_by: _Optional[int] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("game_id", "seat", "page_size", "page_token", "sample", "min_version", "with_sentences")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SAMPLE_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    WITH_SENTENCES_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    page_size: int
    page_token: str
    sample: int
    min_version: int
    with_sentences: bool
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., sample: _Optional[int] = ..., min_version: _Optional[int] = ..., with_sentences: _Optional[bool] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "next_page_token", "version", "seat", "total_size", "sentences")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SIZE_FIELD_NUMBER: _ClassVar[int]
    SENTENCES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    next_page_token: str
    version: int
    seat: int
    total_size: int
    sentences: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, moves: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., version: _Optional[int] = ..., seat: _Optional[int] = ..., total_size: _Optional[int] = ..., sentences: _Optional[_Iterable[str]] = ...) -> None: ...

class StreamGameEventsRequest(_message.Message):
    __slots__ = ("game_id", "after_version", "stop_at_head", "min_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    STOP_AT_HEAD_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_version: int
    stop_at_head: bool
    min_version: int
    def __init__(self, game_id: _Optional[str] = ..., after_version: _Optional[int] = ..., stop_at_head: _Optional[bool] = ..., min_version: _Optional[int] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("game_id", "version", "type", "payload", "timestamp", "hash", "prev_hash", "actor", "decision", "receipt", "clocks", "next_deadline", "next_deadline_seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    HASH_FIELD_NUMBER: _ClassVar[int]
    PREV_HASH_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEADLINE_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEADLINE_SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    version: int
    type: str
    payload: _any_pb2.Any
    timestamp: _timestamp_pb2.Timestamp
    hash: str
    prev_hash: str
    actor: int
    decision: int
    receipt: Receipt
    clocks: _containers.RepeatedCompositeFieldContainer[SeatClock]
    next_deadline: _timestamp_pb2.Timestamp
    next_deadline_seat: int
    def __init__(self, game_id: _Optional[str] = ..., version: _Optional[int] = ..., type: _Optional[str] = ..., payload: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., timestamp: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., hash: _Optional[str] = ..., prev_hash: _Optional[str] = ..., actor: _Optional[int] = ..., decision: _Optional[int] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ..., clocks: _Optional[_Iterable[_Union[SeatClock, _Mapping]]] = ..., next_deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., next_deadline_seat: _Optional[int] = ...) -> None: ...

class GameCreated(_message.Message):
    __slots__ = ("game_type", "setup", "seats", "seed_commitment", "rng_scheme", "entropy", "content", "player_ids", "spectator_delay", "ruleset_version", "content_hash", "seat_public_keys", "time_control")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    RNG_SCHEME_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_IDS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    CONTENT_HASH_FIELD_NUMBER: _ClassVar[int]
    SEAT_PUBLIC_KEYS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    setup: _any_pb2.Any
    seats: int
    seed_commitment: str
    rng_scheme: str
    entropy: _containers.RepeatedScalarFieldContainer[str]
    content: str
    player_ids: _containers.RepeatedScalarFieldContainer[str]
    spectator_delay: SpectatorDelay
    ruleset_version: int
    content_hash: str
    seat_public_keys: _containers.RepeatedScalarFieldContainer[bytes]
    time_control: TimeControl
    def __init__(self, game_type: _Optional[str] = ..., setup: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., seats: _Optional[int] = ..., seed_commitment: _Optional[str] = ..., rng_scheme: _Optional[str] = ..., entropy: _Optional[_Iterable[str]] = ..., content: _Optional[str] = ..., player_ids: _Optional[_Iterable[str]] = ..., spectator_delay: _Optional[_Union[SpectatorDelay, _Mapping]] = ..., ruleset_version: _Optional[int] = ..., content_hash: _Optional[str] = ..., seat_public_keys: _Optional[_Iterable[bytes]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ...) -> None: ...

class GameConcluded(_message.Message):
    __slots__ = ("outcome", "seed")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    outcome: Outcome
    seed: str
    def __init__(self, outcome: _Optional[_Union[Outcome, _Mapping]] = ..., seed: _Optional[str] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "game_type")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    game_type: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., game_type: _Optional[str] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListGameTypesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SetupField(_message.Message):
    __slots__ = ("name", "allowed_values", "per_seat", "required", "default_json")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_VALUES_FIELD_NUMBER: _ClassVar[int]
    PER_SEAT_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_JSON_FIELD_NUMBER: _ClassVar[int]
    name: str
    allowed_values: _containers.RepeatedScalarFieldContainer[str]
    per_seat: bool
    required: bool
    default_json: str
    def __init__(self, name: _Optional[str] = ..., allowed_values: _Optional[_Iterable[str]] = ..., per_seat: _Optional[bool] = ..., required: _Optional[bool] = ..., default_json: _Optional[str] = ...) -> None: ...

class ContentPack(_message.Message):
    __slots__ = ("name", "label", "min_players", "max_players", "setup_fields", "example_setups")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELDS_FIELD_NUMBER: _ClassVar[int]
    EXAMPLE_SETUPS_FIELD_NUMBER: _ClassVar[int]
    name: str
    label: str
    min_players: int
    max_players: int
    setup_fields: _containers.RepeatedCompositeFieldContainer[SetupField]
    example_setups: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    def __init__(self, name: _Optional[str] = ..., label: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., setup_fields: _Optional[_Iterable[_Union[SetupField, _Mapping]]] = ..., example_setups: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ...) -> None: ...

class GameType(_message.Message):
    __slots__ = ("name", "title", "min_players", "max_players", "setup_message", "move_message", "event_message", "view_message", "content", "content_packs", "ruleset_version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SETUP_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MOVE_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    EVENT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    VIEW_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    CONTENT_PACKS_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    min_players: int
    max_players: int
    setup_message: str
    move_message: str
    event_message: str
    view_message: str
    content: str
    content_packs: _containers.RepeatedCompositeFieldContainer[ContentPack]
    ruleset_version: int
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., setup_message: _Optional[str] = ..., move_message: _Optional[str] = ..., event_message: _Optional[str] = ..., view_message: _Optional[str] = ..., content: _Optional[str] = ..., content_packs: _Optional[_Iterable[_Union[ContentPack, _Mapping]]] = ..., ruleset_version: _Optional[int] = ...) -> None: ...

class ListGameTypesResponse(_message.Message):
    __slots__ = ("game_types",)
    GAME_TYPES_FIELD_NUMBER: _ClassVar[int]
    game_types: _containers.RepeatedCompositeFieldContainer[GameType]
    def __init__(self, game_types: _Optional[_Iterable[_Union[GameType, _Mapping]]] = ...) -> None: ...

class ReceiptKey(_message.Message):
    __slots__ = ("public_key", "key_id", "algorithm", "not_before", "not_after", "signing")
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    NOT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    NOT_AFTER_FIELD_NUMBER: _ClassVar[int]
    SIGNING_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    key_id: str
    algorithm: str
    not_before: _timestamp_pb2.Timestamp
    not_after: _timestamp_pb2.Timestamp
    signing: bool
    def __init__(self, public_key: _Optional[bytes] = ..., key_id: _Optional[str] = ..., algorithm: _Optional[str] = ..., not_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., not_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., signing: _Optional[bool] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("kind", "per_move_seconds", "base_seconds", "increment_seconds", "days_per_move", "no_show_seconds", "abort_before_moves")
    KIND_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BASE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DAYS_PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    NO_SHOW_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ABORT_BEFORE_MOVES_FIELD_NUMBER: _ClassVar[int]
    kind: str
    per_move_seconds: int
    base_seconds: int
    increment_seconds: int
    days_per_move: int
    no_show_seconds: int
    abort_before_moves: int
    def __init__(self, kind: _Optional[str] = ..., per_move_seconds: _Optional[int] = ..., base_seconds: _Optional[int] = ..., increment_seconds: _Optional[int] = ..., days_per_move: _Optional[int] = ..., no_show_seconds: _Optional[int] = ..., abort_before_moves: _Optional[int] = ...) -> None: ...

class SeatClock(_message.Message):
    __slots__ = ("seat", "remaining_ms", "running", "deadline", "paused")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    remaining_ms: int
    running: bool
    deadline: _timestamp_pb2.Timestamp
    paused: bool
    def __init__(self, seat: _Optional[int] = ..., remaining_ms: _Optional[int] = ..., running: _Optional[bool] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., paused: _Optional[bool] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("kind", "seat", "by", "reason", "deadline")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    by: str
    reason: str
    deadline: _timestamp_pb2.Timestamp
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., by: _Optional[str] = ..., reason: _Optional[str] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class AbortRequest(_message.Message):
    __slots__ = ("game_id", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class AdjudicateRequest(_message.Message):
    __slots__ = ("game_id", "ranks", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class ClaimTimeoutRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class EndGameResponse(_message.Message):
    __slots__ = ("first_version", "last_version", "events", "game", "log_position", "receipt", "read_token")
    FIRST_VERSION_FIELD_NUMBER: _ClassVar[int]
    LAST_VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    READ_TOKEN_FIELD_NUMBER: _ClassVar[int]
    first_version: int
    last_version: int
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    game: GameSummary
    log_position: int
    receipt: Receipt
    read_token: str
    def __init__(self, first_version: _Optional[int] = ..., last_version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., game: _Optional[_Union[GameSummary, _Mapping]] = ..., log_position: _Optional[int] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ..., read_token: _Optional[str] = ...) -> None: ...

class GameControl(_message.Message):
    __slots__ = ("kind", "seat", "by", "added_ms")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    ADDED_MS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    by: str
    added_ms: int
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., by: _Optional[str] = ..., added_ms: _Optional[int] = ...) -> None: ...

class OfferDrawRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class AcceptDrawRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class DeclineDrawRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class GameControlResponse(_message.Message):
    __slots__ = ("version", "event", "game", "log_position", "receipt")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LOG_POSITION_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    version: int
    event: GameEvent
    game: GameSummary
    log_position: int
    receipt: Receipt
    def __init__(self, version: _Optional[int] = ..., event: _Optional[_Union[GameEvent, _Mapping]] = ..., game: _Optional[_Union[GameSummary, _Mapping]] = ..., log_position: _Optional[int] = ..., receipt: _Optional[_Union[Receipt, _Mapping]] = ...) -> None: ...
