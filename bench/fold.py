"""Fold and decide: refold stored bot games against msgspec-decoding the same events and nothing else.

    .venv/bin/python bench/fold.py [--games 10000] [--distinct 2000] [--repeat 3] [--json out.json]

1. Store ``--games`` bot games in a DuckDB file (``create_games_bulk``, encoded and hash-chained as
   ``GameService`` stores them; the corpus of ``--distinct`` games is cycled, see bench/common.py).
2. Read every stored row back once (one query; reading is in neither figure).
3. Per repeat, interleaved, in CPU time of this process (``time.process_time``: other load on the shared
   machine does not count): decode-only = the bare msgspec decoder of the event union on every payload (what
   ``GameService.decode`` runs for rows at the current version) and nothing else; fold = the same decode plus
   ``fold`` of each game's decoded events from ``initial_state`` (what ``GameService`` runs to read a game);
   evolve = the same decode plus a loop of ``evolve``, one event at a time (the replay cursor's step).
   Target (issue 7): fold >= 30% of the decode-only rate.
4. Decide: ``decide`` re-run on every recorded action of the distinct games against the state before it
   (``bench/engine.py``'s ``actions_with_states``), bot thinking not timed. Target: >= 20,000 actions/s.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from itertools import groupby
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from bench.common import corpus, game_id, games_for, median  # noqa: E402
from bench.engine import actions_with_states  # noqa: E402
from engine.lords_of_war import decide, evolve, fold, initial_state  # noqa: E402
from engine.systems import get_system  # noqa: E402
from events.lords_of_war import CODEC  # noqa: E402
from replay.log.chain import encode_chain  # noqa: E402
from replay.store.duckdb_store import BulkGame, DuckDBEventStore  # noqa: E402


def store_games(store: DuckDBEventStore, count: int, distinct: list, batch: int = 1000) -> int:
    """``count`` games into ``store`` as GameService would have encoded them (no validation: a fixture)."""
    system = get_system("lords-of-war")
    pending, events = [], 0
    for i, game in games_for(count, distinct):
        gid = game_id(i)
        encoded = encode_chain(system, gid, game.events())
        pending.append(BulkGame(gid, system.name, ["p1", "p2"], {}, None, [e.type for e in encoded],
                                [e.schema_version for e in encoded], [e.payload.decode() for e in encoded],
                                [e.hash for e in encoded]))
        if len(pending) == batch:
            events += store.create_games_bulk(pending)
            pending = []
    if pending:
        events += store.create_games_bulk(pending)
    return events


def stored_rows(store: DuckDBEventStore) -> list[list[tuple[str, int, str]]]:
    """Every game's (type, schema_version, payload) rows in seq order, read once."""
    reader = store.reader()
    try:
        rows = reader.execute(
            "SELECT game_id, type, schema_version, payload FROM events ORDER BY game_id, seq"
        ).fetchall()
    finally:
        reader.close()
    return [[(t, v, p) for _, t, v, p in group] for _, group in groupby(rows, key=lambda r: r[0])]


# The bare msgspec decoder of the event union: "msgspec-decoding the same events and nothing else". Every stored
# row here is at its type's current version, where GameService's decode_stored takes exactly this decoder.
DECODE = msgspec.json.Decoder(CODEC.union).decode


def decode_only(games: list) -> float:
    decode = DECODE
    started = time.process_time()
    for rows in games:
        for _, _, payload in rows:
            decode(payload)
    return time.process_time() - started


def refold(games: list) -> float:
    decode = DECODE
    started = time.process_time()
    for rows in games:
        fold([decode(payload) for _, _, payload in rows])
    return time.process_time() - started


def evolve_loop(games: list) -> float:
    decode = DECODE
    started = time.process_time()
    for rows in games:
        state = initial_state()
        for _, _, payload in rows:
            state = evolve(state, decode(payload))
    return time.process_time() - started


def decide_rate(distinct: list, repeat: int) -> tuple[list[float], int]:
    pairs = [pair for game in distinct for pair in actions_with_states(game.events())]
    rates = []
    for _ in range(repeat):
        started = time.process_time()
        for state, action in pairs:
            decide(state, action)
        rates.append(len(pairs) / (time.process_time() - started))
    return rates, len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()

    distinct = corpus(args.distinct)
    with tempfile.TemporaryDirectory() as tmp:
        store = DuckDBEventStore(Path(tmp) / "fold.duckdb")
        try:
            n_events = store_games(store, args.games, distinct)
            games = stored_rows(store)
        finally:
            store.close()
    assert len(games) == args.games and sum(map(len, games)) == n_events
    print(f"stored {args.games:,} games ({len(distinct):,} distinct), {n_events:,} events")

    decode_rates, fold_rates, ratios, evolve_rates = [], [], [], []
    for _ in range(args.repeat):
        d = decode_only(games)
        f = refold(games)
        e = evolve_loop(games)
        decode_rates.append(n_events / d)
        fold_rates.append(n_events / f)
        ratios.append(d / f)
        evolve_rates.append(n_events / e)
        print(f"  decode-only {n_events / d:12,.0f} events/s   fold {n_events / f:12,.0f} events/s   ratio {d / f:.1%}"
              f"   (evolve loop {n_events / e:10,.0f} events/s, {(e - d) / n_events * 1e6:.2f} µs/event over decoding;"
              f" fold {(f - d) / n_events * 1e6:.2f})")
    decide_rates, n_actions = decide_rate(distinct, args.repeat)
    print(f"decide: {median(decide_rates):,.0f} actions/s over {n_actions:,} actions")
    result = {
        "games": args.games, "distinct": len(distinct), "events": n_events, "repeat": args.repeat,
        "decode_rates": decode_rates, "fold_rates": fold_rates, "fold_ratios": ratios, "evolve_rates": evolve_rates,
        "decide_rates": decide_rates, "actions": n_actions,
    }
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
