"""HeroScape combat arithmetic (digest §1 dice, §4 leaving engagement, §5 attacks). Pure; the dice are events.

A combat die shows a face 1-6 (from ``engine.prng`` in sealed mode, entered at the table): faces 1-3 are skulls,
4-5 shields, 6 blank (§1: 3 skulls, 2 shields, 1 blank).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.heroscape.geometry import height_bonus

SKULL, SHIELD, BLANK = "skull", "shield", "blank"


def face(value: int) -> str:
    """What a combat die rolled as ``value`` (1-6) shows."""
    if not 1 <= value <= 6:
        raise ValueError(f"a combat die shows 1-6, not {value}")
    return SKULL if value <= 3 else SHIELD if value <= 5 else BLANK


def attack_dice(attack: int, attacker_level: int, defender_level: int, *, special: bool = False) -> int:
    """Attack dice (§5): the card's attack, +1/+2 for standing higher; special attacks get no height bonus."""
    return attack + (0 if special else height_bonus(attacker_level, defender_level))


def defense_dice(defense: int, defender_level: int, attacker_level: int) -> int:
    """Defense dice (§5): the card's defense, +1/+2 when the defender stands higher."""
    return defense + height_bonus(defender_level, attacker_level)


@dataclass(frozen=True, slots=True)
class Outcome:
    skulls: int
    shields: int
    wounds: int
    destroyed: bool


def resolve(
    attack_faces: tuple[int, ...], defense_faces: tuple[int, ...], life: int, wounds_before: int, *, basic: bool = False
) -> Outcome:
    """An attack's result (§5). Master game: wounds = skulls - shields when positive, destroyed at wounds ≥ life.
    Basic game (variant): more skulls than shields destroys the figure outright.
    """
    skulls = sum(face(v) == SKULL for v in attack_faces)
    shields = sum(face(v) == SHIELD for v in defense_faces)
    if basic:
        hit = skulls > shields
        return Outcome(skulls, shields, (life - wounds_before) if hit else 0, hit)
    wounds = max(0, skulls - shields)
    return Outcome(skulls, shields, wounds, wounds_before + wounds >= life)


def leaving_engagement_wounds(strike_faces: tuple[int, ...]) -> int:
    """Leaving engagement (§4): each engaged enemy rolls one die; each skull is a wound, no defense roll."""
    return sum(face(v) == SKULL for v in strike_faces)
