"""Idle live streams against a running server (issue 11, item 8): what 1,000 open, idle SSE streams cost.

    .venv/bin/python bench/streams.py [--streams 1000] [--games 100] [--seconds 30] [--root PATH] [--json out]

The server is ``warlog serve`` (a fresh DuckDB file) in a subprocess on 127.0.0.1, started from ``--root`` (this
checkout by default; another checkout measures its code, e.g. the code before a change). ``--games`` games are
created with ``POST /games``; ``--streams`` streams (``GET /games/{id}/live?after=<its seq>&timeout=3600``, one
socket each, spread over the games) are opened from loopback addresses 127.0.0.2, 127.0.0.3, ... with at most
``--per-address`` streams each (the server's default cap per client is 50), and read until the end. Nothing is
appended while they are open: every stream is idle.

Measured, for ``--seconds`` (after a 2 s settle): the server's CPU from ``/proc/<pid>/stat`` (utime + stime of
all its threads) as a % of one core, and ``GET /health`` latency (one keep-alive connection, a request every
100 ms) p50 / p99; the same with no stream open first, for reference. Then one action is appended to one game and
the time until every stream of that game has its event is reported (the wake-up path), and the streams are
closed. Targets (issue 11): with 1,000 idle streams, < 10% of a core and /health p99 < 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from bench.common import ROOT, free_port, percentile, rss_mib, start_server, stop_server  # noqa: E402
from bench.live import Connection  # noqa: E402
from replay.log.demo import demo_setup  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # fields 14 and 15 of proc(5), after "pid (comm)"


class Stream:
    """One SSE stream on its own socket; ``data`` grows as the server sends."""

    def __init__(self, game: int) -> None:
        self.game = game
        self.data = bytearray()
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task | None = None
        self.got = asyncio.Event()

    async def open(self, port: int, source: str, path: str) -> int:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if status == 200:
            self.task = asyncio.ensure_future(self._read(reader))
        return status

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while chunk := await reader.read(65536):
            self.data += chunk
            self.got.set()

    async def wait_for(self, marker: bytes) -> None:
        while marker not in self.data:
            self.got.clear()
            await self.got.wait()

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


async def probe_health(port: int, seconds: float, every: float = 0.1, at: list[float] | None = None) -> list[float]:
    """GET /health every ``every`` seconds for ``seconds`` on one keep-alive connection -> latencies (ms)."""
    conn = Connection(port)
    latencies: list[float] = []
    begin = time.perf_counter()
    deadline = begin + seconds
    try:
        while (now := time.perf_counter()) < deadline:
            started = time.perf_counter()
            status, _ = await asyncio.wait_for(conn.request("GET", "/health"), timeout=60)
            latencies.append((time.perf_counter() - started) * 1000)
            if at is not None:
                at.append(started - begin)
            assert status == 200, status
            await asyncio.sleep(max(0.0, every - (time.perf_counter() - now)))
    finally:
        await conn.close()
    return latencies


async def measure(pid: int, port: int, seconds: float) -> dict:
    await asyncio.sleep(2)  # settle
    cpu0, wall0 = cpu_seconds(pid), time.perf_counter()
    at: list[float] = []
    latencies = await probe_health(port, seconds, at=at)
    cpu = (cpu_seconds(pid) - cpu0) / (time.perf_counter() - wall0) * 100
    slowest = sorted(zip(latencies, at, strict=True), reverse=True)[:5]  # probe_health adds one `at` per latency
    return {"cpu_pct": cpu, "health_p50_ms": percentile(latencies, 50), "health_p99_ms": percentile(latencies, 99),
            "health_samples": len(latencies), "health_slowest": [[round(ms, 1), round(t, 1)] for ms, t in slowest]}


async def run(args: argparse.Namespace, port: int, pid: int) -> dict:
    base = f"http://127.0.0.1:{port}"
    games = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for i in range(args.games):
            r = await client.post("/games", json={**demo_setup(i, 9_000), "insecure_seed": True})
            r.raise_for_status()
            body = r.json()
            games.append((body["id"], body["tokens"]["scorekeeper"], body["seq"]))

    print(f"server pid {pid}, {args.games} games; no stream open: measuring {args.seconds:g} s", flush=True)
    idle = await measure(pid, port, args.seconds)
    print(f"  no streams:    CPU {idle['cpu_pct']:5.1f}% of a core, /health p50 {idle['health_p50_ms']:.2f} ms, "
          f"p99 {idle['health_p99_ms']:.2f} ms", flush=True)

    streams = [Stream(i % args.games) for i in range(args.streams)]
    sem = asyncio.Semaphore(args.open_concurrency)
    refused: dict[int, int] = {}

    async def open_one(i: int, stream: Stream) -> None:
        game_id, _, seq = games[stream.game]
        source = f"127.0.0.{2 + i // args.per_address}"
        async with sem:
            status = await stream.open(port, source, f"/games/{game_id}/live?after={seq}&timeout=3600")
        if status != 200:
            refused[status] = refused.get(status, 0) + 1

    started = time.perf_counter()
    await asyncio.gather(*(open_one(i, s) for i, s in enumerate(streams)))
    opened = time.perf_counter() - started
    await asyncio.gather(*(s.wait_for(b"retry: 2000") for s in streams if s.task is not None))
    print(f"  opened {args.streams - sum(refused.values())} streams in {opened:.1f} s"
          + (f" (refused: {refused})" if refused else "") + f"; measuring {args.seconds:g} s", flush=True)
    own0 = resource.getrusage(resource.RUSAGE_SELF)
    loaded = await measure(pid, port, args.seconds)
    own1 = resource.getrusage(resource.RUSAGE_SELF)
    own_cpu = (own1.ru_utime + own1.ru_stime - own0.ru_utime - own0.ru_stime) / (args.seconds + 2) * 100
    print(f"  {args.streams} idle streams: CPU {loaded['cpu_pct']:5.1f}% of a core, /health p50 "
          f"{loaded['health_p50_ms']:.2f} ms, p99 {loaded['health_p99_ms']:.2f} ms "
          f"(this client: {own_cpu:.1f}% of a core)", flush=True)
    for name, figures in (("no streams", idle), ("streams", loaded)):
        print(f"  slowest /health, {name} (ms at s): "
              + ", ".join(f"{ms:g} at {t:g}" for ms, t in figures["health_slowest"]), flush=True)
    keepalives = sum(s.data.count(b": keepalive") for s in streams)

    # the wake-up path: one action on game 0, timed until every stream of game 0 has it
    game_id, token, seq = games[0]
    watchers = [s for s in streams if s.game == 0 and s.task is not None]
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        keeper = {"Authorization": f"Bearer {token}"}
        legal = (await client.get(f"/games/{game_id}/legal", headers=keeper)).json()
        sent = time.perf_counter()
        r = await client.post(f"/games/{game_id}/actions", headers=keeper,
                              json={"action": legal["actions"][0], "expected_seq": seq})
        r.raise_for_status()
        marker = f"id: {r.json()['seq']}\n".encode()
        await asyncio.wait_for(asyncio.gather(*(s.wait_for(marker) for s in watchers)), timeout=60)
        delivered = (time.perf_counter() - sent) * 1000
    print(f"  one action on a game with {len(watchers)} streams: every one had it after {delivered:.1f} ms "
          f"(POST included)", flush=True)
    rss = rss_mib(pid)
    for s in streams:
        s.close()
    return {"streams": args.streams, "games": args.games, "seconds": args.seconds, "opened_s": opened,
            "refused": refused, "idle": idle, "loaded": loaded, "client_cpu_pct": own_cpu,
            "keepalives": keepalives, "delivery_ms": delivered, "watchers": len(watchers), "server_rss_mib": rss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--per-address", type=int, default=50, help="streams per client address (127.0.0.x)")
    parser.add_argument("--open-concurrency", type=int, default=50, help="streams being opened at once")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server is measured")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.streams * 2 + 512  # this client's sockets, and the server (a child) inherits the limit
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=args.root, capture_output=True, text=True,
                            check=False)
    print(f"code: {args.root} at {commit.stdout.strip() or '?'}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "streams.duckdb", port, root=args.root)
        try:
            result = asyncio.run(run(args, port, server.pid))
        finally:
            stop_server(server, 20)
    result["commit"] = commit.stdout.strip()
    ok = result["loaded"]["cpu_pct"] < 10 and result["loaded"]["health_p99_ms"] < 20
    print(f"targets (< 10% of a core, /health p99 < 20 ms with {args.streams} idle streams): "
          f"{'met' if ok else 'not met'}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
