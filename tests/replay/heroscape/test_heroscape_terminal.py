"""The terminal picture of a HeroScape map, against a hand-drawn one."""

from __future__ import annotations

from engine.heroscape.catalogue import load_maps
from engine.heroscape.geometry import Board, Cell
from replay.heroscape.terminal import render_map


def test_mat_draws_levels_terrain_glyphs_and_figures() -> None:
    board = Board(
        {
            (0, 0): Cell(1),
            (1, 0): Cell(3, "rock"),
            (0, 1): Cell(0, "water"),
            (1, 1): Cell(12, "road", "astrid"),
        }
    )
    picture = render_map(board, {(1, 0): "G"})
    assert picture == " 1.  3G\n   0~ 12A\n"


def test_mat_of_each_sample_map_has_one_cell_per_hex() -> None:
    for game_map in load_maps().values():
        picture = render_map(game_map.board)
        cells = picture.split()
        assert len(cells) == len(game_map.board.cells)
        assert any(c.endswith("~") for c in cells) and any(c.endswith("=") for c in cells)
