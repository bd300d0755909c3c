"""Issue 32, page defects in a real browser: HeroScape's army list under the map names each figure by its card (and
its number in a squad), the statistics page's navigation marks the section in view, and the step's notes are shown
beside the board on a desktop and under it on a phone (build/screenshots/)."""

from __future__ import annotations

import re
from typing import Any

from tests.engine.heroscape.hs_given import markers, position_setup
from tests.web.conftest import WAIT_MS, Server, screenshot
from tests.web.test_replay_annotations import annotated_game

FIGURES = ["p1 grimnak -4,-1+-5,-1", "p1 agent-carr 3,-1", "p2 izumi-samurai/1 4,-2", "p2 izumi-samurai/2 3,-2",
           "p2 marro-warriors/1 -6,2"]


def test_heroscape_army_list_names_each_figure_by_its_card_and_squad_number(server: Server, page: Any) -> None:
    client = server.client()
    created = client.post("/games", json={**position_setup(FIGURES, board="proving-ground"), "insecure_seed": True})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["scorekeeper"]
    for action in (markers("p1", "grimnak"), markers("p2", "izumi-samurai")):
        answer = client.post(f"/games/{game_id}/actions", json={"action": action},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 201, answer.text
    state = client.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#board .hs-seats li", timeout=WAIT_MS)
    lines = page.locator("#board .hs-seats li").all_text_contents()
    text = " ".join(lines)
    for figure in [f for f in state["figures"] if f["status"] == "placed" and f["hex"]]:  # those on the map
        number = figure["figure"].partition("/")[2]
        shown = f"{figure['name']} {number}" if number else figure["name"]
        owner_line = next(line for line in lines if line.startswith(figure["owner"]))
        assert shown in owner_line, (shown, owner_line)
    assert not re.search(r"[a-z]+-[a-z]+(/\d+)?\b", text.replace("points on the map", "")), text  # no card ids
    assert "Izumi Samurai 1" in text and "Izumi Samurai 2" in text and "Grimnak" in text
    page.locator("#board .hs-seats").scroll_into_view_if_needed()
    screenshot(page, "replay-heroscape-army-names")
    assert not page.problems


CURRENT = "nav[aria-label='Statistics on this page'] a[aria-current='location']"


def current_section(page: Any) -> str:
    page.wait_for_function(f"document.querySelectorAll(\"{CURRENT}\").length === 1")
    return page.locator(CURRENT).get_attribute("href") or ""


def test_statistics_navigation_marks_the_section_in_view_as_it_scrolls(server: Server, page: Any) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{server.url}/stats/lords-of-war")
    page.wait_for_selector("html[data-ready='true']", timeout=WAIT_MS)
    sections = page.eval_on_selector_all("section.statistic", "s => s.map((x) => x.id)")
    assert current_section(page) == f"#{sections[0]}"  # the top of the page: the first section
    contents = page.get_by_role("navigation", name="Statistics on this page")
    contents.get_by_role("link", name="Per-card statistics").click()  # a link: its section
    page.wait_for_function(f"document.querySelector(\"{CURRENT}\")?.getAttribute('href') === '#stat-cards'")
    middle = sections[len(sections) // 2]
    page.evaluate(f"document.getElementById('{middle}').scrollIntoView()")  # a scroll: the section now on top
    page.wait_for_function(f"document.querySelector(\"{CURRENT}\")?.getAttribute('href') === '#{middle}'")
    assert current_section(page) == f"#{middle}"
    page.screenshot(path=str(screenshot(page, "stats-nav-current").with_name("stats-nav-current-view.png")))
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(f"document.querySelector(\"{CURRENT}\")?.getAttribute('href') === '#{sections[0]}'")
    page.evaluate(f"location.hash = '#{sections[-1]}'")  # a hash change (Back, a shared link): its section
    page.wait_for_function(f"document.querySelector(\"{CURRENT}\")?.getAttribute('href') === '#{sections[-1]}'")
    # on a phone the contents are a strip that scrolls sideways: the marked entry is scrolled into it
    page.set_viewport_size({"width": 390, "height": 844})
    late = sections[-3]
    page.evaluate(f"document.getElementById('{late}').scrollIntoView()")
    page.wait_for_function(f"document.querySelector(\"{CURRENT}\")?.getAttribute('href') === '#{late}'")
    page.wait_for_function(f"""() => {{
        const a = document.querySelector("{CURRENT}").getBoundingClientRect();
        const strip = document.querySelector("nav.toc").getBoundingClientRect();
        return a.left >= strip.left - 1 && a.right <= strip.right + 1;
    }}""")
    page.screenshot(path=str(screenshot(page, "stats-nav-current-phone").with_name("stats-nav-current-phone-view.png")))
    assert not page.problems


def test_the_steps_notes_are_beside_the_board_on_a_desktop_and_under_it_on_a_phone(server: Server,
                                                                                   page: Any) -> None:
    game_id, _ = annotated_game(server)
    for width, height, name in ((1440, 900, "desktop"), (390, 844, "phone")):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{server.url}/replay/{game_id}?step=2")
        page.wait_for_selector("main[data-step='2']")
        panel = page.locator("[data-board-notes]")
        panel.locator("li").first.wait_for()
        assert panel.locator("li").count() == 2
        assert panel.locator("li").nth(0).inner_text().startswith("Watch the left flank: Ann opens wide — Ada")
        board = page.locator("#board").bounding_box()
        box = panel.bounding_box()
        assert board is not None and box is not None
        if name == "desktop":  # beside: right of the board, level with it
            assert box["x"] >= board["x"] + board["width"] and box["y"] < board["y"] + board["height"], (box, board)
        else:  # under the board, inside the screen
            assert box["y"] >= board["y"] + board["height"] and box["x"] + box["width"] <= width, (box, board)
        panel.scroll_into_view_if_needed()
        screenshot(page, f"replay-board-notes-{name}")
        page.keyboard.press("ArrowRight")  # step 3 has no note: the panel goes
        page.wait_for_selector("main[data-step='3']")
        page.wait_for_selector("[data-board-notes]", state="hidden")
    assert not page.problems
