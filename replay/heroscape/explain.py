"""HeroScape explanations in sentences (issue 17, in progress): the attack sentence from its parts.

"Grimnak attacks from 2 levels higher: 4+1 dice, 3 skulls against 1 shield: 2 wounds, destroyed".
"""

from __future__ import annotations

from engine.heroscape.combat import Outcome
from engine.heroscape.geometry import height_bonus


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def explain_attack(attacker: str, attack: int, attacker_level: int, defender_level: int, outcome: Outcome) -> str:
    """The sentence for one attack: where it came from, its dice, the faces and the result (§5)."""
    diff = attacker_level - defender_level
    where = (
        f" from {_plural(diff, 'level')} higher"
        if diff > 0
        else f" from {_plural(-diff, 'level')} lower"
        if diff < 0
        else ""
    )
    bonus = height_bonus(attacker_level, defender_level)
    dice = f"{attack}+{bonus} dice" if bonus else f"{_plural(attack, 'die')}".replace("dies", "dice")
    result = _plural(outcome.wounds, "wound") if outcome.wounds else "no wound"
    if outcome.destroyed:
        result += ", destroyed"
    return (
        f"{attacker} attacks{where}: {dice}, {_plural(outcome.skulls, 'skull')} against "
        f"{_plural(outcome.shields, 'shield')}: {result}"
    )
