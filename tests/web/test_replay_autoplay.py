"""Issue 32 item 3 in a real browser: autoplay steps through the game at the chosen speed, pauses, and starts
over from the first step at the end."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Server
from tests.web.test_replay_share import finished_game, query

AT_LEAST = "(n) => Number(document.querySelector('main').dataset.step) >= n"  # a step may pass between two polls
RESTARTED = "() => { const s = Number(document.querySelector('main').dataset.step); return s >= 3 && s < 10; }"


def test_autoplay_steps_forward_at_the_chosen_speed_and_pauses(server: Server, page: Any) -> None:
    game = finished_game(server)
    page.goto(f"{server.url}/replay/{game['id']}?step=1")
    page.wait_for_selector("main[data-step='1']")
    assert page.input_value("#autoplay-speed") == "1"
    page.select_option("#autoplay-speed", "4")
    play = page.locator("button[data-autoplay]")
    assert play.get_attribute("aria-pressed") == "false"
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    page.wait_for_function(AT_LEAST, arg=6)  # steps one after another, each one drawn
    assert "step" in dict(query(page))
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    assert page.get_attribute("main", "data-autoplay") is None  # the timer is stopped
    stopped = int(page.get_attribute("main", "data-step"))
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"main[data-step='{stopped + 1}']")
    page.keyboard.press("End")
    page.wait_for_selector(f"main[data-step='{game['seq']}']")
    play.click()  # at the last step: starts from the first
    page.wait_for_function(RESTARTED)
    page.keyboard.press("k")  # k toggles, as on lichess and video players
    assert play.get_attribute("aria-pressed") == "false"
    assert not page.problems
