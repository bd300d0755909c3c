"""HeroScape glyphs (§6, R2) and initiative (§2)."""

from __future__ import annotations

import pytest

from engine.heroscape.catalogue import load_maps
from engine.heroscape.geometry import Mover, reachable
from engine.heroscape.glyphs import HEALING, bonuses, initiative


def test_R2_permanent_glyphs_add_while_held() -> None:
    b = bonuses(["astrid", "gerda", "valda"])
    assert (b.attack, b.defense, b.move, b.initiative) == (1, 1, 2, 0)
    assert bonuses([]).attack == 0
    ivor = bonuses(["ivor"])
    assert ivor.range_for(4) == 8 and ivor.range_for(3) == 3
    assert bonuses(["dagmar"]).initiative == 8


def test_healing_glyph_is_refused_to_a_life_one_figure_on_the_sample_map() -> None:
    board = load_maps()["twin-hill"].board
    squad = reachable(board, (-2, 3), Mover("a", 5, 3, life=1), {}, HEALING)
    hero = reachable(board, (-2, 3), Mover("a", 5, 3, life=4), {}, HEALING)
    assert (-3, 3) not in squad and (-3, 3) in hero


def test_initiative_highest_first_ties_reroll_then_seating_order() -> None:
    dice = iter([12, 17, 17, 9, 4])  # p1 12, p2 17, p3 17; p2 and p3 re-roll 9 and 4
    order, rolls = initiative(["p1", "p2", "p3"], lambda seat: next(dice))
    assert order == ("p2", "p3", "p1")
    assert rolls == (("p1", 12), ("p2", 17), ("p3", 17), ("p2", 9), ("p3", 4))


def test_initiative_dagmar_bonus_and_bad_die() -> None:
    dice = iter([15, 10])
    order, _ = initiative(["p1", "p2"], lambda seat: next(dice), {"p2": 8})
    assert order == ("p2", "p1")
    with pytest.raises(ValueError):
        initiative(["p1"], lambda seat: 21)
