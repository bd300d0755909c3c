"""Lords of War engine benchmark: fold events/s and decide actions/s over bot games, one core.

    .venv/bin/python bench/engine.py [--games N]

Times are CPU time of this process (time.process_time), so other load on the machine does not count.
Plays N bot games (random and greedy bots, all faction pairings in turn, plain and intermediate/unbounded
variants), then times (1) ``fold`` over every game's events, (2) ``decide`` re-run on every recorded action
against the state before it (the actions are recovered from the events, so bot thinking is not timed) and
(3) ``verify.redecide`` over every game (recovering the actions, re-deciding each, moving the state on by the
recorded events: what ``warlog verify`` and the bulk import's re-decide do), per action.
Targets (issue 3): fold >= 200,000 events/s, decide >= 20,000 actions/s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.lords_of_war import FACTIONS, decide, evolve, fold, initial_state  # noqa: E402
from engine.lords_of_war.bots import play_bot_game  # noqa: E402
from engine.lords_of_war.history import recorded_actions, redecide  # noqa: E402


def games(n: int) -> list[list]:
    out = []
    variants = [{}, {"intermediate": True}, {"unbounded": True}, {"intermediate": True, "unbounded": True}]
    bot_pairs = [("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy")]
    for i in range(n):
        armies = (FACTIONS[i % 6], FACTIONS[(i // 6) % 6])
        out.append(play_bot_game(1000 + i, armies, variants[i % 4], bot_pairs[(i // 4) % 4]))
    return out


def actions_with_states(events: list) -> list[tuple]:
    """(state before, action) for every action of a recorded game, recovered from its events."""
    pairs = []
    state = initial_state()
    actions = recorded_actions(events)
    for event in events[: actions[0][0]]:
        state = evolve(state, event)
    for start, end, action in actions:
        pairs.append((state, action))
        for event in events[start:end]:
            state = evolve(state, event)
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    t0 = time.process_time()
    recorded = games(args.games)
    played = time.process_time() - t0
    n_events = sum(len(g) for g in recorded)
    print(f"played {args.games} bot games ({n_events} events) in {played:.2f} s")

    best = float("inf")
    for _ in range(args.repeat):
        t = time.process_time()
        for g in recorded:
            fold(g)
        best = min(best, time.process_time() - t)
    print(f"fold:   {n_events / best:>12,.0f} events/s  ({n_events} events in {best:.3f} s)")

    pairs = [pair for g in recorded for pair in actions_with_states(g)]
    best = float("inf")
    for _ in range(args.repeat):
        t = time.process_time()
        for state, action in pairs:
            decide(state, action)
        best = min(best, time.process_time() - t)
    print(f"decide: {len(pairs) / best:>12,.0f} actions/s ({len(pairs)} actions in {best:.3f} s)")

    best = float("inf")
    for _ in range(args.repeat):
        t = time.process_time()
        for g in recorded:
            for _ in redecide(g):
                pass
        best = min(best, time.process_time() - t)
    print(f"redecide: {best / len(pairs) * 1e6:>10.2f} µs/action ({len(pairs)} actions in {best:.3f} s)")


if __name__ == "__main__":
    main()
