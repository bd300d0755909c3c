"""Bulk import: a JSONL file of whole games, validated, into DuckDB; against DuckDB's own Arrow insert of the same
rows and against the ``eventsourcing`` library (SQLite) storing the same events.

    .venv/bin/python bench/bulk.py [--games 100000] [--distinct 2000] [--es-games 2000] [--repeat 3] [--json out]

1. warlog: ``replay.archive.bulk.bulk_import_jsonl(store, path, workers=cores)`` into a fresh DuckDB file, in a child
   process (its peak RSS is the import's alone; the workers' own peak is reported beside it; its RSS is sampled
   every 0.2 s: is it bounded as the games stored grow? DuckDB's memory grows with the rows written until it
   reaches its cap, about 20,000 games at 256 MB, so read the growth over the second half): JSONL parse, typed
   decode, validation (every action re-decided through the rules where ``actions_from_events`` exists, else a
   fold; the figure says which), canonical encode, hash chain, 250 games per transaction; DuckDB's memory
   capped at ``MEMORY_LIMIT``. Once more validated
   by folding only (what the rules cost). Target (issue 7): >= 100,000 events/s and >= 5x eventsourcing.
2. Arrow floor: the rows that import wrote (events and games), already in Arrow tables, inserted into a fresh
   database of the same schema with ``INSERT ... SELECT`` in one transaction: DuckDB's own speed, no Python per row.
3. eventsourcing 9 (SQLite, the library's ``Application`` and ``Aggregate``): per game one aggregate, one domain
   event per game event carrying its decoded JSON, one ``save`` (one transaction) per game. No rules are checked:
   this is the storage a user of that library would write, and it is given that head start.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from bench.common import corpus, game_id, games_for, median, peak_rss_mib, rss_mib  # noqa: E402
from replay.archive.bulk import ImportGame  # noqa: E402


def write_jsonl(path: Path, count: int, distinct: list) -> int:
    """``count`` import lines cycling through the distinct games; returns the number of events."""
    encoder = msgspec.json.Encoder()
    events = 0
    with path.open("wb") as out:
        for i, game in games_for(count, distinct):
            line = ImportGame(game_id(i), "lords-of-war", ["p1", "p2"], game.payloads, {"source": "bench"})
            out.write(encoder.encode(line) + b"\n")
            events += len(game.payloads)
    return events


MEMORY_LIMIT = "256MB"  # DuckDB's buffer pool in the import (without it, it grows with the games written)


def child_import(jsonl: Path, db: Path, workers: int, redecide: bool = True) -> None:
    """Runs in its own process: the import, then one JSON line with its figures. A thread samples this process's
    RSS every 0.2 s (``rss_samples``: [seconds since the start, MiB]) for bench/memory.py."""
    from replay.archive.bulk import bulk_import_jsonl
    from replay.store.duckdb_store import DuckDBEventStore

    samples: list[tuple[float, float]] = []
    done = threading.Event()
    store = DuckDBEventStore(db, memory_limit=MEMORY_LIMIT)
    started = time.perf_counter()

    def sample() -> None:
        while not done.wait(0.2):
            samples.append((time.perf_counter() - started, rss_mib()))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        report = bulk_import_jsonl(store, jsonl, workers=workers, redecide=redecide)
        seconds = time.perf_counter() - started
    finally:
        done.set()
        store.close()
    workers_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest worker
    print(json.dumps({"seconds": seconds, "games": report.games, "events": report.events,
                      "validation": report.validation, "peak_rss_mib": peak_rss_mib(),
                      "worker_peak_rss_mib": workers_peak, "rss_samples": samples}))


def warlog_import(jsonl: Path, db: Path, workers: int, redecide: bool = True) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child-import", str(jsonl), str(db), "--workers", str(workers)]
        + ([] if redecide else ["--fold-only"]),
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(next(line for line in out.splitlines() if line.startswith("{")))


SHARES = (0.25, 0.5, 0.75, 1.0)


def rss_curve(result: dict, games: int) -> list[dict]:
    """The import's RSS as the games are stored: the highest RSS sampled in each quarter of its time (the games
    arrive at a steady rate; batches in flight make single samples jump by tens of MiB)."""
    samples = result["rss_samples"] or [[result["seconds"], result["peak_rss_mib"]]]
    curve = []
    for share in SHARES:
        window = [mib for t, mib in samples if (share - 0.25) * result["seconds"] < t <= share * result["seconds"]]
        curve.append({"games": round(share * games), "rss_mib": max(window) if window else samples[-1][1]})
    return curve


def arrow_floor(source_db: Path, target_db: Path) -> tuple[float, int]:
    """Seconds to insert the import's rows from Arrow tables into a fresh database of the same schema."""
    import duckdb

    from replay.store.duckdb_store import DuckDBEventStore

    with duckdb.connect(str(source_db), read_only=True) as source:
        events = source.sql("SELECT * FROM events").to_arrow_table()
        games = source.sql("SELECT * FROM games").to_arrow_table()
    DuckDBEventStore(target_db).close()  # the schema, by the store's own migrations
    with duckdb.connect(str(target_db)) as conn:
        conn.register("arrow_events", events)
        conn.register("arrow_games", games)
        started = time.perf_counter()
        conn.begin()
        conn.execute("INSERT INTO games SELECT * FROM arrow_games")
        conn.execute("INSERT INTO events SELECT * FROM arrow_events")
        conn.commit()
        seconds = time.perf_counter() - started
    return seconds, events.num_rows


_ES_CLASSES: tuple[type, type] | None = None


def _eventsourcing_classes() -> tuple[type, type]:
    """The library's Application and one Aggregate, defined once per process (it registers classes by topic)."""
    global _ES_CLASSES
    if _ES_CLASSES is None:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event

        class Game(Aggregate):
            @event("Created")
            def __init__(self, game_id: str) -> None:
                self.game_id = game_id
                self.events = 0

            @event("Recorded")
            def record(self, payload: dict) -> None:
                self.events += 1

        class Games(Application):
            pass

        _ES_CLASSES = (Games, Game)
    return _ES_CLASSES


def eventsourcing_store(jsonl: Path, games: int, db: Path) -> tuple[float, int]:
    """Seconds for the eventsourcing library (SQLite) to store the first ``games`` games of the file."""
    os.environ["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    os.environ["SQLITE_DBNAME"] = str(db)
    Games, Game = _eventsourcing_classes()
    app = Games()
    decoder = msgspec.json.Decoder(ImportGame)
    stored = 0
    started = time.perf_counter()
    with jsonl.open("rb") as lines:
        for _, line in zip(range(games), lines, strict=False):  # the first `games` lines; the file may hold more
            game = decoder.decode(line)
            aggregate = Game(game_id=game.game_id)
            for raw in game.events:
                aggregate.record(msgspec.json.decode(raw))
            app.save(aggregate)
            stored += len(game.events)
    seconds = time.perf_counter() - started
    assert app.repository.get(aggregate.id).events == len(game.events)
    app.close()
    return seconds, stored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--es-games", type=int, default=2_000, help="games eventsourcing stores (it is slow)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=0, help="bulk_import workers (0: one per core)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--child-import", nargs=2, type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--fold-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    workers = args.workers or os.cpu_count() or 1
    if args.child_import:
        child_import(*args.child_import, workers=workers, redecide=not args.fold_only)
        return

    distinct = corpus(args.distinct)
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "games.jsonl"
        n_events = write_jsonl(jsonl, args.games, distinct)
        print(f"{args.games:,} games ({len(distinct):,} distinct), {n_events:,} events, "
              f"{jsonl.stat().st_size / 2**20:,.0f} MiB of JSONL")
        imports, floors, es = [], [], []
        for r in range(args.repeat):
            db = Path(tmp) / f"import-{r}.duckdb"
            result = warlog_import(jsonl, db, workers)
            assert result["events"] == n_events, result
            imports.append(result)
            seconds, rows = arrow_floor(db, Path(tmp) / f"arrow-{r}.duckdb")
            assert rows == n_events
            floors.append(rows / seconds)
            es_seconds, es_events = eventsourcing_store(jsonl, args.es_games, Path(tmp) / f"es-{r}.sqlite")
            es.append(es_events / es_seconds)
            rate = result["events"] / result["seconds"]
            print(f"  warlog {rate:10,.0f} events/s ({result['validation']}, peak RSS {result['peak_rss_mib']:.0f} MiB)"
                  f"   arrow insert {rows / seconds:12,.0f} rows/s   eventsourcing {es[-1]:9,.0f} events/s")
            for path in (db, Path(tmp) / f"arrow-{r}.duckdb", Path(tmp) / f"es-{r}.sqlite"):
                for leftover in path.parent.glob(path.name + "*"):
                    leftover.unlink()
        # The same import validated by folding only (a restore of our own records): the price of the rules.
        folded = warlog_import(jsonl, Path(tmp) / "fold-only.duckdb", workers, redecide=False)
        fold_rate = folded["events"] / folded["seconds"]
        print(f"  warlog, validated by folding only: {fold_rate:,.0f} events/s")
    rates = [i["events"] / i["seconds"] for i in imports]
    curve = rss_curve(imports[-1], args.games)
    growth = curve[-1]["rss_mib"] / curve[1]["rss_mib"]
    print(f"warlog {median(rates):,.0f} events/s = {median(rates) / median(floors):.1%} of the Arrow insert, "
          f"{median(rates) / median(es):.1f}x eventsourcing")
    print("  import RSS (DuckDB memory_limit " + MEMORY_LIMIT + "): "
          + ", ".join(f"{c['rss_mib']:.0f} MiB after ~{c['games']:,} games" for c in curve)
          + f"; x{growth:.2f} over the second half")
    if args.json:
        args.json.write_text(json.dumps({
            "games": args.games, "distinct": len(distinct), "events": n_events, "es_games": args.es_games,
            "repeat": args.repeat, "workers": workers, "import_rates": rates, "arrow_rates": floors,
            "eventsourcing_rates": es, "validation": imports[0]["validation"],
            "peak_rss_mib": [i["peak_rss_mib"] for i in imports], "fold_only_rate": fold_rate,
            "worker_peak_rss_mib": [i["worker_peak_rss_mib"] for i in imports], "memory_limit": MEMORY_LIMIT,
            "rss_curve": curve, "second_half_growth": growth,
        }, indent=1))


if __name__ == "__main__":
    main()
