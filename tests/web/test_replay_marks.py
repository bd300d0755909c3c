"""Issue 32 item 2 in Chromium: what a step changed, drawn on every system's board through the shared marks layer
(board-kit.js: one `<g data-layer="marks">` over the board, and a strip under it for the dice and the cards shown
from a hand). For each system, the steps are found by reading the sample games' events (never by step number):
a move is an arrow from its square to its square, an attack, a shot or a duel a line from the attacker to its
target, the dice rolled are shown with their values, a destroyed unit is crossed out where it stood, a card turned
face up is flagged; a step without such an event has no mark; stepping redraws the marks of the step shown; a
spectator's page holds no card its view may not see. Screenshots: build/screenshots/marks-*."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.web.conftest import WAIT_MS, Server, screenshot

SIZES = {"desktop": (1440, 900), "phone": (390, 844)}
MARKS = "#board [data-layer='marks'] > g[data-mark]"
# Events that change nothing drawn as a mark: a step of one of them shows no mark at all.
QUIET = {"turn_ended", "turn_passed", "passed", "phase_started", "unit_waited", "turn_started", "round_ended",
         "gold_produced", "honor_changed", "kings_taken", "chain_resolved", "battle_declared", "tactics_declared",
         "card_drawn", "hand_dealt"}


def hexed(value: Any) -> str:
    """A hex [q, r] as the marks name it ("q,r", as the map labels it)."""
    return ",".join(str(v) for v in value)


def at(mark: str, /, **data: Any) -> str:
    """The marks layer's marks of a kind with these data attributes."""
    return f"{MARKS}[data-mark='{mark}']" + "".join(f"[data-{k}='{v}']" for k, v in data.items())


def die(purpose: str, value: Any = None) -> str:
    """A die in the strip under the board."""
    found = f"#board [data-mark='dice'][data-purpose='{purpose}'] .board-die"
    return found + (f"[data-value='{value}']" if value else "")


def shown(card: str) -> str:
    """A card listed under the board as revealed this step."""
    return f"#board .board-revealed [data-mark='revealed'][data-card='{card}']"


def flagged(card: str) -> str:
    """A card flagged as revealed: on the board where it is drawn, else listed under it."""
    return f"#board [data-mark='revealed'][data-card='{card}']"


def frm(where: Any) -> dict[str, Any]:
    return {"from": where}


# system -> event type -> the marks its step shows: [(a selector, how many)]
Expect = Callable[[dict[str, Any]], list[tuple[str, int]]]
EXPECTED: dict[str, dict[str, Expect]] = {
    "lords-of-war": {
        "shot": lambda c: [(at("attack", kind="shot", **frm(c["shooter_square"]), to=c["target_square"],
                               value=c["value"]), 1)],
        "eliminated": lambda c: [(at("destroyed", at=u["square"], card=u["card"]), 1) for u in c["units"]] + [
            (at("attack", kind="shot" if a["kind"] == "shot" else "attack", **frm(a["square"]), to=u["square"]), 1)
            for u in c["units"] for a in u["attackers"]],
        "berserker_moved": lambda c: [(at("move", **frm(c["origin"]), to=c["target"]), 1)],
    },
    "light-wars": {
        "unit_moved": lambda c: [(at("move", **frm(c["origin"]), to=c["square"]), 1)],
        "attack_declared": lambda c: [(at("attack", kind="shot" if p["shooting"] else "attack", **frm(p["square"]),
                                          to=c["target"], side=p["side"]), 1) for p in c["participants"]],
        "attack_resolved": lambda c: [(die("attack", c["attack_die"]), 1), (die("defence", c["defence_die"]), 1)]
        + [(at("destroyed", at=r["square"], card=r["unit"]), 1) for r in c["removed"]],
        "die_rolled": lambda c: [(die(c["purpose"], c["value"]), 1)],
    },
    "heroscape": {
        "move_declared": lambda c: [(at("move", **frm(hexed(c["origin"])), to=hexed(c["to"])), 1)],
        "figure_moved": lambda c: [(at("move", **frm(hexed(c["origin"])), to=hexed(c["to"])), 1)],
        "attack_declared": lambda c: [(at("attack", **frm(hexed(c["hex"])), to=hexed(t["hex"]), value=c["dice"],
                                          range=c["distance"]), 1) for t in c["targets"]],
        "dice_rolled": lambda c: [(die(c["purpose"]), len(c["values"]))],
        "figure_destroyed": lambda c: [(at("destroyed", at=hexed(c["hex"]), card=c["figure"]), 1)],
        "marker_revealed": lambda c: [(shown(c["card"]), 1)],
    },
    "art-of-war": {
        "moved": lambda c: [(at("move", **frm(f), to=t), 1) for f, t in c["moves"]],
        "attack_declared": lambda c: [(at("attack", **frm(f"{c['player']}:{c['square']}"), value=c["value"]), 1)],
        "damaged": lambda c: (
            [(at("attack", **frm(f"{c['by']}:{c['source_square']}"), to=f"{c['owner']}:{c['square']}"), 1)]
            if c["source_square"] else [])
        + ([(at("destroyed", at=f"{c['owner']}:{c['square']}", card=c["unit"]), 1)]
           if c["result"] != "damaged" else []),
        "deployed": lambda c: [(at("revealed", card=c["card"]), 1)],
        "support_declared": lambda c: [(shown(c["card"]), 1)],
        "entered": lambda c: [(shown(c["card"]), 1)],
    },
    "l5r": {
        "duel_challenged": lambda c: [(at("attack", kind="duel", **frm(c["challenger"]), to=c["challenged"]), 1)],
        "duel_resolved": lambda c: [(flagged(f["card"]), 1) for f in c["revealed"]]
        + [(at("destroyed", card=d), 1) for d in c["destroyed"]],
        "cards_revealed": lambda c: [(flagged(r["card"]), 1) for r in c["cards"] if r["card"]],
        "attack_declared": lambda c: [(at("attack", kind="battle", to=f"{c['defender']}:{n}"), 1)
                                      for n in c["battlefields"]],
        "battle_resolved": lambda c: [(at("attack", kind="battle", to=f"{c['defender']}:{c['battlefield']}"), 1)]
        + [(at("destroyed", card=d), 1) for d in c["destroyed"]],
    },
}
# what each system's sample games must show at least once: a move, an attack, dice, a destruction, a reveal
MUST = {
    "lords-of-war": {"shot", "eliminated"},
    "light-wars": {"unit_moved", "attack_declared", "attack_resolved", "die_rolled"},
    "heroscape": {"move_declared", "attack_declared", "dice_rolled", "figure_destroyed", "marker_revealed"},
    "art-of-war": {"moved", "damaged", "deployed", "support_declared"},
    "l5r": {"duel_challenged", "duel_resolved", "cards_revealed", "battle_resolved", "attack_declared"},
}


def steps_of(server: Server, game_id: str, view: str = "spectator") -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    start = 1
    with server.client() as client:
        while True:
            answer = client.get(f"/games/{game_id}/steps", params={"view": view, "from": start}).json()
            found += answer["steps"]
            if not answer.get("next") or not answer["steps"]:
                return found
            start = answer["steps"][-1]["seq"] + 1


def cause(step: dict[str, Any]) -> dict[str, Any] | None:
    return (step.get("explanation") or {}).get("cause")


def marked_steps(server: Server, system: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(game id, step) of each sample game of the system with an event its board marks: the first of each type in
    each game, with the first step of its game with nothing to mark."""
    games = server.samples(system)
    for game in sorted(games, key=lambda g: -g["seq"])[:2]:
        seen: set[str] = set()
        for step in steps_of(server, game["id"]):
            kind = (cause(step) or {}).get("type")
            if kind and kind not in seen and (kind in EXPECTED[system] or kind in QUIET):
                seen.add(kind)
                yield game["id"], step


def open_step(page: Any, server: Server, game_id: str, step: int, view: str = "spectator") -> None:
    page.goto(f"{server.url}/replay/{game_id}?step={step}" + (f"&view={view}" if view != "spectator" else ""))
    page.wait_for_selector(f"main[data-step='{step}'] #board .board-frame svg", timeout=WAIT_MS)


@pytest.mark.parametrize("system", list(EXPECTED))
def test_each_boards_step_marks_its_moves_attacks_dice_destructions_and_reveals(server: Server, page: Any,
                                                                               system: str) -> None:
    checked: set[str] = set()
    quiet = 0
    for game_id, step in marked_steps(server, system):
        event = cause(step)
        assert event is not None
        open_step(page, server, game_id, step["seq"])
        if event["type"] in QUIET:
            assert page.locator(MARKS).count() == 0, f"{system} step {step['seq']} ({event['type']}) has marks"
            assert page.locator("#board .board-step-marks").count() == 0
            quiet += 1
            continue
        for selector, count in EXPECTED[system][event["type"]](event):
            found = page.locator(selector).count()
            assert found == count, f"{system} step {step['seq']} {event['type']}: {selector} {found} != {count}"
        every = page.eval_on_selector_all(MARKS, "ms => ms.map((m) => m.querySelector(':scope > title').textContent)")
        assert all(t.strip() for t in every), "every mark says what it is (its title)"
        checked.add(event["type"])
    assert MUST[system] <= checked, f"{system}: no sample step showed {MUST[system] - checked}"
    assert quiet, f"{system}: no step without marks was checked"
    assert not page.problems


@pytest.mark.parametrize("system", list(EXPECTED))
def test_each_boards_text_alternative_lists_the_steps_marks(server: Server, page: Any, system: str) -> None:
    """Issue 32: the board's text for screen readers (#board-alt, what draw() returns) names every mark of the step
    (its title, board-kit.js marksWords), on every board: the first step of each kind each board must mark."""
    checked: set[str] = set()
    for game_id, step in marked_steps(server, system):
        kind = (cause(step) or {}).get("type")
        if kind not in MUST[system] or kind in checked:
            continue
        open_step(page, server, game_id, step["seq"])
        titles = page.eval_on_selector_all(MARKS, "ms => ms.map((m) => m.querySelector(':scope > title').textContent)")
        alt = page.locator("#board-alt").text_content() or ""
        if not titles:  # dice or a card shown from a hand: under the board, not a mark on it
            continue
        missing = [t for t in titles if t not in alt]
        assert not missing, f"{system} step {step['seq']} ({kind}): the text alternative lacks {missing}: {alt}"
        checked.add(kind)
    assert checked, f"{system}: no sample step with a mark"
    assert not page.problems


def test_stepping_forward_and_back_redraws_the_marks_of_the_step_shown(server: Server, page: Any) -> None:
    game = max(server.samples("heroscape"), key=lambda g: g["seq"])
    steps = steps_of(server, game["id"])
    moved = next(s for s in steps if (cause(s) or {}).get("type") == "move_declared")
    following = next(s for s in steps if s["seq"] == moved["seq"] + 1)
    open_step(page, server, game["id"], moved["seq"])
    assert page.locator(at("move")).count() == 1
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"main[data-step='{following['seq']}']")
    kind = (cause(following) or {}).get("type")
    assert page.locator(at("move")).count() == (1 if kind in ("figure_moved", "move_declared") else 0)
    assert page.locator(at("move", **frm(hexed(moved["explanation"]["cause"]["origin"])))).count() == (
        1 if kind == "figure_moved" else 0)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"main[data-step='{moved['seq']}']")
    assert page.locator(at("move")).count() == 1
    # autoplay draws each step's own marks: the step shown and its marks agree at every drawing
    page.evaluate("""() => { window.markCheck = [];
      document.addEventListener('warlog:drawn', () => window.markCheck.push(
        [Number(document.querySelector('main').dataset.step),
         document.querySelectorAll("#board [data-layer='marks'] > g[data-mark='move']").length])); }""")
    page.select_option("#autoplay-speed", "4")
    page.locator("button[data-autoplay]").click()
    page.wait_for_function("() => window.markCheck.length >= 6")
    page.locator("button[data-autoplay]").click()
    by_seq = {s["seq"]: (cause(s) or {}).get("type") for s in steps}
    for seq, moves in page.evaluate("window.markCheck"):
        assert moves == (1 if by_seq[seq] in ("move_declared", "figure_moved") else 0), (seq, by_seq[seq], moves)
    assert not page.problems


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("system", ["l5r", "art-of-war"])
def test_a_spectators_marks_reveal_no_card_its_view_may_not_see(server: Server, page: Any, system: str) -> None:
    """The steps where the spectator's event hides a card the `all` view sees: the spectator's board (marks, strip,
    text alternative) holds none of those cards; the `all` view of the same step is drawn and may."""
    games = server.samples(system)
    game = max(games, key=lambda g: g["seq"])
    spectator = steps_of(server, game["id"])
    everything = {s["seq"]: s for s in steps_of(server, game["id"], "all")}
    hidden_steps = []
    for step in spectator:
        seen = strings(cause(step)) | strings(step["state"])
        hidden = {s for s in strings(cause(everything[step["seq"]])) - seen if s.count(".") == 2}  # card instances
        if hidden:
            hidden_steps.append((step["seq"], hidden))
    assert hidden_steps, f"{system}: no step hides a card from the spectator"
    for seq, hidden in hidden_steps[:4]:
        open_step(page, server, game["id"], seq)
        shown = page.inner_html("#board") + (page.text_content("#board-alt") or "")
        assert not [card for card in hidden if card in shown], f"{system} step {seq} shows a hidden card"
    assert not page.problems


@pytest.mark.parametrize("size", list(SIZES))
def test_the_marks_are_readable_on_every_board_at_desktop_and_phone_sizes(server: Server, browser: Any,
                                                                          size: str) -> None:
    """Steps with marks on every system (the first attack, destruction, dice or duel of its sample game): the marks'
    values are at 10 px or more, no two of them overlap, they lie inside the drawing, and a screenshot is saved."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=size == "phone",
                                  has_touch=size == "phone")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    wanted = [("lords-of-war", ("eliminated",)), ("light-wars", ("attack_declared",)),
              ("light-wars", ("attack_resolved",)), ("heroscape", ("attack_declared",)),
              ("heroscape", ("dice_rolled",)), ("art-of-war", ("damaged", "moved")), ("l5r", ("battle_resolved",)),
              ("l5r", ("duel_resolved",))]
    try:
        for system, kinds in wanted:
            games = server.samples(system)
            game = max(games, key=lambda g: g["seq"])
            step = next(s for s in steps_of(server, game["id"]) if (cause(s) or {}).get("type") in kinds)
            open_step(page, server, game["id"], step["seq"])
            found = page.evaluate(READABLE)
            dice = page.locator("#board [data-mark='dice']").count()
            assert found["marks"] + dice >= 1, f"{system} at {size}: no mark"
            assert not found["small"], f"{system} at {size}: mark text under 10 px: {found['small']}"
            assert not found["overlaps"], f"{system} at {size}: mark values overlap: {found['overlaps']}"
            assert not found["outside"], f"{system} at {size}: a mark outside the drawing: {found['outside']}"
            assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
            screenshot(page, f"marks-{system}-{kinds[0]}-{size}")
    finally:
        context.close()
    assert not errors


READABLE = """() => {
  const svg = document.querySelector('#board .board-frame > svg');
  const layer = svg.querySelector(":scope > g[data-layer='marks']");
  const marks = layer ? [...layer.querySelectorAll(':scope > g[data-mark]')] : [];
  const scale = svg.getScreenCTM().a;
  const small = [];
  const badges = [];
  for (const t of layer ? layer.querySelectorAll('text') : []) {
    const px = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (px < 9.95) small.push(`${t.textContent} ${px}`);
    const b = t.getBoundingClientRect();
    badges.push({ text: t.textContent, x0: b.left, y0: b.top, x1: b.right, y1: b.bottom });
  }
  const overlaps = [];
  for (let i = 0; i < badges.length; i++) for (let j = i + 1; j < badges.length; j++) {
    const a = badges[i], b = badges[j];
    const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
    const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    if (w > 1 && h > 1) overlaps.push(`${a.text} / ${b.text}`);
  }
  const view = svg.viewBox.baseVal;
  const outside = marks.filter((m) => { const b = m.getBBox();
    return b.x < view.x - 1 || b.y < view.y - 1 || b.x + b.width > view.x + view.width + 1
      || b.y + b.height > view.y + view.height + 1; })
    .map((m) => m.querySelector('title').textContent);
  return { marks: marks.length, small, overlaps, outside };
}"""


def test_the_marks_contract_is_in_the_key(server: Server, page: Any) -> None:
    """Every board's key explains the marks it draws (board-kit.js marksKey)."""
    for system in EXPECTED:
        game = max(server.samples(system), key=lambda g: g["seq"])
        open_step(page, server, game["id"], 3)
        key = page.text_content("#board .board-key") or ""
        assert "destroyed this step, where it stood" in key, system
        assert "revealed this step" in key, system
    assert not page.problems
