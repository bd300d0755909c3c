"""Time every statistic over 100,000 and 1,000,000 games (targets: <= 200 ms and <= 1 s each).

    .venv/bin/python bench/stats.py [--games 100000 1000000] [--base 500] [--repeat 5]
    .venv/bin/python bench/stats.py --keep --dir D          # also keep D/warlog-bench-stats-<games>.duckdb
    .venv/bin/python bench/stats.py --reuse --dir D --only "ratings 2025" cards   # measure them again (no rebuild)

The fast bulk path (not the HTTP API, not the engine per game): ``--base`` real bot games (all six factions,
random and greedy bots, a fifth in the intermediate variant) are stored and projected normally; then their
projection rows (proj_games, proj_seats, proj_opponents, low_players, low_placements: what the statistics read)
are replicated in DuckDB SQL (``bench/sql/bench_replicate_*.sql``) into ``games / base`` copies, each with a fresh
game id (``<id>~<copy>``), a start date spread over two years, players drawn from a pool of 5,000 names (so ratings and
head-to-head have realistic shapes) and every 10th copy in one of 50 tournaments; low_card_daily is then summed
from the placements as migration 005 does. low_kills/low_shots are not replicated (no statistic reads them).
Each statistic then runs ``--repeat`` times on a DuckDB file; the median is reported (the first, cold run too; a
row is flagged OVER when either is over its target: the first call of an uncached filtered leaderboard counts).
A reused file gets any new migration when it is opened; the old and new code can measure the same files in turn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.lords_of_war.bots import play_bot_game  # noqa: E402
from engine.systems import get_system  # noqa: E402
from replay.analytics import multiplayer, projections, ratings, stats  # noqa: E402
from replay.analytics.stats import Filters  # noqa: E402
from replay.log.chain import encode_chain  # noqa: E402
from replay.lords_of_war import analytics as lords_of_war  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402

BENCH_SQL = Path(__file__).parent / "sql"
FACTIONS = ("orcs", "dwarves", "elves", "undead", "lizardmen", "templars")
PLAYERS = 5_000


def bench_sql(name: str) -> str:
    return (BENCH_SQL / f"{name}.sql").read_text()


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def store_base(store: DuckDBEventStore, clock: Clock, base: int) -> None:
    system = get_system("lords-of-war")
    for seed in range(base):
        a, b = FACTIONS[seed % 6], FACTIONS[(seed // 6) % 6]
        events = play_bot_game(
            10_000 + seed,
            armies=(a, b),
            variant={"intermediate": True} if seed % 5 == 0 else None,
            bots=(("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))[seed % 4],
            max_turns=500,
        )
        clock.now = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=seed)
        game_id = f"b{seed:05d}"
        encoded = encode_chain(system, game_id, events)
        store.create_game(game_id, "lords-of-war", [], {}, encoded)


def timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times[0], statistics.median(times[1:] or times)


def cases(conn):
    every = Filters()
    cache = ratings.RatingsCache()
    year = Filters(date_from=date(2025, 1, 1), date_to=date(2025, 12, 31))
    narrow = Filters(army="orcs", date_from=date(2025, 6, 1), date_to=date(2025, 12, 31), min_games=10)
    return [
        ("armies", lambda: stats.army_win_rates(conn, every)),
        ("matchups", lambda: stats.matchups(conn, every)),
        ("first-player", lambda: stats.first_player(conn, every)),
        ("game-length", lambda: stats.game_length(conn, every)),
        ("end-reasons", lambda: stats.end_reasons(conn, every)),
        ("cards", lambda: lords_of_war.cards(conn, every)),
        ("heatmap", lambda: lords_of_war.heatmap(conn, every)),
        ("heatmap card", lambda: lords_of_war.heatmap(conn, every, card="orcs/orc-catapult", owner_view=True)),
        ("head-to-head", lambda: stats.head_to_head(conn, every, player="player-42")),
        ("head-to-head all", lambda: stats.head_to_head(conn, Filters(min_games=5))),
        ("ratings", lambda: ratings.ratings(conn, every, limit=100)),
        ("rating-history", lambda: ratings.rating_history(conn, "player-42", every)),
        ("armies filtered", lambda: stats.army_win_rates(conn, narrow)),
        ("cards filtered", lambda: lords_of_war.cards(conn, narrow)),
        ("ratings tournament", lambda: ratings.ratings(conn, Filters(tournament="cup-7"))),
        # a filtered leaderboard is a pass over its games; with the app's cache later calls only check and continue
        ("ratings 2025", lambda: ratings.ratings(conn, year, limit=100)),
        ("ratings 2025 cached", lambda: ratings.ratings(conn, year, limit=100, cache=cache)),
        ("history 2025 cached", lambda: ratings.rating_history(conn, "player-42", year, cache=cache)),
        ("multiplayer ratings", lambda: multiplayer.multiplayer_ratings(conn, every, limit=100)),  # none: 2 seats
    ]


def build(conn, games: int, base: int) -> None:
    """Replace the projection rows by ``games / base`` copies of the base games and compute the stored Elo pass."""
    copies = max(1, games // base)
    started = time.perf_counter()
    for table in ("low_placements", "low_players", "proj_seats", "proj_opponents", "proj_games", "low_card_daily",
                  "proj_elo_cursor", "proj_elo_players", "proj_elo_history"):
        conn.execute(f"DELETE FROM {table}")  # bench only: start each size from empty tables
    conn.execute(bench_sql("bench_replicate_games"), {"copies": copies, "players": PLAYERS})
    conn.execute(bench_sql("bench_replicate_players"))
    conn.execute(bench_sql("bench_replicate_seats"))
    conn.execute(bench_sql("bench_replicate_opponents"))
    conn.execute(bench_sql("bench_replicate_placements"))
    conn.execute(bench_sql("bench_replicate_card_daily"))
    replicated = time.perf_counter() - started
    elo_started = time.perf_counter()
    conn.begin()
    ratings.sync_elo(conn, "lords-of-war")  # the stored overall Elo pass, from scratch
    conn.commit()
    elo_seconds = time.perf_counter() - elo_started
    conn.execute("CHECKPOINT")
    n_games, n_seats, n_placements, n_daily = (
        conn.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
        for t in ("proj_games", "proj_seats", "low_placements", "low_card_daily")
    )
    print(
        f"\n{n_games:,} games ({n_seats:,} seat rows, {n_placements:,} placements, {n_daily:,} card-day rows)"
        f" replicated in {replicated:.1f} s; stored Elo pass from scratch in {elo_seconds:.1f} s"
    )


def measure(conn, games: int, repeat: int, only: list[str] | None) -> None:
    target = 0.2 if games <= 100_000 else 1.0
    print(f"{'statistic':<20} {'cold ms':>9} {'median ms':>10}  target {target * 1000:.0f} ms")
    for name, fn in cases(conn):
        if only and name not in only:
            continue
        cold, median = timed(fn, repeat)
        flag = "" if median <= target and cold <= target else "  OVER"
        print(f"{name:<20} {cold * 1000:>9.1f} {median * 1000:>10.1f}{flag}", flush=True)


def main() -> int:
    from api.installed import load_systems

    load_systems()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--base", type=int, default=500, help="real bot games to replicate")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    parser.add_argument(
        "--keep", action="store_true",
        help="one database file per size (warlog-bench-stats-<games>.duckdb), kept for --reuse",
    )
    parser.add_argument("--reuse", action="store_true", help="measure the kept file of each size (build it if missing)")
    parser.add_argument("--only", nargs="+", metavar="STATISTIC", help="measure only these rows (names as printed)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}")
    if args.keep or args.reuse:
        for games in args.games:
            path = Path(args.dir) / f"warlog-bench-stats-{games}.duckdb"
            if args.reuse and path.exists():
                store = DuckDBEventStore(path)  # applies any new migration
                conn = store.reader()
                print(f"\n{games:,} games: reusing {path}")
            else:
                store, conn, projector = _base_store(path, args.base)
                projector.close()
                build(conn, games, args.base)
            measure(conn, games, args.repeat, args.only)
            conn.close()
            store.close()
        return 0
    store, conn, projector = _base_store(Path(args.dir) / "warlog-bench-stats.duckdb", args.base)
    for games in args.games:
        build(conn, games, args.base)
        measure(conn, games, args.repeat, args.only)
    conn.close()
    projector.close()
    store.close()
    return 0


def _base_store(path: Path, base: int):
    for suffix in ("", ".wal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    clock = Clock()
    store = DuckDBEventStore(path, clock=clock)
    started = time.perf_counter()
    store_base(store, clock, base)
    projector = projections.attach(store, background=False)
    conn = store.reader()
    print(f"base: {base} bot games played, stored and projected in {time.perf_counter() - started:.1f} s")
    conn.execute(bench_sql("bench_snapshot_base"))
    return store, conn, projector


if __name__ == "__main__":
    sys.exit(main())
