"""Issue 32 item 3 in a real browser: the step and the view are in the replay's URL, so a shared link restores
exactly what is shown, and the page downloads the game's record as text and as JSONL in the view shown."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

from tests.web.conftest import Server, screenshot


def finished_game(server: Server) -> dict[str, Any]:
    games = server.samples("lords-of-war")
    return next(g for g in games if g["metadata"].get("status") == "over" and g["seq"] > 20)


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def test_a_shared_link_restores_the_step_and_the_view(server: Server, page: Any, browser: Any) -> None:
    game = finished_game(server)
    page.goto(f"{server.url}/replay/{game['id']}?step=12&view=all")
    page.wait_for_selector("main[data-step='12']")
    assert page.input_value("#view-select") == "all"
    hand = server.client().get(f"/games/{game['id']}/state", params={"seq": 12, "view": "all"}).json()
    assert hand  # the all view of a finished game is public
    page.select_option("#view-select", "p2")
    page.click("form.replay-view button[type=submit]")
    page.wait_for_function("new URLSearchParams(location.search).get('view') === 'p2'")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("main[data-step='13']")
    assert query(page) == {"step": ["13"], "view": ["p2"]}
    shared = page.url
    text = page.inner_text("#explanation")
    board = page.inner_html("#board")
    other = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()  # another reader: no session
    other.goto(shared)
    other.wait_for_selector("main[data-step='13']")
    assert other.input_value("#view-select") == "p2"
    assert other.inner_text("#explanation") == text and other.inner_html("#board") == board
    other.context.close()
    page.select_option("#view-select", "spectator")
    page.click("form.replay-view button[type=submit]")
    page.wait_for_function("!new URLSearchParams(location.search).has('view')")
    assert query(page) == {"step": ["13"]}
    assert not page.problems


def test_the_record_downloads_as_text_and_jsonl_in_the_view_shown(server: Server, page: Any) -> None:
    game = finished_game(server)
    page.goto(f"{server.url}/replay/{game['id']}?view=p1")
    page.wait_for_selector("main[data-step]")
    client = server.client()
    for kind, suffix in (("record", "txt"), ("jsonl", "jsonl")):
        link = page.locator(f"a[data-download='{kind}']")
        with page.expect_download() as started:
            link.click()
        download = started.value
        assert download.suggested_filename == f"warlog-{game['id']}.{suffix}"
        got = open(download.path(), encoding="utf-8").read()
        assert got == client.get(f"/games/{game['id']}/export", params={"format": kind, "view": "p1"}).text
    lines = [json.loads(line) for line in got.splitlines()]
    assert len(lines) == game["seq"]
    screenshot(page, "replay-download")
    assert not page.problems
