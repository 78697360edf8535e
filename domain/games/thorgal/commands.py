"""Thorgal commands: everything a seat can submit.

Three commands are enough because every question the rules ask is recorded as
``pending`` with its legal answers: ``TakeAction`` starts a turn, ``Choose``
answers a listed option (targets, goods, consent, side plots, experience...),
``PlaceTile`` places a Wound, Journey or Combat tile.  Options are typed
(:class:`Option`, a one-of of the small answer models below), never a string
language; the rules build them with the constructors in ``rules/options.py``,
which also gives each a short text name for tests and logs.
"""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from domain.contract.core import Command, Model


class Proceed(Model):
    """Go on without (more of) this optional choice: start the action (``prepare``),
    roll (``upgrade_die``), place the tiles (``combat_mod``), stop assigning,
    skip, keep the card, or finish (``craft``, ``after_item``)."""


class Consent(Model):
    """The owner's answer to sharing goods (``consent``, ``pay_consent``)."""

    agree: bool


class UseItem(Model):
    """Use (and discard) an Item card of your supply."""

    item: str


class UseSkill(Model):
    """Use your Skill card (once per round)."""


class RefreshSkill(Model):
    """Pay the Skill card's refresh goods to flip it back."""


class SwapActionCard(Model):
    """Put the Special Action card ``card`` into the Action Row (``swap``)."""

    card: str


class CollectAt(Model):
    """Put a Collect token on the Journey cell ``cell`` (``row * 32 + col``)."""

    cell: int


class DiscardCollectTokens(Model):
    """Discard the Collect tokens on the ``terrain``-th Terrain card (from the left)."""

    terrain: int


class PickLocation(Model):
    """A Location (Assign, Sacrifice, placing an Enemy or a token)."""

    location: str


class GiveGood(Model):
    """Assign one ``good`` from the supply of ``from_seat`` (``assign_good``)."""

    from_seat: int
    good: str


class TakeItem(Model):
    """Take ``item`` from the Item Display (``craft``, ``pick_item``)."""

    item: str


class DiscardItem(Model):
    """Discard ``item`` from the Item Display after Crafting (``craft_discard``)."""

    item: str


class PickSidePlot(Model):
    """Pay for Side Plot ``plot`` (0 or 1) of the Entry just read (``plot``)."""

    plot: int


class PickEnemy(Model):
    """The ``index``-th Enemy token at ``location`` (``target``, ``upgrade``, ``degrade``)."""

    location: str
    index: int


class PickGood(Model):
    """A good type (``area_good``, ``cost_good``)."""

    good: str


class PickEnemyCard(Model):
    """The next Enemy card, left to right, of a merged group (``enemy_order``)."""

    card: str


class UpgradeDie(Model):
    """Upgrade die ``die`` one colour (``upgrade_die``)."""

    die: int


class RerollDie(Model):
    """Reroll die ``die`` (``combat_mod``)."""

    die: int


class ActivateCritical(Model):
    """Activate the Critical face of die ``die`` (``combat_mod``)."""

    die: int


class PickPayer(Model):
    """Who pays the next unit (``pay_from``) or discards it (``group_pay``)."""

    seat: int


class CancelPayment(Model):
    """Give up the payment, and what it was for (``pay_from``)."""


class HealWound(Model):
    """Discard the ``index``-th Wound tile (``heal``)."""

    index: int


class PickTrack(Model):
    """The Experience track that advances: ``combat`` or ``journey`` (``xp``)."""

    track: str


class MoveTo(Model):
    """Move to ``area`` by a route crossing ``reds`` Red and ``blues`` Blue borders."""

    area: str
    reds: int = 0
    blues: int = 0


class Option(Model):
    """One legal answer: exactly one field is set (a ``oneof`` in the proto)."""

    proceed: Proceed | None = None
    consent: Consent | None = None
    use_item: UseItem | None = None
    use_skill: UseSkill | None = None
    refresh_skill: RefreshSkill | None = None
    swap_action_card: SwapActionCard | None = None
    collect_at: CollectAt | None = None
    discard_collect_tokens: DiscardCollectTokens | None = None
    pick_location: PickLocation | None = None
    give_good: GiveGood | None = None
    take_item: TakeItem | None = None
    discard_item: DiscardItem | None = None
    pick_side_plot: PickSidePlot | None = None
    pick_enemy: PickEnemy | None = None
    pick_good: PickGood | None = None
    pick_enemy_card: PickEnemyCard | None = None
    upgrade_die: UpgradeDie | None = None
    reroll_die: RerollDie | None = None
    activate_critical: ActivateCritical | None = None
    pick_payer: PickPayer | None = None
    cancel_payment: CancelPayment | None = None
    heal_wound: HealWound | None = None
    pick_track: PickTrack | None = None
    move_to: MoveTo | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Option:
        chosen = [
            name for name in type(self).model_fields if getattr(self, name) is not None
        ]
        if len(chosen) != 1:
            raise ValueError(f"set exactly one option, got {chosen or 'none'}")
        return self

    def chosen(self) -> tuple[str, Any]:
        """The set field's name and value."""
        for name in type(self).model_fields:
            value = getattr(self, name)
            if value is not None:
                return name, value
        raise AssertionError("validated Option has a field set")


class TakeAction(Command):
    """Flip an active Action chip and place it under the card in ``slot``."""

    chip: int
    slot: int
    option: int = 0
    """Which of the card's main actions (cards may offer two)."""


class Choose(Command):
    """Answer the open question with one of its listed ``Pending.options``."""

    option: Option


class PlaceTile(Command):
    """Place a polyomino ``shape`` (one of ``Pending.shapes``) on the open question's grid.

    The tile is mirrored left-right if ``mirrored``, then turned ``rotation``
    quarter turns clockwise (0-3), and its bounding box's top-left corner goes
    on ``(row, col)``.  Equal cells are the same placement whichever
    ``rotation``/``mirrored`` produced them; ``legal_commands`` lists each once.
    """

    shape: str
    rotation: int
    mirrored: bool = False
    row: int
    col: int


COMMAND_TYPES = (TakeAction, Choose, PlaceTile)
