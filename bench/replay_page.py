"""The replay page's first paint and step time for each game system (issue 32), in headless Chromium.

    .venv/bin/python bench/replay_page.py [--runs 5] [--steps 150] [--json out.json]

Starts ``warlog serve --load-samples`` on a temporary DuckDB file (the sample games of every system), then for each
system opens ``/replay/{id}`` of its longest sample game in Debian's Chromium (/usr/bin/chromium or
$WARLOG_CHROMIUM, with the flags tests/web uses) and measures:

- **first paint**, ``--runs`` times in a fresh browser context (a cold cache): the Paint Timing API's
  ``first-contentful-paint`` and the page's own ``board-drawn`` performance mark (set when the board is first
  drawn: the game, its first window of steps, the system's drawing module and its data loaded), both from
  navigation start;
- **a step**: once every step is loaded, ``--steps`` presses of the next-step key (ArrowRight) in a row from step 1,
  each timed from the key press until the page has drawn the step (its ``warlog:drawn`` event) and the board is
  laid out (``getBoundingClientRect``); one animation frame between presses. Median and p95 (nearest rank).

The machine's load average is printed before and after: the figures follow the CPU the page gets.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from bench.common import median, percentile  # noqa: E402
from engine.systems import system_names  # noqa: E402
from tests.serving import free_port, serve, stop  # noqa: E402  (a start that waits up to --start-seconds)
from tests.web.conftest import CHROMIUM, FLAGS  # noqa: E402  (the browser and flags the tests use)

PAINT = """() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    board: performance.getEntriesByName('board-drawn')[0]?.startTime ?? null })"""

STEPS = """async (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const drawn = new Promise(r => document.addEventListener('warlog:drawn', r, {once: true}));
        document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
        if (document.querySelector('main').dataset.step !== String(i + 2)) await drawn;
        document.querySelector('#board').getBoundingClientRect();
        out.push(performance.now() - t0);
        await new Promise(r => requestAnimationFrame(() => r()));
    }
    return out;
}"""


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def replay(browser: Any, url: str, game_id: str) -> Iterator[Any]:
    """The game's replay page at step 1 in a fresh browser context (a cold cache), once its board is drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(120_000)
    try:
        page = context.new_page()
        page.goto(f"{url}/replay/{game_id}?step=1")
        page.wait_for_selector("main[data-step='1']")
        yield page
    finally:
        context.close()


def measure(browser: Any, url: str, game: dict[str, Any], runs: int, steps: int) -> dict[str, Any]:
    paints = []
    for _ in range(runs):
        with replay(browser, url, game["id"]) as page:
            paints.append(page.evaluate(PAINT))
    with replay(browser, url, game["id"]) as page:
        page.wait_for_function("!document.querySelector('#moves').textContent.includes('…')")  # every step loaded
        times = page.evaluate(STEPS, min(steps, game["seq"] - 1))
    fcp = [p["fcp"] for p in paints if p["fcp"] is not None]
    board = [p["board"] for p in paints if p["board"] is not None]
    return {"system": game["system"], "game": game["id"], "events": game["seq"], "runs": runs,
            "fcp_ms": median(fcp), "board_ms": median(board), "board_max_ms": max(board), "steps": len(times),
            "step_median_ms": median(times), "step_p95_ms": percentile(times, 95), "step_max_ms": max(times),
            "step_mean_ms": statistics.mean(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold page loads per system (first paint)")
    parser.add_argument("--steps", type=int, default=150, help="steps pressed per system (at most the game's)")
    parser.add_argument("--start-seconds", type=float, default=300, help="how long the server may take to start "
                        "(it records the sample games first: slow on a loaded machine)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"bench/replay_page.py needs Chromium at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    before = load()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = serve(Path(tmp) / "samples.duckdb", port, args=["--load-samples"],
                       env={"WARLOG_EXCLUDE_SYSTEMS": "pebbles"}, seconds=args.start_seconds)
        url = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
                try:
                    for system in system_names():
                        games = httpx.get(f"{url}/games", params={"system": system, "limit": 100}).json()["games"]
                        if not games:
                            continue
                        rows.append(measure(browser, url, max(games, key=lambda g: g["seq"]), args.runs, args.steps))
                        r = rows[-1]
                        print(f"{system}: fcp {r['fcp_ms']:.0f} ms, board {r['board_ms']:.0f} ms, step median "
                              f"{r['step_median_ms']:.1f} ms p95 {r['step_p95_ms']:.1f} ms", file=sys.stderr)
                finally:
                    browser.close()
        finally:
            stop(server)
    after = load()
    print(f"replay page, Chromium {CHROMIUM} headless at 1440x900; load average (1/5/15 min) {before} before, "
          f"{after} after; first paint: median of {args.runs} cold loads; a step: key press to board drawn and "
          "laid out")
    print()
    print("| system | game (events) | first contentful paint | board drawn | step median | step p95 | step max |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['system']} | {r['game']} ({r['events']}) | {r['fcp_ms']:.0f} ms | {r['board_ms']:.0f} ms | "
              f"{r['step_median_ms']:.1f} ms | {r['step_p95_ms']:.1f} ms | {r['step_max_ms']:.1f} ms "
              f"({r['steps']} steps) |")
    if args.json:
        args.json.write_text(json.dumps({"load_before": before, "load_after": after, "systems": rows}, indent=1))


if __name__ == "__main__":
    main()
