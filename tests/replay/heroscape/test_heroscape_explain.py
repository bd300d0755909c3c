"""HeroScape attack sentences (issue 17's example)."""

from __future__ import annotations

from engine.heroscape.combat import resolve
from replay.heroscape.explain import explain_attack


def test_explain_the_issue_example() -> None:
    outcome = resolve((1, 2, 3, 4, 6), (4, 6, 6), life=3, wounds_before=1)
    assert (
        explain_attack("Grimnak", 4, 3, 1, outcome)
        == "Grimnak attacks from 2 levels higher: 4+1 dice, 3 skulls against 1 shield: 2 wounds, destroyed"
    )


def test_explain_level_ground_and_no_wound() -> None:
    outcome = resolve((4, 5, 6), (6,), life=4, wounds_before=0)
    assert explain_attack("Raelin", 3, 1, 1, outcome) == "Raelin attacks: 3 dice, 0 skulls against 0 shields: no wound"
    lower = resolve((1,), (), life=1, wounds_before=0)
    assert (
        explain_attack("Carr", 1, 1, 2, lower)
        == "Carr attacks from 1 level lower: 1 die, 1 skull against 0 shields: 1 wound, destroyed"
    )
