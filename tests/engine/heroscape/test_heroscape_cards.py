"""The sample army cards (engine/heroscape/data/armies.json) and the card checks (§1)."""

from __future__ import annotations

import pytest

from engine.errors import SetupError
from engine.heroscape.catalogue import load_cards, parse_card


def test_sample_cards_heroes_squads_and_a_double_space_figure() -> None:
    cards, armies = load_cards()
    assert cards["grimnak"].attack == 4 and cards["grimnak"].space == 2 and "chomp" in cards["grimnak"].powers
    assert all(c.life == 1 for c in cards.values() if c.kind == "squad")
    assert {c.kind for c in cards.values()} == {"hero", "squad"}
    assert len(armies) >= 2 and all(armies.values())


GOOD = {
    "kind": "hero",
    "figures": 1,
    "life": 4,
    "move": 5,
    "range": 1,
    "attack": 3,
    "defense": 3,
    "height": 5,
    "points": 80,
}


@pytest.mark.parametrize(
    "change",
    [{"kind": "dragon"}, {"life": 0}, {"move": "5"}, {"kind": "squad", "life": 2}, {"space": 3}, {"powers": "x"}],
)
def test_bad_cards_are_refused_citing_section_1(change: dict[str, object]) -> None:
    parse_card("ok", GOOD)
    with pytest.raises(SetupError) as refused:
        parse_card("bad", GOOD | change)
    assert refused.value.rule == "§1" and refused.value.code == "bad_card"
