"""Event-store throughput on a DuckDB file in a temporary directory.

    .venv/bin/python bench/store.py [--seconds N]

Prints appends/s for single-event appends made one after another, and from 16 threads over 16 games (where
group commit shares one transaction among the waiting appends), and events/s for one 10,000-event batch.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import msgspec

from replay.store.base import NewEvent
from replay.store.duckdb_store import DuckDBEventStore


def placed(n: int) -> NewEvent:
    return NewEvent("placed", 1, msgspec.json.encode({"type": "placed", "player": "p1", "card": "orcs/orc-ravager-2",
                                                      "square": "C3", "n": n}))


def sequential(store: DuckDBEventStore, seconds: float) -> float:
    store.create_game("seq", "lords-of-war", ["p1", "p2"], {}, [])
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        store.append("seq", [placed(done)], expected_seq=done)
        done += 1
    return done / (time.perf_counter() - start)


def threaded(store: DuckDBEventStore, seconds: float, threads: int = 16) -> float:
    for n in range(threads):
        store.create_game(f"t{n}", "lords-of-war", ["p1", "p2"], {}, [])
    counts = [0] * threads
    stop = threading.Event()

    def play(n: int) -> None:
        while not stop.is_set():
            store.append(f"t{n}", [placed(counts[n])], expected_seq=counts[n])
            counts[n] += 1

    workers = [threading.Thread(target=play, args=(n,)) for n in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join()
    return sum(counts) / (time.perf_counter() - start)


def one_batch(store: DuckDBEventStore, size: int = 10_000) -> float:
    store.create_game("big", "lords-of-war", ["p1", "p2"], {}, [])
    events = [placed(n) for n in range(size)]
    start = time.perf_counter()
    store.append("big", events, expected_seq=0)
    elapsed = time.perf_counter() - start
    assert len(store.read("big")) == size
    return size / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = DuckDBEventStore(Path(tmp) / "bench.duckdb")
        try:
            print(f"sequential single-event appends: {sequential(store, args.seconds):9,.0f} appends/s")
            print(f"16 threads x 16 games, 1 event:  {threaded(store, args.seconds):9,.0f} appends/s")
            print(f"one 10,000-event batch:          {one_batch(store):9,.0f} events/s")
        finally:
            store.close()


if __name__ == "__main__":
    main()
