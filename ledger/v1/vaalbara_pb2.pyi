from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class VaalbaraSetup(_message.Message):
    __slots__ = ("players", "clans")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CLANS_FIELD_NUMBER: _ClassVar[int]
    players: int
    clans: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, players: _Optional[int] = ..., clans: _Optional[_Iterable[str]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("choose_character", "reveal_fighter", "decline_fighter", "give_bard_points", "track_land", "take_back_character", "swap_lands", "swap_with_deck_bottom", "take_land")
    CHOOSE_CHARACTER_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIGHTER_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIGHTER_FIELD_NUMBER: _ClassVar[int]
    GIVE_BARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    TRACK_LAND_FIELD_NUMBER: _ClassVar[int]
    TAKE_BACK_CHARACTER_FIELD_NUMBER: _ClassVar[int]
    SWAP_LANDS_FIELD_NUMBER: _ClassVar[int]
    SWAP_WITH_DECK_BOTTOM_FIELD_NUMBER: _ClassVar[int]
    TAKE_LAND_FIELD_NUMBER: _ClassVar[int]
    choose_character: ChooseCharacter
    reveal_fighter: RevealFighter
    decline_fighter: DeclineFighter
    give_bard_points: GiveBardPoints
    track_land: TrackLand
    take_back_character: TakeBackCharacter
    swap_lands: SwapLands
    swap_with_deck_bottom: SwapWithDeckBottom
    take_land: TakeLand
    def __init__(self, choose_character: _Optional[_Union[ChooseCharacter, _Mapping]] = ..., reveal_fighter: _Optional[_Union[RevealFighter, _Mapping]] = ..., decline_fighter: _Optional[_Union[DeclineFighter, _Mapping]] = ..., give_bard_points: _Optional[_Union[GiveBardPoints, _Mapping]] = ..., track_land: _Optional[_Union[TrackLand, _Mapping]] = ..., take_back_character: _Optional[_Union[TakeBackCharacter, _Mapping]] = ..., swap_lands: _Optional[_Union[SwapLands, _Mapping]] = ..., swap_with_deck_bottom: _Optional[_Union[SwapWithDeckBottom, _Mapping]] = ..., take_land: _Optional[_Union[TakeLand, _Mapping]] = ...) -> None: ...

class ChooseCharacter(_message.Message):
    __slots__ = ("character",)
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    character: str
    def __init__(self, character: _Optional[str] = ...) -> None: ...

class RevealFighter(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeclineFighter(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GiveBardPoints(_message.Message):
    __slots__ = ("target",)
    TARGET_FIELD_NUMBER: _ClassVar[int]
    target: int
    def __init__(self, target: _Optional[int] = ...) -> None: ...

class TrackLand(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class TakeBackCharacter(_message.Message):
    __slots__ = ("character",)
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    character: str
    def __init__(self, character: _Optional[str] = ...) -> None: ...

class SwapLands(_message.Message):
    __slots__ = ("first", "second")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: str
    second: str
    def __init__(self, first: _Optional[str] = ..., second: _Optional[str] = ...) -> None: ...

class SwapWithDeckBottom(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class TakeLand(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("land_deck_shuffled", "clan_deck_shuffled", "lands_dealt", "characters_drawn", "round_started", "character_chosen", "characters_revealed", "turn_started", "fighter_called", "fighter_revealed", "fighter_declined", "points_scored", "points_stolen", "land_tracked", "character_taken_back", "lands_swapped", "realm_land_swapped", "character_discarded", "land_taken", "round_ended", "game_ended")
    LAND_DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    CLAN_DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    LANDS_DEALT_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    FIGHTER_CALLED_FIELD_NUMBER: _ClassVar[int]
    FIGHTER_REVEALED_FIELD_NUMBER: _ClassVar[int]
    FIGHTER_DECLINED_FIELD_NUMBER: _ClassVar[int]
    POINTS_SCORED_FIELD_NUMBER: _ClassVar[int]
    POINTS_STOLEN_FIELD_NUMBER: _ClassVar[int]
    LAND_TRACKED_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_TAKEN_BACK_FIELD_NUMBER: _ClassVar[int]
    LANDS_SWAPPED_FIELD_NUMBER: _ClassVar[int]
    REALM_LAND_SWAPPED_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    LAND_TAKEN_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    land_deck_shuffled: LandDeckShuffled
    clan_deck_shuffled: ClanDeckShuffled
    lands_dealt: LandsDealt
    characters_drawn: CharactersDrawn
    round_started: RoundStarted
    character_chosen: CharacterChosen
    characters_revealed: CharactersRevealed
    turn_started: TurnStarted
    fighter_called: FighterCalled
    fighter_revealed: FighterRevealed
    fighter_declined: FighterDeclined
    points_scored: PointsScored
    points_stolen: PointsStolen
    land_tracked: LandTracked
    character_taken_back: CharacterTakenBack
    lands_swapped: LandsSwapped
    realm_land_swapped: RealmLandSwapped
    character_discarded: CharacterDiscarded
    land_taken: LandTaken
    round_ended: RoundEnded
    game_ended: GameEnded
    def __init__(self, land_deck_shuffled: _Optional[_Union[LandDeckShuffled, _Mapping]] = ..., clan_deck_shuffled: _Optional[_Union[ClanDeckShuffled, _Mapping]] = ..., lands_dealt: _Optional[_Union[LandsDealt, _Mapping]] = ..., characters_drawn: _Optional[_Union[CharactersDrawn, _Mapping]] = ..., round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., character_chosen: _Optional[_Union[CharacterChosen, _Mapping]] = ..., characters_revealed: _Optional[_Union[CharactersRevealed, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., fighter_called: _Optional[_Union[FighterCalled, _Mapping]] = ..., fighter_revealed: _Optional[_Union[FighterRevealed, _Mapping]] = ..., fighter_declined: _Optional[_Union[FighterDeclined, _Mapping]] = ..., points_scored: _Optional[_Union[PointsScored, _Mapping]] = ..., points_stolen: _Optional[_Union[PointsStolen, _Mapping]] = ..., land_tracked: _Optional[_Union[LandTracked, _Mapping]] = ..., character_taken_back: _Optional[_Union[CharacterTakenBack, _Mapping]] = ..., lands_swapped: _Optional[_Union[LandsSwapped, _Mapping]] = ..., realm_land_swapped: _Optional[_Union[RealmLandSwapped, _Mapping]] = ..., character_discarded: _Optional[_Union[CharacterDiscarded, _Mapping]] = ..., land_taken: _Optional[_Union[LandTaken, _Mapping]] = ..., round_ended: _Optional[_Union[RoundEnded, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class LandDeckShuffled(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class ClanDeckShuffled(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class LandsDealt(_message.Message):
    __slots__ = ("row", "cards")
    ROW_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    row: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, row: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class CharactersDrawn(_message.Message):
    __slots__ = ("seat", "count", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round",)
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class CharacterChosen(_message.Message):
    __slots__ = ("seat", "commitment", "character", "nonce")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    commitment: str
    character: str
    nonce: str
    def __init__(self, seat: _Optional[int] = ..., commitment: _Optional[str] = ..., character: _Optional[str] = ..., nonce: _Optional[str] = ...) -> None: ...

class CharactersRevealed(_message.Message):
    __slots__ = ("characters", "nonces")
    CHARACTERS_FIELD_NUMBER: _ClassVar[int]
    NONCES_FIELD_NUMBER: _ClassVar[int]
    characters: _containers.RepeatedScalarFieldContainer[str]
    nonces: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, characters: _Optional[_Iterable[str]] = ..., nonces: _Optional[_Iterable[str]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class FighterCalled(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class FighterRevealed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class FighterDeclined(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class PointsScored(_message.Message):
    __slots__ = ("seat", "reason", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: str
    points: int
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class PointsStolen(_message.Message):
    __slots__ = ("thief", "victim", "points")
    THIEF_FIELD_NUMBER: _ClassVar[int]
    VICTIM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    thief: int
    victim: int
    points: int
    def __init__(self, thief: _Optional[int] = ..., victim: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class LandTracked(_message.Message):
    __slots__ = ("seat", "card", "new_card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    NEW_CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    new_card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., new_card: _Optional[str] = ...) -> None: ...

class CharacterTakenBack(_message.Message):
    __slots__ = ("seat", "character")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    character: str
    def __init__(self, seat: _Optional[int] = ..., character: _Optional[str] = ...) -> None: ...

class LandsSwapped(_message.Message):
    __slots__ = ("seat", "first", "second")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    first: str
    second: str
    def __init__(self, seat: _Optional[int] = ..., first: _Optional[str] = ..., second: _Optional[str] = ...) -> None: ...

class RealmLandSwapped(_message.Message):
    __slots__ = ("seat", "card", "new_card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    NEW_CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    new_card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., new_card: _Optional[str] = ...) -> None: ...

class CharacterDiscarded(_message.Message):
    __slots__ = ("seat", "character")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    character: str
    def __init__(self, seat: _Optional[int] = ..., character: _Optional[str] = ...) -> None: ...

class LandTaken(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class RoundEnded(_message.Message):
    __slots__ = ("round",)
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("scores", "omens")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    OMENS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    omens: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., omens: _Optional[_Iterable[str]] = ...) -> None: ...

class VaalbaraView(_message.Message):
    __slots__ = ("phase", "round", "players", "omens", "land_deck_size", "land_deck", "first_row", "second_row", "revealed", "current", "step", "done", "fighter_pending", "to_act", "final_scores")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OMENS_FIELD_NUMBER: _ClassVar[int]
    LAND_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    LAND_DECK_FIELD_NUMBER: _ClassVar[int]
    FIRST_ROW_FIELD_NUMBER: _ClassVar[int]
    SECOND_ROW_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    FIGHTER_PENDING_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    FINAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    phase: str
    round: int
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    omens: _containers.RepeatedScalarFieldContainer[str]
    land_deck_size: int
    land_deck: _containers.RepeatedScalarFieldContainer[str]
    first_row: _containers.RepeatedScalarFieldContainer[str]
    second_row: _containers.RepeatedScalarFieldContainer[str]
    revealed: _containers.RepeatedScalarFieldContainer[str]
    current: int
    step: str
    done: _containers.RepeatedScalarFieldContainer[int]
    fighter_pending: _containers.RepeatedScalarFieldContainer[int]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    final_scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, phase: _Optional[str] = ..., round: _Optional[int] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., omens: _Optional[_Iterable[str]] = ..., land_deck_size: _Optional[int] = ..., land_deck: _Optional[_Iterable[str]] = ..., first_row: _Optional[_Iterable[str]] = ..., second_row: _Optional[_Iterable[str]] = ..., revealed: _Optional[_Iterable[str]] = ..., current: _Optional[int] = ..., step: _Optional[str] = ..., done: _Optional[_Iterable[int]] = ..., fighter_pending: _Optional[_Iterable[int]] = ..., to_act: _Optional[_Iterable[int]] = ..., final_scores: _Optional[_Iterable[int]] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "clan", "deck_size", "hand_size", "hand", "deck", "discard", "has_chosen", "chosen", "played", "realm", "vp")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CLAN_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    HAS_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    REALM_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    clan: str
    deck_size: int
    hand_size: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    deck: _containers.RepeatedScalarFieldContainer[str]
    discard: _containers.RepeatedScalarFieldContainer[str]
    has_chosen: bool
    chosen: str
    played: str
    realm: _containers.RepeatedScalarFieldContainer[str]
    vp: int
    def __init__(self, seat: _Optional[int] = ..., clan: _Optional[str] = ..., deck_size: _Optional[int] = ..., hand_size: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., deck: _Optional[_Iterable[str]] = ..., discard: _Optional[_Iterable[str]] = ..., has_chosen: _Optional[bool] = ..., chosen: _Optional[str] = ..., played: _Optional[str] = ..., realm: _Optional[_Iterable[str]] = ..., vp: _Optional[int] = ...) -> None: ...
