"""The replay page (/replay/{id}) in a real Chromium: the board drawn as SVG, stepping with the keyboard, a link to
a step, the view selector (a spectator never sees a hidden card; a seat with its token sees its hand), a live game
followed through the SSE stream (and after a dropped connection), a system without a drawing shown as a table,
and the page's speed (printed: the figures go to bench/RESULTS.md)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.installed import EXCLUDE_SETTING
from tests.serving import serve, stop
from tests.web.conftest import SERVER_ENV, WAIT_MS, Server, free_port, screenshot

SEALED = {"system": "lords-of-war", "seed": 7, "insecure_seed": True, "variant": {"mode": "sealed"},
          "players": [{"id": "p1", "name": "Ann", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "dwarves"}]}


def long_game(server: Server) -> dict[str, Any]:
    games = server.samples("lords-of-war")
    return max(games, key=lambda g: g["seq"])


def new_game(server: Server) -> tuple[str, dict[str, str]]:
    created = server.client().post("/games", json=SEALED)
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["tokens"]


def play(server: Server, game_id: str, tokens: dict[str, str], moves: int) -> None:
    """Play `moves` legal actions (the first legal one each time) through the API."""
    client = server.client()
    for _ in range(moves):
        scorekeeper = {"Authorization": f"Bearer {tokens['scorekeeper']}"}
        legal = client.get(f"/games/{game_id}/legal", headers=scorekeeper).json()
        action = {"action": legal["actions"][0], "expected_seq": legal["seq"]}
        answer = client.post(f"/games/{game_id}/actions", json=action, headers=scorekeeper)
        assert answer.status_code == 201, answer.text


def open_replay(page: Any, server: Server, game_id: str, query: str = "") -> None:
    page.goto(f"{server.url}/replay/{game_id}{query}")
    page.wait_for_selector("main[data-step]", timeout=WAIT_MS)


# The step list's box shows the step shown: the list has been scrolled to it (static/js/replay-page.js, markLog)
SCROLLED_TO_THE_STEP = """() => {
  const link = document.querySelector("#moves a[aria-current='step']");
  if (!link) return false;
  const shown = link.getBoundingClientRect(), box = link.closest(".replay-log-wrap").getBoundingClientRect();
  return shown.top >= box.top && shown.bottom <= box.bottom;
}"""


def step_of(page: Any) -> int:
    return int(page.get_attribute("main", "data-step"))


def test_replay_draws_the_board_and_steps_with_the_keyboard(server: Server, page: Any) -> None:
    game = long_game(server)
    open_replay(page, server, game["id"], "?step=10")
    assert step_of(page) == 10
    cards = page.locator("svg.lw-board g.lw-card")
    assert cards.count() > 0
    assert page.locator("svg.lw-board rect.lw-square").count() == 42  # the 7x6 mat
    first = cards.first
    assert first.get_attribute("data-card") and first.get_attribute("data-owner") in ("p1", "p2")
    assert first.locator(".lw-defence").text_content().strip().isdigit()
    assert page.locator("svg.lw-board .lw-arrow").count() > 0
    explanation = page.text_content("#explanation")
    board = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('main').dataset.step === '11'")
    assert page.text_content("#explanation") != explanation
    assert page.inner_html("#board") != board
    assert "step=11" in page.url
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('main').dataset.step === '{game['seq']}'")
    assert "over" in page.inner_text(".lw-seats") or page.locator(".lw-seat .badge").count() > 0
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('main').dataset.step === '1'")
    page.keyboard.press("ArrowLeft")  # at the first step: stays
    assert step_of(page) == 1
    assert page.locator("button[aria-label='Previous step']").is_disabled()
    assert page.get_attribute("#step-slider", "aria-label") == "Step"
    assert not page.problems


def test_a_destruction_highlights_the_units_and_draws_shots(server: Server, page: Any) -> None:
    game = long_game(server)
    explained = server.client().get(f"/games/{game['id']}/explanations").json()["explanations"]
    shot_kill = next(e for e in explained if e["cause"]["type"] == "eliminated"
                     and any(a["kind"] == "shot" for u in e["cause"]["units"] for a in u["attackers"]))
    open_replay(page, server, game["id"], f"?step={shot_kill['seq']}")
    assert page.text_content("#explanation") == shot_kill["text"]
    for unit in shot_kill["cause"]["units"]:
        ghost = page.locator(f"g.lw-card[data-square='{unit['square']}'][data-destroyed='true']")
        assert ghost.count() == 1 and ghost.get_attribute("data-card") == unit["card"]
        for attacker in unit["attackers"]:
            assert page.locator(f"g.lw-card[data-square='{attacker['square']}'][data-attacker='true']").count() == 1
            kind = "shot" if attacker["kind"] == "shot" else "attack"
            line = (f"[data-layer='marks'] g[data-mark='attack'][data-kind='{kind}']"
                    f"[data-from='{attacker['square']}'][data-to='{unit['square']}']")
            assert page.locator(line).count() >= 1
        assert page.locator(f"[data-layer='marks'] g[data-mark='destroyed'][data-at='{unit['square']}']").count() == 1
    alt = page.text_content("#board-alt")  # the step's marks in words (issue 32), each destruction among them
    assert all(f"destroyed on {unit['square']}" in alt for unit in shot_kill["cause"]["units"]), alt
    screenshot(page, "replay-destroyed-desktop")
    assert not page.problems


def test_a_link_with_a_step_opens_there_and_the_log_pushes_history(server: Server, page: Any) -> None:
    game = long_game(server)
    open_replay(page, server, game["id"], "?step=42")
    assert step_of(page) == 42
    assert page.locator("#moves a[aria-current='step']").get_attribute("data-step") == "42"
    assert page.input_value("#step-slider") == "42"
    # Before clicking in the list, wait for it to be still (issue 28 item 21): the page loads the other steps in
    # the background, then draws the list whole again and scrolls it to the step shown in the next frame. A click
    # whose element moved between Playwright's aim and its press landed on another step, and step 5 never came.
    page.wait_for_function("!document.querySelector('#moves').textContent.includes('…')")
    page.wait_for_function(SCROLLED_TO_THE_STEP)
    page.click("#moves a[data-step='5']")
    page.wait_for_function("document.querySelector('main').dataset.step === '5'")
    page.go_back()
    page.wait_for_function("document.querySelector('main').dataset.step === '42'")
    open_replay(page, server, game["id"], "?step=nonsense")
    assert step_of(page) == game["seq"] and "not a step number" in page.text_content("main")
    open_replay(page, server, game["id"], "?step=99999")
    assert step_of(page) == game["seq"]
    assert not page.problems


def test_a_spectator_page_holds_no_hidden_card_and_a_seat_sees_its_hand(server: Server, page: Any) -> None:
    game_id, tokens = new_game(server)
    play(server, game_id, tokens, 9)
    client = server.client()
    everything = client.get(f"/games/{game_id}/state", params={"view": "all"},
                            headers={"Authorization": f"Bearer {tokens['scorekeeper']}"}).json()
    spectator = client.get(f"/games/{game_id}/state").json()
    shown = {u["card"] for u in spectator["board"]} | {c for pile in spectator["kill_piles"].values() for c in pile}
    started = client.get(f"/games/{game_id}/events", params={"view": "all", "to": 1},
                         headers={"Authorization": f"Bearer {tokens['scorekeeper']}"}).text
    armies = {c for p in json.loads(started.splitlines()[0])["players"] for c in p["cards"]}
    hands = {c for hand in everything["hands"].values() for c in hand["cards"]}
    hidden = (armies | hands) - shown  # every hand and deck card the spectator view does not show
    assert hands - shown, "the test needs a hand card that is not on the board"
    open_replay(page, server, game_id)
    for seq in range(1, spectator["seq"] + 1, 3):  # every step's page, not only the last
        page.evaluate(f"document.querySelector('#moves a[data-step=\"{seq}\"]').click()")
        page.wait_for_function(f"document.querySelector('main').dataset.step === '{seq}'")
        html = page.content()
        assert not [card for card in hidden if card in html]
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('main').dataset.step === '{spectator['seq']}'")
    assert not [card for card in hidden if card in page.content()]
    screenshot(page, "replay-spectator-desktop")

    page.select_option("#view-select", "p1")
    page.fill("#view-token", tokens["p1"])
    page.click(".replay-view button[type=submit]")
    page.wait_for_selector(".lw-seat[data-seat='p1'] .lw-hand-card")
    shown_hand = [page.locator(".lw-seat[data-seat='p1'] .lw-hand-card").nth(i).get_attribute("data-card")
                  for i in range(page.locator(".lw-seat[data-seat='p1'] .lw-hand-card").count())]
    assert sorted(shown_hand) == sorted(everything["hands"]["p1"]["cards"])
    assert page.locator(".lw-seat[data-seat='p2'] .lw-hand-card").count() == 0
    assert tokens["p1"] not in page.url
    assert page.evaluate("sessionStorage.length") == 1
    page.reload()
    page.wait_for_selector(".lw-seat[data-seat='p1'] .lw-hand-card")  # the view survives a reload (this tab only)
    page.select_option("#view-select", "p2")
    page.fill("#view-token", tokens["p1"])  # p1's token cannot see p2's view
    page.click(".replay-view button[type=submit]")
    page.wait_for_selector("p.error")
    assert "Cannot show the p2 view" in page.text_content("p.error")
    assert page.locator(".lw-seat[data-seat='p1'] .lw-hand-card").count() > 0  # still p1's view
    # the refused request itself is the one console line (Chromium logs every 4xx answer to fetch)
    assert page.problems == [
        "console error: Failed to load resource: the server responded with a status of 403 (Forbidden)"
    ]


def test_a_live_game_moves_along_and_tells_of_new_steps(server: Server, page: Any) -> None:
    game_id, tokens = new_game(server)
    play(server, game_id, tokens, 3)
    open_replay(page, server, game_id)
    page.wait_for_selector("#live-status[data-state='live']")
    last = step_of(page)
    play(server, game_id, tokens, 1)
    page.wait_for_function(f"Number(document.querySelector('main').dataset.step) > {last}", timeout=WAIT_MS)
    now = step_of(page)
    assert now == server.client().get(f"/games/{game_id}").json()["seq"]
    page.keyboard.press("Home")
    play(server, game_id, tokens, 1)
    page.wait_for_selector(".replay-fresh", timeout=WAIT_MS)
    assert step_of(page) == 1
    assert "new step" in page.text_content(".replay-fresh")
    page.click(".replay-fresh")
    page.wait_for_function(f"Number(document.querySelector('main').dataset.step) > {now}")
    assert not page.problems


def test_a_dropped_stream_shows_reconnecting_and_resumes_without_loss(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "drop.duckdb"
    first = Server(db, samples=False)
    port = first.port
    game_id, tokens = new_game(first)
    play(first, game_id, tokens, 3)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    second = None
    try:
        open_replay(page, first, game_id)
        page.wait_for_selector("#live-status[data-state='live']")
        first.stop()
        page.wait_for_selector("#live-status[data-state='reconnecting']", timeout=WAIT_MS)
        assert "reconnecting" in page.text_content("#live-status")
        second = restart(db, port)
        play(second, game_id, tokens, 2)  # recorded while the page is still away
        last = second.client().get(f"/games/{game_id}").json()["seq"]
        page.wait_for_function(f"document.querySelector('main').dataset.step === '{last}'", timeout=WAIT_MS)
        page.wait_for_selector("#live-status[data-state='live']")
        steps = page.eval_on_selector_all("#moves a[data-step]", "links => links.map(a => Number(a.dataset.step))")
        assert steps == list(range(1, last + 1))  # none lost, none twice
        assert "…" not in page.inner_text("#moves")
    finally:
        context.close()
        if second is not None:
            second.stop()
    assert not problems


def restart(db: Path, port: int) -> Server:
    """`warlog serve` again on the same file and port (the conftest's Server picks a free port)."""
    server = Server.__new__(Server)
    server.port = port
    server.url = f"http://127.0.0.1:{port}"
    server.process = serve(db, port, env=SERVER_ENV)
    return server


@pytest.fixture(scope="module")
def pebbles_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    db = tmp_path_factory.mktemp("pebbles") / "p.duckdb"
    process = serve(db, port, env={EXCLUDE_SETTING: ""})  # every installed system: pebbles too
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


def test_a_system_without_a_drawing_is_shown_as_a_table(pebbles_server: str, page: Any) -> None:
    body = {"system": "pebbles", "players": [{"id": f"p{i}", "name": f"N{i}"} for i in range(1, 4)], "seed": 3,
            "insecure_seed": True}
    created = httpx.post(f"{pebbles_server}/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    listed = httpx.get(f"{pebbles_server}/web/systems").json()
    assert {"name": "lords-of-war", "board": "/static/systems/lords-of-war/board.js",
            "stats": "/static/systems/lords-of-war/stats.js",
            "labels": "/static/systems/lords-of-war/labels.json"} in listed
    # installed by the tests, last by name
    assert listed[-1] == {"name": "pebbles", "board": None, "stats": None, "labels": None}
    page.goto(f"{pebbles_server}/replay/{game_id}")
    page.wait_for_selector("main[data-step] table.state-table")
    assert "heap" in page.inner_text("#board")
    assert page.text_content("#board-alt").startswith("The game's state, as a table")
    assert [o for o in page.eval_on_selector_all("#view-select option", "os => os.map(o => o.value)")] == [
        "spectator", "p1", "p2", "p3", "all"]
    assert not page.problems


def test_the_phone_layout(server: Server, browser: Any) -> None:
    game = long_game(server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_replay(page, server, game["id"], "?step=60")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways ({width}px)"
        # the board keeps readable text and scrolls inside its frame (issue 32 item 5): the frame fits the phone
        assert page.locator("#board .board-frame").bounding_box()["width"] <= 390
        screenshot(page, "replay-phone")
    finally:
        context.close()
    assert not errors


def test_speed_first_paint_and_stepping(server: Server, browser: Any) -> None:
    """Figures, printed (bench/RESULTS.md "Browser pages"): first contentful paint and the board's first drawing on
    a fresh context (a cold cache), and the time of a step (key press until the board is drawn and laid out) over
    150 steps of a game of at least 150 events, once every step has loaded."""
    game = long_game(server)
    assert game["seq"] >= 150
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server.url}/replay/{game['id']}?step=1")
        page.wait_for_selector("main[data-step]")
        paint = page.evaluate("""() => ({
            fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
            board: performance.getEntriesByName('board-drawn')[0]?.startTime })""")
        page.wait_for_function("!document.querySelector('#moves').textContent.includes('…')")
        times = page.evaluate("""async (n) => {
            const out = [];
            for (let i = 0; i < n; i++) {
                const t0 = performance.now();
                document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
                if (document.querySelector('main').dataset.step !== String(i + 2)) {
                    await new Promise(r => document.addEventListener('warlog:drawn', r, {once: true}));
                }
                document.querySelector('#board').getBoundingClientRect();
                out.push(performance.now() - t0);
                await new Promise(r => requestAnimationFrame(() => r()));
            }
            return out;
        }""", 150)
    finally:
        context.close()
    times.sort()
    print(f"\nreplay page, game of {game['seq']} events: first contentful paint {paint['fcp']:.0f} ms, board drawn "
          f"{paint['board']:.0f} ms (cold cache); a step: mean {statistics.mean(times):.1f} ms, p95 "
          f"{times[int(len(times) * 0.95)]:.1f} ms, max {times[-1]:.1f} ms over {len(times)} steps")
    assert paint["fcp"] is not None and paint["board"] is not None
    assert len(times) == 150


def test_steps_route_answers_each_state_and_explanation_as_the_single_routes_do(server: Server) -> None:
    client = server.client()
    game = long_game(server)
    explained = {e["seq"]: e for e in client.get(f"/games/{game['id']}/explanations").json()["explanations"]}
    answer = client.get(f"/games/{game['id']}/steps", params={"from": 30, "to": 40}).json()
    assert answer["view"] == "spectator" and answer["last_seq"] == game["seq"] and answer["next"] is None
    assert [s["seq"] for s in answer["steps"]] == list(range(30, 41))
    for step in answer["steps"][::5]:
        assert step["state"] == client.get(f"/games/{game['id']}/state", params={"seq": step["seq"]}).json()
        assert step["explanation"]["text"] == explained[step["seq"]]["text"]
        assert step["explanation"]["cause"] == explained[step["seq"]]["cause"]
    paged = client.get(f"/games/{game['id']}/steps", params={"from": 1, "limit": 100}).json()
    assert len(paged["steps"]) == 100 and paged["next"] == 101
    rest = client.get(f"/games/{game['id']}/steps", params={"from": paged["next"]}).json()
    assert rest["steps"][-1]["seq"] == game["seq"] and rest["next"] is None
    assert client.get(f"/games/{game['id']}/steps", params={"from": game["seq"] + 1}).json()["steps"] == []
    bad = client.get(f"/games/{game['id']}/steps", params={"from": 9, "to": 3})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_range"
    assert client.get(f"/games/{game['id']}/steps", params={"limit": 501}).status_code == 422
    assert client.get("/games/nope/steps").json()["error"]["code"] == "not_found"
    assert "/games/{game_id}/steps" in client.get("/openapi.json").json()["paths"]


def test_steps_route_hides_what_the_view_may_not_see(server: Server) -> None:
    client = server.client()
    game_id, tokens = new_game(server)
    play(server, game_id, tokens, 4)
    spectator = client.get(f"/games/{game_id}/steps").json()
    assert all("cards" not in hand for s in spectator["steps"] for hand in s["state"]["hands"].values())
    drawn = [s["explanation"]["cause"] for s in spectator["steps"] if s["explanation"]["cause"]["type"] == "card_drawn"]
    assert drawn and all(c["card"] is None for c in drawn)
    as_p1 = {"Authorization": f"Bearer {tokens['p1']}"}
    refused = client.get(f"/games/{game_id}/steps", params={"view": "p2"}, headers=as_p1)
    assert refused.status_code == 403
    seat = client.get(f"/games/{game_id}/steps", params={"view": "p1"},
                      headers={"Authorization": f"Bearer {tokens['p1']}"}).json()
    last = seat["steps"][-1]["state"]
    assert "cards" in last["hands"]["p1"] and "cards" not in last["hands"]["p2"]


def test_the_card_catalogue_is_served_beside_the_drawing(server: Server) -> None:
    client = server.client()
    answer = client.get("/static/systems/lords-of-war/cards.json")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    cards = answer.json()["cards"]
    assert cards["orcs/orc-ravager-2"] == {
        "name": "Orc Ravager", "faction": "orcs", "rank": "veteran", "class": "infantry", "defence": 3,
        "attacks": {"N": 3, "NE": 5, "W": 1, "NW": 2}, "ranged": None, "commander": False,
    }
    assert cards["dwarves/dwarf-sharpshooter"]["ranged"] == {"value": 5, "grid": [[0, 1], [0, 2], [0, 3]]}
    again = client.get("/static/systems/lords-of-war/cards.json", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304
    assert client.get("/static/systems/lords-of-war/board.js").status_code == 200


def test_a_six_player_team_game_is_drawn_unbounded_with_six_owner_colours(server: Server, page: Any) -> None:
    armies = ("orcs", "dwarves", "elves", "undead", "templars", "lizardmen")
    names = ("Ana", "Ben", "Cas", "Dee", "Eli", "Fay")
    created = server.client().post("/games", json={
        "system": "lords-of-war", "seed": 3, "insecure_seed": True, "variant": {"teams": True},
        "players": [{"id": f"p{i + 1}", "name": name, "army": a}
                    for i, (name, a) in enumerate(zip(names, armies, strict=True))]})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    play(server, game_id, tokens, 16)  # the challenge (R14: 0,0 2,2 4,0 6,2 8,0 10,2), then two turns
    open_replay(page, server, game_id, "?step=22")
    assert page.get_attribute("svg.lw-board", "data-unbounded") == "true"
    cards = page.locator("svg.lw-board g.lw-card")
    owners = {cards.nth(i).get_attribute("data-owner") for i in range(cards.count())}
    assert owners == {"p1", "p2", "p3", "p4", "p5", "p6"}
    strokes = {owner: page.get_attribute(f"g.lw-card[data-owner='{owner}'] rect.lw-card-face", "stroke")
               for owner in sorted(owners)}
    assert len(set(strokes.values())) == 6, strokes  # every owner its own colour
    seats = page.locator(".lw-seat")
    assert seats.count() == 6 and page.get_attribute(".lw-seat[data-seat='p3']", "data-team") == "odd"
    assert "team odd" in page.inner_text(".lw-seats") and "team even" in page.inner_text(".lw-seats")
    title = "team odd (Ana, Cas, Eli) v team even (Ben, Dee, Fay)"  # the teams, with the players' names
    assert page.inner_text("h1") == f"Replay: {title}" and page.title().startswith(title)
    screenshot(page, "replay-six-players")
    assert not page.problems


def test_a_three_player_games_title_names_the_solo_player_and_the_allies(server: Server, page: Any) -> None:
    created = server.client().post("/games", json={
        "system": "lords-of-war", "seed": 5, "insecure_seed": True,
        "players": [{"id": "p1", "name": "Ana", "army": "orcs"}, {"id": "p2", "name": "Ben", "army": "elves"},
                    {"id": "p3", "name": "Cas", "army": "elves"}]})
    assert created.status_code == 201, created.text
    open_replay(page, server, created.json()["id"])
    assert page.inner_text("h1") == "Replay: team solo (Ana) v team allies (Ben, Cas)"
    assert not page.problems
