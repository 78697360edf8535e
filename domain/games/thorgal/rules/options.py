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

from collections.abc import Callable
from typing import Any, get_args

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

# ------------------------------------------------------------ the table

_OPTION_FIELD: dict[type[Model], str] = {
    get_args(info.annotation)[0]: name for name, info in Option.model_fields.items()
}
"""Each answer message -> the :class:`Option` field that carries it."""

_PREFIX: dict[str, type[Model]] = {
    "item": UseItem,
    "swap": SwapActionCard,
    "cell": CollectAt,
    "terrain": DiscardCollectTokens,
    "loc": PickLocation,
    "give": GiveGood,
    "take": TakeItem,
    "discard": DiscardItem,
    "plot": PickSidePlot,
    "enemy": PickEnemy,
    "good": PickGood,
    "card": PickEnemyCard,
    "die": UpgradeDie,
    "reroll": RerollDie,
    "crit": ActivateCritical,
    "seat": PickPayer,
    "tile": HealWound,
    "track": PickTrack,
}
"""The text name's prefix of each answer that carries values; the values
follow it in the message's field order (``give:1:ore``)."""
_PREFIX_OF = {message: prefix for prefix, message in _PREFIX.items()}


def _option(answer: Model) -> Option:
    """The :class:`Option` that carries ``answer``."""
    field: dict[str, Any] = {_OPTION_FIELD[type(answer)]: answer}
    return Option(**field)


def _constructor(message: type[Model]) -> Callable[..., Option]:
    """``message``'s option from its field values, in the message's field order."""

    def build(*values: Any) -> Option:
        return _option(message(**dict(zip(message.model_fields, values, strict=True))))

    return build


# ------------------------------------------------------------ constructors

use_item: Callable[[str], Option] = _constructor(UseItem)
swap_action_card: Callable[[str], Option] = _constructor(SwapActionCard)
collect_at: Callable[[int], Option] = _constructor(CollectAt)
discard_collect_tokens: Callable[[int], Option] = _constructor(DiscardCollectTokens)
pick_location: Callable[[str], Option] = _constructor(PickLocation)
give_good: Callable[[int, str], Option] = _constructor(GiveGood)
take_item: Callable[[str], Option] = _constructor(TakeItem)
discard_item: Callable[[str], Option] = _constructor(DiscardItem)
pick_side_plot: Callable[[int], Option] = _constructor(PickSidePlot)
pick_enemy: Callable[[str, int], Option] = _constructor(PickEnemy)
pick_good: Callable[[str], Option] = _constructor(PickGood)
pick_enemy_card: Callable[[str], Option] = _constructor(PickEnemyCard)
upgrade_die: Callable[[int], Option] = _constructor(UpgradeDie)
reroll_die: Callable[[int], Option] = _constructor(RerollDie)
activate_critical: Callable[[int], Option] = _constructor(ActivateCritical)
pick_payer: Callable[[int], Option] = _constructor(PickPayer)
heal_wound: Callable[[int], Option] = _constructor(HealWound)
pick_track: Callable[[str], Option] = _constructor(PickTrack)
move_to: Callable[[str, int, int], Option] = _constructor(MoveTo)

# ------------------------------------------------------------ text names

_WORDS: dict[str, Option] = {}


def _word(word: str, answer: Model) -> Option:
    _WORDS[word] = _option(answer)
    return _WORDS[word]


PROCEED = _word("proceed", Proceed())
AGREE = _word("agree", Consent(agree=True))
REFUSE = _word("refuse", Consent(agree=False))
SKILL = _word("skill", UseSkill())
REFRESH = _word("refresh", RefreshSkill())
CANCEL = _word("cancel", CancelPayment())


def notation(option: Option) -> str:
    """The short text name of ``option`` (inverse of :func:`parse_option`)."""
    for word, known in _WORDS.items():
        if known == option:
            return word
    field, value = option.chosen()
    if field == "move_to":
        return f"area:{value.area}:red{value.reds}:blue{value.blues}"
    names = type(value).model_fields
    return ":".join((_PREFIX_OF[type(value)], *(str(getattr(value, n)) for n in names)))


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
        return move_to(area, reds, blues)
    if prefix not in _PREFIX or not rest:
        raise ValueError(f"no option is called {text!r}")
    message = _PREFIX[prefix]
    fields = message.model_fields
    parts = rest.split(":", len(fields) - 1)
    if len(parts) != len(fields):
        raise ValueError(f"no option is called {text!r}")
    return _constructor(message)(
        *(
            int(part) if info.annotation in (int, "int") else part
            for part, info in zip(parts, fields.values())
        )
    )
