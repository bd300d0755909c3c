"""What the benchmarks share: the bot-game corpus (cached on disk), timing and statistics, machine facts, RSS, and
``warlog serve`` in a subprocess for the HTTP benchmarks.

The corpus: ``corpus(n)`` plays ``n`` distinct bot games (every faction pairing, the demo variants, random and
greedy bots in every seat; ``replay.log.demo.demo_setup``) on all cores and caches them under the temp directory, so
the second run starts at once. A figure that needs more games than the corpus holds cycles through it with fresh
game ids (``games_for``): every stored game is still decided, hashed and written on its own; RESULTS.md says
how many distinct games each row used.
"""

from __future__ import annotations

import hashlib
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api.installed import load_systems  # noqa: E402
from engine.lords_of_war import decide, evolve, initial_state, start  # noqa: E402
from engine.lords_of_war.actions import Concede  # noqa: E402
from engine.lords_of_war.bots import make_bot  # noqa: E402
from engine.lords_of_war.state import PLAYERS  # noqa: E402
from events.lords_of_war import CODEC  # noqa: E402
from replay.log.demo import demo_setup  # noqa: E402

load_systems()  # a benchmark is a start-up, like the CLI's: the installed systems, through their entry points

CACHE = Path(os.environ.get("WARLOG_BENCH_CACHE", Path(tempfile.gettempdir()) / "warlog-bench-cache"))
SEATS = (("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))
SEED = 7_000
MAX_TURNS = 500


class CorpusGame(msgspec.Struct, frozen=True):
    """One recorded bot game: its setup (POST /games body), the actions played, the events' JSON payloads."""

    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    payloads: list[msgspec.Raw]

    def events(self) -> list[Any]:
        return [CODEC.decode_json(bytes(p)) for p in self.payloads]


def play(index: int) -> CorpusGame:
    """Bot game ``index`` of the corpus, with the actions that produced it (``play_bot_game``'s loop, recording)."""
    setup = demo_setup(index, SEED)
    seats = SEATS[index % len(SEATS)]
    bots = [make_bot(kind, SEED + index + i) for i, kind in enumerate(seats)]
    events = list(start(setup))
    state = initial_state()
    for event in events:
        state = evolve(state, event)
    actions = []
    while state.phase != "over":
        if state.turn > MAX_TURNS:
            action: Any = Concede(player=PLAYERS[state.active])
        else:
            action = bots[state.active].choose(state)
        actions.append(msgspec.to_builtins(action))
        for event in decide(state, action):
            state = evolve(state, event)
            events.append(event)
    return CorpusGame(setup, actions, [msgspec.Raw(CODEC.encode_json(e)) for e in events])


def _rules_digest() -> str:
    """A digest of the engine and event sources: a cached corpus is replayed only by the rules that made it."""
    digest = hashlib.blake2b(digest_size=6)
    for path in sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "events").rglob("*.py")]):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _play_many(indices: range) -> bytes:
    return b"".join(msgspec.json.encode(play(i)) + b"\n" for i in indices)


def corpus(n: int, log: Callable[[str], None] = print) -> list[CorpusGame]:
    """``n`` distinct bot games, played once per machine and rules version, cached (``$WARLOG_BENCH_CACHE``)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"corpus-{_rules_digest()}-{SEED}-{n}.jsonl"
    if not path.exists():
        started = time.perf_counter()
        chunk = 50
        chunks = [range(i, min(i + chunk, n)) for i in range(0, n, chunk)]
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            parts = list(pool.map(_play_many, chunks))
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(b"".join(parts))
        tmp.replace(path)
        log(f"  corpus: played {n:,} bot games in {time.perf_counter() - started:.1f} s -> {path}")
    decoder = msgspec.json.Decoder(CorpusGame)
    with path.open("rb") as lines:
        return [decoder.decode(line) for line in lines]


def games_for(count: int, distinct: list[CorpusGame]) -> Iterator[tuple[int, CorpusGame]]:
    """``count`` games cycling through the distinct ones: (index, game); ids are made from the index."""
    for i in range(count):
        yield i, distinct[i % len(distinct)]


def game_id(i: int) -> str:
    return f"bench-{i:08d}"


# -- timing and statistics ----------------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of an unsorted list."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def spread(values: list[float]) -> str:
    """`median (min-max, n=k)` for a RESULTS.md cell."""
    return f"{fmt(median(values))} ({fmt(min(values))}-{fmt(max(values))}, n={len(values)})"


def fmt(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


# -- machine and memory -------------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    try:
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    import duckdb

    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "memory": mem,
        "load (1/5/15 min) at start": load,
        "os": platform.platform(),
        "python": platform.python_version(),
        "duckdb": duckdb.__version__,
        "msgspec": msgspec.__version__,
    }


def peak_rss_mib(pid: int | None = None) -> float:
    """Peak resident set size (VmHWM) of a process, MiB; this process when ``pid`` is None."""
    status = Path(f"/proc/{pid or 'self'}/status").read_text()
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def rss_mib(pid: int | None = None) -> float:
    status = Path(f"/proc/{pid or 'self'}/status").read_text()
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- a server -----------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, *, root: Path = ROOT, args: Sequence[str] = (),
                 env: Mapping[str, str] | None = None) -> subprocess.Popen:
    """``warlog serve --db DB`` on 127.0.0.1:PORT in a subprocess, with the code of the checkout ``root`` (this one
    unless another's code is measured), ``args`` after it and ``env`` over this environment. Returns once
    ``GET /health`` answers; RuntimeError (with the end of its stderr) if it exits first or does not answer in 60 s."""
    import httpx

    code = "import sys; from api.cli import main; sys.exit(main())"
    server = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--db", str(db), "--host", "127.0.0.1", "--port", str(port), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=root, env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited: {server.stderr.read().decode()[-2000:] if server.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not answer /health within 60 s")


def stop_server(server: subprocess.Popen, seconds: float) -> None:
    """SIGTERM, then SIGKILL if the server has not ended within ``seconds``."""
    server.terminate()
    try:
        server.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        server.kill()
