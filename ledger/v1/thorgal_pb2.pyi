from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ThorgalSetup(_message.Message):
    __slots__ = ("players", "characters", "content")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    players: int
    characters: _containers.RepeatedScalarFieldContainer[str]
    content: str
    def __init__(self, players: _Optional[int] = ..., characters: _Optional[_Iterable[str]] = ..., content: _Optional[str] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("take_action", "choose", "place_tile")
    TAKE_ACTION_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    PLACE_TILE_FIELD_NUMBER: _ClassVar[int]
    take_action: TakeAction
    choose: Choose
    place_tile: PlaceTile
    def __init__(self, take_action: _Optional[_Union[TakeAction, _Mapping]] = ..., choose: _Optional[_Union[Choose, _Mapping]] = ..., place_tile: _Optional[_Union[PlaceTile, _Mapping]] = ...) -> None: ...

class TakeAction(_message.Message):
    __slots__ = ("chip", "slot", "option")
    CHIP_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    OPTION_FIELD_NUMBER: _ClassVar[int]
    chip: int
    slot: int
    option: int
    def __init__(self, chip: _Optional[int] = ..., slot: _Optional[int] = ..., option: _Optional[int] = ...) -> None: ...

class Choose(_message.Message):
    __slots__ = ("option",)
    OPTION_FIELD_NUMBER: _ClassVar[int]
    option: Option
    def __init__(self, option: _Optional[_Union[Option, _Mapping]] = ...) -> None: ...

class PlaceTile(_message.Message):
    __slots__ = ("shape", "rotation", "mirrored", "row", "col")
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    MIRRORED_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    shape: str
    rotation: int
    mirrored: bool
    row: int
    col: int
    def __init__(self, shape: _Optional[str] = ..., rotation: _Optional[int] = ..., mirrored: _Optional[bool] = ..., row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class Option(_message.Message):
    __slots__ = ("proceed", "consent", "use_item", "use_skill", "refresh_skill", "swap_action_card", "collect_at", "discard_collect_tokens", "pick_location", "give_good", "take_item", "discard_item", "pick_side_plot", "pick_enemy", "pick_good", "pick_enemy_card", "upgrade_die", "reroll_die", "activate_critical", "pick_payer", "cancel_payment", "heal_wound", "pick_track", "move_to")
    PROCEED_FIELD_NUMBER: _ClassVar[int]
    CONSENT_FIELD_NUMBER: _ClassVar[int]
    USE_ITEM_FIELD_NUMBER: _ClassVar[int]
    USE_SKILL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_SKILL_FIELD_NUMBER: _ClassVar[int]
    SWAP_ACTION_CARD_FIELD_NUMBER: _ClassVar[int]
    COLLECT_AT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_COLLECT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    PICK_LOCATION_FIELD_NUMBER: _ClassVar[int]
    GIVE_GOOD_FIELD_NUMBER: _ClassVar[int]
    TAKE_ITEM_FIELD_NUMBER: _ClassVar[int]
    DISCARD_ITEM_FIELD_NUMBER: _ClassVar[int]
    PICK_SIDE_PLOT_FIELD_NUMBER: _ClassVar[int]
    PICK_ENEMY_FIELD_NUMBER: _ClassVar[int]
    PICK_GOOD_FIELD_NUMBER: _ClassVar[int]
    PICK_ENEMY_CARD_FIELD_NUMBER: _ClassVar[int]
    UPGRADE_DIE_FIELD_NUMBER: _ClassVar[int]
    REROLL_DIE_FIELD_NUMBER: _ClassVar[int]
    ACTIVATE_CRITICAL_FIELD_NUMBER: _ClassVar[int]
    PICK_PAYER_FIELD_NUMBER: _ClassVar[int]
    CANCEL_PAYMENT_FIELD_NUMBER: _ClassVar[int]
    HEAL_WOUND_FIELD_NUMBER: _ClassVar[int]
    PICK_TRACK_FIELD_NUMBER: _ClassVar[int]
    MOVE_TO_FIELD_NUMBER: _ClassVar[int]
    proceed: Proceed
    consent: Consent
    use_item: UseItem
    use_skill: UseSkill
    refresh_skill: RefreshSkill
    swap_action_card: SwapActionCard
    collect_at: CollectAt
    discard_collect_tokens: DiscardCollectTokens
    pick_location: PickLocation
    give_good: GiveGood
    take_item: TakeItem
    discard_item: DiscardItem
    pick_side_plot: PickSidePlot
    pick_enemy: PickEnemy
    pick_good: PickGood
    pick_enemy_card: PickEnemyCard
    upgrade_die: UpgradeDie
    reroll_die: RerollDie
    activate_critical: ActivateCritical
    pick_payer: PickPayer
    cancel_payment: CancelPayment
    heal_wound: HealWound
    pick_track: PickTrack
    move_to: MoveTo
    def __init__(self, proceed: _Optional[_Union[Proceed, _Mapping]] = ..., consent: _Optional[_Union[Consent, _Mapping]] = ..., use_item: _Optional[_Union[UseItem, _Mapping]] = ..., use_skill: _Optional[_Union[UseSkill, _Mapping]] = ..., refresh_skill: _Optional[_Union[RefreshSkill, _Mapping]] = ..., swap_action_card: _Optional[_Union[SwapActionCard, _Mapping]] = ..., collect_at: _Optional[_Union[CollectAt, _Mapping]] = ..., discard_collect_tokens: _Optional[_Union[DiscardCollectTokens, _Mapping]] = ..., pick_location: _Optional[_Union[PickLocation, _Mapping]] = ..., give_good: _Optional[_Union[GiveGood, _Mapping]] = ..., take_item: _Optional[_Union[TakeItem, _Mapping]] = ..., discard_item: _Optional[_Union[DiscardItem, _Mapping]] = ..., pick_side_plot: _Optional[_Union[PickSidePlot, _Mapping]] = ..., pick_enemy: _Optional[_Union[PickEnemy, _Mapping]] = ..., pick_good: _Optional[_Union[PickGood, _Mapping]] = ..., pick_enemy_card: _Optional[_Union[PickEnemyCard, _Mapping]] = ..., upgrade_die: _Optional[_Union[UpgradeDie, _Mapping]] = ..., reroll_die: _Optional[_Union[RerollDie, _Mapping]] = ..., activate_critical: _Optional[_Union[ActivateCritical, _Mapping]] = ..., pick_payer: _Optional[_Union[PickPayer, _Mapping]] = ..., cancel_payment: _Optional[_Union[CancelPayment, _Mapping]] = ..., heal_wound: _Optional[_Union[HealWound, _Mapping]] = ..., pick_track: _Optional[_Union[PickTrack, _Mapping]] = ..., move_to: _Optional[_Union[MoveTo, _Mapping]] = ...) -> None: ...

class Proceed(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Consent(_message.Message):
    __slots__ = ("agree",)
    AGREE_FIELD_NUMBER: _ClassVar[int]
    agree: bool
    def __init__(self, agree: _Optional[bool] = ...) -> None: ...

class UseItem(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: str
    def __init__(self, item: _Optional[str] = ...) -> None: ...

class UseSkill(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RefreshSkill(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SwapActionCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class CollectAt(_message.Message):
    __slots__ = ("cell",)
    CELL_FIELD_NUMBER: _ClassVar[int]
    cell: int
    def __init__(self, cell: _Optional[int] = ...) -> None: ...

class DiscardCollectTokens(_message.Message):
    __slots__ = ("terrain",)
    TERRAIN_FIELD_NUMBER: _ClassVar[int]
    terrain: int
    def __init__(self, terrain: _Optional[int] = ...) -> None: ...

class PickLocation(_message.Message):
    __slots__ = ("location",)
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    location: str
    def __init__(self, location: _Optional[str] = ...) -> None: ...

class GiveGood(_message.Message):
    __slots__ = ("from_seat", "good")
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    from_seat: int
    good: str
    def __init__(self, from_seat: _Optional[int] = ..., good: _Optional[str] = ...) -> None: ...

class TakeItem(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: str
    def __init__(self, item: _Optional[str] = ...) -> None: ...

class DiscardItem(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: str
    def __init__(self, item: _Optional[str] = ...) -> None: ...

class PickSidePlot(_message.Message):
    __slots__ = ("plot",)
    PLOT_FIELD_NUMBER: _ClassVar[int]
    plot: int
    def __init__(self, plot: _Optional[int] = ...) -> None: ...

class PickEnemy(_message.Message):
    __slots__ = ("location", "index")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    location: str
    index: int
    def __init__(self, location: _Optional[str] = ..., index: _Optional[int] = ...) -> None: ...

class PickGood(_message.Message):
    __slots__ = ("good",)
    GOOD_FIELD_NUMBER: _ClassVar[int]
    good: str
    def __init__(self, good: _Optional[str] = ...) -> None: ...

class PickEnemyCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class UpgradeDie(_message.Message):
    __slots__ = ("die",)
    DIE_FIELD_NUMBER: _ClassVar[int]
    die: int
    def __init__(self, die: _Optional[int] = ...) -> None: ...

class RerollDie(_message.Message):
    __slots__ = ("die",)
    DIE_FIELD_NUMBER: _ClassVar[int]
    die: int
    def __init__(self, die: _Optional[int] = ...) -> None: ...

class ActivateCritical(_message.Message):
    __slots__ = ("die",)
    DIE_FIELD_NUMBER: _ClassVar[int]
    die: int
    def __init__(self, die: _Optional[int] = ...) -> None: ...

class PickPayer(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CancelPayment(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HealWound(_message.Message):
    __slots__ = ("index",)
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...

class PickTrack(_message.Message):
    __slots__ = ("track",)
    TRACK_FIELD_NUMBER: _ClassVar[int]
    track: str
    def __init__(self, track: _Optional[str] = ...) -> None: ...

class MoveTo(_message.Message):
    __slots__ = ("area", "reds", "blues")
    AREA_FIELD_NUMBER: _ClassVar[int]
    REDS_FIELD_NUMBER: _ClassVar[int]
    BLUES_FIELD_NUMBER: _ClassVar[int]
    area: str
    reds: int
    blues: int
    def __init__(self, area: _Optional[str] = ..., reds: _Optional[int] = ..., blues: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("adventure_started", "deck_shuffled", "cards_drawn", "card_discarded", "tasks_dropped", "choice_offered", "choice_made", "turn_began", "chip_placed", "action_prepared", "action_ended", "character_moved", "goods_gained", "goods_spent", "wound_placed", "wound_rolled", "wound_healed", "threats_changed", "experience_gained", "item_gained", "item_used", "skill_used", "skill_refreshed", "journey_tile_placed", "collect_token_placed", "collect_tokens_discarded", "goods_assigned", "assigned_goods_discarded", "enemies_changed", "location_marked", "combat_began", "dice_rolled", "die_upgraded", "die_added", "die_rerolled", "critical_activated", "combat_tile_placed", "combat_tile_dropped", "combat_ended", "entry_read", "side_plot_chosen", "action_card_swapped", "special_card_gained", "round_advanced", "chips_flipped", "first_player_passed", "adventure_ended")
    ADVENTURE_STARTED_FIELD_NUMBER: _ClassVar[int]
    DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    CARD_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TASKS_DROPPED_FIELD_NUMBER: _ClassVar[int]
    CHOICE_OFFERED_FIELD_NUMBER: _ClassVar[int]
    CHOICE_MADE_FIELD_NUMBER: _ClassVar[int]
    TURN_BEGAN_FIELD_NUMBER: _ClassVar[int]
    CHIP_PLACED_FIELD_NUMBER: _ClassVar[int]
    ACTION_PREPARED_FIELD_NUMBER: _ClassVar[int]
    ACTION_ENDED_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_MOVED_FIELD_NUMBER: _ClassVar[int]
    GOODS_GAINED_FIELD_NUMBER: _ClassVar[int]
    GOODS_SPENT_FIELD_NUMBER: _ClassVar[int]
    WOUND_PLACED_FIELD_NUMBER: _ClassVar[int]
    WOUND_ROLLED_FIELD_NUMBER: _ClassVar[int]
    WOUND_HEALED_FIELD_NUMBER: _ClassVar[int]
    THREATS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    EXPERIENCE_GAINED_FIELD_NUMBER: _ClassVar[int]
    ITEM_GAINED_FIELD_NUMBER: _ClassVar[int]
    ITEM_USED_FIELD_NUMBER: _ClassVar[int]
    SKILL_USED_FIELD_NUMBER: _ClassVar[int]
    SKILL_REFRESHED_FIELD_NUMBER: _ClassVar[int]
    JOURNEY_TILE_PLACED_FIELD_NUMBER: _ClassVar[int]
    COLLECT_TOKEN_PLACED_FIELD_NUMBER: _ClassVar[int]
    COLLECT_TOKENS_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    GOODS_ASSIGNED_FIELD_NUMBER: _ClassVar[int]
    ASSIGNED_GOODS_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    ENEMIES_CHANGED_FIELD_NUMBER: _ClassVar[int]
    LOCATION_MARKED_FIELD_NUMBER: _ClassVar[int]
    COMBAT_BEGAN_FIELD_NUMBER: _ClassVar[int]
    DICE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    DIE_UPGRADED_FIELD_NUMBER: _ClassVar[int]
    DIE_ADDED_FIELD_NUMBER: _ClassVar[int]
    DIE_REROLLED_FIELD_NUMBER: _ClassVar[int]
    CRITICAL_ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    COMBAT_TILE_PLACED_FIELD_NUMBER: _ClassVar[int]
    COMBAT_TILE_DROPPED_FIELD_NUMBER: _ClassVar[int]
    COMBAT_ENDED_FIELD_NUMBER: _ClassVar[int]
    ENTRY_READ_FIELD_NUMBER: _ClassVar[int]
    SIDE_PLOT_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    ACTION_CARD_SWAPPED_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_CARD_GAINED_FIELD_NUMBER: _ClassVar[int]
    ROUND_ADVANCED_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FLIPPED_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_PASSED_FIELD_NUMBER: _ClassVar[int]
    ADVENTURE_ENDED_FIELD_NUMBER: _ClassVar[int]
    adventure_started: AdventureStarted
    deck_shuffled: DeckShuffled
    cards_drawn: CardsDrawn
    card_discarded: CardDiscarded
    tasks_dropped: TasksDropped
    choice_offered: ChoiceOffered
    choice_made: ChoiceMade
    turn_began: TurnBegan
    chip_placed: ChipPlaced
    action_prepared: ActionPrepared
    action_ended: ActionEnded
    character_moved: CharacterMoved
    goods_gained: GoodsGained
    goods_spent: GoodsSpent
    wound_placed: WoundPlaced
    wound_rolled: WoundRolled
    wound_healed: WoundHealed
    threats_changed: ThreatsChanged
    experience_gained: ExperienceGained
    item_gained: ItemGained
    item_used: ItemUsed
    skill_used: SkillUsed
    skill_refreshed: SkillRefreshed
    journey_tile_placed: JourneyTilePlaced
    collect_token_placed: CollectTokenPlaced
    collect_tokens_discarded: CollectTokensDiscarded
    goods_assigned: GoodsAssigned
    assigned_goods_discarded: AssignedGoodsDiscarded
    enemies_changed: EnemiesChanged
    location_marked: LocationMarked
    combat_began: CombatBegan
    dice_rolled: DiceRolled
    die_upgraded: DieUpgraded
    die_added: DieAdded
    die_rerolled: DieRerolled
    critical_activated: CriticalActivated
    combat_tile_placed: CombatTilePlaced
    combat_tile_dropped: CombatTileDropped
    combat_ended: CombatEnded
    entry_read: EntryRead
    side_plot_chosen: SidePlotChosen
    action_card_swapped: ActionCardSwapped
    special_card_gained: SpecialCardGained
    round_advanced: RoundAdvanced
    chips_flipped: ChipsFlipped
    first_player_passed: FirstPlayerPassed
    adventure_ended: AdventureEnded
    def __init__(self, adventure_started: _Optional[_Union[AdventureStarted, _Mapping]] = ..., deck_shuffled: _Optional[_Union[DeckShuffled, _Mapping]] = ..., cards_drawn: _Optional[_Union[CardsDrawn, _Mapping]] = ..., card_discarded: _Optional[_Union[CardDiscarded, _Mapping]] = ..., tasks_dropped: _Optional[_Union[TasksDropped, _Mapping]] = ..., choice_offered: _Optional[_Union[ChoiceOffered, _Mapping]] = ..., choice_made: _Optional[_Union[ChoiceMade, _Mapping]] = ..., turn_began: _Optional[_Union[TurnBegan, _Mapping]] = ..., chip_placed: _Optional[_Union[ChipPlaced, _Mapping]] = ..., action_prepared: _Optional[_Union[ActionPrepared, _Mapping]] = ..., action_ended: _Optional[_Union[ActionEnded, _Mapping]] = ..., character_moved: _Optional[_Union[CharacterMoved, _Mapping]] = ..., goods_gained: _Optional[_Union[GoodsGained, _Mapping]] = ..., goods_spent: _Optional[_Union[GoodsSpent, _Mapping]] = ..., wound_placed: _Optional[_Union[WoundPlaced, _Mapping]] = ..., wound_rolled: _Optional[_Union[WoundRolled, _Mapping]] = ..., wound_healed: _Optional[_Union[WoundHealed, _Mapping]] = ..., threats_changed: _Optional[_Union[ThreatsChanged, _Mapping]] = ..., experience_gained: _Optional[_Union[ExperienceGained, _Mapping]] = ..., item_gained: _Optional[_Union[ItemGained, _Mapping]] = ..., item_used: _Optional[_Union[ItemUsed, _Mapping]] = ..., skill_used: _Optional[_Union[SkillUsed, _Mapping]] = ..., skill_refreshed: _Optional[_Union[SkillRefreshed, _Mapping]] = ..., journey_tile_placed: _Optional[_Union[JourneyTilePlaced, _Mapping]] = ..., collect_token_placed: _Optional[_Union[CollectTokenPlaced, _Mapping]] = ..., collect_tokens_discarded: _Optional[_Union[CollectTokensDiscarded, _Mapping]] = ..., goods_assigned: _Optional[_Union[GoodsAssigned, _Mapping]] = ..., assigned_goods_discarded: _Optional[_Union[AssignedGoodsDiscarded, _Mapping]] = ..., enemies_changed: _Optional[_Union[EnemiesChanged, _Mapping]] = ..., location_marked: _Optional[_Union[LocationMarked, _Mapping]] = ..., combat_began: _Optional[_Union[CombatBegan, _Mapping]] = ..., dice_rolled: _Optional[_Union[DiceRolled, _Mapping]] = ..., die_upgraded: _Optional[_Union[DieUpgraded, _Mapping]] = ..., die_added: _Optional[_Union[DieAdded, _Mapping]] = ..., die_rerolled: _Optional[_Union[DieRerolled, _Mapping]] = ..., critical_activated: _Optional[_Union[CriticalActivated, _Mapping]] = ..., combat_tile_placed: _Optional[_Union[CombatTilePlaced, _Mapping]] = ..., combat_tile_dropped: _Optional[_Union[CombatTileDropped, _Mapping]] = ..., combat_ended: _Optional[_Union[CombatEnded, _Mapping]] = ..., entry_read: _Optional[_Union[EntryRead, _Mapping]] = ..., side_plot_chosen: _Optional[_Union[SidePlotChosen, _Mapping]] = ..., action_card_swapped: _Optional[_Union[ActionCardSwapped, _Mapping]] = ..., special_card_gained: _Optional[_Union[SpecialCardGained, _Mapping]] = ..., round_advanced: _Optional[_Union[RoundAdvanced, _Mapping]] = ..., chips_flipped: _Optional[_Union[ChipsFlipped, _Mapping]] = ..., first_player_passed: _Optional[_Union[FirstPlayerPassed, _Mapping]] = ..., adventure_ended: _Optional[_Union[AdventureEnded, _Mapping]] = ...) -> None: ...

class AdventureStarted(_message.Message):
    __slots__ = ("seats", "characters", "first")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    seats: int
    characters: _containers.RepeatedScalarFieldContainer[str]
    first: int
    def __init__(self, seats: _Optional[int] = ..., characters: _Optional[_Iterable[str]] = ..., first: _Optional[int] = ...) -> None: ...

class DeckShuffled(_message.Message):
    __slots__ = ("deck", "cards", "from_discard", "size", "hidden")
    DECK_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    FROM_DISCARD_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    deck: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    from_discard: bool
    size: int
    hidden: bool
    def __init__(self, deck: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., from_discard: _Optional[bool] = ..., size: _Optional[int] = ..., hidden: _Optional[bool] = ...) -> None: ...

class CardsDrawn(_message.Message):
    __slots__ = ("deck", "cards", "to")
    DECK_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    deck: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    to: str
    def __init__(self, deck: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., to: _Optional[str] = ...) -> None: ...

class CardDiscarded(_message.Message):
    __slots__ = ("deck", "card", "source")
    DECK_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    deck: str
    card: str
    source: str
    def __init__(self, deck: _Optional[str] = ..., card: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...

class TasksDropped(_message.Message):
    __slots__ = ("n",)
    N_FIELD_NUMBER: _ClassVar[int]
    n: int
    def __init__(self, n: _Optional[int] = ...) -> None: ...

class ChoiceOffered(_message.Message):
    __slots__ = ("pending", "tasks")
    PENDING_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    pending: Pending
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    def __init__(self, pending: _Optional[_Union[Pending, _Mapping]] = ..., tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ...) -> None: ...

class ChoiceMade(_message.Message):
    __slots__ = ("seat", "kind", "option")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: str
    option: Option
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[str] = ..., option: _Optional[_Union[Option, _Mapping]] = ...) -> None: ...

class TurnBegan(_message.Message):
    __slots__ = ("round", "turn", "seat")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    round: int
    turn: int
    seat: int
    def __init__(self, round: _Optional[int] = ..., turn: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class ChipPlaced(_message.Message):
    __slots__ = ("seat", "chip", "slot", "card", "option")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHIP_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    OPTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    chip: int
    slot: int
    card: str
    option: int
    def __init__(self, seat: _Optional[int] = ..., chip: _Optional[int] = ..., slot: _Optional[int] = ..., card: _Optional[str] = ..., option: _Optional[int] = ...) -> None: ...

class ActionPrepared(_message.Message):
    __slots__ = ("act",)
    ACT_FIELD_NUMBER: _ClassVar[int]
    act: Act
    def __init__(self, act: _Optional[_Union[Act, _Mapping]] = ...) -> None: ...

class ActionEnded(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ...) -> None: ...

class CharacterMoved(_message.Message):
    __slots__ = ("seat", "area", "borders")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AREA_FIELD_NUMBER: _ClassVar[int]
    BORDERS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    area: str
    borders: int
    def __init__(self, seat: _Optional[int] = ..., area: _Optional[str] = ..., borders: _Optional[int] = ...) -> None: ...

class GoodsGained(_message.Message):
    __slots__ = ("seat", "good", "n")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    seat: int
    good: str
    n: int
    def __init__(self, seat: _Optional[int] = ..., good: _Optional[str] = ..., n: _Optional[int] = ...) -> None: ...

class GoodsSpent(_message.Message):
    __slots__ = ("seat", "good", "n")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    seat: int
    good: str
    n: int
    def __init__(self, seat: _Optional[int] = ..., good: _Optional[str] = ..., n: _Optional[int] = ...) -> None: ...

class WoundPlaced(_message.Message):
    __slots__ = ("seat", "shape", "cells")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    shape: str
    cells: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., shape: _Optional[str] = ..., cells: _Optional[_Iterable[int]] = ...) -> None: ...

class WoundRolled(_message.Message):
    __slots__ = ("seat", "die", "shape")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    die: str
    shape: str
    def __init__(self, seat: _Optional[int] = ..., die: _Optional[str] = ..., shape: _Optional[str] = ...) -> None: ...

class WoundHealed(_message.Message):
    __slots__ = ("seat", "index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    index: int
    def __init__(self, seat: _Optional[int] = ..., index: _Optional[int] = ...) -> None: ...

class ThreatsChanged(_message.Message):
    __slots__ = ("seat", "threats")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    THREATS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    threats: int
    def __init__(self, seat: _Optional[int] = ..., threats: _Optional[int] = ...) -> None: ...

class ExperienceGained(_message.Message):
    __slots__ = ("seat", "track", "level")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TRACK_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    track: str
    level: int
    def __init__(self, seat: _Optional[int] = ..., track: _Optional[str] = ..., level: _Optional[int] = ...) -> None: ...

class ItemGained(_message.Message):
    __slots__ = ("seat", "item", "source")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    item: str
    source: str
    def __init__(self, seat: _Optional[int] = ..., item: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...

class ItemUsed(_message.Message):
    __slots__ = ("seat", "item")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    item: str
    def __init__(self, seat: _Optional[int] = ..., item: _Optional[str] = ...) -> None: ...

class SkillUsed(_message.Message):
    __slots__ = ("seat", "round")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    round: int
    def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ...) -> None: ...

class SkillRefreshed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class JourneyTilePlaced(_message.Message):
    __slots__ = ("seat", "shape", "cells")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    shape: str
    cells: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., shape: _Optional[str] = ..., cells: _Optional[_Iterable[int]] = ...) -> None: ...

class CollectTokenPlaced(_message.Message):
    __slots__ = ("seat", "cell")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cell: int
    def __init__(self, seat: _Optional[int] = ..., cell: _Optional[int] = ...) -> None: ...

class CollectTokensDiscarded(_message.Message):
    __slots__ = ("cells",)
    CELLS_FIELD_NUMBER: _ClassVar[int]
    cells: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cells: _Optional[_Iterable[int]] = ...) -> None: ...

class GoodsAssigned(_message.Message):
    __slots__ = ("location", "good", "from_seat")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    location: str
    good: str
    from_seat: int
    def __init__(self, location: _Optional[str] = ..., good: _Optional[str] = ..., from_seat: _Optional[int] = ...) -> None: ...

class AssignedGoodsDiscarded(_message.Message):
    __slots__ = ("location", "goods")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    location: str
    goods: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, location: _Optional[str] = ..., goods: _Optional[_Iterable[int]] = ...) -> None: ...

class EnemiesChanged(_message.Message):
    __slots__ = ("location", "enemies")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    ENEMIES_FIELD_NUMBER: _ClassVar[int]
    location: str
    enemies: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, location: _Optional[str] = ..., enemies: _Optional[_Iterable[str]] = ...) -> None: ...

class LocationMarked(_message.Message):
    __slots__ = ("location", "token", "good")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    location: str
    token: str
    good: str
    def __init__(self, location: _Optional[str] = ..., token: _Optional[str] = ..., good: _Optional[str] = ...) -> None: ...

class CombatBegan(_message.Message):
    __slots__ = ("combat",)
    COMBAT_FIELD_NUMBER: _ClassVar[int]
    combat: Combat
    def __init__(self, combat: _Optional[_Union[Combat, _Mapping]] = ...) -> None: ...

class DiceRolled(_message.Message):
    __slots__ = ("faces",)
    FACES_FIELD_NUMBER: _ClassVar[int]
    faces: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, faces: _Optional[_Iterable[int]] = ...) -> None: ...

class DieUpgraded(_message.Message):
    __slots__ = ("index", "colour")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    index: int
    colour: str
    def __init__(self, index: _Optional[int] = ..., colour: _Optional[str] = ...) -> None: ...

class DieAdded(_message.Message):
    __slots__ = ("colour",)
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    colour: str
    def __init__(self, colour: _Optional[str] = ...) -> None: ...

class DieRerolled(_message.Message):
    __slots__ = ("index", "face")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    FACE_FIELD_NUMBER: _ClassVar[int]
    index: int
    face: int
    def __init__(self, index: _Optional[int] = ..., face: _Optional[int] = ...) -> None: ...

class CriticalActivated(_message.Message):
    __slots__ = ("index",)
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...

class CombatTilePlaced(_message.Message):
    __slots__ = ("shape", "cells")
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    shape: str
    cells: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, shape: _Optional[str] = ..., cells: _Optional[_Iterable[int]] = ...) -> None: ...

class CombatTileDropped(_message.Message):
    __slots__ = ("shapes",)
    SHAPES_FIELD_NUMBER: _ClassVar[int]
    shapes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, shapes: _Optional[_Iterable[str]] = ...) -> None: ...

class CombatEnded(_message.Message):
    __slots__ = ("won", "uncovered")
    WON_FIELD_NUMBER: _ClassVar[int]
    UNCOVERED_FIELD_NUMBER: _ClassVar[int]
    won: bool
    uncovered: int
    def __init__(self, won: _Optional[bool] = ..., uncovered: _Optional[int] = ...) -> None: ...

class EntryRead(_message.Message):
    __slots__ = ("entry", "title", "text")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    entry: str
    title: str
    text: str
    def __init__(self, entry: _Optional[str] = ..., title: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class SidePlotChosen(_message.Message):
    __slots__ = ("entry", "plot")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    PLOT_FIELD_NUMBER: _ClassVar[int]
    entry: str
    plot: int
    def __init__(self, entry: _Optional[str] = ..., plot: _Optional[int] = ...) -> None: ...

class ActionCardSwapped(_message.Message):
    __slots__ = ("old", "new", "row")
    OLD_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    old: str
    new: str
    row: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, old: _Optional[str] = ..., new: _Optional[str] = ..., row: _Optional[_Iterable[str]] = ...) -> None: ...

class SpecialCardGained(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class RoundAdvanced(_message.Message):
    __slots__ = ("round",)
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class ChipsFlipped(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class FirstPlayerPassed(_message.Message):
    __slots__ = ("first",)
    FIRST_FIELD_NUMBER: _ClassVar[int]
    first: int
    def __init__(self, first: _Optional[int] = ...) -> None: ...

class AdventureEnded(_message.Message):
    __slots__ = ("won", "reason")
    WON_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    won: bool
    reason: str
    def __init__(self, won: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class Pending(_message.Message):
    __slots__ = ("kind", "seat", "options", "shapes", "arg", "n", "loc", "chosen")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SHAPES_FIELD_NUMBER: _ClassVar[int]
    ARG_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    LOC_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    options: _containers.RepeatedCompositeFieldContainer[Option]
    shapes: _containers.RepeatedScalarFieldContainer[str]
    arg: str
    n: int
    loc: str
    chosen: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., options: _Optional[_Iterable[_Union[Option, _Mapping]]] = ..., shapes: _Optional[_Iterable[str]] = ..., arg: _Optional[str] = ..., n: _Optional[int] = ..., loc: _Optional[str] = ..., chosen: _Optional[_Iterable[str]] = ...) -> None: ...

class Task(_message.Message):
    __slots__ = ("op", "n", "arg", "seat", "loc", "payers", "refused")
    OP_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    ARG_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LOC_FIELD_NUMBER: _ClassVar[int]
    PAYERS_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    op: str
    n: int
    arg: str
    seat: int
    loc: str
    payers: _containers.RepeatedScalarFieldContainer[int]
    refused: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, op: _Optional[str] = ..., n: _Optional[int] = ..., arg: _Optional[str] = ..., seat: _Optional[int] = ..., loc: _Optional[str] = ..., payers: _Optional[_Iterable[int]] = ..., refused: _Optional[_Iterable[int]] = ...) -> None: ...

class Act(_message.Message):
    __slots__ = ("seat", "action", "value", "slot", "dice", "rerolls", "upgrades", "criticals", "done", "refused")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    REROLLS_FIELD_NUMBER: _ClassVar[int]
    UPGRADES_FIELD_NUMBER: _ClassVar[int]
    CRITICALS_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    value: int
    slot: int
    dice: _containers.RepeatedScalarFieldContainer[str]
    rerolls: int
    upgrades: int
    criticals: int
    done: int
    refused: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ..., value: _Optional[int] = ..., slot: _Optional[int] = ..., dice: _Optional[_Iterable[str]] = ..., rerolls: _Optional[int] = ..., upgrades: _Optional[int] = ..., criticals: _Optional[int] = ..., done: _Optional[int] = ..., refused: _Optional[_Iterable[int]] = ...) -> None: ...

class Combat(_message.Message):
    __slots__ = ("seat", "location", "tokens", "cards", "rows", "dice", "faces", "critical", "placed", "left", "rolled")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    FACES_FIELD_NUMBER: _ClassVar[int]
    CRITICAL_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    LEFT_FIELD_NUMBER: _ClassVar[int]
    ROLLED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    location: str
    tokens: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    rows: _containers.RepeatedScalarFieldContainer[str]
    dice: _containers.RepeatedScalarFieldContainer[str]
    faces: _containers.RepeatedScalarFieldContainer[int]
    critical: _containers.RepeatedScalarFieldContainer[bool]
    placed: _containers.RepeatedCompositeFieldContainer[Tile]
    left: _containers.RepeatedScalarFieldContainer[str]
    rolled: bool
    def __init__(self, seat: _Optional[int] = ..., location: _Optional[str] = ..., tokens: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[str]] = ..., rows: _Optional[_Iterable[str]] = ..., dice: _Optional[_Iterable[str]] = ..., faces: _Optional[_Iterable[int]] = ..., critical: _Optional[_Iterable[bool]] = ..., placed: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., left: _Optional[_Iterable[str]] = ..., rolled: _Optional[bool] = ...) -> None: ...

class Tile(_message.Message):
    __slots__ = ("shape", "cells")
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    shape: str
    cells: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, shape: _Optional[str] = ..., cells: _Optional[_Iterable[int]] = ...) -> None: ...

class ThorgalView(_message.Message):
    __slots__ = ("players", "seats", "phase", "round", "rounds", "turn", "first", "heroes", "sites", "row", "specials", "chips", "terrain", "path", "collect_tokens", "decks", "display", "active_event", "entries", "tasks", "pending", "act", "combat", "result", "reason", "deck_orders")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    HEROES_FIELD_NUMBER: _ClassVar[int]
    SITES_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    SPECIALS_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    TERRAIN_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    COLLECT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_EVENT_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    ACT_FIELD_NUMBER: _ClassVar[int]
    COMBAT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DECK_ORDERS_FIELD_NUMBER: _ClassVar[int]
    players: int
    seats: int
    phase: str
    round: int
    rounds: int
    turn: int
    first: int
    heroes: _containers.RepeatedCompositeFieldContainer[Hero]
    sites: _containers.RepeatedCompositeFieldContainer[Site]
    row: _containers.RepeatedScalarFieldContainer[str]
    specials: _containers.RepeatedScalarFieldContainer[str]
    chips: _containers.RepeatedCompositeFieldContainer[Chip]
    terrain: _containers.RepeatedScalarFieldContainer[str]
    path: _containers.RepeatedCompositeFieldContainer[Tile]
    collect_tokens: _containers.RepeatedScalarFieldContainer[int]
    decks: _containers.RepeatedCompositeFieldContainer[DeckView]
    display: _containers.RepeatedScalarFieldContainer[str]
    active_event: str
    entries: _containers.RepeatedCompositeFieldContainer[EntryView]
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    pending: Pending
    act: Act
    combat: Combat
    result: str
    reason: str
    deck_orders: _containers.RepeatedCompositeFieldContainer[Deck]
    def __init__(self, players: _Optional[int] = ..., seats: _Optional[int] = ..., phase: _Optional[str] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., turn: _Optional[int] = ..., first: _Optional[int] = ..., heroes: _Optional[_Iterable[_Union[Hero, _Mapping]]] = ..., sites: _Optional[_Iterable[_Union[Site, _Mapping]]] = ..., row: _Optional[_Iterable[str]] = ..., specials: _Optional[_Iterable[str]] = ..., chips: _Optional[_Iterable[_Union[Chip, _Mapping]]] = ..., terrain: _Optional[_Iterable[str]] = ..., path: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., collect_tokens: _Optional[_Iterable[int]] = ..., decks: _Optional[_Iterable[_Union[DeckView, _Mapping]]] = ..., display: _Optional[_Iterable[str]] = ..., active_event: _Optional[str] = ..., entries: _Optional[_Iterable[_Union[EntryView, _Mapping]]] = ..., tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ..., pending: _Optional[_Union[Pending, _Mapping]] = ..., act: _Optional[_Union[Act, _Mapping]] = ..., combat: _Optional[_Union[Combat, _Mapping]] = ..., result: _Optional[str] = ..., reason: _Optional[str] = ..., deck_orders: _Optional[_Iterable[_Union[Deck, _Mapping]]] = ...) -> None: ...

class Hero(_message.Message):
    __slots__ = ("seat", "character", "area", "goods", "wounds", "threats", "combat_level", "journey_level", "skill_active", "skill_round", "items")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    AREA_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    WOUNDS_FIELD_NUMBER: _ClassVar[int]
    THREATS_FIELD_NUMBER: _ClassVar[int]
    COMBAT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    JOURNEY_LEVEL_FIELD_NUMBER: _ClassVar[int]
    SKILL_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    SKILL_ROUND_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    character: str
    area: str
    goods: _containers.RepeatedScalarFieldContainer[int]
    wounds: _containers.RepeatedCompositeFieldContainer[Tile]
    threats: int
    combat_level: int
    journey_level: int
    skill_active: bool
    skill_round: int
    items: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., character: _Optional[str] = ..., area: _Optional[str] = ..., goods: _Optional[_Iterable[int]] = ..., wounds: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., threats: _Optional[int] = ..., combat_level: _Optional[int] = ..., journey_level: _Optional[int] = ..., skill_active: _Optional[bool] = ..., skill_round: _Optional[int] = ..., items: _Optional[_Iterable[str]] = ...) -> None: ...

class Site(_message.Message):
    __slots__ = ("id", "enemies", "assigned", "blockade", "cover", "cost_tokens", "extra_cost", "entry_token")
    ID_FIELD_NUMBER: _ClassVar[int]
    ENEMIES_FIELD_NUMBER: _ClassVar[int]
    ASSIGNED_FIELD_NUMBER: _ClassVar[int]
    BLOCKADE_FIELD_NUMBER: _ClassVar[int]
    COVER_FIELD_NUMBER: _ClassVar[int]
    COST_TOKENS_FIELD_NUMBER: _ClassVar[int]
    EXTRA_COST_FIELD_NUMBER: _ClassVar[int]
    ENTRY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    id: str
    enemies: _containers.RepeatedScalarFieldContainer[str]
    assigned: _containers.RepeatedScalarFieldContainer[int]
    blockade: bool
    cover: bool
    cost_tokens: int
    extra_cost: _containers.RepeatedScalarFieldContainer[int]
    entry_token: bool
    def __init__(self, id: _Optional[str] = ..., enemies: _Optional[_Iterable[str]] = ..., assigned: _Optional[_Iterable[int]] = ..., blockade: _Optional[bool] = ..., cover: _Optional[bool] = ..., cost_tokens: _Optional[int] = ..., extra_cost: _Optional[_Iterable[int]] = ..., entry_token: _Optional[bool] = ...) -> None: ...

class Chip(_message.Message):
    __slots__ = ("slot", "active")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    slot: int
    active: bool
    def __init__(self, slot: _Optional[int] = ..., active: _Optional[bool] = ...) -> None: ...

class DeckView(_message.Message):
    __slots__ = ("name", "size", "discard")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    name: str
    size: int
    discard: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., size: _Optional[int] = ..., discard: _Optional[_Iterable[str]] = ...) -> None: ...

class EntryView(_message.Message):
    __slots__ = ("id", "title", "text")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    text: str
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class Deck(_message.Message):
    __slots__ = ("name", "cards", "discard")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    name: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    discard: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., discard: _Optional[_Iterable[str]] = ...) -> None: ...
