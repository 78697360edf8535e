from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TerraloreSetup(_message.Message):
    __slots__ = ("players", "decks")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    players: int
    decks: _containers.RepeatedCompositeFieldContainer[DeckChoice]
    def __init__(self, players: _Optional[int] = ..., decks: _Optional[_Iterable[_Union[DeckChoice, _Mapping]]] = ...) -> None: ...

class DeckChoice(_message.Message):
    __slots__ = ("name", "cards")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("place_cards",)
    PLACE_CARDS_FIELD_NUMBER: _ClassVar[int]
    place_cards: PlaceCards
    def __init__(self, place_cards: _Optional[_Union[PlaceCards, _Mapping]] = ...) -> None: ...

class PlaceCards(_message.Message):
    __slots__ = ("plays", "discards", "destroys")
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DESTROYS_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    discards: _containers.RepeatedScalarFieldContainer[str]
    destroys: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., destroys: _Optional[_Iterable[str]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("card", "lane")
    CARD_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    card: str
    lane: str
    def __init__(self, card: _Optional[str] = ..., lane: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("deck_shuffled", "turn_started", "cards_drawn", "placement_committed", "placement_revealed", "reveal_order_decided", "creature_played", "skill_played", "creature_destroyed", "creature_exiled", "lane_boosted", "castle_damaged", "castle_healed", "cards_discarded", "lanes_counted", "deck_ran_out", "game_ended")
    DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_REVEALED_FIELD_NUMBER: _ClassVar[int]
    REVEAL_ORDER_DECIDED_FIELD_NUMBER: _ClassVar[int]
    CREATURE_PLAYED_FIELD_NUMBER: _ClassVar[int]
    SKILL_PLAYED_FIELD_NUMBER: _ClassVar[int]
    CREATURE_DESTROYED_FIELD_NUMBER: _ClassVar[int]
    CREATURE_EXILED_FIELD_NUMBER: _ClassVar[int]
    LANE_BOOSTED_FIELD_NUMBER: _ClassVar[int]
    CASTLE_DAMAGED_FIELD_NUMBER: _ClassVar[int]
    CASTLE_HEALED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    LANES_COUNTED_FIELD_NUMBER: _ClassVar[int]
    DECK_RAN_OUT_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    deck_shuffled: DeckShuffled
    turn_started: TurnStarted
    cards_drawn: CardsDrawn
    placement_committed: PlacementCommitted
    placement_revealed: PlacementRevealed
    reveal_order_decided: RevealOrderDecided
    creature_played: CreaturePlayed
    skill_played: SkillPlayed
    creature_destroyed: CreatureDestroyed
    creature_exiled: CreatureExiled
    lane_boosted: LaneBoosted
    castle_damaged: CastleDamaged
    castle_healed: CastleHealed
    cards_discarded: CardsDiscarded
    lanes_counted: LanesCounted
    deck_ran_out: DeckRanOut
    game_ended: GameEnded
    def __init__(self, deck_shuffled: _Optional[_Union[DeckShuffled, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., cards_drawn: _Optional[_Union[CardsDrawn, _Mapping]] = ..., placement_committed: _Optional[_Union[PlacementCommitted, _Mapping]] = ..., placement_revealed: _Optional[_Union[PlacementRevealed, _Mapping]] = ..., reveal_order_decided: _Optional[_Union[RevealOrderDecided, _Mapping]] = ..., creature_played: _Optional[_Union[CreaturePlayed, _Mapping]] = ..., skill_played: _Optional[_Union[SkillPlayed, _Mapping]] = ..., creature_destroyed: _Optional[_Union[CreatureDestroyed, _Mapping]] = ..., creature_exiled: _Optional[_Union[CreatureExiled, _Mapping]] = ..., lane_boosted: _Optional[_Union[LaneBoosted, _Mapping]] = ..., castle_damaged: _Optional[_Union[CastleDamaged, _Mapping]] = ..., castle_healed: _Optional[_Union[CastleHealed, _Mapping]] = ..., cards_discarded: _Optional[_Union[CardsDiscarded, _Mapping]] = ..., lanes_counted: _Optional[_Union[LanesCounted, _Mapping]] = ..., deck_ran_out: _Optional[_Union[DeckRanOut, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class DeckShuffled(_message.Message):
    __slots__ = ("seat", "order", "hidden")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    order: _containers.RepeatedScalarFieldContainer[str]
    hidden: bool
    def __init__(self, seat: _Optional[int] = ..., order: _Optional[_Iterable[str]] = ..., hidden: _Optional[bool] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("turn",)
    TURN_FIELD_NUMBER: _ClassVar[int]
    turn: int
    def __init__(self, turn: _Optional[int] = ...) -> None: ...

class CardsDrawn(_message.Message):
    __slots__ = ("seat", "count", "cards", "burned", "hidden")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    BURNED_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    burned: _containers.RepeatedScalarFieldContainer[str]
    hidden: bool
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., burned: _Optional[_Iterable[str]] = ..., hidden: _Optional[bool] = ...) -> None: ...

class PlacementCommitted(_message.Message):
    __slots__ = ("seat", "commitment", "plays", "discards", "destroys", "nonce", "hidden")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DESTROYS_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    commitment: str
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    discards: _containers.RepeatedScalarFieldContainer[str]
    destroys: _containers.RepeatedScalarFieldContainer[str]
    nonce: str
    hidden: bool
    def __init__(self, seat: _Optional[int] = ..., commitment: _Optional[str] = ..., plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., destroys: _Optional[_Iterable[str]] = ..., nonce: _Optional[str] = ..., hidden: _Optional[bool] = ...) -> None: ...

class PlacementRevealed(_message.Message):
    __slots__ = ("seat", "plays", "discards", "destroys", "nonce")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DESTROYS_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    discards: _containers.RepeatedScalarFieldContainer[str]
    destroys: _containers.RepeatedScalarFieldContainer[str]
    nonce: str
    def __init__(self, seat: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., destroys: _Optional[_Iterable[str]] = ..., nonce: _Optional[str] = ...) -> None: ...

class RevealOrderDecided(_message.Message):
    __slots__ = ("first", "reason", "order", "rolls")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    first: int
    reason: str
    order: _containers.RepeatedCompositeFieldContainer[LaneRef]
    rolls: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, first: _Optional[int] = ..., reason: _Optional[str] = ..., order: _Optional[_Iterable[_Union[LaneRef, _Mapping]]] = ..., rolls: _Optional[_Iterable[int]] = ...) -> None: ...

class CreaturePlayed(_message.Message):
    __slots__ = ("seat", "lane", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    lane: str
    card: str
    def __init__(self, seat: _Optional[int] = ..., lane: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...

class SkillPlayed(_message.Message):
    __slots__ = ("seat", "lane", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    lane: str
    card: str
    def __init__(self, seat: _Optional[int] = ..., lane: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...

class CreatureDestroyed(_message.Message):
    __slots__ = ("seat", "lane", "card", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    lane: str
    card: str
    reason: str
    def __init__(self, seat: _Optional[int] = ..., lane: _Optional[str] = ..., card: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class CreatureExiled(_message.Message):
    __slots__ = ("seat", "lane", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    lane: str
    card: str
    def __init__(self, seat: _Optional[int] = ..., lane: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...

class LaneBoosted(_message.Message):
    __slots__ = ("seat", "lane", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    lane: str
    amount: int
    def __init__(self, seat: _Optional[int] = ..., lane: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class CastleDamaged(_message.Message):
    __slots__ = ("seat", "amount", "hp", "source")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    HP_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    hp: int
    source: str
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., hp: _Optional[int] = ..., source: _Optional[str] = ...) -> None: ...

class CastleHealed(_message.Message):
    __slots__ = ("seat", "amount", "hp")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    HP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    hp: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., hp: _Optional[int] = ...) -> None: ...

class CardsDiscarded(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class LanesCounted(_message.Message):
    __slots__ = ("attack", "defense")
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFENSE_FIELD_NUMBER: _ClassVar[int]
    attack: _containers.RepeatedScalarFieldContainer[int]
    defense: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, attack: _Optional[_Iterable[int]] = ..., defense: _Optional[_Iterable[int]] = ...) -> None: ...

class DeckRanOut(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("ranks", "reason")
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class LaneRef(_message.Message):
    __slots__ = ("seat", "lane")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    lane: str
    def __init__(self, seat: _Optional[int] = ..., lane: _Optional[str] = ...) -> None: ...

class TerraloreView(_message.Message):
    __slots__ = ("turn", "phase", "players", "last_reveal_order", "ranks", "reason")
    TURN_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    LAST_REVEAL_ORDER_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    turn: int
    phase: str
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    last_reveal_order: _containers.RepeatedCompositeFieldContainer[LaneRef]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, turn: _Optional[int] = ..., phase: _Optional[str] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., last_reveal_order: _Optional[_Iterable[_Union[LaneRef, _Mapping]]] = ..., ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "hp", "deck_size", "hand_size", "hand", "defending", "attacking", "graveyard", "exile", "committed", "plan")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HP_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEFENDING_FIELD_NUMBER: _ClassVar[int]
    ATTACKING_FIELD_NUMBER: _ClassVar[int]
    GRAVEYARD_FIELD_NUMBER: _ClassVar[int]
    EXILE_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hp: int
    deck_size: int
    hand_size: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    defending: _containers.RepeatedScalarFieldContainer[str]
    attacking: _containers.RepeatedScalarFieldContainer[str]
    graveyard: _containers.RepeatedScalarFieldContainer[str]
    exile: _containers.RepeatedScalarFieldContainer[str]
    committed: bool
    plan: Plan
    def __init__(self, seat: _Optional[int] = ..., hp: _Optional[int] = ..., deck_size: _Optional[int] = ..., hand_size: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., defending: _Optional[_Iterable[str]] = ..., attacking: _Optional[_Iterable[str]] = ..., graveyard: _Optional[_Iterable[str]] = ..., exile: _Optional[_Iterable[str]] = ..., committed: _Optional[bool] = ..., plan: _Optional[_Union[Plan, _Mapping]] = ...) -> None: ...

class Plan(_message.Message):
    __slots__ = ("plays", "discards", "destroys")
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DESTROYS_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    discards: _containers.RepeatedScalarFieldContainer[str]
    destroys: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., destroys: _Optional[_Iterable[str]] = ...) -> None: ...
