"""PostgreSQL (issue 19): appends over HTTP with 1 and 2 server processes on PostgreSQL and on the DuckDB default,
live fan-out of one game to 1,000 SSE spectators, and bulk import into PostgreSQL by COPY.

    .venv/bin/python bench/postgres.py [--games 300] [--clients 32] [--seconds 15] [--spectators 1000]
                                       [--appends 30] [--bulk-games 2000] [--json out]

The database: ``WARLOG_BENCH_PG``, else ``WARLOG_TEST_PG``, else the local default of tests/pg.py; each figure runs
in a schema of its own, dropped afterwards. Without a reachable server the script says so and exits 0 (JSON
``{"skipped": why}``).

- **Appends**: ``warlog serve`` (DuckDB file; PostgreSQL with ``--workers 1``; PostgreSQL with ``--workers 2``;
  with ``--workers`` the analytics run in a process of their own, counted apart as ``analytics``),
  ``--games`` games from the bot corpus created first, then ``--clients`` concurrent clients (one keep-alive
  connection each, bench/live.py's client) send the recorded actions (``POST /games/{id}/actions`` with
  ``expected_seq``) for ``--seconds`` seconds or until the games run out: actions per second, p50 / p99. Target:
  2 processes >= 1.6 x 1 process on PostgreSQL (2 cores: the load generator and PostgreSQL share them too). Also
  printed: how busy the machine was (/proc/stat) and appends per second of one core of the serving processes'
  CPU in each run, whose ratio says whether the processes scale with the cores they get.
- **Fan-out**: ``--spectators`` SSE streams on one game, spread over the 2 processes of a ``--workers 2`` server
  (each stream gets whichever process the kernel hands its connection to), then ``--appends`` actions through
  the server, one every 0.2 s; for each action and stream, the time from sending the POST to the stream having
  the event: p50 / p99 / max over every (action, stream). Target p99 <= 250 ms.
- **Bulk import**: ``PostgresEventStore.create_games_bulk`` (COPY) of ``--bulk-games`` corpus games, hash-chained,
  in batches of 500 games: events per second. Target >= 50,000.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import uuid
from collections import deque
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import corpus, free_port, percentile, start_server, stop_server  # noqa: E402
from bench.live import Connection, create_games, run_level  # noqa: E402

LOCAL_DEFAULT = "postgresql://warlog:warlog@127.0.0.1:5432/warlog_test"


def base_url() -> str:
    return os.environ.get("WARLOG_BENCH_PG") or os.environ.get("WARLOG_TEST_PG") or LOCAL_DEFAULT


def unavailable() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[pg]')"
    try:
        with psycopg.connect(base_url(), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as error:
        return f"no PostgreSQL reachable ({str(error).strip().splitlines()[0]}); set WARLOG_BENCH_PG"
    return None


@contextmanager
def schema() -> Any:
    import psycopg

    name = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base_url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    separator = "&" if "?" in base_url() else "?"
    try:
        yield f"{base_url()}{separator}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(base_url(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_by_part(server_pid: int) -> dict[str, float]:
    """CPU seconds so far of the server (its process and its workers), its analytics process (``--workers``),
    PostgreSQL (every postgres process) and this load generator: where the 2 cores went."""
    parts = {"server": 0.0, "analytics": 0.0, "postgres": 0.0, "client": 0.0}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw.rsplit(")", 1)[1].split()
        seconds = (int(fields[11]) + int(fields[12])) / TICKS
        pid, parent = int(entry.name), int(fields[1])
        if pid == server_pid or parent == server_pid:
            try:
                analytics = b" analytics " in (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                analytics = False
            parts["analytics" if analytics else "server"] += seconds
        elif name.startswith("postgres"):
            parts["postgres"] += seconds
        elif pid == os.getpid():
            parts["client"] += seconds
    return parts


def machine_ticks() -> list[int]:
    """The machine's CPU time so far by kind (/proc/stat: user, nice, system, idle, iowait, irq, softirq, steal)."""
    with open("/proc/stat") as stat:
        return [int(x) for x in stat.readline().split()[1:9]]


ENV = {"WARLOG_ADDRESS_WRITE_RATE": "0", "WARLOG_MAX_STREAMS_PER_CLIENT": "5000", "WARLOG_MAX_STREAMS": "5000"}


def appends(db: str, workers: int, args: argparse.Namespace, distinct: list, folder: Path) -> dict:
    port = free_port()
    extra = ["--workers", str(workers), "--stats-db", str(folder / f"stats-{port}.duckdb")] if "://" in db else []
    server = start_server(db, port, args=extra, env=ENV)  # type: ignore[arg-type]
    try:
        if workers > 1:
            time.sleep(8)  # the other workers: /health answered by the first one only says one is up
        games = asyncio.run(create_games(f"http://127.0.0.1:{port}", distinct, args.games))
        pool = deque(games)
        before, ticks = cpu_by_part(server.pid), machine_ticks()
        result = asyncio.run(run_level(port, args.clients, 10**9, pool, False, args.seconds))
        after, spent = cpu_by_part(server.pid), [b - a for a, b in zip(ticks, machine_ticks(), strict=True)]
        result["cpu_pct"] = {k: 100 * (after[k] - before[k]) / result["seconds"] for k in before}
        # how full the machine was: (all ticks - idle - iowait) / all ticks, over its cores
        result["machine_busy_pct"] = 100 * (sum(spent) - spent[3] - spent[4]) / max(1, sum(spent))
        # appends per second of one core of the serving processes' CPU: constant if processes scale with cores
        result["per_server_core"] = result["rate"] / max(1e-9, result["cpu_pct"]["server"] / 100)
    finally:
        stop_server(server, 15)
    return result


async def fan_out(port: int, spectators: int, appends_: int, distinct: list) -> dict:
    game = (await create_games(f"http://127.0.0.1:{port}", distinct, 1))[0]
    readers: list[tuple[asyncio.StreamWriter, bytearray, asyncio.Event]] = []
    tasks = []

    async def read(reader: asyncio.StreamReader, data: bytearray, got: asyncio.Event) -> None:
        while chunk := await reader.read(65536):
            data += chunk
            got.set()

    for _ in range(spectators):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /games/{game.game_id}/live?after={game.seq}&timeout=600 HTTP/1.1\r\n"
                     "Host: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert int(head.split(b" ", 2)[1]) == 200, head
        data, got = bytearray(), asyncio.Event()
        readers.append((writer, data, got))
        tasks.append(asyncio.ensure_future(read(reader, data, got)))
    await asyncio.sleep(1.0)
    delays: list[float] = []
    conn = Connection(port)
    try:
        for action in game.actions[:appends_]:
            body = json.dumps({"action": action, "expected_seq": game.seq}).encode()
            sent = time.perf_counter()
            status, answer = await conn.request("POST", f"/games/{game.game_id}/actions", body,
                                                f"Authorization: Bearer {game.token}\r\n")
            assert status == 201, answer
            game.seq = json.loads(answer)["seq"]
            marker = f"id: {game.seq}\n".encode()

            async def arrival(data: bytearray, got: asyncio.Event, marker: bytes = marker) -> float:
                while marker not in data:
                    got.clear()
                    await got.wait()
                return time.perf_counter()

            arrivals = await asyncio.wait_for(asyncio.gather(*(arrival(d, g) for _, d, g in readers)), 30)
            delays.extend(at - sent for at in arrivals)
            await asyncio.sleep(0.2)
    finally:
        await conn.close()
        for task in tasks:
            task.cancel()
        for writer, _, _ in readers:
            writer.close()
    return {"spectators": spectators, "appends": len(delays) // max(1, spectators),
            "p50_ms": percentile(delays, 50) * 1000, "p99_ms": percentile(delays, 99) * 1000,
            "max_ms": max(delays) * 1000}


def bulk(url: str, games: int, distinct: list) -> dict:
    from replay.log.chain import chain_hash, genesis_hash
    from replay.store.postgres_store import BulkGame, PostgresEventStore

    prepared = []
    for i in range(games):
        source = distinct[i % len(distinct)]
        game_id = f"bulk{i:07d}"
        previous = genesis_hash(game_id)
        types, versions, payloads, hashes = [], [], [], []
        for raw in source.payloads:
            payload = bytes(raw)
            kind = json.loads(payload)["type"]
            previous = chain_hash(previous, kind, 1, payload)
            types.append(kind)
            versions.append(1)
            payloads.append(payload.decode())
            hashes.append(previous)
        prepared.append(BulkGame(game_id, "lords-of-war", ["p1", "p2"], {}, None, types, versions, payloads, hashes))
    store = PostgresEventStore(url, listen=False)
    try:
        started = time.perf_counter()
        events = 0
        for start in range(0, len(prepared), 500):
            events += store.create_games_bulk(prepared[start:start + 500])
        seconds = time.perf_counter() - started
    finally:
        store.close()
    return {"games": games, "events": events, "seconds": seconds, "rate": events / seconds}


def cpu(result: dict) -> str:
    return ", ".join(f"{k} {v:.0f}" for k, v in result["cpu_pct"].items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--appends", type=int, default=30)
    parser.add_argument("--bulk-games", type=int, default=2000)
    parser.add_argument("--distinct", type=int, default=300)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    why = unavailable()
    if why is not None:
        print(f"bench/postgres.py: skipped: {why}")
        if args.json:
            args.json.write_text(json.dumps({"skipped": why}))
        return
    distinct = corpus(args.distinct)
    out: dict[str, Any] = {"clients": args.clients, "games": args.games, "seconds": args.seconds}
    with tempfile.TemporaryDirectory(prefix="warlog-bench-pg-") as tmp:
        folder = Path(tmp)
        out["duckdb"] = appends(str(folder / "bench.duckdb"), 1, args, distinct, folder)
        print(f"appends, DuckDB file, 1 process: {out['duckdb']['rate']:,.0f}/s "
              f"(p50 {out['duckdb']['p50_ms']:.1f} ms, p99 {out['duckdb']['p99_ms']:.1f} ms; CPU % of a core "
              f"{cpu(out['duckdb'])})", flush=True)
        for workers in (1, 2):
            with schema() as url:
                result = appends(url, workers, args, distinct, folder)
            out[f"pg{workers}"] = result
            print(f"appends, PostgreSQL, {workers} process(es): {result['rate']:,.0f}/s "
                  f"(p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms; CPU % of a core {cpu(result)}; "
                  f"failures {result['failures'] or 'none'})", flush=True)
        out["ratio"] = out["pg2"]["rate"] / out["pg1"]["rate"]
        one, two = out["pg1"], out["pg2"]
        out["efficiency"] = two["per_server_core"] / one["per_server_core"]
        print(f"2 processes / 1 process on PostgreSQL: {out['ratio']:.2f}x (target >= 1.6x); the machine's 2 cores "
              f"were {one['machine_busy_pct']:.0f}% / {two['machine_busy_pct']:.0f}% busy; appends per second of a "
              f"serving core {one['per_server_core']:,.0f} / {two['per_server_core']:,.0f} "
              f"({100 * out['efficiency']:.0f}%: how much of one process's speed per core two processes keep)")
        with schema() as url:
            port = free_port()
            server = start_server(url, port, args=["--workers", "2", "--stats-db", str(folder / "fan.duckdb")],  # type: ignore[arg-type]
                                  env=ENV)
            try:
                time.sleep(8)
                out["fanout"] = asyncio.run(fan_out(port, args.spectators, args.appends, distinct))
            finally:
                stop_server(server, 15)
        f = out["fanout"]
        print(f"fan-out of one game to {f['spectators']:,} SSE spectators (2 processes), {f['appends']} appends: "
              f"p50 {f['p50_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms, max {f['max_ms']:.1f} ms (target p99 <= 250 ms)")
        with schema() as url:
            out["bulk"] = bulk(url, args.bulk_games, distinct)
        b = out["bulk"]
        print(f"bulk import into PostgreSQL (COPY): {b['events']:,} events of {b['games']:,} games in "
              f"{b['seconds']:.2f} s: {b['rate']:,.0f} events/s (target >= 50,000)")
    if args.json:
        args.json.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
