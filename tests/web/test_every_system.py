"""Every registered game system in the browser: a sample game of each (``--load-samples`` records bot games of
every system) replays on /replay/{id} — drawn by the system's board module, or shown as tables when it has none —
steps with the keyboard, and /stats?system=<name> draws its statistics, all without a console error. A system
registered tomorrow is checked here without editing this file."""

from __future__ import annotations

from typing import Any

import pytest

from engine.systems import system_names
from tests.web.conftest import WAIT_MS, Server, screenshot


def sample_game(server: Server, system: str) -> dict[str, Any]:
    games = server.samples(system)
    assert games, f"no sample game of {system}"
    return max(games, key=lambda g: g["seq"])


@pytest.mark.parametrize("system", system_names())
def test_a_sample_game_of_every_system_replays_and_steps(server: Server, page: Any, system: str) -> None:
    game = sample_game(server, system)
    assert game["seq"] >= 3
    page.goto(f"{server.url}/replay/{game['id']}?step=2")
    page.wait_for_selector("main[data-step]", timeout=WAIT_MS)
    assert page.get_attribute("main", "data-step") == "2"
    board = page.locator("#board")
    assert board.locator("svg").count() + board.locator("table").count() >= 1
    assert (page.text_content("#board-alt") or "").strip()
    before = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('main').dataset.step === '3'")
    assert (page.text_content("#explanation") or "").strip()
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('main').dataset.step === '{game['seq']}'")
    assert page.inner_html("#board") != before
    screenshot(page, f"replay-{system}")
    assert not page.problems


@pytest.mark.parametrize("system", system_names())
def test_the_statistics_page_of_every_system(server: Server, page: Any, system: str) -> None:
    page.goto(f"{server.url}/stats?system={system}")
    page.wait_for_selector("html[data-ready='true']", timeout=WAIT_MS)
    assert page.locator("section.statistic").count() >= 5
    assert page.locator(".error").count() == 0
    screenshot(page, f"stats-{system}")
    assert not page.problems


def test_l5r_honour_curves_are_drawn_one_line_a_clan_with_the_values_in_the_table(server: Server, page: Any) -> None:
    page.goto(f"{server.url}/stats?system=l5r")
    page.wait_for_selector("html[data-ready='true']", timeout=WAIT_MS)
    page.wait_for_selector("polyline[data-clan]", timeout=WAIT_MS)
    clans = page.eval_on_selector_all("polyline[data-clan]", "ls => ls.map(l => l.dataset.clan)")
    assert len(clans) >= 2 and clans == sorted(clans)
    first = page.locator("circle[data-clan][data-turn='0']").first
    clan, honour = first.get_attribute("data-clan"), float(first.get_attribute("data-y") or "nan")
    result = server.client().get("/stats/l5r/honor", params={"system": "l5r"}).json()
    assert any(r["clan"] == clan and r["turn"] == 0 and r["mean_honor"] == honour for r in result["rows"])
    screenshot(page, "stats-l5r-honour")
    assert not page.problems
