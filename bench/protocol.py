"""The cost of going through the GameSystem protocol instead of a system's own functions, one core.

    .venv/bin/python bench/protocol.py [--games N] [--repeat R]

Lords of War: bot games played by ``engine.play.play`` (the protocol: ``to_act``, ``Bot.choose``,
``decide``, ``evolve``, ``outcome`` per action) and, for Lords of War, by its own ``play_bot_game`` (the same games,
event for event); then the recorded games re-decided through ``SYSTEM.redecide`` (the protocol's ``Redecided``
tuples) and through ``engine.lords_of_war.history.redecide``. CPU time of this process (time.process_time), best of
``--repeat``. The protocol should cost a few per cent at most.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.lords_of_war import SYSTEM, play_bot_game  # noqa: E402
from engine.lords_of_war.history import redecide  # noqa: E402
from engine.play import play  # noqa: E402

BOTS = (("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))


def best_of(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        result = work()
        times.append(time.process_time() - t0)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    setups = [SYSTEM.sample_setup(i, 1000 + i) for i in range(args.games)]
    lineups = [BOTS[i % len(BOTS)] for i in range(args.games)]

    def by_protocol() -> list[list[Any]]:
        return [play(SYSTEM, s, b).events for s, b in zip(setups, lineups, strict=True)]

    def by_own_loop() -> list[list[Any]]:
        return [play_bot_game(s["seed"], [p["army"] for p in s["players"]], s["variant"], b)
                for s, b in zip(setups, lineups, strict=True)]

    protocol_time, games = best_of(args.repeat, by_protocol)
    own_time, own_games = best_of(args.repeat, by_own_loop)
    # the same games but for the players' names in game_started (play_bot_game names them "bot 1", "bot 2")
    assert [g[1:] for g in games] == [g[1:] for g in own_games], "the protocol's games differ from play_bot_game's"
    actions = sum(len(SYSTEM.recorded_actions(g)) for g in games)
    print(f"lords-of-war: {args.games} bot games, {actions} actions")
    print(f"play (protocol):   {protocol_time:.3f} s   {actions / protocol_time:>10,.0f} actions/s")
    print(f"play_bot_game:     {own_time:.3f} s   {actions / own_time:>10,.0f} actions/s   "
          f"protocol/own = {protocol_time / own_time:.3f}")

    redecide_protocol, _ = best_of(args.repeat, lambda: [list(SYSTEM.redecide(g)) for g in games])
    redecide_own, _ = best_of(args.repeat, lambda: [list(redecide(g)) for g in games])
    print(f"SYSTEM.redecide:   {redecide_protocol / actions * 1e6:.2f} µs/action")
    print(f"verify.redecide:   {redecide_own / actions * 1e6:.2f} µs/action   "
          f"protocol/own = {redecide_protocol / redecide_own:.3f}")


if __name__ == "__main__":
    main()
