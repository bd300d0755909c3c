"""``warlog serve`` in a subprocess, as a user runs it, for the tests that need a real server (a socket, signals, the
database file held by another process): a free port, a start that returns once ``GET /health`` answers, a stop.

The server runs from the repository root in this environment without its ``WARLOG_*`` settings (a developer's
``WARLOG_DB`` or admin key must not change what a test sees), plus the ones a test gives.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

from api.installed import EXCLUDE_SETTING

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(
    db: Path,
    port: int,
    *,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
    module: str = "api.cli",
    launcher: Sequence[str] = (),
    seconds: float = 180,  # an upper bound on a condition wait: generous, since a loaded machine starts slowly
) -> subprocess.Popen[str]:
    """``python -m MODULE serve --db DB --port PORT ARGS`` (``launcher`` before it: a program that execs it) with
    the ``WARLOG_*`` settings in ``env`` (and the session's ``WARLOG_EXCLUDE_SYSTEMS``: the test system pebbles
    left out unless ``env`` says otherwise, tests/conftest.py); stdout to /dev/null, stderr kept (text). Returns once
    ``GET /health`` answers 200. AssertionError with the server's stderr if it exits first, or if it does not answer
    within ``seconds`` (then it is stopped)."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_") or k == EXCLUDE_SETTING}
    environment = kept | dict(env or {})
    process = subprocess.Popen(
        [*launcher, sys.executable, "-m", module, "serve", "--db", str(db), "--port", str(port), *args],
        cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + seconds
    while True:
        if process.poll() is not None:
            stderr = process.stderr.read() if process.stderr else ""
            raise AssertionError(f"warlog serve exited with {process.returncode}: {stderr[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop(process)
            raise AssertionError(f"warlog serve did not answer /health within {seconds:g} s")
        time.sleep(0.1)


def stop(process: subprocess.Popen[str], seconds: float = 15) -> None:
    """SIGTERM (a service manager's stop), then SIGKILL if it has not ended within ``seconds``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def held_by_another_process(db: Path) -> Iterator[int]:
    """A process (not a ``warlog serve``) holding the DuckDB file ``db`` open until the block ends; its pid."""
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({str(db)!r}); "
                               "print('open', flush=True); time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        yield holder.pid
    finally:
        holder.kill()
        holder.wait(timeout=10)


@contextmanager
def served(db: Path, *, env: Mapping[str, str] | None = None, module: str = "api.cli") -> Iterator[int]:
    """``serve`` on a free port until the block ends; yields the port."""
    port = free_port()
    process = serve(db, port, env=env, module=module)
    try:
        yield port
    finally:
        stop(process)


@contextmanager
def serving(db: Path, *, env: Mapping[str, str] | None = None, module: str = "api.cli") -> Iterator[httpx.Client]:
    """``serve`` on a free port until the block ends; a client on its base URL."""
    with served(db, env=env, module=module) as port, \
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        yield client


def warlog(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m api.cli ARGS`` in a subprocess, as a user runs ``warlog`` (from the repository root, without the
    environment's ``WARLOG_*`` settings), beside a server ``served`` runs on the same file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
