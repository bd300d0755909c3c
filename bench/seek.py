"""Seek benchmark: the state at a random (game, seq) among N stored bot games, cold and warm.

    .venv/bin/python bench/seek.py [--games 10000] [--db /tmp/warlog-seek.duckdb] [--every 32] [--queries 2000]

1. Fill (skipped when the file already holds the games): N random-bot Lords of War games (sealed; every 4th
   intermediate) are played in a process pool, encoded with their hash chain and stored through the fast path
   (``store.create_game`` with the whole decided stream, concurrent callers -> group commits), with a snapshot
   every K events (``put_snapshot``), as ``ReplayCursor`` would store them.
2. Cold: a fresh process opens the file and, for each query, builds a new ``ReplayCursor`` (empty state cache)
   and seeks: one snapshot read, one ranged event read, < K evolves.
3. Warm DB: the same queries again in that process with the state cache cleared (DuckDB's pages are hot).
4. Warm cache: the same queries again with the state cache kept (the LRU answers).
Prints p50/p99/max in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SYSTEM = "lords-of-war"


def _play(args: tuple[int, int]) -> tuple[str, list[tuple[str, int, bytes, str]], list[tuple[int, bytes]]]:
    seed, every = args
    from engine.lords_of_war import SYSTEM as LOW
    from engine.lords_of_war.bots import play_bot_game
    from replay.log.chain import encode_chain
    from replay.log.cursor import encode_snapshot

    game_id = f"bench-{seed:06d}"
    events = play_bot_game(seed, variant={"intermediate": seed % 4 == 0})
    encoded = [(e.type, e.schema_version, e.payload, e.hash) for e in encode_chain(LOW, game_id, events)]
    snapshots = []
    state = LOW.initial_state()
    for seq, event in enumerate(events, start=1):
        state = LOW.evolve(state, event)
        if seq % every == 0:
            snapshots.append((seq, encode_snapshot(LOW, state)))
    return game_id, encoded, snapshots


def fill(db: str, games: int, every: int) -> None:
    from replay.store.base import NewEvent
    from replay.store.duckdb_store import DuckDBEventStore

    store = DuckDBEventStore(db)
    try:
        have = store.list_games(limit=1).games
        if have:
            print(f"fill: {db} already holds games; reusing it")
            return
        started = time.perf_counter()
        done = 0
        events_total = 0
        with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool, ThreadPoolExecutor(max_workers=32) as writers:
            pending = []
            for game_id, encoded, snapshots in pool.map(_play, [(s, every) for s in range(games)], chunksize=16):
                news = [NewEvent(type=t, schema_version=v, payload=p, hash=h) for t, v, p, h in encoded]
                events_total += len(news)

                def write(game_id=game_id, news=news, snapshots=snapshots) -> None:
                    store.create_game(game_id, SYSTEM, ["p1", "p2"], {"bench": True}, news)
                    for seq, blob in snapshots:
                        store.put_snapshot(game_id, seq, blob)

                pending.append(writers.submit(write))
                done += 1
                if done % 1000 == 0:
                    elapsed = time.perf_counter() - started
                    print(f"fill: {done}/{games} games, {events_total} events, {elapsed:.0f} s", flush=True)
            for future in pending:
                future.result()
        print(f"fill: {games} games, {events_total} events in {time.perf_counter() - started:.1f} s", flush=True)
    finally:
        store.close()


def _percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return f"p50 {q[49] * 1000:.3f} ms  p99 {q[98] * 1000:.3f} ms  max {samples[-1] * 1000:.3f} ms  (n={len(samples)})"


def measure(db: str, queries: int, every: int, seed: int) -> None:
    from replay.log.cursor import STATE_CACHE, ReplayCursor
    from replay.log.service import GameService
    from replay.store.duckdb_store import DuckDBEventStore

    store = DuckDBEventStore(db)
    service = GameService(store)
    try:
        records = []
        cursor = None
        while True:
            page = store.list_games(system=SYSTEM, limit=1000, cursor=cursor)
            records.extend((g.game_id, g.last_seq) for g in page.games)
            cursor = page.next_cursor
            if cursor is None:
                break
        rng = random.Random(seed)
        picks = [(gid, rng.randint(0, last)) for gid, last in (rng.choice(records) for _ in range(queries))]
        evolves = []

        def run(clear: bool) -> list[float]:
            times = []
            for game_id, seq in picks:
                if clear:
                    STATE_CACHE.clear()
                t0 = time.perf_counter()
                c = ReplayCursor(service, game_id, snapshot_every=every, store_snapshots=False)
                c.seek(seq)
                times.append(time.perf_counter() - t0)
                evolves.append(c.evolves)
            return times

        print(f"games {len(records)}, events {sum(last for _, last in records)}, K={every}, queries {queries}")
        print("cold       (fresh process, snapshots in DB):", _percentiles(run(clear=True)))
        print(f"           evolves per seek: max {max(evolves)}, mean {statistics.mean(evolves):.1f}")
        print("warm DB    (same queries, state cache cleared):", _percentiles(run(clear=True)))
        run(clear=False)
        print("warm cache (same queries, LRU of states):     ", _percentiles(run(clear=False)))
    finally:
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", default="/tmp/warlog-seek.duckdb")
    parser.add_argument("--every", type=int, default=32, help="snapshot every K events")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_only:
        measure(args.db, args.queries, args.every, args.seed)
        return 0
    fill(args.db, args.games, args.every)
    # a fresh process: no state cache, no warm service, DuckDB reopened from the file
    return subprocess.call(
        [sys.executable, __file__, "--measure-only", "--db", args.db, "--queries", str(args.queries),
         "--every", str(args.every), "--seed", str(args.seed)]
    )


if __name__ == "__main__":
    sys.exit(main())
