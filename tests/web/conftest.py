"""Browser tests: a real headless Chromium (Debian's package) driven by playwright, against `warlog serve`.

`playwright install` cannot download browsers here: the tests launch /usr/bin/chromium (or $WARLOG_CHROMIUM)
with the flags this machine's closed network needs. Screenshots go to build/screenshots/ (look at them).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving import free_port, serve, stop

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WARLOG_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]
SHOTS = ROOT / "build" / "screenshots"
ADMIN = "web-admin-key"
# How long a page may take to show what a test waits for: an upper bound on a condition wait, never a pause. It is
# generous because a busy machine (CI beside other jobs) renders a page many times slower than an idle one.
WAIT_MS = 90_000
MISSING = (f"the browser tests need Chromium at {CHROMIUM}: install Debian's package (`apt-get install -y chromium`) "
           "or set WARLOG_CHROMIUM to a Chromium binary")


# The write limits are off: every request of `Server.client()` carries the admin key, so all the writes of a
# worker's web tests (whole bot games among them) took from the admin key's one bucket (300 at once, 20 a second
# after) and could run it dry: a 429. tests/api/test_rate_limits.py tests the limits.
SERVER_ENV = {"WARLOG_ADMIN_KEY": ADMIN, "WARLOG_WRITE_RATE": "0", "WARLOG_ADDRESS_WRITE_RATE": "0"}


class Server:
    """A `warlog serve` in a subprocess on a fresh DuckDB file (the sample games loaded)."""

    def __init__(self, db: Path, samples: bool = True) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = serve(db, self.port, env=SERVER_ENV,
                             args=["--load-samples"] if samples else [], seconds=180)
        # the games it started with: the tests of a worker share this server and add games of their own (a longer
        # game, another finished one) in an order that differs from run to run
        with self.client() as client:
            listed = client.get("/games", params={"limit": 500}).json()
        assert listed["next_cursor"] is None, "more sample games than one page of the list"
        self.sample_ids = frozenset(g["id"] for g in listed["games"])

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, headers={"X-Admin-Key": ADMIN})

    def samples(self, system: str) -> list[dict[str, Any]]:
        """The sample games of ``system`` as ``GET /games`` lists them (never a game another test added)."""
        with self.client() as client:
            listed = client.get("/games", params={"system": system, "limit": 500}).json()["games"]
        return [g for g in listed if g["id"] in self.sample_ids]

    def settled(self, seconds: float = 120) -> None:
        """Wait until the statistics count every finished game: the projector follows the commits up to ~10 s
        behind, so a statistics page drawn just after another test's game ended could read other numbers than the
        API a moment later. A bound on a hang, not a latency claim."""
        deadline = time.monotonic() + seconds
        with self.client() as client:
            systems = [s["name"] for s in client.get("/stats").json()["systems"]]
            for system in systems:  # the statistics answer one system at a time
                while True:
                    listed = client.get("/games", params={"system": system, "status": "over", "limit": 500}).json()
                    assert listed["next_cursor"] is None, "more finished games than one page of the list"
                    counted = client.get("/stats/end-reasons", params={"system": system, "ending": "all"}).json()
                    if counted["games"] == len(listed["games"]):
                        break
                    assert time.monotonic() < deadline, (
                        f"the {system} statistics count {counted['games']} of {len(listed['games'])} finished games")
                    time.sleep(0.2)

    def stop(self) -> None:
        stop(self.process)


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
    context.set_default_timeout(WAIT_MS)
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
