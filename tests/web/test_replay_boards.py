"""Issue 32 items 1, 5 and 3 (in part) in Chromium: each system's board designed and readable at 1440x900 and on a
phone (390x844) on the sample games: no visible text under 10 px, no two labels overlapping (their boxes measured
with getBoundingClientRect), a key under every board, the board scrolling inside its frame on a phone rather than
shrinking, a tap on a card showing its details; L5R's table (bowed cards turned 90°, players' names), Lords of War's
unbounded game at one scale, HeroScape's hexes labelled as the steps name them; the steps grouped by turn and
folded; the games list fitting more than three games on a phone screen. Screenshots: build/screenshots/board-*."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WAIT_MS, Server, screenshot

DRAWN = ["lords-of-war", "l5r", "art-of-war", "light-wars", "heroscape"]
SIZES = {"desktop": (1440, 900), "phone": (390, 844)}

# Every visible text in the board (SVG and HTML; the key too) with its rendered size; and the boxes of the SVG
# drawing's labels (the step's marks layer, board-kit.js markLayer, drawn over the board on purpose, apart).
MEASURE = """() => {
  const host = document.querySelector('#board');
  const visible = (e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  const texts = [];
  for (const t of host.querySelectorAll('svg text')) {
    if (!t.textContent.trim() || !visible(t)) continue;
    const scale = t.ownerSVGElement.getScreenCTM().a;
    texts.push({ text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale });
  }
  const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || parent.closest('svg') || !visible(parent)) continue;
    texts.push({ text: walker.currentNode.textContent.trim(), px: parseFloat(getComputedStyle(parent).fontSize) });
  }
  const main = host.querySelector('.board-frame > svg');
  const labels = [...main.querySelectorAll('text')]
    .filter((t) => t.textContent.trim() && !t.closest('[data-layer="marks"]'))
    .map((t) => { const b = t.getBoundingClientRect();
                  return { text: t.textContent, x0: b.left, y0: b.top, x1: b.right, y1: b.bottom }; });
  const overlaps = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i], b = labels[j];
      const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (w > 1 && h > 1) overlaps.push(`${a.text} / ${b.text}`);
    }
  }
  const frame = host.querySelector('.board-frame');
  return { texts, overlaps, labels: labels.length, frame: frame.getBoundingClientRect().width,
           board: main.getBoundingClientRect().width, keys: host.querySelectorAll('.board-key li').length };
}"""


def sample_games(server: Server, system: str) -> list[dict[str, Any]]:
    games = server.samples(system)
    assert games, f"no sample game of {system}"
    return sorted(games, key=lambda g: -g["seq"])


def busy_steps(server: Server, game: dict[str, Any]) -> list[int]:
    """Steps worth measuring: the one with the most on the board (the longest state), the middle and the last."""
    steps = server.client().get(f"/games/{game['id']}/steps").json()["steps"]
    fullest = max(steps, key=lambda s: len(str(s["state"])))["seq"]
    marked = [s["seq"] for s in steps if s["explanation"] and s["explanation"]["cause"]["type"] in (
        "eliminated", "duel_focused", "attack_declared", "damaged", "army_assigned", "figure_destroyed", "shot")]
    return sorted({fullest, game["seq"] // 2, game["seq"], *marked[:1], *marked[len(marked) // 2:][:1]})


def open_step(page: Any, server: Server, game_id: str, step: int) -> None:
    page.goto(f"{server.url}/replay/{game_id}?step={step}")
    page.wait_for_selector(f"main[data-step='{step}'] #board .board-frame svg", timeout=WAIT_MS)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("system", DRAWN)
def test_each_systems_board_is_readable_with_a_key_and_no_overlapping_labels(server: Server, browser: Any,
                                                                             system: str, size: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=size == "phone",
                                  has_touch=size == "phone")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        game = sample_games(server, system)[0]
        for step in busy_steps(server, game):
            open_step(page, server, game["id"], step)
            found = page.evaluate(MEASURE)
            small = [t for t in found["texts"] if t["px"] < 9.95]
            assert not small, f"{system} step {step} at {size}: text under 10 px: {small[:5]}"
            assert not found["overlaps"], f"{system} step {step} at {size}: labels overlap: {found['overlaps'][:5]}"
            assert found["labels"] > 10 and found["keys"] >= 4, found
            assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
            assert found["frame"] <= width
            screenshot(page, f"board-{system}-{size}-{step}")
        if size == "phone":  # the board keeps its size and scrolls inside its frame rather than shrinking
            assert found["board"] > found["frame"], found
    finally:
        context.close()
    assert not errors


def test_a_tap_on_a_card_shows_its_details_on_a_phone(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    try:
        for system, piece in (("l5r", "g.l5r-card"), ("lords-of-war", "g.lw-card"), ("art-of-war", "g.aow-unit")):
            game = sample_games(server, system)[0]
            open_step(page, server, game["id"], game["seq"] // 2)
            card = page.locator(f"#board {piece}").first
            card.scroll_into_view_if_needed()
            assert page.locator("#board-detail").is_hidden()
            card.tap()
            page.wait_for_selector("#board-detail:not([hidden])")
            title = card.locator("title").first.text_content()
            assert page.text_content("#board-detail") == (card.get_attribute("data-detail") or title), system
            assert card.get_attribute("data-tapped") == "true"
            screenshot(page, f"board-{system}-phone-tapped")
            page.keyboard.press("ArrowRight")  # another step: the details of the old one go
            page.wait_for_selector("#board-detail[hidden]", state="attached")
    finally:
        context.close()


def test_l5r_is_a_table_with_bowed_cards_turned_and_the_players_named(server: Server, page: Any) -> None:
    game = sample_games(server, "l5r")[0]
    steps = server.client().get(f"/games/{game['id']}/steps").json()["steps"]
    bowed = next(s for s in steps if any(c["bowed"] for p in s["state"]["players"] for c in p["cards"] if not c["on"]))
    open_step(page, server, game["id"], bowed["seq"])
    turned = page.eval_on_selector_all("#board g.l5r-card", """cards => cards.map(c => {
        const r = c.querySelector('rect').getBoundingClientRect();
        return { bowed: c.dataset.bowed === 'true', wide: r.width > r.height }; })""")
    assert any(c["bowed"] for c in turned) and all(c["bowed"] == c["wide"] for c in turned)
    names = [p["name"] for p in server.client().get(f"/games/{game['id']}").json()["players"]]
    players = page.locator("#board text.l5r-player").all_text_contents()
    assert sorted(t.split(" · ")[0] for t in players) == sorted(names)
    assert all(" · " in t and t.split(" · ")[1][0].isupper() for t in players)  # "red · Crab", not "crab"
    assert page.locator("#board g.l5r-honour [data-honour]").count() == 2
    key = page.inner_text("#board .board-key")
    assert all(word in key for word in ("force", "chi", "personal honour"))  # F, C and H explained
    assert {"F", "C", "H"} <= set(page.locator("#board .board-key svg text").all_text_contents())
    assert "bowed" in key
    screenshot(page, "board-l5r-bowed")


def test_lords_of_war_unbounded_game_keeps_one_scale_for_the_whole_game(server: Server, page: Any) -> None:
    client = server.client()
    games = sample_games(server, "lords-of-war")
    game = next(g for g in games
                if client.get(f"/games/{g['id']}/state").json()["variant"].get("unbounded"))
    steps = client.get(f"/games/{game['id']}/steps").json()["steps"]
    squares = {tuple(int(v) for v in u["square"].split(",")) for s in steps for u in s["state"]["board"]}
    columns = max(x for x, _ in squares) - min(x for x, _ in squares) + 3  # and a margin of one each side
    rows = max(y for _, y in squares) - min(y for _, y in squares) + 3
    open_step(page, server, game["id"], 1)
    page.wait_for_function("!document.querySelector('#moves').textContent.includes('…')")
    seen = set()
    for step in (1, 10, game["seq"] // 2, game["seq"] - 1, game["seq"]):
        page.evaluate(f"document.querySelector('#moves a[data-step=\"{step}\"]').click()")
        page.wait_for_selector(f"main[data-step='{step}']")
        board = page.locator("#board svg.lw-board")
        seen.add((board.get_attribute("viewBox"), board.get_attribute("data-scale")))
        drawn = (int(board.get_attribute("data-columns") or 0), int(board.get_attribute("data-rows") or 0))
        assert drawn == (columns, rows)
    assert len(seen) == 1, seen  # one extent and one scale at every step
    names = page.locator("#board text.lw-name").all_text_contents()
    assert names and not any("…" in n for n in names)  # names whole, on two lines where long
    page.click("[data-zoom=in]")
    assert float(page.get_attribute("#board svg.lw-board", "data-scale") or 0) > float(seen.pop()[1])
    page.keyboard.press("0")  # back to fit
    assert "(fit)" in page.inner_text(".board-zoom-value")
    screenshot(page, "board-lords-of-war-unbounded")


def test_heroscape_hexes_are_labelled_as_the_steps_name_them(server: Server, page: Any) -> None:
    game = sample_games(server, "heroscape")[0]
    steps = server.client().get(f"/games/{game['id']}/steps").json()["steps"]
    step = next(s for s in steps if s["explanation"] and s["explanation"]["cause"]["type"] == "attack_declared")
    open_step(page, server, game["id"], step["seq"])
    labels = set(page.locator("#board svg.hs-map text.hs-coord").all_text_contents())
    assert len(labels) == page.locator("#board svg.hs-map polygon").count()
    hexes = [step["explanation"]["cause"]["hex"], *(t["hex"] for t in step["explanation"]["cause"]["targets"])]
    for q, r in hexes:
        assert f"{q},{r}" in labels
    page.wait_for_selector(f"#moves details[data-turn='{step['turn']}'] > summary:has-text('Round {step['turn']}')")


def test_steps_are_grouped_by_turn_and_fold_with_the_keyboard_kept(server: Server, page: Any) -> None:
    game = sample_games(server, "l5r")[0]
    steps = server.client().get(f"/games/{game['id']}/steps").json()["steps"]
    turns = []
    for s in steps:
        if not turns or turns[-1] != s["turn"]:
            turns.append(s["turn"])
    open_step(page, server, game["id"], 1)
    page.wait_for_function("!document.querySelector('#moves').textContent.includes('…')")
    groups = page.locator("#moves details[data-turn]")
    assert groups.count() == len(turns)
    assert [int(t) for t in groups.evaluate_all("ds => ds.map(d => d.dataset.turn)")] == turns
    second = next(s for s in steps if s["turn"] == turns[2])["seq"]  # the first step of the third turn
    summary = page.locator(f"#moves details[data-turn='{turns[2]}'] > summary")
    assert f"Turn {turns[2]}" in summary.inner_text()
    summary.click()  # folded: its steps are hidden
    assert page.locator(f"#moves a[data-step='{second}']").is_hidden()
    page.click("#board")  # the keyboard steps again (the focus off the summary)
    page.keyboard.press("End")
    page.wait_for_selector(f"main[data-step='{game['seq']}']")
    page.keyboard.press("Home")
    page.wait_for_selector("main[data-step='1']")
    for _ in range(second - 1):  # walking into the folded turn opens it
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"main[data-step='{second}']")
    assert page.locator(f"#moves a[data-step='{second}']").is_visible()
    page.click("[data-fold=all]")
    assert all(not o for o in groups.evaluate_all("ds => ds.map(d => d.open)"))
    assert page.inner_text("[data-fold=all]") == "Unfold every turn"
    page.click("[data-fold=all]")
    assert all(groups.evaluate_all("ds => ds.map(d => d.open)"))
    screenshot(page, "replay-steps-by-turn")
    assert not page.problems


def test_the_games_list_fits_more_than_three_games_a_phone_screen(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    try:
        phone.goto(server.url + "/")
        phone.wait_for_selector("tbody[data-games] tr")
        heights = phone.eval_on_selector_all("tbody[data-games] tr",
                                             "rs => rs.map(r => r.getBoundingClientRect().height)")
        assert len(heights) >= 4 and max(heights) * 4 <= 844, heights
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(phone, "index-phone-compact")
    finally:
        context.close()
