"""HeroScape combat arithmetic: dice faces (§1), height bonus (§5), master and basic wounds (§5), §4 strikes."""

from __future__ import annotations

import pytest

from engine.heroscape.combat import attack_dice, defense_dice, face, leaving_engagement_wounds, resolve


def test_dice_faces_three_skulls_two_shields_one_blank() -> None:
    faces = [face(v) for v in range(1, 7)]
    assert faces.count("skull") == 3 and faces.count("shield") == 2 and faces.count("blank") == 1
    with pytest.raises(ValueError):
        face(7)


def test_height_bonus_on_attack_and_defense() -> None:
    # Grimnak attacks from 2 levels higher: 4 + 1 dice
    assert attack_dice(4, 3, 1) == 5
    assert attack_dice(4, 13, 1) == 6
    assert attack_dice(4, 3, 1, special=True) == 4
    assert defense_dice(3, 1, 3) == 3 and defense_dice(3, 3, 1) == 4


def test_master_game_wounds_are_skulls_minus_shields() -> None:
    # 3 skulls against 1 shield: 2 wounds; a life-3 figure already wounded once is destroyed
    out = resolve((1, 2, 3, 4, 6), (4, 6, 6), life=3, wounds_before=1)
    assert (out.skulls, out.shields, out.wounds, out.destroyed) == (3, 1, 2, True)
    safe = resolve((1, 5), (4, 5), life=1, wounds_before=0)
    assert safe.wounds == 0 and not safe.destroyed


def test_basic_game_more_skulls_than_shields_destroys() -> None:
    assert resolve((1, 2), (4,), life=5, wounds_before=0, basic=True).destroyed
    assert not resolve((1, 4), (4,), life=5, wounds_before=0, basic=True).destroyed


def test_leaving_engagement_each_skull_is_a_wound() -> None:
    assert leaving_engagement_wounds((1, 4, 3)) == 2
    assert leaving_engagement_wounds(()) == 0
