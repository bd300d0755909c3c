"""The tournament page (/tournaments/{id}) in a real browser: rounds, tables, byes, results, standings."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import WAIT_MS, Server, screenshot

PLAYERS = [("ann", "Ann", "orcs"), ("ben", "Ben", "dwarves"), ("cat", "Cat", "elves"), ("dan", "Dan", "undead"),
           ("eve", "Eve", "templars")]


def play(client: httpx.Client, game_id: str, scorekeeper: str, seed: int = 1) -> int:
    """A random bot for every seat, through the running server (its legal actions, the scorekeeper's token),
    until the game is over; the number of actions played."""
    headers, rng, played = {"Authorization": f"Bearer {scorekeeper}"}, random.Random(seed), 0
    while (legal := client.get(f"/games/{game_id}/legal", headers=headers).json())["actions"]:
        response = client.post(f"/games/{game_id}/actions", headers=headers,
                               json={"action": rng.choice(legal["actions"]), "expected_seq": legal["seq"]})
        assert response.status_code == 201, response.text
        played += 1
    return played


def create(server: Server, name: str, players: list[tuple[str, str, str]]) -> tuple[str, dict[str, str]]:
    client = server.client()
    created = client.post("/tournaments", json={"name": name, "system": "lords-of-war", "rounds": 3})
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], {"Authorization": f"Bearer {created.json()['token']}"}
    for pid, pname, army in players:
        response = client.post(f"/tournaments/{tid}/players", json={"id": pid, "name": pname, "army": army},
                               headers=organiser)
        assert response.status_code == 201, response.text
    return tid, organiser


@pytest.fixture(scope="module")
def running(server: Server) -> Iterator[dict[str, Any]]:
    """Five players, round 1 started: table 1 played out by bots, table 2 still playing, one bye."""
    tid, organiser = create(server, "Autumn Open", PLAYERS)
    client = server.client()
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    assert started.status_code == 201, started.text
    tables = started.json()["tables"]
    assert play(client, tables[0]["game_id"], tables[0]["tokens"]["scorekeeper"]) > 0
    yield {"id": tid, "tables": tables, "bye": started.json()["byes"]}


def test_the_page_shows_rounds_tables_byes_and_standings(server: Server, page: Any, running: dict[str, Any]) -> None:
    page.goto(f"{server.url}/tournaments/{running['id']}")
    page.wait_for_selector("[data-tournament] h1", timeout=WAIT_MS)
    assert page.locator("h1").inner_text() == "Autumn Open"
    assert page.title() == "Autumn Open · warlog"
    assert "lords-of-war" in page.locator("dl.facts").inner_text()
    # issue 31 item 8: round 1 is still being played (table 2): it is in play, not played
    assert page.locator("[data-rounds]").inner_text() == "Round 1 of 3 in play"
    names = {pid: pname for pid, pname, _ in PLAYERS}
    api = server.client().get(f"/tournaments/{running['id']}").json()["played_rounds"][0]
    finished, playing = api["tables"]
    first = page.locator("[data-round='1'] tr[data-table='1']")
    assert first.get_attribute("data-status") == "finished"
    winner = finished["winner"]
    result = first.locator("[data-col=result]").inner_text()
    assert (names[finished["seats"][winner]] + " wins" if winner != "draw" else "Draw") in result
    for seat, player in finished["seats"].items():
        assert f"{seat} {names[player]}" in first.inner_text()
        assert f"{names[player]} {finished['scores'][seat]}" in result  # each player's score (cards destroyed)
    assert first.locator("a[data-replay]").get_attribute("href") == f"/replay/{finished['game_id']}"
    second = page.locator("[data-round='1'] tr[data-table='2']")
    assert second.get_attribute("data-status") == "playing" and playing["status"] == "playing"
    assert second.locator("[data-col=status]").inner_text() == "playing"
    assert second.locator("[data-col=result]").inner_text() == "—"
    assert second.locator("a[data-replay]").get_attribute("href") == f"/replay/{playing['game_id']}"
    assert page.locator("[data-round='1'] [data-byes]").inner_text() == f"Bye: {names[running['bye'][0]]}"

    standings = server.client().get(f"/tournaments/{running['id']}/standings").json()["standings"]
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == len(PLAYERS)
    for i, standing in enumerate(standings):
        row = rows.nth(i)
        assert row.get_attribute("data-player") == standing["player"]
        cells = row.locator("td, th").all_inner_texts()
        assert cells[:2] == [str(standing["rank"]), standing["name"]]
        assert row.locator("[data-tiebreak=match_points]").inner_text() == str(standing["match_points"])
        omw = row.locator("[data-tiebreak=opponents_match_win]").inner_text()
        assert omw == f"{standing['opponents_match_win'] * 100:.1f}%"
    assert page.locator("table.standings caption").inner_text()  # a screen reader hears what the order is
    screenshot(page, "tournament-desktop")
    assert not page.problems


def test_a_tournament_on_a_phone(server: Server, browser: Any, running: dict[str, Any]) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.goto(f"{server.url}/tournaments/{running['id']}")
    phone.wait_for_selector("table.standings")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "tournament-phone")
    context.close()
    assert not errors


def test_a_tournament_without_rounds_says_so(server: Server, page: Any) -> None:
    tid, _ = create(server, "Winter Cup", PLAYERS[:2])
    page.goto(f"{server.url}/tournaments/{tid}")
    page.wait_for_selector("[data-no-rounds]", timeout=WAIT_MS)
    assert page.locator("[data-no-rounds]").inner_text() == "No rounds have been played yet."
    assert page.locator("[data-rounds]").inner_text() == "0 of 3 played"
    assert page.locator("table.standings tbody tr").count() == 2
    assert not page.problems


def test_an_unknown_tournament_is_a_404_page(server: Server, page: Any) -> None:
    response = page.goto(f"{server.url}/tournaments/no-such-cup")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "Not found"
    assert "no-such-cup" in page.locator("main").inner_text()
    assert page.locator("main a[href='/']").count() == 1
    # the document's own 404 is the only console line
    assert all("404" in p for p in page.problems)
    json = server.client().get("/tournaments/no-such-cup")  # other clients still get the API's error
    assert json.status_code == 404 and json.json()["error"]["code"]


def test_i31_rounds_played_counts_finished_rounds_and_names_the_round_in_play(server: Server, page: Any) -> None:
    """Issue 31 item 8: "Rounds 3 of 3 played" was shown while round 3 was still being played. Rounds played counts
    finished rounds; a round whose tables still play is "in play"."""
    tid, organiser = create(server, "Two Rounds", PLAYERS[:2])
    client = server.client()
    first = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"][0]
    page.goto(f"{server.url}/tournaments/{tid}")
    page.wait_for_selector("[data-tournament] h1", timeout=WAIT_MS)
    assert page.locator("[data-rounds]").inner_text() == "Round 1 of 3 in play"
    play(client, first["game_id"], first["tokens"]["scorekeeper"])
    page.reload()
    page.wait_for_selector("[data-tournament] h1", timeout=WAIT_MS)
    assert page.locator("[data-rounds]").inner_text() == "1 of 3 played"
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    page.reload()
    page.wait_for_selector("[data-tournament] h1", timeout=WAIT_MS)
    assert page.locator("[data-rounds]").inner_text() == "Round 2 of 3 in play · 1 played"
    assert not page.problems


def test_i31_a_forfeited_table_links_its_result_not_an_empty_replay(server: Server, page: Any) -> None:
    """Issue 31 item 8: a forfeited table linked to the replay of a game nobody played. Its Game cell links the
    result (the game's record, which holds the forfeit's adjudication) and offers no replay; a table whose game
    was played still links its replay."""
    tid, organiser = create(server, "Forfeit Night", PLAYERS[:4])
    client = server.client()
    tables = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"]
    play(client, tables[0]["game_id"], tables[0]["tokens"]["scorekeeper"])
    forfeit = client.post(f"/tournaments/{tid}/rounds/1/tables/2/result", json={"winner": "p2"}, headers=organiser)
    assert forfeit.status_code == 201, forfeit.text
    page.goto(f"{server.url}/tournaments/{tid}")
    page.wait_for_selector("[data-round='1'] tr[data-table='2']", timeout=WAIT_MS)
    forfeited = page.locator("[data-round='1'] tr[data-table='2']")
    assert forfeited.get_attribute("data-status") == "forfeit"
    assert forfeited.locator("a[data-replay]").count() == 0
    link = forfeited.locator("a[data-result]")
    assert link.get_attribute("href") == f"/games/{tables[1]['game_id']}"
    assert link.inner_text() == "result"
    played = page.locator("[data-round='1'] tr[data-table='1'] a[data-replay]")
    assert played.get_attribute("href") == f"/replay/{tables[0]['game_id']}"
    assert not page.problems


def test_i31_a_dropped_player_is_shown_dropped_in_the_standings(server: Server, page: Any) -> None:
    """Issue 31 item 1: a dropped player keeps their results and is shown as dropped in the standings."""
    tid, organiser = create(server, "Drop Night", PLAYERS[:2])
    client = server.client()
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p1"}, headers=organiser)
    assert client.post(f"/tournaments/{tid}/players/ben/drop", headers=organiser).status_code == 200
    page.goto(f"{server.url}/tournaments/{tid}")
    page.wait_for_selector("table.standings tbody tr[data-player='ben']", timeout=WAIT_MS)
    ben = page.locator("table.standings tr[data-player='ben']")
    assert ben.locator("[data-dropped]").inner_text().strip() == "dropped"
    assert "after round 1" in (ben.locator("[data-dropped]").get_attribute("title") or "")
    assert page.locator("table.standings tr[data-player='ann'] [data-dropped]").count() == 0
    assert not page.problems
