"""HeroScape's hot paths (issue 17): pathfinding (``reachable``) and line of sight (R1) on the sample maps.

    .venv/bin/python bench/heroscape_geometry.py [--repeat 3]

Prints, per sample map, movement searches per second (a height-5 figure with move 5 from every hex, no other
figures) and line-of-sight checks per second (every ordered pair of hexes, height 5 both). Best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.heroscape.geometry import Mover, line_of_sight, reachable  # noqa: E402
from engine.heroscape.maps import load_maps  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, game_map in load_maps().items():
        board = game_map.board
        hexes = sorted(board.cells)
        mover = Mover("p1", height=5, move=5)
        best_move = best_los = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            for h in hexes:
                reachable(board, h, mover, {})
            best_move = min(best_move, time.perf_counter() - t0)
            t0 = time.perf_counter()
            for a in hexes:
                for b in hexes:
                    line_of_sight(board, a, 5, b, 5)
            best_los = min(best_los, time.perf_counter() - t0)
        pairs = len(hexes) ** 2
        print(
            f"{name}: {len(hexes)} hexes; reachable {len(hexes) / best_move:,.0f} searches/s; "
            f"line of sight {pairs / best_los:,.0f} checks/s"
        )


if __name__ == "__main__":
    main()
