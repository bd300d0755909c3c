"""Fold and decide rates of every registered game system, through the ``GameSystem`` protocol alone.

    .venv/bin/python bench/systems.py [--system NAME ...] [--games 300] [--repeat 3] [--json out.json]

Per system (SYSTEMS.md §7):
1. Play ``--games`` bot games of its sample setups (``sample_setup(i, seed)``, the bots taken in turn, as the
   conformance suite plays them) and encode every event as the store does (``codec.encode_json``).
2. Per repeat, interleaved, in CPU time of this process (``time.process_time``; other load does not count):
   decode-only = the bare msgspec JSON decoder of the system's event union on every payload and nothing else;
   fold = the same decode plus ``fold`` of each game's events (what reading a game runs); evolve = the same decode
   plus ``evolve`` one event at a time (the replay cursor's step). Target: fold >= 30% of the decode-only rate.
3. Decide: ``decide`` re-run on every recorded action against the state before it (the states are built first
   and not timed; bot thinking is in no figure). Target: >= 20,000 actions/s.

Lords of War's own bench/fold.py measures the same two figures over a stored DuckDB corpus of 10,000 games;
this script is the one every system shares, so its figures compare systems with each other.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from bench.common import median  # noqa: E402
from engine.play import play  # noqa: E402
from engine.systems import get_system, system_names  # noqa: E402

SEED = 20261124


def bot_games(system: Any, count: int) -> list[list[Any]]:
    """``count`` bot games of the system's sample setups, the bots taken in turn (deterministic)."""
    names = sorted(system.bots)
    games = []
    for i in range(count):
        setup = system.sample_setup(i, SEED + i)
        bots = (names[i % len(names)], names[(i + 1) % len(names)])
        games.append(play(system, setup, bots, max_actions=3000).events)
    return games


def decide_pairs(system: Any, games: list[list[Any]]) -> list[tuple[Any, Any]]:
    """(state before, action) for every recorded action of every game."""
    pairs = []
    for events in games:
        state = system.initial_state()
        at = 0
        for recorded in system.recorded_actions(events):
            for event in events[at:recorded.start]:
                state = system.evolve(state, event)
            at = recorded.start
            pairs.append((state, recorded.action))
    return pairs


def measure(name: str, count: int, repeat: int) -> dict[str, Any]:
    system = get_system(name)
    started = time.perf_counter()
    games = bot_games(system, count)
    played_s = time.perf_counter() - started
    encode = system.codec.encode_json
    payloads = [[encode(event) for event in events] for events in games]
    decode = msgspec.json.Decoder(system.codec.union).decode
    n_events = sum(map(len, payloads))
    fold, evolve, initial_state = system.fold, system.evolve, system.initial_state
    for events, encoded in zip(games, payloads, strict=True):  # the decoder gives back what was played
        assert [decode(p) for p in encoded] == events, f"{name}: an event does not survive JSON"

    decode_rates, fold_rates, evolve_rates, ratios = [], [], [], []
    for _ in range(repeat):
        t = time.process_time()
        for encoded in payloads:
            for payload in encoded:
                decode(payload)
        d = time.process_time() - t
        t = time.process_time()
        for encoded in payloads:
            fold([decode(payload) for payload in encoded])
        f = time.process_time() - t
        t = time.process_time()
        for encoded in payloads:
            state = initial_state()
            for payload in encoded:
                state = evolve(state, decode(payload))
        e = time.process_time() - t
        decode_rates.append(n_events / d)
        fold_rates.append(n_events / f)
        evolve_rates.append(n_events / e)
        ratios.append(d / f)

    pairs = decide_pairs(system, games)
    decide = system.decide
    decide_rates = []
    for _ in range(repeat):
        t = time.process_time()
        for state, action in pairs:
            decide(state, action)
        decide_rates.append(len(pairs) / (time.process_time() - t))
    return {
        "system": name, "games": count, "events": n_events, "actions": len(pairs), "repeat": repeat,
        "played_s": played_s, "decode_rates": decode_rates, "fold_rates": fold_rates,
        "evolve_rates": evolve_rates, "fold_ratios": ratios, "decide_rates": decide_rates,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--system", action="append", help="a system to measure (default: every registered one)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    results = []
    for name in args.system or system_names():
        r = measure(name, args.games, args.repeat)
        results.append(r)
        ratio, decide = median(r["fold_ratios"]), median(r["decide_rates"])
        print(f"{name}: {r['games']:,} bot games ({r['played_s']:.1f} s to play), {r['events']:,} events, "
              f"{r['actions']:,} actions")
        print(f"  decode-only {median(r['decode_rates']):12,.0f} events/s   fold {median(r['fold_rates']):12,.0f}"
              f" events/s   ratio {ratio:.1%} (target >= 30%)   evolve loop {median(r['evolve_rates']):,.0f} events/s")
        print(f"  decide {decide:,.0f} actions/s (target >= 20,000)")
    if args.json:
        args.json.write_text(json.dumps({"systems": results}, indent=1))


if __name__ == "__main__":
    main()
