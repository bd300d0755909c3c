"""HeroScape powers (§7) and the table-mode sight ruling (R1)."""

from __future__ import annotations

import pytest

from engine.heroscape.geometry import Board, Cell, line_of_sight
from engine.heroscape.powers import SightRuling, berserker_charge


def test_berserker_charge_repeats_on_15_or_more() -> None:
    dice = iter([15, 20, 14, 19])
    assert berserker_charge(lambda: next(dice)) == (2, (15, 20, 14))
    assert berserker_charge(lambda: 3) == (0, (3,))
    with pytest.raises(ValueError):
        berserker_charge(lambda: 0)


def test_R1_table_mode_referee_decides_engine_answer_kept() -> None:
    board = Board({(q, 0): Cell(9 if q == 1 else 1) for q in range(3)})
    engine = line_of_sight(board, (0, 0), 4, (2, 0), 4)
    assert engine is False
    sealed = SightRuling(engine)
    assert not sealed.clear and not sealed.disputed
    table = SightRuling(engine, referee=True)
    assert table.clear and table.disputed and table.engine is False
