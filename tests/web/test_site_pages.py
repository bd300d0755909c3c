"""Issue 32 item 7 in a real browser: ``/tournaments`` is a page linked from every page, ``/docs`` has a way back
to the site, and every page has a dark mode (``prefers-color-scheme: dark``) whose text keeps WCAG AA contrast."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WAIT_MS, Server, screenshot

# Each visible text's contrast ratio against the background it is drawn on (the nearest ancestor with an opaque
# background colour, the page's when none): WCAG 2's relative luminance. SVG text (a board's drawing) is the
# drawing's own; this measures the page's HTML text. Answers the pairs under the bar, with where they are.
CONTRAST = """(minimum) => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (node) => {
    for (let at = node; at; at = at.parentElement) {
      const c = rgb(getComputedStyle(at).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] >= 0.9)) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3);
  };
  const low = [];
  let measured = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || parent.closest("svg, script, style, .visually-hidden, .skip")) continue;
    const style = getComputedStyle(parent);
    const box = parent.getBoundingClientRect();
    if (style.visibility === "hidden" || style.display === "none" || box.width === 0 || box.height === 0) continue;
    let opacity = 1;
    for (let at = parent; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    if (opacity < 0.9) continue;  // a disabled control: WCAG exempts inactive components
    const fg = lum(rgb(style.color)), bg = lum(background(parent));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    measured += 1;
    const where = `${parent.tagName}.${parent.className}: ${node.textContent.trim().slice(0, 30)}`;
    if (ratio < (large ? 3 : minimum)) low.push(`${ratio.toFixed(2)} ${where}`);
  }
  return { measured, low, page: getComputedStyle(document.documentElement).backgroundColor };
}"""


def dark_page(browser: Any, width: int = 1280, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="dark")
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def test_tournaments_is_a_page_listing_every_tournament_with_its_link(server: Server, page: Any) -> None:
    client = server.client()
    created = client.post("/tournaments", json={"name": "Winter Ladder", "system": "lords-of-war", "rounds": 2})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert tid in [t["id"] for t in client.get("/tournaments").json()["tournaments"]]  # API clients: JSON
    page.goto(server.url + "/")
    page.wait_for_selector("tbody[data-games] tr")
    page.click("header.site a[href='/tournaments']")
    page.wait_for_url(f"{server.url}/tournaments")
    row = page.locator(f"[data-tournament-id='{tid}']")
    row.wait_for()
    assert page.title() == "Tournaments · warlog" and page.locator("h1").inner_text() == "Tournaments"
    assert page.locator("header.site a[aria-current='page']").inner_text() == "Tournaments"
    assert "Lords of War" in row.inner_text() or "lords-of-war" in row.inner_text()
    assert "0 of 2" in row.inner_text()
    link = row.locator("a")
    assert link.inner_text() == "Winter Ladder" and link.get_attribute("href") == f"/tournaments/{tid}"
    link.click()
    page.wait_for_selector("[data-tournament] h1")
    assert page.locator("h1").inner_text() == "Winter Ladder"
    assert page.locator("header.site a[aria-current='page']").inner_text() == "Tournaments"
    assert not page.problems
    page.goto(server.url + "/tournaments")
    page.wait_for_selector("[data-tournament-id]")
    screenshot(page, "tournaments")


def test_the_index_page_links_to_the_tournaments_page(server: Server, page: Any) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#tournaments-heading")
    assert page.locator("a[data-all-tournaments]").get_attribute("href") == "/tournaments"
    assert page.locator("header.site nav a[href='/tournaments']").count() == 1


def test_docs_has_a_way_back_to_the_site(server: Server, page: Any) -> None:
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path")
    back = page.locator("a.warlog-back")
    assert back.inner_text() == "\u2190 warlog"
    back.click()
    page.wait_for_url(server.url + "/")
    page.wait_for_selector("tbody[data-games] tr")
    assert not page.problems


@pytest.mark.parametrize("path, ready", [
    ("/", "tbody[data-games] tr"),
    ("/tournaments", "[data-tournaments]"),
    ("/stats/lords-of-war", "section.statistic"),
    ("/replay/{game}", "main[data-step]"),
])
def test_dark_mode_follows_the_system_and_keeps_text_contrast(server: Server, browser: Any, path: str,
                                                              ready: str) -> None:
    game = server.client().get("/games", params={"system": "lords-of-war", "limit": 1}).json()["games"][0]["id"]
    url = server.url + path.replace("{game}", game)
    measured = {}
    for scheme in ("light", "dark"):
        opened = dark_page(browser) if scheme == "dark" else browser.new_page(viewport={"width": 1280, "height": 900})
        opened.goto(url)
        opened.wait_for_selector(ready, timeout=WAIT_MS)
        found = opened.evaluate(CONTRAST, 4.5)
        measured[scheme] = found
        assert found["measured"] > 5 and found["low"] == [], (scheme, found["low"])
        screenshot(opened, f"{scheme}-{path.strip('/').split('/')[0] or 'index'}")
        opened.context.close() if scheme == "dark" else opened.close()
    assert measured["light"]["page"] != measured["dark"]["page"]  # the dark scheme is dark, not the light one
    dark_bg = [int(v) for v in measured["dark"]["page"].strip("rgb()").split(",")[:3]]
    assert max(dark_bg) < 60, measured["dark"]["page"]
