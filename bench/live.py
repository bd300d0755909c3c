"""Live appends over HTTP: actions from 1, 16 and 128 concurrent clients over many games, against a trivial route
(``GET /health``) of the same server at the same concurrency.

    .venv/bin/python bench/live.py [--clients 1,16,128] [--requests 300,3000,6000] [--repeat 3] [--json out]

The server is ``warlog serve`` (uvicorn, a DuckDB file) in a subprocess on 127.0.0.1 only. Games are created
with ``POST /games`` from the bot corpus' setups (seeded, so the recorded actions are legal again); each client
coroutine (asyncio, one keep-alive connection each; see ``Connection`` for why not httpx) takes a game from a
shared queue and sends its actions in order
(``POST /games/{id}/actions`` with the scorekeeper's bearer token and ``expected_seq``), then takes the next game.
Every level sends a bounded number of requests (and stops at a time cap); latency is measured by the client
around each request.
The server's RSS is sampled during the run and its peak (VmHWM) read at the end.
Memory against games stored: the database starts with ``--preload`` finished games (bulk-loaded and projected
before the server starts); after the run the server is stopped, ``--grow`` times as many games again are
bulk-loaded into the same file, and a fresh server runs the largest level once more (closed loop and paced).
Both servers' peak RSS are reported with the games stored: bounded means the second is not ~``grow`` x higher.
With ``--pace`` the largest level runs once more with each client sending one action per PACE seconds (a
scorekeeper's rhythm, far busier than a real table) instead of closed-loop: the latency a tournament would see.
Targets (issue 7): p99 <= 25 ms at 128 clients; action throughput >= 50% of the trivial route's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from bench.common import (  # noqa: E402
    corpus,
    free_port,
    median,
    peak_rss_mib,
    percentile,
    rss_mib,
    start_server,
    stop_server,
)


def start_live_server(db: Path, port: int, memory_limit: str | None) -> subprocess.Popen:
    # The setup creates ~2,000 games without a token from one address in a few seconds, far beyond the per-address
    # limit of token-less writes (docs/api.md, Access): that limit is off here. The measured part, actions with
    # each game's own token, runs under the default per-token limits and must never see a 429 (a failure here).
    return start_server(db, port, args=["--memory-limit", memory_limit] if memory_limit else [],
                        env={"WARLOG_ADDRESS_WRITE_RATE": "0"})


class Game:
    def __init__(self, game_id: str, token: str, seq: int, actions: list) -> None:
        self.game_id, self.token, self.seq, self.actions, self.next = game_id, token, seq, actions, 0


async def create_games(base: str, distinct: list, count: int) -> list[Game]:
    games: list[Game] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        sem = asyncio.Semaphore(8)

        async def one(i: int) -> None:
            source = distinct[i % len(distinct)]
            async with sem:
                r = await client.post("/games", json={**source.setup, "insecure_seed": True})  # its known deal
            r.raise_for_status()
            body = r.json()
            games.append(Game(body["id"], body["tokens"]["scorekeeper"], body["seq"], source.actions))

        await asyncio.gather(*(one(i) for i in range(count)))
    return games


class Connection:
    """One keep-alive HTTP/1.1 connection over asyncio streams: the least client work per request.

    httpx was tried first: at 128 concurrent clients its connection pool made the client the bottleneck (even
    GET /health had a p99 of seconds), so the figures measured httpx. The server's answers always carry
    Content-Length (uvicorn, fixed-size JSON), which is all this client reads."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        self.writer.write(head.encode() + body)
        assert self.reader is not None
        status_line = await self.reader.readuntil(b"\r\n")
        length = 0
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return int(status_line.split()[1]), await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


async def run_level(
    port: int, clients: int, requests: int, pool: deque, trivial: bool, seconds: float, pace: float = 0.0
) -> dict:
    """``requests`` requests (or ``seconds``, whichever ends first) from ``clients`` concurrent clients ->
    latencies, wall time, failures. ``pace`` > 0: each client sends at most one request per ``pace`` seconds
    (a scorekeeper's rhythm) instead of the next one as soon as the answer is in."""
    latencies: list[float] = []
    failures: dict[str, int] = {}
    sent = 0
    encode = json.dumps

    async def worker() -> None:
        nonlocal sent
        conn = Connection(port)
        game: Game | None = None
        next_at = time.perf_counter() + random.uniform(0, pace)  # paced clients start spread over one period
        try:
            while sent < requests and time.perf_counter() < deadline:
                if pace:
                    await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                    next_at += pace
                sent += 1
                if trivial:
                    started = time.perf_counter()
                    status, answer = await conn.request("GET", "/health")
                    latencies.append(time.perf_counter() - started)
                    ok = status == 200
                else:
                    if game is None or game.next >= len(game.actions):
                        if not pool:
                            failures["out of games"] = failures.get("out of games", 0) + 1
                            return
                        game = pool.popleft()
                    body = encode({"action": game.actions[game.next], "expected_seq": game.seq}).encode()
                    started = time.perf_counter()
                    status, answer = await conn.request(
                        "POST", f"/games/{game.game_id}/actions", body, f"Authorization: Bearer {game.token}\r\n"
                    )
                    latencies.append(time.perf_counter() - started)
                    ok = status == 201
                    if ok:
                        game.seq = json.loads(answer)["seq"]
                        game.next += 1
                    else:
                        game = None  # a game that failed is left alone
                if not ok:
                    key = f"{status} {answer[:120].decode(errors='replace')}"
                    failures[key] = failures.get(key, 0) + 1
        finally:
            await conn.close()

    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(worker() for _ in range(clients)))
    wall = time.perf_counter() - started
    return {
        "clients": clients, "requests": len(latencies), "seconds": wall, "rate": len(latencies) / wall,
        "p50_ms": percentile(latencies, 50) * 1000, "p99_ms": percentile(latencies, 99) * 1000,
        "failures": failures,
    }


def preload(db: Path, distinct: list, first: int, count: int) -> float:
    """Bulk-load ``count`` finished bot games (ids from ``first``) into the database and project them, as a
    server that has been running for a while would have them; returns the seconds it took."""
    from engine.systems import get_system
    from replay.analytics.projections import attach
    from replay.log.chain import chain_hash, genesis_hash
    from replay.store.duckdb_store import BulkGame, DuckDBEventStore

    started = time.perf_counter()
    codec = get_system("lords-of-war").codec
    columns: dict[int, tuple[list[str], list[int], list[str]]] = {}  # distinct game -> types, versions, payloads
    store = DuckDBEventStore(db, memory_limit="256MB")
    try:
        batch: list[BulkGame] = []
        for i in range(first, first + count):
            source = distinct[i % len(distinct)]
            if i % len(distinct) not in columns:
                tags = [type(e).tag_name() for e in source.events()]
                columns[i % len(distinct)] = (
                    tags, [codec.version_of(t) for t in tags], [bytes(p).decode() for p in source.payloads]
                )
            types, versions, payloads = columns[i % len(distinct)]
            game_id = f"pre-{i:07d}"
            hashes, previous = [], genesis_hash(game_id)
            for t, v, p in zip(types, versions, payloads, strict=True):
                previous = chain_hash(previous, t, v, p.encode())
                hashes.append(previous)
            batch.append(BulkGame(game_id, "lords-of-war", ["p1", "p2"], {"status": "over"}, None, types, versions,
                                  payloads, hashes))
            if len(batch) == 250:
                store.create_games_bulk(batch)
                batch = []
        if batch:
            store.create_games_bulk(batch)
        attach(store, background=False).close()  # projected, as the running server would have done
    finally:
        store.close()
    return time.perf_counter() - started


def stored(db: Path) -> tuple[int, int]:
    """(games, events) in the database file (the server stopped)."""
    import duckdb

    conn = duckdb.connect(str(db), read_only=True)
    try:
        games, events = conn.execute("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events)").fetchone()
    finally:
        conn.close()
    return int(games), int(events)


def sample_rss(pid: int, stop: threading.Event, samples: list[float]) -> None:
    while not stop.is_set():
        try:
            samples.append(rss_mib(pid))
        except (OSError, ValueError):
            return
        stop.wait(0.5)


def print_result(name: str, result: dict, note: str = "") -> None:
    print(f"  {name:12s} {result['rate']:8,.0f} req/s  p50 {result['p50_ms']:6.1f} ms  "
          f"p99 {result['p99_ms']:6.1f} ms  failures {sum(result['failures'].values())}{note}"
          + (f" {result['failures']}" if result["failures"] else ""))


def serve_and_measure(db: Path, args: argparse.Namespace, distinct: list, levels: list[int], counts: list[int],
                      repeat: int) -> dict:
    """One server on ``db``: create the games the levels need, run every level ``repeat`` times (and paced), then
    stop it; the results with the server's RSS and the games stored."""
    mean_actions = sum(len(g.actions) for g in distinct) / len(distinct)
    runs = repeat * (sum(counts) + (counts[-1] if args.pace else 0))  # action requests at most
    need = int(runs / mean_actions * 1.3) + 3 * max(levels) * repeat
    port = free_port()
    server = start_live_server(db, port, args.memory_limit)
    samples: list[float] = []
    stop = threading.Event()
    sampler = threading.Thread(target=sample_rss, args=(server.pid, stop, samples), daemon=True)
    sampler.start()
    base = f"http://127.0.0.1:{port}"
    results: dict[str, list[dict]] = {}
    try:
        rss_start = rss_mib(server.pid)
        started = time.perf_counter()
        games = asyncio.run(create_games(base, distinct, need))
        print(f"created {len(games):,} games in {time.perf_counter() - started:.1f} s "
              f"(server RSS {rss_start:.0f} MiB at start, {rss_mib(server.pid):.0f} MiB now)")
        pool = deque(games)
        asyncio.run(run_level(port, 4, 50, pool, True, args.seconds))  # warm-up
        asyncio.run(run_level(port, 4, 50, pool, False, args.seconds))
        for _ in range(repeat):
            for clients, count in zip(levels, counts, strict=True):
                for trivial in (True, False):
                    result = asyncio.run(run_level(port, clients, count, pool, trivial, args.seconds))
                    name = f"{'health' if trivial else 'actions'}-{clients}"
                    results.setdefault(name, []).append(result)
                    print_result(name, result)
            if args.pace:
                clients, count = levels[-1], counts[-1]
                result = asyncio.run(run_level(port, clients, count, pool, False, args.seconds, args.pace))
                results.setdefault(f"paced-{clients}", []).append(result)
                print_result(f"paced-{clients}", result, f" (each client one action per {args.pace:g} s)")
        peak = peak_rss_mib(server.pid)
        rss_end = rss_mib(server.pid)
    finally:
        stop.set()
        stop_server(server, 30)
    games_stored, events_stored = stored(db)
    print(f"server RSS: peak {peak:.0f} MiB, end {rss_end:.0f} MiB; samples {min(samples):.0f}-{max(samples):.0f} "
          f"MiB; {games_stored:,} games ({events_stored:,} events) stored at the end")
    return {
        "results": results, "games": len(games), "peak_rss_mib": peak, "rss_start_mib": rss_start,
        "rss_end_mib": rss_end, "games_stored": games_stored, "events_stored": events_stored,
        "rss_samples": [samples[0], samples[len(samples) // 2], samples[-1]] if samples else [],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,16,128")
    parser.add_argument("--requests", default="300,3000,6000", help="requests per level (per repeat)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0, help="time cap per level")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="also run the largest level paced: one action per client every PACE s (0: skip)")
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--preload", type=int, default=2_000, help="finished games in the database at start")
    parser.add_argument("--grow", type=int, default=3,
                        help="then GROW x preload more games, and the largest level again on a fresh server (0: skip)")
    parser.add_argument("--memory-limit", default=None, help="the server's --memory-limit (default: its own, 256MB)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    levels = [int(c) for c in args.clients.split(",")]
    counts = [int(c) for c in args.requests.split(",")]
    distinct = corpus(args.distinct)

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "live.duckdb"
        if args.preload:
            print(f"preloaded {args.preload:,} games in {preload(db, distinct, 0, args.preload):.1f} s")
        first = serve_and_measure(db, args, distinct, levels, counts, args.repeat)
        phases = [first]
        if args.grow and args.preload:
            more = args.grow * args.preload
            print(f"preloaded {more:,} more games in {preload(db, distinct, args.preload, more):.1f} s")
            phases.append(serve_and_measure(db, args, distinct, levels[-1:], counts[-1:], 1))
    results = first["results"]
    summary: dict = {}
    for clients in levels:
        actions, health = results[f"actions-{clients}"], results[f"health-{clients}"]
        summary[clients] = {
            "actions_rate": median([x["rate"] for x in actions]),
            "health_rate": median([x["rate"] for x in health]),
            "ratio": median([a["rate"] / h["rate"] for a, h in zip(actions, health, strict=True)]),
            "actions_p50_ms": median([x["p50_ms"] for x in actions]),
            "actions_p99_ms": median([x["p99_ms"] for x in actions]),
            "health_p50_ms": median([x["p50_ms"] for x in health]),
            "health_p99_ms": median([x["p99_ms"] for x in health]),
            "failures": sum(sum(x["failures"].values()) for x in actions),
        }
        s = summary[clients]
        print(f"{clients:4d} clients: actions {s['actions_rate']:,.0f}/s = {s['ratio']:.0%} of /health; "
              f"p50 {s['actions_p50_ms']:.1f} ms, p99 {s['actions_p99_ms']:.1f} ms")
    paced = results.get(f"paced-{levels[-1]}")
    if paced:
        summary["paced"] = {
            "clients": levels[-1], "pace_s": args.pace, "rate": median([x["rate"] for x in paced]),
            "p50_ms": median([x["p50_ms"] for x in paced]), "p99_ms": median([x["p99_ms"] for x in paced]),
            "failures": sum(sum(x["failures"].values()) for x in paced),
        }
    memory = [
        {key: phase[key] for key in ("games_stored", "events_stored", "peak_rss_mib", "rss_start_mib",
                                     "rss_end_mib")}
        | {f"{name}_{k}": v for name, runs in phase["results"].items() if name.startswith(("actions", "paced"))
           for k, v in (("rate", median([x["rate"] for x in runs])), ("p99_ms", median([x["p99_ms"] for x in runs])))}
        for phase in phases
    ]
    for m in memory:
        print(f"server over {m['games_stored']:,} games stored: peak RSS {m['peak_rss_mib']:.0f} MiB "
              f"(start {m['rss_start_mib']:.0f}, end {m['rss_end_mib']:.0f})")
    if args.json:
        args.json.write_text(json.dumps({
            "levels": levels, "requests": counts, "repeat": args.repeat, "games": first["games"],
            "summary": summary, "runs": results, "server_peak_rss_mib": first["peak_rss_mib"],
            "server_rss_samples": first["rss_samples"], "memory": memory,
            "memory_limit": args.memory_limit or "256MB (serve's default)",
        }, indent=1))


if __name__ == "__main__":
    main()
