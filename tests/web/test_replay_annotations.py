"""Issue 32 item 6 in a real browser: an annotation the scorekeeper adds over HTTP is shown on the replay page beside
its step (desktop and phone), and the record the page downloads carries it as a comment."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Server, screenshot

SETUP = {"system": "lords-of-war", "seed": 11, "insecure_seed": True,
         "players": [{"id": "p1", "name": "Ann", "army": "orcs"}, {"id": "p2", "name": "Ben", "army": "elves"}]}


def annotated_game(server: Server, actions: int = 6) -> tuple[str, dict[str, str]]:
    client = server.client()
    created = client.post("/games", json=SETUP).json()
    game_id, tokens = created["id"], created["tokens"]
    keeper = {"Authorization": f"Bearer {tokens['scorekeeper']}"}
    for _ in range(actions):  # the first legal action each time, by the scorekeeper
        legal = client.get(f"/games/{game_id}/legal", headers=keeper).json()
        done = client.post(f"/games/{game_id}/actions", json={"action": legal["actions"][0]}, headers=keeper)
        assert done.status_code == 201, done.text
    for step, text, author in ((2, "Watch the left flank: Ann opens wide", "Ada"), (2, "A second look", None)):
        body = {"step": step, "text": text, **({"author": author} if author else {})}
        assert client.post(f"/games/{game_id}/annotations", json=body, headers=keeper).status_code == 201
    return game_id, tokens


def test_an_annotation_added_over_http_shows_beside_its_step_and_in_the_downloaded_record(
        server: Server, page: Any) -> None:
    game_id, _ = annotated_game(server)
    for width, height, name in ((1440, 900, "desktop"), (390, 844, "phone")):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{server.url}/replay/{game_id}?step=2")
        page.wait_for_selector("main[data-step='2']")
        notes = page.locator("#moves li[value='2'] .step-notes li")
        notes.first.wait_for()
        assert notes.count() == 2
        assert notes.nth(0).inner_text().startswith("Watch the left flank: Ann opens wide — Ada (scorekeeper), ")
        assert notes.nth(1).inner_text().startswith("A second look — scorekeeper, ")
        assert page.locator("#moves .step-notes").count() == 1  # only step 2 has notes
        box = notes.nth(0).bounding_box()
        assert box is not None and box["width"] > 0 and box["x"] + box["width"] <= width  # readable, inside
        page.locator("#moves li[value='2']").scroll_into_view_if_needed()
        screenshot(page, f"replay-annotations-{name}")
    with page.expect_download() as started:
        page.locator("a[data-download='record']").click()
    record = open(started.value.path(), encoding="utf-8").read()
    assert "{Note on step 2 by Ada (scorekeeper), " in record and "Watch the left flank: Ann opens wide}" in record
    assert not page.problems
