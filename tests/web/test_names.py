"""Issue 32 item 4 in a real browser: every system's replay is titled with its players' names and armies (the
system's display labels, never a code), its result names the winner and the end reason in words, and its steps
name the players instead of their seats."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.systems import system_names
from tests.web.conftest import Server, screenshot


@pytest.mark.parametrize("system", system_names())
def test_every_systems_replay_names_players_armies_and_the_end_reason(server: Server, page: Any, system: str) -> None:
    client = server.client()
    listed = server.samples(system)
    game = next(g for g in listed if g["metadata"].get("status") == "over" and g["metadata"].get("winner") not in
                (None, "draw"))
    summary = client.get(f"/games/{game['id']}").json()
    labels = client.get(f"/static/systems/{system}/labels.json").json()
    seats = summary["players"]
    assert all(p["name"] != p["id"] for p in seats)
    named = [f"{p['name']} ({labels['armies'][p['army']]})" if p["army"] else p["name"] for p in seats]
    page.goto(f"{server.url}/replay/{game['id']}")
    page.wait_for_selector("main[data-step]")
    assert page.inner_text("h1") == "Replay: " + " vs ".join(named)
    assert page.title().startswith(" vs ".join(named))
    winner = next(p["name"] for p in seats if p["id"] == summary["winner"])
    meta = page.inner_text(".replay-meta")
    assert f"{winner} won" in meta and labels["system"] in meta, meta
    assert labels["end_reasons"][summary["end_reason"]] in meta and f"({summary['end_reason']})" not in meta, meta
    steps = page.locator(".replay-log a").all_inner_texts()
    seat_word = re.compile(r"\bp[1-6]\b")
    assert not [s for s in steps if seat_word.search(s)], [s for s in steps if seat_word.search(s)][:3]
    assert any(p["name"] in s for s in steps for p in seats)
    assert not seat_word.search(page.inner_text("#explanation"))
    screenshot(page, f"names-{system}")
    assert not page.problems


def rgb(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", text)[:3])


@pytest.mark.parametrize("system", ["light-wars", "heroscape", "l5r", "art-of-war"])
def test_the_games_list_draws_the_sample_players_red_and_blue_in_their_colours_with_labels(
        server: Server, page: Any, system: str) -> None:
    client = server.client()
    listed = server.samples(system)
    game = next(g for g in listed if g["players"] == ["red", "blue"] and g["metadata"].get("status") == "over")
    labels = client.get(f"/static/systems/{system}/labels.json").json()
    page.goto(f"{server.url}/?system={system}")
    row = page.locator(f"tr[data-game-id='{game['id']}']")
    row.wait_for()
    red = rgb(row.locator("li[data-seat='p1'] .seat-dot").evaluate("e => getComputedStyle(e).backgroundColor"))
    blue = rgb(row.locator("li[data-seat='p2'] .seat-dot").evaluate("e => getComputedStyle(e).backgroundColor"))
    assert red[0] > red[2] and blue[2] > blue[0], (red, blue)  # "red" is drawn red, "blue" blue, as on the board
    armies = game["metadata"]["armies"]
    text = row.inner_text()
    assert all(f"({labels['armies'][army]})" in text for army in armies.values()), text
    reason = game["metadata"]["end_reason"]
    assert labels["end_reasons"][reason] in row.locator("[data-col=result]").inner_text()
    assert not page.problems
