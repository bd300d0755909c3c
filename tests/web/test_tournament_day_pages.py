"""The tournament pages over a whole day (issue 31 item 7) in Chromium: the list with its filters, the tournament
page's sections, its live update, the bracket page and the three print views, at 1440x900 and 390x844.
Screenshots (and a PDF of each print view) go to build/screenshots/ (look at them)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import SHOTS, WAIT_MS, Server, screenshot
from tests.web.tournament_day import LATE, REASON, REGISTERED, TIEBREAKS, build_day, create, ok

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
NAMES = {pid: name for pid, name in REGISTERED} | {pid: name for pid, name, _ in LATE}


@pytest.fixture(scope="module")
def day(server: Server) -> dict[str, Any]:
    return build_day(server.client())


@pytest.fixture(scope="module")
def running(server: Server) -> dict[str, Any]:
    """Four players, round 1 on a 45-minute clock: table 1 decided at the table, table 2 still playing."""
    client = server.client()
    tid, organiser = create(client, "Evening League", REGISTERED[:4], rounds=2)
    tables = ok(client.post(f"/tournaments/{tid}/rounds", json={"duration": 45}, headers=organiser))["tables"]
    ok(client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p1"}, headers=organiser))
    return {"id": tid, "organiser": organiser, "tables": tables}


def opened(browser: Any, viewport: dict[str, int], media: str = "screen") -> tuple[Any, Any, list[str]]:
    """A page at a viewport; its problems (console errors, page errors) except the deck lists' 403/404, which
    the page asks for once a tournament has ended and ignores when there are none to show."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.emulate_media(media=media)
    problems: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error" and not str(message.location.get("url", "")).endswith("/decks"):
            problems.append(f"console: {message.text} ({message.location.get('url')})")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    return context, page, problems


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


def tag(viewport: dict[str, int]) -> str:
    return "desktop" if viewport["width"] > 600 else "phone"


def test_i31_the_list_puts_running_tournaments_first_and_filters_by_system_and_date_in_the_url(
        server: Server, browser: Any, day: dict[str, Any], running: dict[str, Any], viewport: dict[str, int]) -> None:
    client = server.client()
    ok(client.post("/tournaments", json={"name": "Heroes Cup", "system": "heroscape", "rounds": 2}))
    context, page, problems = opened(browser, viewport)
    page.goto(f"{server.url}/tournaments")
    page.wait_for_selector("[data-tournament-id]")
    rows = page.locator("table.tournaments tbody tr")
    statuses = [rows.nth(i).get_attribute("data-status") for i in range(rows.count())]
    assert "running" in statuses and statuses == sorted(statuses, key=lambda s: s != "running")
    live = page.locator(f"[data-tournament-id='{running['id']}'] [data-col=status]")
    assert live.inner_text() == "Round 1 of 2 · playing"
    assert page.locator(f"[data-tournament-id='{day['id']}'] [data-col=status]").inner_text() == "Finished"
    assert "Harvest Open" in page.locator(f"[data-tournament-id='{day['id']}']").inner_text()
    assert "16" in page.locator(f"[data-tournament-id='{day['id']}']").inner_text()
    # the cut's rounds are not Swiss rounds: "3 of 3", not "5 of 3" (cut rounds counted as rounds played)
    assert page.locator(f"[data-tournament-id='{day['id']}'] td[data-label=Rounds]").inner_text() == "3 of 3"
    # after the running ones, newest first (the list was oldest first under a "newest first" caption)
    newest = [t["id"] for t in client.get("/tournaments", params={"order": "newest"}).json()["tournaments"]
              if t["status"] != "running"]
    shown = [rows.nth(i).get_attribute("data-tournament-id") for i in range(rows.count())]
    assert [i for i in shown if i in newest] == newest
    screenshot(page, f"tournaments-list-{tag(viewport)}")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    page.select_option("#f-system", "heroscape")
    page.click("form[data-filters] button[type=submit]")
    page.wait_for_url("**/tournaments?system=heroscape")
    page.wait_for_function("[...document.querySelectorAll('table.tournaments tbody tr td:nth-child(2)')]"
                           ".every((td) => td.textContent === 'heroscape')")
    assert page.locator(f"[data-tournament-id='{day['id']}']").count() == 0
    page.reload()  # the filter is the URL's: a reload keeps it
    page.wait_for_selector("[data-count]")
    assert page.locator("#f-system").input_value() == "heroscape"
    assert "Heroes Cup" in page.locator("table.tournaments").inner_text()

    page.goto(f"{server.url}/tournaments?to=2000-01-01")
    page.wait_for_selector("[data-no-tournaments]")
    assert page.locator("#f-to").input_value() == "2000-01-01"
    page.click("[data-clear]")
    page.wait_for_url(f"{server.url}/tournaments")
    page.wait_for_selector(f"[data-tournament-id='{day['id']}']")
    page.go_back()  # the browser's back button returns to the filtered list
    page.wait_for_selector("[data-no-tournaments]")
    context.close()
    assert not problems


def test_i31_the_tournament_page_shows_registration_rounds_results_standings_and_the_bracket(
        server: Server, browser: Any, day: dict[str, Any], viewport: dict[str, int]) -> None:
    client = server.client()
    api = client.get(f"/tournaments/{day['id']}").json()
    standings = client.get(f"/tournaments/{day['id']}/standings").json()["standings"]
    context, page, problems = opened(browser, viewport)
    page.goto(f"{server.url}/tournaments/{day['id']}")
    page.wait_for_selector("[data-tournament] h1")
    assert page.locator("h1").inner_text() == "Harvest Open"
    assert page.locator("[data-rounds]").inner_text() == "3 of 3 played"
    assert page.locator("dd[data-status]").inner_text() == "finished"

    # registration: every entrant, the late ones and the dropped ones marked
    registration = page.locator("[data-registration]")
    assert registration.locator("tr[data-entrant]").count() == 16
    for pid, _, missed in LATE:
        mark = registration.locator(f"tr[data-entrant='{pid}'] [data-mark=late]")
        assert f"from round 2, missed rounds count as a {missed}" in mark.inner_text()
    for pid in day["dropped"]:
        assert registration.locator(f"tr[data-entrant='{pid}'] [data-mark=dropped]").inner_text() == \
            "dropped after round 2"
        assert page.locator(f"table.standings tr[data-player='{pid}'] [data-dropped]").count() == 1

    # round 1: table numbers, the corrected result with its reason, replay links
    first = page.locator("[data-round='1'] tr[data-table='1']")
    assert first.get_attribute("data-status") == "corrected"
    assert "(corrected)" in first.locator("[data-col=result]").inner_text()
    assert REASON in first.locator("[data-correction]").inner_text()
    assert f"{NAMES[day['rounds'][0][0]['p2']]} wins" in first.locator("[data-col=result]").inner_text()
    assert first.locator("a[data-replay]").get_attribute("href") == f"/replay/{day['rounds'][0][0]['game_id']}"
    assert page.locator("[data-round='1'] tbody tr").count() == 7
    # round 2: time called on the last tables, said on the round and on each of them
    assert "Time called by the organiser" in page.locator("[data-round='2'] [data-time-called]").inner_text()
    for number in day["time_called"]:
        assert page.locator(f"[data-round='2'] tr[data-table='{number}'] [data-col=status]").inner_text() == \
            "time called"
    # round 3: results entered from paper slips (the API's "forfeit" status) read "entered"; their link is the
    # result, not a replay
    third = page.locator("[data-round='3'] tr[data-table='1']")
    assert third.locator("[data-col=status]").inner_text() == "entered"
    assert third.locator("a[data-result]").count() == 1 and third.locator("a[data-replay]").count() == 0
    for table in day["rounds"][2]:
        row = page.locator(f"[data-round='3'] tr[data-table='{table['table']}']")
        assert NAMES[table["p1"]] in row.inner_text() and NAMES[table["p2"]] in row.inner_text()

    # standings: every tie-break of the tournament's choice, titled, in order, and a legend saying what each means
    heads = page.locator("table.standings thead th[data-tiebreak]")
    assert [heads.nth(i).get_attribute("data-tiebreak") for i in range(heads.count())] == TIEBREAKS
    assert heads.nth(1).locator("abbr").get_attribute("title") == "Opponents' match-win %"
    legend = page.locator("[data-tiebreak-legend] li")
    assert [legend.nth(i).get_attribute("data-tiebreak") for i in range(legend.count())] == TIEBREAKS
    for i, tiebreak in enumerate(api["tiebreaks"]):
        meaning = tiebreak["explanation"].split(": ", 1)[1]  # "points: win 3, ..." under the title "Points"
        assert legend.nth(i).inner_text().endswith(meaning)
    rows = page.locator("table.standings tbody tr")
    assert [rows.nth(i).get_attribute("data-player") for i in range(rows.count())] == [s["player"] for s in standings]
    top = rows.nth(0).locator("td[data-tiebreak='opponents_match_win']").inner_text()
    assert top == f"{standings[0]['tiebreaks'][1]['value'] * 100:.1f}%"

    # the cut: the bracket drawn, linked to its page; the champion named
    bracket = api["bracket"]
    assert page.locator("[data-bracket-section] li.match").count() == 3
    assert page.locator("[data-champion]").inner_text() == NAMES[bracket["champion"]]
    assert page.locator("a[data-bracket-link]").get_attribute("href") == f"/tournaments/{day['id']}/bracket"
    assert page.locator("[data-round='4'] h3").inner_text() == "Round 4: semi-finals"
    assert page.locator("[data-round='5'] h3").inner_text() == "Round 5: final"
    # the print views and exports are links; the day has ended, so its deck lists are public (GET .../decks):
    # one row a player, each with the army it registered
    kinds = page.locator("a[data-print-link]")
    assert [kinds.nth(i).get_attribute("href") for i in range(3)] == [
        f"/tournaments/{day['id']}?print={k}" for k in ("pairings-table", "pairings-name", "standings")]
    decks = server.client().get(f"/tournaments/{day['id']}/decks").json()["decks"]
    rows = page.locator("[data-decks] tbody tr")
    assert rows.count() == len(decks) == 16
    for i, deck in enumerate(decks):
        assert rows.nth(i).get_attribute("data-player") == deck["player"]
        assert deck["summary"] in rows.nth(i).inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"tournament-day-{tag(viewport)}")
    context.close()
    assert not problems


def test_i31_the_page_follows_results_and_shows_the_round_clock_without_a_reload(
        server: Server, browser: Any, running: dict[str, Any]) -> None:
    context, page, problems = opened(browser, DESKTOP)
    page.goto(f"{server.url}/tournaments/{running['id']}")
    page.wait_for_selector("[data-clock=running]")
    left = page.locator("[data-time-left]").inner_text()
    minutes, seconds = (int(x) for x in left.split(":"))
    assert 0 < minutes * 60 + seconds <= 45 * 60
    page.wait_for_function("(was) => document.querySelector('[data-time-left]').textContent !== was", arg=left)
    assert page.locator("[data-round='1'] tr[data-table='2']").get_attribute("data-status") == "playing"
    screenshot(page, "tournament-live-clock")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "tournament-live-clock-phone")
    page.evaluate("window.__same_document = true")
    ok(server.client().post(f"/tournaments/{running['id']}/rounds/1/tables/2/result", json={"winner": "p2"},
                            headers=running["organiser"]))
    page.wait_for_selector("[data-round='1'] tr[data-table='2'][data-status='forfeit']")
    assert page.evaluate("window.__same_document") is True  # no reload: the page followed the result
    assert page.locator("[data-rounds]").inner_text() == "1 of 2 played"
    assert page.locator("[data-clock]").count() == 0  # no table plays: no clock
    name = NAMES[running["tables"][1]["p2"]]
    assert f"{name} wins" in page.locator("[data-round='1'] tr[data-table='2'] [data-col=result]").inner_text()
    context.close()
    assert not problems


def test_i31_time_called_shows_time_on_the_clock(server: Server, browser: Any) -> None:
    client = server.client()
    tid, organiser = create(client, "Clock Night", REGISTERED[:2], rounds=1)
    ok(client.post(f"/tournaments/{tid}/rounds", json={"duration": 30}, headers=organiser))
    ok(client.post(f"/tournaments/{tid}/rounds/1/time", headers=organiser))
    context, page, problems = opened(browser, DESKTOP)
    page.goto(f"{server.url}/tournaments/{tid}")
    page.wait_for_selector("[data-clock=called]")
    assert "Round 1: time (called by the organiser)" == page.locator("[data-clock]").inner_text()
    assert page.locator("tr[data-table='1'] [data-col=status]").inner_text() == "time called"
    context.close()
    assert not problems


def test_i31_the_bracket_page_draws_seeds_first_players_winners_and_the_final(
        server: Server, browser: Any, day: dict[str, Any], viewport: dict[str, int]) -> None:
    client = server.client()
    bracket = client.get(f"/tournaments/{day['id']}/bracket").json()["bracket"]  # JSON clients keep the JSON
    assert bracket["size"] == 4 and bracket["champion"]
    context, page, problems = opened(browser, viewport)
    response = page.goto(f"{server.url}/tournaments/{day['id']}/bracket")
    assert response is not None and response.status == 200
    page.wait_for_selector("[data-bracket-page] [data-bracket]")
    assert page.locator("h1").inner_text() == "Harvest Open: bracket"
    seeds = page.locator("ol.cut-seeds li")
    assert [seeds.nth(i).inner_text() for i in range(4)] == [NAMES[s["entrant"]] for s in bracket["seeds"]]
    assert [page.locator(".bracket-round h3").nth(i).inner_text() for i in range(3)] == [
        "Semi-finals", "Final", "Champion"]
    for matches in bracket["rounds"]:
        for match in matches:
            box = page.locator(f"li.match[data-match='{match['bracket_round']}-{match['match']}']")
            assert box.get_attribute("data-status") == "decided"
            higher = box.locator(f"li.side[data-entrant='{match['higher']}']")
            assert higher.locator(".seed").inner_text() == str(match["higher_seed"])
            assert higher.locator(".badge.first").count() == 1  # the higher seed chose to go first
            assert "won" in (box.locator(f"li.side[data-entrant='{match['winner']}']").get_attribute("class") or "")
            game = match["games"][-1]["game_id"]
            assert box.locator(f"a[data-game='{game}']").get_attribute("href") == f"/replay/{game}"
    assert page.locator("[data-champion]").inner_text() == NAMES[bracket["champion"]]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"tournament-bracket-{tag(viewport)}")
    assert page.goto(f"{server.url}/tournaments/nope/bracket").status == 404  # type: ignore[union-attr]
    context.close()
    assert all("404" in p for p in problems)


PRINTS = ["pairings-table", "pairings-name", "standings"]


@pytest.mark.parametrize("kind", PRINTS)
def test_i31_print_views_are_black_on_white_without_navigation(server: Server, browser: Any, day: dict[str, Any],
                                                              kind: str) -> None:
    client = server.client()
    api = client.get(f"/tournaments/{day['id']}").json()
    context, page, problems = opened(browser, DESKTOP)
    page.goto(f"{server.url}/tournaments/{day['id']}?print={kind}&round=3")
    page.wait_for_selector(f"[data-print-view='{kind}']")
    assert page.locator("[data-print-tools]").is_visible()  # on screen: print and back
    screenshot(page, f"tournament-print-{kind}-screen")
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()
    assert not page.locator("[data-print-tools]").is_visible()
    colours = page.evaluate("[getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]")
    assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
    rows = page.locator("tbody tr")
    if kind == "pairings-table":
        assert rows.count() == 7
        for i, table in enumerate(day["rounds"][2]):
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert cells == [str(table["table"]), NAMES[table["p1"]], NAMES[table["p2"]]]
    elif kind == "pairings-name":
        seated = {p: (t["table"], t["p2"] if p == t["p1"] else t["p1"]) for t in day["rounds"][2]
                  for p in (t["p1"], t["p2"])}
        names = [rows.nth(i).locator("th").inner_text() for i in range(rows.count())]
        assert names == sorted(NAMES[p] for p in seated) and len(names) == 14
        for i in range(rows.count()):
            player = rows.nth(i).get_attribute("data-player")
            table, opponent = seated[player]
            assert rows.nth(i).locator("td").all_inner_texts()[0::2] == [str(table), NAMES[opponent]]
        assert not any(day["dropped"][0] == rows.nth(i).get_attribute("data-player") for i in range(rows.count()))
    else:
        assert rows.count() == 16
        assert page.locator("[data-tiebreak-legend] li").count() == len(api["tiebreaks"])
        assert page.locator("[data-dropped]").count() == 2
    breaks = page.evaluate("[...document.querySelectorAll('tbody tr')].map((tr) => getComputedStyle(tr).breakInside)")
    assert set(breaks) == {"avoid"}  # no row cut across two sheets
    screenshot(page, f"tournament-print-{kind}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(SHOTS / f"tournament-print-{kind}.pdf"), format="A4")
    context.close()
    assert not problems


def test_i31_an_unknown_print_view_names_the_ones_there_are(server: Server, browser: Any,
                                                            day: dict[str, Any]) -> None:
    context, page, problems = opened(browser, DESKTOP)
    page.goto(f"{server.url}/tournaments/{day['id']}?print=poster")
    page.wait_for_selector("main [role=alert]")
    assert "pairings-table, pairings-name, standings" in page.locator("main [role=alert]").inner_text()
    context.close()
    assert not problems


def test_i31_deck_lists_show_only_when_the_decks_route_answers_200(server: Server, browser: Any,
                                                                  day: dict[str, Any]) -> None:
    """GET /tournaments/{id}/decks (issue 30, decks at registration): the browser's answer is stubbed here, 200
    with its documented shape, then 403 decks_hidden; the page shows the section only for the 200."""
    decks = {"decks": [
        {"player": "p01", "name": "Wren Ashby", "deck": "orcs", "summary": "orcs (a deck of the catalogue)"},
        {"player": "p02", "name": "Bram Okafor", "deck": {"units": ["king"]}, "summary": "own list: units: king"}]}
    hidden = {"error": {"code": "decks_hidden", "message": "hidden"}}
    for status, body, shown in ((200, decks, True), (403, hidden, False)):
        context, page, problems = opened(browser, DESKTOP)
        page.route("**/decks", answer(status, body))
        page.goto(f"{server.url}/tournaments/{day['id']}")
        page.wait_for_selector("[data-tournament] [data-standings]")
        page.wait_for_load_state("networkidle")
        assert page.locator("[data-decks]").count() == (1 if shown else 0)
        if shown:
            assert page.locator("#decks-heading").inner_text() == "Deck lists"
            rows = page.locator("[data-decks] tbody tr")
            assert rows.nth(0).inner_text().split("\t") == ["Wren Ashby", "orcs (a deck of the catalogue)"]
            assert rows.nth(1).locator("td").inner_text() == "own list: units: king"
        context.close()
        assert not problems


def answer(status: int, body: Any) -> Any:
    """A route handler answering ``status`` with ``body`` as JSON."""
    return lambda route: route.fulfill(status=status, content_type="application/json", body=json.dumps(body))
