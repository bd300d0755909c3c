"""/stats in a real browser on the sample games: the charts' values read from the DOM equal the JSON API's answer;
a card table sorts by click and by keyboard; a filter changes the numbers to the filtered answer and stays in the
URL; a table downloads as CSV; empty statistics say "no games yet" and a refused filter shows the API's message;
a phone-sized screen. The page's load time is measured and printed."""

from __future__ import annotations

import csv
import io
import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.web.conftest import WAIT_MS, Server, screenshot

READY = "document.documentElement.dataset.ready === 'true'"


def open_stats(page: Any, server: Server, query: str = "") -> float:
    started = time.perf_counter()
    page.goto(f"{server.url}/stats/lords-of-war{query}")  # a system's page (issue 32 item 8; /stats: the index)
    page.wait_for_function(READY, timeout=WAIT_MS)
    return time.perf_counter() - started


def api(server: Server, path: str, **params: Any) -> Any:
    response = server.client().get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def section(page: Any, name: str) -> Any:
    return page.locator(f'section[data-statistic="{name}"]')


@pytest.fixture(autouse=True)
def _settled(server: Server) -> None:
    """These tests compare a page with the API: both after the statistics have counted every finished game."""
    server.settled()


def test_stats_page_draws_what_the_api_answers(server: Server, page: Any) -> None:
    seconds = open_stats(page, server)
    print(f"\n/stats loaded (every statistic drawn) in {seconds * 1000:.0f} ms; the page's own measure: "
          f"{page.evaluate('document.documentElement.dataset.loadMs')} ms")
    # the matchup heat map: each cell's win rate, games and written text are the API's
    matchups = api(server, "/stats/matchups")
    cells = section(page, "matchups").locator("g.cell[data-win-rate]")
    mirrors = [r for r in matchups["rows"] if r["army"] == r["opponent_army"]]
    assert cells.count() == len(matchups["rows"]) - len(mirrors)
    for row in mirrors:  # a mirror: its games, each once, and no win rate (issue 32 item 8)
        cell = section(page, "matchups").locator(f'g.cell[data-row="{row["army"]}"][data-column="{row["army"]}"]')
        assert cell.get_attribute("data-mirror") == "true" and int(cell.get_attribute("data-count")) == row["games"]
        assert cell.locator("text").all_text_contents()[0] == "mirror"
    for row in matchups["rows"]:
        if row in mirrors:
            continue
        cell = section(page, "matchups").locator(
            f'g.cell[data-row="{row["army"]}"][data-column="{row["opponent_army"]}"]')
        assert float(cell.get_attribute("data-win-rate")) == pytest.approx(row["win_rate"])
        assert int(cell.get_attribute("data-count")) == row["games"]
        text = cell.locator("text").all_text_contents()
        assert text[0] == f"{round(row['win_rate'] * 100)}%" and text[1].startswith(f"{row['games']} game")
        assert f"{row['wins']} wins" in cell.locator("title").text_content()
    # win rates with their intervals: dot and bar ends carry the API's values
    armies = api(server, "/stats/armies")
    marks = section(page, "armies").locator("g.mark")
    assert marks.count() == len(armies["rows"])
    for row, mark in zip(armies["rows"], marks.all(), strict=True):
        assert mark.get_attribute("data-label") == row["army"]
        assert [float(mark.get_attribute(f"data-{k}")) for k in ("value", "low", "high")] == pytest.approx(
            [row["win_rate"], row["low"], row["high"]])
    # the placement heat map on the mat: every square of the mat, its count the API's
    heat = {r["square"]: r["placements"] for r in api(server, "/stats/heatmap")["rows"]}
    squares = section(page, "heatmap").locator("g.square")
    assert squares.count() == 42
    for square in squares.all():
        assert int(square.get_attribute("data-placements")) == heat.get(square.get_attribute("data-square"), 0)
    # first player and the sample size
    first = api(server, "/stats/first-player")["overall"]
    overall = section(page, "first-player").locator('g.mark[data-label="all armies"]')
    assert float(overall.get_attribute("data-value")) == pytest.approx(first["win_rate"])
    assert page.locator(".sample").text_content().startswith(f"{armies['games']} finished games")
    # the rating history of the leader, one point a game and the start
    leader = api(server, "/stats/ratings")["rows"][0]["player"]
    history = api(server, f"/stats/ratings/{leader}/history")
    points = section(page, "rating-history").locator("circle.point")
    assert points.count() == len(history["rows"]) + 1
    assert float(points.last.get_attribute("data-y")) == pytest.approx(history["rows"][-1]["after"])
    assert page.locator("svg.chart").count() >= 7 and page.locator("svg.chart title").count() > 50
    screenshot(page, "stats-desktop")
    assert not page.problems


def column(page: Any, name: str, key: str) -> list[str]:
    return section(page, name).locator(f'tbody td[data-column="{key}"]').evaluate_all(
        "cells => cells.map(c => c.dataset.value)")


def test_card_table_sorts_by_click_and_keyboard(server: Server, page: Any) -> None:
    open_stats(page, server)
    cards = section(page, "cards")
    header = cards.locator('th[data-column="kills"]')
    assert header.get_attribute("aria-sort") is None
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    kills = [int(v) for v in column(page, "cards", "kills")]
    assert kills == sorted(kills, reverse=True) and kills[0] > kills[-1]
    header.locator("button").press("Enter")  # the keyboard: Enter on the focused header sorts the other way
    assert header.get_attribute("aria-sort") == "ascending"
    assert [int(v) for v in column(page, "cards", "kills")] == sorted(kills)
    card = cards.locator('th[data-column="card"] button')
    card.focus()
    page.keyboard.press("Space")
    assert cards.locator('th[data-column="card"]').get_attribute("aria-sort") == "ascending"
    assert header.get_attribute("aria-sort") is None  # one column sorts at a time
    names = column(page, "cards", "card")
    assert names == sorted(names)
    assert not page.problems


def test_a_filter_changes_the_numbers_and_stays_in_the_url(server: Server, page: Any) -> None:
    open_stats(page, server)
    page.get_by_label("Army", exact=True).fill("elves")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_function(READY, timeout=WAIT_MS)
    assert parse_qs(urlparse(page.url).query) == {"army": ["elves"]}
    filtered = api(server, "/stats/armies", army="elves")
    unfiltered = api(server, "/stats/armies")
    assert filtered["games"] < unfiltered["games"]
    assert page.locator(".sample").text_content().startswith(f"{filtered['games']} finished games")
    marks = section(page, "armies").locator("g.mark")
    assert [m.get_attribute("data-label") for m in marks.all()] == [r["army"] for r in filtered["rows"]]
    assert [int(v) for v in column(page, "armies", "games")] == [r["games"] for r in filtered["rows"]]
    first = api(server, "/stats/first-player", army="elves")["overall"]
    overall = section(page, "first-player").locator('g.mark[data-label="all armies"]')
    assert float(overall.get_attribute("data-value")) == pytest.approx(first["win_rate"])
    # the URL is the view: opened again (a shared link), the same filter and numbers
    shared = page.url
    page.goto(server.url + "/stats/lords-of-war")
    page.wait_for_function(READY, timeout=WAIT_MS)
    page.goto(shared)
    page.wait_for_function(READY, timeout=WAIT_MS)
    assert page.get_by_label("Army", exact=True).input_value() == "elves"
    assert [int(v) for v in column(page, "armies", "games")] == [r["games"] for r in filtered["rows"]]
    # back to everything
    page.get_by_role("button", name="Reset").click()
    page.wait_for_function(READY, timeout=WAIT_MS)
    assert urlparse(page.url).query == ""
    assert page.locator(".sample").text_content().startswith(f"{unfiltered['games']} finished games")
    assert not page.problems


def test_the_ending_filter_chooses_rule_decided_adjudicated_or_all_games(server: Server, page: Any) -> None:
    """Issue 28: the core statistics' ``ending`` filter is a choice of three (default: the statistic's own)."""
    open_stats(page, server)
    ending = page.locator("select#filter-ending")  # its label reads "Ending" and the chosen option
    assert ending.locator("option").all_text_contents() == ["default", "rules", "adjudicated", "all"]
    ending.select_option("adjudicated")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_function(READY, timeout=WAIT_MS)
    assert parse_qs(urlparse(page.url).query) == {"ending": ["adjudicated"]}
    apart = api(server, "/stats/armies", ending="adjudicated")
    noun = "game" if apart["games"] == 1 else "games"
    assert page.locator(".sample").text_content().startswith(f"{apart['games']} finished {noun} ")
    assert page.locator("select#filter-ending").input_value() == "adjudicated"
    assert not page.problems


def test_a_table_downloads_as_csv(server: Server, page: Any) -> None:
    open_stats(page, server)
    armies = section(page, "armies")
    armies.locator("details > summary").click()
    with page.expect_download() as info:
        armies.get_by_role("button", name="Download Win rate by army (mirrors left out) as CSV").click()
    download = info.value
    assert download.suggested_filename == "warlog-armies.csv"
    rows = list(csv.DictReader(io.StringIO(open(download.path(), encoding="utf-8").read())))
    expected = api(server, "/stats/armies")["rows"]
    assert list(rows[0]) == list(expected[0])  # a header row of every column
    assert [r["army"] for r in rows] == [e["army"] for e in expected]
    for got, want in zip(rows, expected, strict=True):
        assert int(got["games"]) == want["games"] and float(got["win_rate"]) == pytest.approx(want["win_rate"])
        assert float(got["high"]) == want["high"]  # full precision
    # a table with two parts downloads each: first-player's by_army
    first = section(page, "first-player")
    first.locator("details > summary").click()
    with page.expect_download() as info:
        first.get_by_role("button", name="Download First-player advantage (by army) as CSV").click()
    assert info.value.suggested_filename == "warlog-first-player-by-army.csv"
    by_army = list(csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8").read())))
    assert [r["army"] for r in by_army] == [r["army"] for r in api(server, "/stats/first-player")["by_army"]]
    assert not page.problems


def test_empty_statistics_say_no_games_yet_and_a_refused_filter_shows_its_message(server: Server, page: Any) -> None:
    open_stats(page, server, "?tournament=no-such-cup")
    empty = page.locator("[data-empty]")
    assert empty.count() == page.locator("section.statistic").count()
    assert all("no games yet" in t.lower() for t in empty.all_text_contents())
    assert page.locator(".error").count() == 0 and not page.problems
    # a date range the API refuses (422): its message, once, and nothing drawn
    open_stats(page, server, "?date_from=2026-02-01&date_to=2026-01-01")
    errors = page.locator(".error")
    assert errors.count() == 1
    message = server.client().get("/stats/armies", params={"date_from": "2026-02-01", "date_to": "2026-01-01"})
    assert message.status_code == 422
    assert errors.text_content() == message.json()["error"]["message"]
    assert page.locator("svg.chart").count() == 0
    assert all("Failed to load resource" in p and "422" in p for p in page.problems), page.problems


def test_stats_page_on_a_phone(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        seconds = open_stats(page, server)
        print(f"\n/stats on a phone-sized screen loaded in {seconds * 1000:.0f} ms")
        # nothing wider than the screen but the scrolling table and chart boxes
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.get_by_label("Army", exact=True).is_visible()
        screenshot(page, "stats-phone")
        assert not problems
    finally:
        context.close()


def test_a_players_history_is_picked_in_the_url(server: Server, page: Any) -> None:
    players = [r["player"] for r in api(server, "/stats/ratings")["rows"]]
    player = players[-1]  # not the leader the page shows by default
    open_stats(page, server)
    history = section(page, "rating-history")
    history.get_by_label("Player", exact=True).fill(player)
    history.get_by_role("button", name="Show").click()
    title = "document.querySelector('#stat-rating-history svg title')"
    page.wait_for_function(f"{title}?.textContent.includes({player!r})")
    assert parse_qs(urlparse(page.url).query) == {"player": [player]}
    rows = api(server, f"/stats/ratings/{player}/history")["rows"]
    assert history.locator("circle.point").count() == len(rows) + 1
    assert history.locator('td[data-column="game_id"] a').first.get_attribute("href") == f"/replay/{rows[0]['game_id']}"
    # head-to-head takes the same player: only their records
    page.wait_for_function(READY)
    assert set(column(page, "head-to-head", "player")) == {player}
    assert not page.problems


def test_contents_links_and_back_keep_the_view(server: Server, page: Any) -> None:
    open_stats(page, server, "?army=orcs")
    page.evaluate("window.drawn = document.querySelector('section.statistic')")
    contents = page.get_by_role("navigation", name="Statistics on this page")
    contents.get_by_role("link", name="Per-card statistics").click()
    assert page.url.endswith("?army=orcs#stat-cards")
    page.go_back()  # from the fragment: the same view, not drawn again
    page.wait_for_timeout(300)
    assert page.evaluate("window.drawn.isConnected")  # its sections were not replaced
    page.get_by_label("Army", exact=True).fill("dwarves")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_function(READY, timeout=WAIT_MS)
    page.go_back()  # from another filter: the previous view again
    page.wait_for_function("new URL(location).searchParams.get('army') === 'orcs'")
    page.wait_for_function(READY, timeout=WAIT_MS)
    assert page.get_by_label("Army", exact=True).input_value() == "orcs"
    expected = [r["games"] for r in api(server, "/stats/armies", army="orcs")["rows"]]
    assert [int(v) for v in column(page, "armies", "games")] == expected
    assert not page.problems
