from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ThalaraMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THALARA_MODE_UNSPECIFIED: _ClassVar[ThalaraMode]
    THALARA_MODE_STANDARD: _ClassVar[ThalaraMode]
    THALARA_MODE_CASUAL_CHAOS: _ClassVar[ThalaraMode]
THALARA_MODE_UNSPECIFIED: ThalaraMode
THALARA_MODE_STANDARD: ThalaraMode
THALARA_MODE_CASUAL_CHAOS: ThalaraMode

class ThalaraSetup(_message.Message):
    __slots__ = ("players", "mode", "characters", "content", "mode_kind")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    MODE_KIND_FIELD_NUMBER: _ClassVar[int]
    players: int
    mode: str
    characters: _containers.RepeatedScalarFieldContainer[str]
    content: str
    mode_kind: ThalaraMode
    def __init__(self, players: _Optional[int] = ..., mode: _Optional[str] = ..., characters: _Optional[_Iterable[str]] = ..., content: _Optional[str] = ..., mode_kind: _Optional[_Union[ThalaraMode, str]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("select_hand", "play_card", "return_remnants")
    SELECT_HAND_FIELD_NUMBER: _ClassVar[int]
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    RETURN_REMNANTS_FIELD_NUMBER: _ClassVar[int]
    select_hand: SelectHand
    play_card: PlayCard
    return_remnants: ReturnRemnants
    def __init__(self, select_hand: _Optional[_Union[SelectHand, _Mapping]] = ..., play_card: _Optional[_Union[PlayCard, _Mapping]] = ..., return_remnants: _Optional[_Union[ReturnRemnants, _Mapping]] = ..., **kwargs) -> None: ...

class SelectHand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class PlayCard(_message.Message):
    __slots__ = ("card", "conflict", "spell")
    CARD_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    SPELL_FIELD_NUMBER: _ClassVar[int]
    card: str
    conflict: str
    spell: SpellActivation
    def __init__(self, card: _Optional[str] = ..., conflict: _Optional[str] = ..., spell: _Optional[_Union[SpellActivation, _Mapping]] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ReturnRemnants(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class SpellActivation(_message.Message):
    __slots__ = ("spell", "conflict", "target")
    SPELL_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    spell: str
    conflict: str
    target: str
    def __init__(self, spell: _Optional[str] = ..., conflict: _Optional[str] = ..., target: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("artifacts_shuffled", "first_player_chosen", "artifacts_refilled", "round_started", "hand_selected", "supply_shuffled", "cards_drawn", "card_played", "spell_activated", "card_destroyed", "card_returned", "passed", "conflict_resolved", "round_ended", "remnants_returned", "game_ended")
    ARTIFACTS_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    ARTIFACTS_REFILLED_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    HAND_SELECTED_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    SPELL_ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    CARD_DESTROYED_FIELD_NUMBER: _ClassVar[int]
    CARD_RETURNED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    REMNANTS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    artifacts_shuffled: ArtifactsShuffled
    first_player_chosen: FirstPlayerChosen
    artifacts_refilled: ArtifactsRefilled
    round_started: RoundStarted
    hand_selected: HandSelected
    supply_shuffled: SupplyShuffled
    cards_drawn: CardsDrawn
    card_played: CardPlayed
    spell_activated: SpellActivated
    card_destroyed: CardDestroyed
    card_returned: CardReturned
    passed: Passed
    conflict_resolved: ConflictResolved
    round_ended: RoundEnded
    remnants_returned: RemnantsReturned
    game_ended: GameEnded
    def __init__(self, artifacts_shuffled: _Optional[_Union[ArtifactsShuffled, _Mapping]] = ..., first_player_chosen: _Optional[_Union[FirstPlayerChosen, _Mapping]] = ..., artifacts_refilled: _Optional[_Union[ArtifactsRefilled, _Mapping]] = ..., round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., hand_selected: _Optional[_Union[HandSelected, _Mapping]] = ..., supply_shuffled: _Optional[_Union[SupplyShuffled, _Mapping]] = ..., cards_drawn: _Optional[_Union[CardsDrawn, _Mapping]] = ..., card_played: _Optional[_Union[CardPlayed, _Mapping]] = ..., spell_activated: _Optional[_Union[SpellActivated, _Mapping]] = ..., card_destroyed: _Optional[_Union[CardDestroyed, _Mapping]] = ..., card_returned: _Optional[_Union[CardReturned, _Mapping]] = ..., passed: _Optional[_Union[Passed, _Mapping]] = ..., conflict_resolved: _Optional[_Union[ConflictResolved, _Mapping]] = ..., round_ended: _Optional[_Union[RoundEnded, _Mapping]] = ..., remnants_returned: _Optional[_Union[RemnantsReturned, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class ArtifactsShuffled(_message.Message):
    __slots__ = ("order", "size")
    ORDER_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    order: _containers.RepeatedScalarFieldContainer[str]
    size: int
    def __init__(self, order: _Optional[_Iterable[str]] = ..., size: _Optional[int] = ...) -> None: ...

class FirstPlayerChosen(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ArtifactsRefilled(_message.Message):
    __slots__ = ("artifacts",)
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    artifacts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, artifacts: _Optional[_Iterable[str]] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round", "starter")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    round: int
    starter: int
    def __init__(self, round: _Optional[int] = ..., starter: _Optional[int] = ...) -> None: ...

class HandSelected(_message.Message):
    __slots__ = ("seat", "cards", "count", "commitment")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    commitment: str
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ..., commitment: _Optional[str] = ...) -> None: ...

class SupplyShuffled(_message.Message):
    __slots__ = ("seat", "order", "size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    order: _containers.RepeatedScalarFieldContainer[str]
    size: int
    def __init__(self, seat: _Optional[int] = ..., order: _Optional[_Iterable[str]] = ..., size: _Optional[int] = ...) -> None: ...

class CardsDrawn(_message.Message):
    __slots__ = ("seat", "cards", "count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "card", "conflict")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    conflict: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., conflict: _Optional[str] = ...) -> None: ...

class SpellActivated(_message.Message):
    __slots__ = ("seat", "spell", "conflict", "target")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPELL_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    spell: str
    conflict: str
    target: str
    def __init__(self, seat: _Optional[int] = ..., spell: _Optional[str] = ..., conflict: _Optional[str] = ..., target: _Optional[str] = ...) -> None: ...

class CardDestroyed(_message.Message):
    __slots__ = ("card", "owner", "conflict")
    CARD_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    card: str
    owner: int
    conflict: str
    def __init__(self, card: _Optional[str] = ..., owner: _Optional[int] = ..., conflict: _Optional[str] = ...) -> None: ...

class CardReturned(_message.Message):
    __slots__ = ("card", "owner", "conflict", "to_supply")
    CARD_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    TO_SUPPLY_FIELD_NUMBER: _ClassVar[int]
    card: str
    owner: int
    conflict: str
    to_supply: bool
    def __init__(self, card: _Optional[str] = ..., owner: _Optional[int] = ..., conflict: _Optional[str] = ..., to_supply: _Optional[bool] = ...) -> None: ...

class Passed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ConflictResolved(_message.Message):
    __slots__ = ("conflict", "totals", "winner")
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    conflict: str
    totals: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    def __init__(self, conflict: _Optional[str] = ..., totals: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ...) -> None: ...

class RoundEnded(_message.Message):
    __slots__ = ("round",)
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class RemnantsReturned(_message.Message):
    __slots__ = ("seat", "cards", "count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("reason", "scores")
    REASON_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    reason: str
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, reason: _Optional[str] = ..., scores: _Optional[_Iterable[int]] = ...) -> None: ...

class ThalaraView(_message.Message):
    __slots__ = ("mode", "content", "phase", "round", "starter", "current", "last_player", "conflicts", "stack_size", "stack", "players", "to_act", "scores", "end_reason")
    MODE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    LAST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    STACK_SIZE_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    mode: str
    content: str
    phase: str
    round: int
    starter: int
    current: int
    last_player: int
    conflicts: _containers.RepeatedCompositeFieldContainer[ConflictView]
    stack_size: int
    stack: _containers.RepeatedScalarFieldContainer[str]
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    def __init__(self, mode: _Optional[str] = ..., content: _Optional[str] = ..., phase: _Optional[str] = ..., round: _Optional[int] = ..., starter: _Optional[int] = ..., current: _Optional[int] = ..., last_player: _Optional[int] = ..., conflicts: _Optional[_Iterable[_Union[ConflictView, _Mapping]]] = ..., stack_size: _Optional[int] = ..., stack: _Optional[_Iterable[str]] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., to_act: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class ConflictView(_message.Message):
    __slots__ = ("artifact", "plays", "spells", "totals")
    ARTIFACT_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    artifact: str
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    spells: _containers.RepeatedCompositeFieldContainer[ActiveSpell]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, artifact: _Optional[str] = ..., plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., spells: _Optional[_Iterable[_Union[ActiveSpell, _Mapping]]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "character", "hand", "hand_size", "supply", "supply_size", "discard", "won", "score", "passed", "ready", "commitment", "spells_used")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SPELLS_USED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    character: str
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_size: int
    supply: _containers.RepeatedScalarFieldContainer[str]
    supply_size: int
    discard: _containers.RepeatedScalarFieldContainer[str]
    won: _containers.RepeatedScalarFieldContainer[str]
    score: int
    passed: bool
    ready: bool
    commitment: str
    spells_used: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., character: _Optional[str] = ..., hand: _Optional[_Iterable[str]] = ..., hand_size: _Optional[int] = ..., supply: _Optional[_Iterable[str]] = ..., supply_size: _Optional[int] = ..., discard: _Optional[_Iterable[str]] = ..., won: _Optional[_Iterable[str]] = ..., score: _Optional[int] = ..., passed: _Optional[bool] = ..., ready: _Optional[bool] = ..., commitment: _Optional[str] = ..., spells_used: _Optional[_Iterable[str]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("card", "owner", "destroyed")
    CARD_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    DESTROYED_FIELD_NUMBER: _ClassVar[int]
    card: str
    owner: int
    destroyed: bool
    def __init__(self, card: _Optional[str] = ..., owner: _Optional[int] = ..., destroyed: _Optional[bool] = ...) -> None: ...

class ActiveSpell(_message.Message):
    __slots__ = ("spell", "caster", "target")
    SPELL_FIELD_NUMBER: _ClassVar[int]
    CASTER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    spell: str
    caster: int
    target: str
    def __init__(self, spell: _Optional[str] = ..., caster: _Optional[int] = ..., target: _Optional[str] = ...) -> None: ...
