"""Helpers of the record tests: the ``warlog`` command line as a subprocess and ``warlog serve`` on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def warlog(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``warlog ARGS`` as a user runs it (``python -m api.cli``, cwd = the repository root); WARLOG_DB unset."""
    env = {k: v for k, v in os.environ.items() if k != "WARLOG_DB"}
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=env, capture_output=True, timeout=timeout,
        input=stdin.decode() if stdin is not None else None, text=True,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(db: Path) -> Iterator[httpx.Client]:
    """``warlog serve --db DB`` on a free port until the block ends; a client on its base URL. Fails (with the
    server's stderr) if it exits or does not answer /health within 30 s."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("WARLOG_DB", "WARLOG_ADMIN_KEY")}
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--db", str(db), "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise AssertionError(f"warlog serve exited with {process.returncode}: {err[-3000:]}")
            try:
                if client.get("/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("warlog serve did not answer /health within 30 s")
            time.sleep(0.1)
        try:
            yield client
        finally:
            client.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
