"""HeroScape's hot paths (issue 17): pathfinding and line of sight (R1) on the sample maps.

    .venv/bin/python bench/heroscape_geometry.py [--repeat 3] [--json out.json]

Per sample map, in CPU time (best of ``--repeat``): movement searches per second (``reachable``: a height-5 figure
with move 5 from every hex, no other figures: what the legal moves list), ways planned per second (``plan``: from
every hex to every hex it may reach, the way with the fewest falling dice: what a move's decide runs) and
line-of-sight checks per second (every ordered pair of hexes, height 5 both: what an attack's decide runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.heroscape.catalogue import load_maps  # noqa: E402
from engine.heroscape.geometry import Board, Mover, line_of_sight, plan, reachable  # noqa: E402


def best_of(repeat: int, work: object) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        work()  # type: ignore[operator]
        best = min(best, time.process_time() - t0)
    return best


def measure(name: str, board: Board, repeat: int) -> dict[str, object]:
    hexes = sorted(board.cells)
    mover = Mover("p1", height=5, move=5)
    ends = {h: sorted(reachable(board, h, mover, {})) for h in hexes}
    planned = sum(len(e) for e in ends.values())
    searches = best_of(repeat, lambda: [reachable(board, h, mover, {}) for h in hexes])
    ways = best_of(repeat, lambda: [plan(board, h, e, mover, {}) for h in hexes for e in ends[h]])
    sights = best_of(repeat, lambda: [line_of_sight(board, a, 5, b, 5) for a in hexes for b in hexes])
    row = {"map": name, "hexes": len(hexes), "reachable_per_s": len(hexes) / searches,
           "plans_per_s": planned / ways, "los_per_s": len(hexes) ** 2 / sights}
    print(f"{name}: {len(hexes)} hexes; reachable {row['reachable_per_s']:,.0f} searches/s; plan "
          f"{row['plans_per_s']:,.0f} ways/s ({planned:,} ways); line of sight {row['los_per_s']:,.0f} checks/s")
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    figures = [measure(name, game_map.board, args.repeat) for name, game_map in load_maps().items()]
    if args.json is not None:
        args.json.write_text(json.dumps({"maps": figures, "repeat": args.repeat}), encoding="utf-8")

if __name__ == "__main__":
    main()
