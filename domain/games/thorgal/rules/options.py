"""Typed answers to the open question (``Pending.options`` and ``Choose.option``).

Every question the rules ask (a target, a good, consent, a route...) lists
its legal answers as :class:`Option` values, a one-of of small typed
messages, so a client in another language builds a ``Choose`` from the
``.proto`` file alone and the view shows the options in exactly the form
``Choose`` accepts.  ``Pending.kind`` says what the question is about.

The rules build options with the constructors below and resume with the
typed answer.  :func:`notation` gives each option a short text name
(``give:1:ore``, ``area:forest:red0:blue1``, ``proceed``), like SAN in chess:
for tests, logs and error messages, never on the wire.  :func:`parse_option`
reads it back.

>>> notation(Option(give_good=GiveGood(from_seat=1, good="ore")))
'give:1:ore'
>>> parse_option("enemy:keep:0") == Option(pick_enemy=PickEnemy(location="keep", index=0))
True
"""

from __future__ import annotations

from typing import Any

from domain.contract.core import Model

from ..commands import (
    ActivateCritical,
    CancelPayment,
    CollectAt,
    Consent,
    DiscardCollectTokens,
    DiscardItem,
    GiveGood,
    HealWound,
    MoveTo,
    Option,
    PickEnemy,
    PickEnemyCard,
    PickGood,
    PickLocation,
    PickPayer,
    PickSidePlot,
    PickTrack,
    Proceed,
    RefreshSkill,
    RerollDie,
    SwapActionCard,
    TakeItem,
    UpgradeDie,
    UseItem,
    UseSkill,
)

# ------------------------------------------------------------ constructors


def use_item(item: str) -> Option:
    return Option(use_item=UseItem(item=item))


def swap_action_card(card: str) -> Option:
    return Option(swap_action_card=SwapActionCard(card=card))


def collect_at(cell: int) -> Option:
    return Option(collect_at=CollectAt(cell=cell))


def discard_collect_tokens(terrain: int) -> Option:
    return Option(discard_collect_tokens=DiscardCollectTokens(terrain=terrain))


def pick_location(location: str) -> Option:
    return Option(pick_location=PickLocation(location=location))


def give_good(from_seat: int, good: str) -> Option:
    return Option(give_good=GiveGood(from_seat=from_seat, good=good))


def take_item(item: str) -> Option:
    return Option(take_item=TakeItem(item=item))


def discard_item(item: str) -> Option:
    return Option(discard_item=DiscardItem(item=item))


def pick_side_plot(plot: int) -> Option:
    return Option(pick_side_plot=PickSidePlot(plot=plot))


def pick_enemy(location: str, index: int) -> Option:
    return Option(pick_enemy=PickEnemy(location=location, index=index))


def pick_good(good: str) -> Option:
    return Option(pick_good=PickGood(good=good))


def pick_enemy_card(card: str) -> Option:
    return Option(pick_enemy_card=PickEnemyCard(card=card))


def upgrade_die(die: int) -> Option:
    return Option(upgrade_die=UpgradeDie(die=die))


def reroll_die(die: int) -> Option:
    return Option(reroll_die=RerollDie(die=die))


def activate_critical(die: int) -> Option:
    return Option(activate_critical=ActivateCritical(die=die))


def pick_payer(seat: int) -> Option:
    return Option(pick_payer=PickPayer(seat=seat))


def heal_wound(index: int) -> Option:
    return Option(heal_wound=HealWound(index=index))


def pick_track(track: str) -> Option:
    return Option(pick_track=PickTrack(track=track))


def move_to(area: str, reds: int, blues: int) -> Option:
    return Option(move_to=MoveTo(area=area, reds=reds, blues=blues))


# ------------------------------------------------------------ text names

_WORDS: dict[str, Option] = {}
_PREFIX: dict[str, tuple[str, type[Model], tuple[str, ...]]] = {
    "item": ("use_item", UseItem, ("item",)),
    "swap": ("swap_action_card", SwapActionCard, ("card",)),
    "cell": ("collect_at", CollectAt, ("cell",)),
    "terrain": ("discard_collect_tokens", DiscardCollectTokens, ("terrain",)),
    "loc": ("pick_location", PickLocation, ("location",)),
    "give": ("give_good", GiveGood, ("from_seat", "good")),
    "take": ("take_item", TakeItem, ("item",)),
    "discard": ("discard_item", DiscardItem, ("item",)),
    "plot": ("pick_side_plot", PickSidePlot, ("plot",)),
    "enemy": ("pick_enemy", PickEnemy, ("location", "index")),
    "good": ("pick_good", PickGood, ("good",)),
    "card": ("pick_enemy_card", PickEnemyCard, ("card",)),
    "die": ("upgrade_die", UpgradeDie, ("die",)),
    "reroll": ("reroll_die", RerollDie, ("die",)),
    "crit": ("activate_critical", ActivateCritical, ("die",)),
    "seat": ("pick_payer", PickPayer, ("seat",)),
    "tile": ("heal_wound", HealWound, ("index",)),
    "track": ("pick_track", PickTrack, ("track",)),
}
_FIELD_PREFIX = {field: prefix for prefix, (field, _, _) in _PREFIX.items()}


def _word(word: str, **field: Any) -> Option:
    _WORDS[word] = Option(**field)
    return _WORDS[word]


PROCEED = _word("proceed", proceed=Proceed())
AGREE = _word("agree", consent=Consent(agree=True))
REFUSE = _word("refuse", consent=Consent(agree=False))
SKILL = _word("skill", use_skill=UseSkill())
REFRESH = _word("refresh", refresh_skill=RefreshSkill())
CANCEL = _word("cancel", cancel_payment=CancelPayment())


def notation(option: Option) -> str:
    """The short text name of ``option`` (inverse of :func:`parse_option`)."""
    for word, known in _WORDS.items():
        if known == option:
            return word
    field, value = option.chosen()
    if field == "move_to":
        return f"area:{value.area}:red{value.reds}:blue{value.blues}"
    _, _, names = _PREFIX[_FIELD_PREFIX[field]]
    return ":".join((_FIELD_PREFIX[field], *(str(getattr(value, n)) for n in names)))


def parse_option(text: str) -> Option:
    """Read an option's text name.

    >>> parse_option("area:ruins:red0:blue1").move_to
    MoveTo(area='ruins', reds=0, blues=1)

    :raises ValueError: if ``text`` names no option.
    """
    if text in _WORDS:
        return _WORDS[text]
    prefix, _, rest = text.partition(":")
    if prefix == "area":
        area, _, route = rest.partition(":")
        reds, blues = 0, 0
        if route:
            r, b = route.split(":")
            reds, blues = int(r.removeprefix("red")), int(b.removeprefix("blue"))
        return Option(move_to=MoveTo(area=area, reds=reds, blues=blues))
    if prefix not in _PREFIX or not rest:
        raise ValueError(f"no option is called {text!r}")
    field, cls, names = _PREFIX[prefix]
    parts = rest.split(":", len(names) - 1)
    if len(parts) != len(names):
        raise ValueError(f"no option is called {text!r}")
    values = {
        n: int(p) if cls.model_fields[n].annotation in (int, "int") else p
        for n, p in zip(names, parts)
    }
    chosen: dict[str, Any] = {field: cls(**values)}
    return Option(**chosen)
