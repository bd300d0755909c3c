"""The statistics projection's cost per game: pure Python, and a catch-up through the store.

    .venv/bin/python bench/projection.py [--games 400] [--repeat 5] [--rounds 2] [--root PATH ...] [--profile]

For each ``--root`` (a checkout; default this one; give several to compare old and new code, e.g. a
``git worktree add /tmp/old9e7 9e7f3fe``), a subprocess runs the measurement with that checkout's code:

- ``--games`` bot games are played (the same seeds, factions, variants and bots as bench/stats.py's base games,
  with that checkout's engine) and stored in a fresh DuckDB file;
- **pure Python**: ``projections.project_game(header, stream)`` over every game, the events already decoded, timed
  with ``time.process_time`` (CPU of this process): ``--repeat`` passes, the median pass in ms per game;
- **catch-up**: ``Projector.rebuild()`` (empty the projection tables, read and decode every game's events, project,
  insert, sync the stored Elo pass), CPU (DuckDB's threads included) and wall time in ms per game, ``--repeat``
  times, the median.

``--rounds`` alternates the roots that many times (the machine is shared: interleaving keeps the load fair).
``--parts`` times the parts of ``project_game`` where the checkout has them (the engine's fold and recorded actions
alone, the core's reading, the core's rows, the system's rows); ``--profile`` prints the top of a cProfile of one
pure-Python pass (cumulative time), per root.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FACTIONS = ("orcs", "dwarves", "elves", "undead", "lizardmen", "templars")
BOTS = (("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))


def _games(n: int) -> list[list]:
    """bench/stats.py's base games (``store_base``), with the measured checkout's engine."""
    from engine.lords_of_war.bots import play_bot_game

    return [
        play_bot_game(10_000 + seed, armies=(FACTIONS[seed % 6], FACTIONS[(seed // 6) % 6]),
                      variant={"intermediate": True} if seed % 5 == 0 else None, bots=BOTS[seed % 4], max_turns=500)
        for seed in range(n)
    ]


def _parts(projections, system, headers: dict, streams: dict, repeat: int) -> dict[str, list[float]]:
    """ms per game of each part of ``project_game``: the engine's fold and recorded actions alone, the core's
    reading (``read_game``: both, the opening stepped through, the labels), the core's rows, the system's rows."""
    from replay.systems import get_plugin

    events = {gid: [item.event for item in stream] for gid, stream in streams.items()}
    facts = {gid: projections.read_game(header, streams[gid], system) for gid, header in headers.items()}
    analytics = get_plugin(system.name).analytics
    cases = {
        "fold": lambda: (system.fold(e) for e in events.values()),
        "recorded actions": lambda: (system.recorded_actions(e) for e in events.values()),
        "core reading (read_game)": lambda: (projections.read_game(h, streams[g], system) for g, h in headers.items()),
        "core rows": lambda: (projections.core_rows(f) for f in facts.values()),
        "system's rows": lambda: (analytics.project(facts[g], streams[g]) for g in headers),
    }
    out: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, case in cases.items():
            started = time.process_time()
            for _ in case():  # each game's result dropped as the projector drops it
                pass
            out[name].append((time.process_time() - started) * 1000 / len(headers))
    return out


def worker(games: int, repeat: int, profile: bool, parts_wanted: bool = False) -> dict:
    """The measurement, in a process whose ``sys.path`` starts with the measured checkout."""
    from engine.systems import get_system

    try:  # the measured checkout fills its registry at start-up (issue 29), an older one on import
        from api.installed import load_systems
    except ImportError:
        pass
    else:
        load_systems()
    from replay.analytics import projections
    from replay.log.chain import encode_chain
    from replay.store.duckdb_store import DuckDBEventStore

    try:  # where the header and stream types live moved with issue 12
        from replay.analytics.model import GameHeader, StreamEvent
    except ImportError:
        GameHeader, StreamEvent = projections.GameHeader, projections.StreamEvent  # type: ignore[attr-defined]

    system = get_system("lords-of-war")
    played = _games(games)
    events = sum(len(g) for g in played)
    with tempfile.TemporaryDirectory() as tmp:
        store = DuckDBEventStore(Path(tmp) / "projection.duckdb")
        for i, game in enumerate(played):
            store.create_game(f"g{i:05d}", "lords-of-war", [], {}, encode_chain(system, f"g{i:05d}", game))
        projector = projections.attach(store, background=False)
        # the pure part: what _project_together hands project_game, decoded once here
        reader = store.reader()
        headers = {
            gid: GameHeader(gid, sys_, created, tournament, {})
            for gid, sys_, created, tournament in reader.execute(
                "SELECT game_id, system, created_at, tournament FROM games ORDER BY game_id"
            ).fetchall()
        }
        streams: dict[str, list] = {gid: [] for gid in headers}
        for gid, seq, type_, version, payload, recorded_at in reader.execute(
            "SELECT game_id, seq, type, schema_version, payload, recorded_at FROM events "
            "ORDER BY game_id, seq"
        ).fetchall():
            streams[gid].append(StreamEvent(seq, recorded_at, system.codec.decode_stored(type_, version, payload)))
        reader.close()
        pure = []
        for _ in range(repeat):
            started = time.process_time()
            for gid, header in headers.items():
                projections.project_game(header, streams[gid])
            pure.append((time.process_time() - started) * 1000 / games)
        parts: dict[str, list[float]] = {}
        if parts_wanted and hasattr(projections, "read_game"):  # the core and the system's part (issue 12 on)
            parts = _parts(projections, system, headers, streams, repeat)
        top = ""
        if profile:
            import cProfile
            import io
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            for gid, header in headers.items():
                projections.project_game(header, streams[gid])
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(30)
            top = out.getvalue()
        cpu, wall = [], []
        for _ in range(repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            projector.rebuild()
            wall.append((time.perf_counter() - started) * 1000 / games)
            cpu.append((time.process_time() - started_cpu) * 1000 / games)
        projector.close()
        store.close()
    return {"games": games, "events": events, "pure_ms": pure, "catch_up_cpu_ms": cpu, "catch_up_wall_ms": wall,
            "parts_ms": parts, "profile": top}


def _commit(root: Path) -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True,
                           text=True)
    return (done.stdout.strip() or "?") + (" (plus the working tree)" if dirty.stdout.strip() else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--root", type=Path, action="append", help="a checkout to measure (repeatable)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--parts", action="store_true", help="also time the parts of project_game (issue 12 on)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:  # the measuring process
        sys.path.insert(0, str(args.worker))
        os.chdir(args.worker)
        print(json.dumps(worker(args.games, args.repeat, args.profile, args.parts)))
        return 0
    roots = [r.resolve() for r in (args.root or [ROOT])]
    print(f"machine: {os.cpu_count()} cores, load {' / '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"python {sys.version.split()[0]}; {args.games} games, {args.repeat} repeats, {args.rounds} round(s)")
    results: dict[str, list[dict]] = {str(r): [] for r in roots}
    for round_ in range(args.rounds):
        for root in roots:
            command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root), "--games",
                       str(args.games), "--repeat", str(args.repeat)] + (["--profile"] if args.profile else []) \
                + (["--parts"] if args.parts else [])
            done = subprocess.run(command, capture_output=True, text=True, cwd=root)
            if done.returncode:
                print(done.stderr[-3000:], file=sys.stderr)
                return 1
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            results[str(root)].append(figures)
            pure, cpu, wall = (figures[k] for k in ("pure_ms", "catch_up_cpu_ms", "catch_up_wall_ms"))
            print(f"round {round_ + 1}  {str(root):<22} {_commit(root):<32} "
                  f"{figures['events'] / figures['games']:5.0f} events/game  "
                  f"pure Python {statistics.median(pure):.3f} ms/game (min {min(pure):.3f})  "
                  f"catch-up CPU {statistics.median(cpu):.2f} ms/game, wall {statistics.median(wall):.2f} ms/game",
                  flush=True)
            for name, values in figures["parts_ms"].items():
                print(f"         {name:<26} {statistics.median(values):.3f} ms/game (min {min(values):.3f})")
            if figures["profile"]:
                print(figures["profile"])
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
