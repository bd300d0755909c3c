"""Browser tests: a real headless Chromium (Debian's package) driven by playwright, against `warlog serve`.

`playwright install` cannot download browsers here: the tests launch /usr/bin/chromium (or $WARLOG_CHROMIUM)
with the flags this machine's closed network needs. Screenshots go to build/screenshots/ (look at them).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WARLOG_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]
SHOTS = ROOT / "build" / "screenshots"
ADMIN = "web-admin-key"
MISSING = (f"the browser tests need Chromium at {CHROMIUM}: install Debian's package (`apt-get install -y chromium`) "
           "or set WARLOG_CHROMIUM to a Chromium binary")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `warlog serve` in a subprocess on a fresh DuckDB file (the sample games loaded)."""

    def __init__(self, db: Path, samples: bool = True) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "api.cli", "serve", "--db", str(db), "--port", str(self.port)]
        if samples:
            command.append("--load-samples")
        self.process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "WARLOG_ADMIN_KEY": ADMIN},
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise AssertionError(f"warlog serve exited: {err}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError("warlog serve did not answer /health within 60 s")

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, headers={"X-Admin-Key": ADMIN})

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "games.duckdb")
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(MISSING, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser context and page; console errors and failed page requests fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    opened.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    opened.problems = problems
    yield opened
    context.close()


def screenshot(page: Any, name: str) -> Path:
    """Save the page as build/screenshots/<name>.png (a test artifact to look at)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
