"""Issue 28 item 26: every example in the docs is checked, against a real server where it shows the server.

Every code block of README.md and docs/*.md (fenced, or indented four spaces) is an example this module checks,
read out of the Markdown so the page cannot drift again, or a block named in ``NOT_EXAMPLES`` with the reason it
is none: ``test_every_code_block_of_the_docs_is_checked`` fails on a new block nobody checks. docs/api.md's curl
walk-through, command by command, is tests/api/test_docs.py's. Here: the pages' JSON sketches (what ``...``
leaves out is not compared; values the server picks are not shown), the setups against the server's OpenAPI
document, a position and a record played into a real ``warlog serve``, the command lines against the parser, and
the command line's sentences in docs/cli.md against what the commands print.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.cli import build_parser
from tests.api.test_docs import mismatch
from tests.serving import free_port, held_by_another_process, serve, stop

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


# -- the code blocks of the docs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    page: str  # "docs/api.md"
    line: int  # of its first line
    text: str

    @property
    def key(self) -> tuple[str, str]:
        """What names the block: its page and its first line (line numbers move as the page is edited)."""
        return self.page, self.text.split("\n", 1)[0].strip()


def blocks() -> list[Block]:
    """Every fenced block, and every block indented four spaces after a blank line, of the pages."""
    found = []
    for path in PAGES:
        lines = path.read_text(encoding="utf-8").split("\n")
        page = str(path.relative_to(ROOT))
        i = 0
        while i < len(lines):
            if lines[i].startswith("```"):
                end = lines.index("```", i + 1)
                found.append(Block(page, i + 2, "\n".join(lines[i + 1:end])))
                i = end + 1
            elif lines[i].startswith("    ") and lines[i].strip() and (i == 0 or not lines[i - 1].strip()):
                end = i
                while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                    end += 1
                found.append(Block(page, i + 1, "\n".join(line[4:] for line in lines[i:end]).rstrip()))
                i = end
            else:
                i += 1
    return found


def block(page: str, first: str) -> str:
    return next(b.text for b in blocks() if b.key == (page, first))


def sketch(text: str) -> Any:
    """A page's JSON sketch as a pattern: ``# comments`` out, ``...`` (what the page leaves out) dropped from
    lists and objects, ``{...}`` any object, ``"..."`` any value."""
    text = re.sub(r"#[^\n\"]*$", "", text, flags=re.M)
    text = re.sub(r",\s*\.\.\.\s*(?=[\]}])", "", text)
    text = re.sub(r"\{\s*\.\.\.\s*\}", "{}", text)
    return json.loads(text)


def matches(pattern: Any, actual: Any, where: str = "") -> list[str]:
    """What of ``pattern`` ``actual`` lacks: each key of an object with a value matching, each item of a list
    matched by some item; ``"..."`` matches anything."""
    if pattern == "...":
        return []
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return [f"{where or 'the answer'} is not an object"]
        return [p for key, value in pattern.items()
                for p in ([f"{where}.{key} is missing"] if key not in actual else matches(value, actual[key],
                                                                                         f"{where}.{key}"))]
    if isinstance(pattern, list):
        if not isinstance(actual, list):
            return [f"{where} is not a list"]
        return [f"{where}: no item matches {item!r}" for item in pattern
                if not any(not matches(item, candidate) for candidate in actual)]
    return [] if pattern == actual else [f"{where} is {actual!r}, not {pattern!r}"]


def sketched_keys(text: str) -> set[str]:
    """The keys a state sketch names (quoted words in a key's place: after ``{`` or ``,``, not after ``:`` or
    ``|``), comments left out."""
    text = re.sub(r"#[^\n]*", "", text)
    return {m.group(1) for m in re.finditer(r'(?<=[{,\s])"([a-z_][a-z0-9_]*)"', text)
            if re.search(r"[{,]\s*$", text[:m.start()])}


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


# -- a real server ------------------------------------------------------------------------------------------------


@dataclass
class Served:
    db: Path
    url: str
    http: httpx.Client


def warlog(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("docs") / "w.duckdb"
    port = free_port()
    server = serve(db, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            yield Served(db, f"http://127.0.0.1:{port}", http)
    finally:
        stop(server)


def state_of(served: Served, setup: dict[str, Any], moves: int = 0) -> dict[str, Any]:
    """The state (view ``all``) of a new game of ``setup`` after its first ``moves`` legal actions."""
    created = served.http.post("/games", json=setup)
    assert created.status_code == 201, created.text
    game = f"/games/{created.json()['id']}"
    keeper = {"Authorization": f"Bearer {created.json()['tokens']['scorekeeper']}"}
    for _ in range(moves):
        action = served.http.get(f"{game}/legal", headers=keeper).json()["actions"][0]
        assert served.http.post(f"{game}/actions", json={"action": action}, headers=keeper).status_code == 201
    return served.http.get(f"{game}/state", params={"view": "all"}, headers=keeper).json()


# no seed: the server draws one (what the checks compare does not depend on it)
LORDS_OF_WAR = {"system": "lords-of-war", "players": [{"id": "p1", "name": "Ann", "army": "orcs"},
                                                      {"id": "p2", "name": "Bob", "army": "dwarves"}]}
LIGHT_WARS = {"system": "light-wars", "players": [{"id": "p1", "name": "Ann", "army": "balanced"},
                                                  {"id": "p2", "name": "Bob", "army": "horde"}]}


# -- the checks, one a block ---------------------------------------------------------------------------------------


def check_stats_catalogue(served: Served, text: str) -> None:
    assert matches(sketch(text), served.http.get("/stats").json()) == []


def setup_schema(document: dict[str, Any], system: str) -> dict[str, Any]:
    """The OpenAPI schema of ``system``'s ``POST /games`` body."""
    body = document["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    for candidate in resolve(document, body):
        if resolve_one(document, candidate).get("properties", {}).get("system", {}).get("const") == system:
            return resolve_one(document, candidate)
    raise AssertionError(f"no setup schema for {system}")


def resolve_one(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives a schema allows (anyOf, oneOf, its $ref), each resolved."""
    schema = resolve_one(document, schema)
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    return [s for a in alternatives for s in resolve(document, a)] if alternatives else [schema]


def conforms(document: dict[str, Any], pattern: Any, schema: dict[str, Any], where: str = "") -> list[str]:
    """What of a sketched setup the schema does not take (the first alternative that takes it all wins)."""
    problems: list[str] = []
    for option in resolve(document, schema):
        found = _conforms(document, pattern, option, where)
        if not found:
            return []
        problems = problems or found
    return problems


def _conforms(document: dict[str, Any], pattern: Any, schema: dict[str, Any], where: str) -> list[str]:
    if pattern == "...":
        return []
    kind = schema.get("type")
    if isinstance(pattern, dict):
        if kind != "object":
            return [f"{where} is not an object here"]
        properties = schema.get("properties", {})
        return [p for key, value in pattern.items() for p in (
            [f"{where}.{key} is no field"] if key not in properties and not schema.get("additionalProperties")
            else conforms(document, value, properties.get(key) or schema["additionalProperties"], f"{where}.{key}"))]
    if isinstance(pattern, list):
        if kind != "array":
            return [f"{where} is not a list here"]
        return [p for item in pattern for p in conforms(document, item, schema.get("items", {}), f"{where}[]")]
    if "const" in schema and schema["const"] != pattern:
        return [f"{where}: {pattern!r} is not {schema['const']!r}"]
    if "enum" in schema and pattern not in schema["enum"]:
        return [f"{where}: {pattern!r} is none of {schema['enum']}"]
    wanted = {"string": str, "integer": int, "boolean": bool}.get(str(kind))
    if wanted is not None and not isinstance(pattern, wanted):
        return [f"{where}: {pattern!r} is not a {kind}"]
    return []


def unsketched(value: Any) -> bool:
    """Whether a sketch leaves nothing out (no ``"..."``, no ``{...}``): a setup to play for real."""
    if isinstance(value, dict):
        return bool(value) and all(unsketched(v) for v in value.values())
    if isinstance(value, list):
        return all(unsketched(v) for v in value)
    return value != "..."


def check_setup(system: str) -> Callable[[Served, str], None]:
    """The sketched ``POST /games`` body is what the server's OpenAPI document takes; a whole one (nothing left
    out) starts a game on the server. Its seed is left to the server: the page shows one, a game need not."""

    def check(served: Served, text: str) -> None:
        document = served.http.get("/openapi.json").json()
        pattern = sketch(text)
        assert pattern["system"] == system
        assert conforms(document, pattern, setup_schema(document, system)) == []
        if unsketched(pattern):
            state_of(served, {k: v for k, v in pattern.items() if k != "seed"})

    return check


def check_state_keys(setup: dict[str, Any], moves: int = 0) -> Callable[[Served, str], None]:
    def check(served: Served, text: str) -> None:
        missing = sketched_keys(text) - keys_of(state_of(served, setup, moves))
        assert not missing, f"the sketch names keys the state has not: {sorted(missing)}"

    return check


def check_light_wars_position(served: Served, text: str) -> None:
    """The position, with the page's setup (its armies: p2's archer A1), starts a game as it says."""
    position = json.loads(text)
    shown = json.loads(block("docs/light-wars.md", '{"system": "light-wars",'))
    setup = {k: v for k, v in shown.items() if k != "seed"}
    state = state_of(served, {**setup, "position": position})
    placed = {(u["owner"], u["unit"]): (u["square"], u["facing"]) for u in state["units"]}
    assert all(placed[u["owner"], u["unit"]] == (u["square"], u["facing"]) for u in position["units"]), placed
    assert (state["turn"], state["stock"], state["scores"]) == (position["turn"], position["stock"], position["scores"])


def check_record(served: Served, text: str, tmp_path: Path) -> None:
    """The example record imports into a served database (through the server) and reads back the same."""
    path = tmp_path / "leeds.record"
    path.write_text(text + "\n", encoding="utf-8")
    imported = warlog("import", str(path), "--db", str(served.db))
    assert imported.returncode == 0, imported.stderr
    (game_id,) = re.fullmatch(rf"{re.escape(str(path))}: imported as (\S+)\n", imported.stdout).groups()  # type: ignore[union-attr]
    game = served.http.get(f"/games/{game_id}").json()
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
    assert (game["status"], game["end_reason"]) == ("over", tags["Termination"])
    assert {"1-0": "p1", "0-1": "p2", "1/2-1/2": "draw"}[tags["Result"]] == game["winner"]
    exported = served.http.get("/games/export", params={"player": "Alice", "comments": "true", "order": "newest",
                                                        "max": 1}).text
    assert exported.split("\n\n", 1)[1].strip() == text.split("\n\n", 1)[1].strip()  # the moves, word for word


def check_adjudication(served: Served, text: str) -> None:
    """The page's ``curl`` adjudicates a new game as it says: the action it sends is accepted, and the answer has
    every key the page shows (the game's last event ends it, adjudicated for the reason sent)."""
    sent = json.loads(re.search(r"-d '([^']*)'", text).group(1))  # type: ignore[union-attr]
    shown = json.loads(" ".join(line.lstrip("# ") for line in text.split("\n") if line.startswith("#")))
    created = served.http.post("/games", json=LORDS_OF_WAR)
    assert created.status_code == 201, created.text
    keeper = {"Authorization": f"Bearer {created.json()['tokens']['scorekeeper']}"}
    answered = served.http.post(f"/games/{created.json()['id']}/actions", json=sent, headers=keeper)
    assert answered.status_code == 201, answered.text
    missing = keys_of(shown) - keys_of(answered.json())
    assert not missing, f"the page shows keys the answer has not: {sorted(missing)}"
    ended = answered.json()["events"][-1]
    assert (ended["type"], ended["reason"], ended["adjudication"]["reason"]) == (
        "game_ended", "adjudicated", sent["action"]["reason"])


def check_python(served: Served, text: str) -> None:
    exec(compile(text, "docs/events.md", "exec"), {})  # noqa: S102 - the page's own example


def parses(line: str) -> None:
    argv = shlex.split(line, comments=True)
    try:
        build_parser().parse_args(argv[1:])
    except SystemExit as stop:
        raise AssertionError(f"{line!r} does not parse") from stop


def check_command_lines(served: Served, text: str) -> None:
    """Each ``warlog ...`` line (with its continuations) is a command the parser takes."""
    joined = re.sub(r"\\\n\s*", " ", text)
    commands = [line for line in joined.split("\n") if line.split() and line.split()[0].endswith("warlog")]
    assert commands
    for line in commands:
        parses(line)


def options_of(*path: str) -> set[str]:
    parser = build_parser()
    for name in path:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    return {s for a in parser._actions for s in a.option_strings}


def check_synopsis(served: Served, text: str) -> None:
    """A synopsis (``warlog stats NAME [--system S] ...``): every option it shows is the command's, and the
    statistics it names are the catalogue's."""
    from replay.analytics.catalogue import catalogue

    joined = re.sub(r"\n\s+(?=\[|#)", " ", text)
    for line in joined.split("\n"):
        line = line.split("#", 1)[0] if not line.lstrip().startswith("warlog stats NAME") else line
        words = line.split()
        if not words or words[0] != "warlog":
            continue
        command = words[1]
        shown = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line))
        assert shown <= options_of(command), f"warlog {command}: {sorted(shown - options_of(command))}"
        if command == "stats":
            named = re.search(r"#\s*([a-z|-]+)", line)
            assert named is not None
            names = {e.name for e in catalogue()}
            assert set(named.group(1).strip("|").split("|")) <= names


def check_no_database(served: Served, text: str, tmp_path: Path) -> None:
    done = warlog("stats", "armies", cwd=tmp_path)
    assert done.returncode == 1 and list(tmp_path.iterdir()) == []
    assert mismatch(text, done.stderr) is None, done.stderr


def check_make(served: Served, text: str) -> None:
    targets = set(re.findall(r"^([a-z-]+):", (ROOT / "Makefile").read_text(), re.M))
    assert set(re.findall(r"^make ([a-z-]+)", text, re.M)) <= targets


def check_heroscape_map(served: Served, text: str) -> None:
    """The drawing of a sample map is the terminal picture of that map (the notes right of it aside)."""
    from engine.heroscape.catalogue import load_maps
    from replay.heroscape.terminal import render_map

    drawn = [re.split(r"\s{3,}(?=[a-zA-Z])", line.rstrip())[0].rstrip() for line in text.rstrip("\n").split("\n")]
    picture = render_map(load_maps()["proving-ground"].board).rstrip("\n").split("\n")
    assert drawn == [line.rstrip() for line in picture]


def check_catalogue_synopsis(served: Served, text: str) -> None:
    """``warlog catalogue ACTION ... | ACTION ...``: every action it names is one, and every option it shows is an
    option of one of them."""
    for line in text.split("\n"):
        words = line.split()
        if words[:2] != ["warlog", "catalogue"]:
            continue
        actions = [words[2], *re.findall(r"\| ([a-z]+)", line)]
        options = set().union(*(options_of("catalogue", action) for action in actions))
        shown = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line.split("#", 1)[0]))
        assert shown <= options, f"warlog catalogue {actions}: {sorted(shown - options)}"


def check_tournament_synopsis(served: Served, text: str) -> None:
    """``warlog tournament ACTION ...`` lines (issue 31's day): every action is one, every option shown is its."""
    for line in text.split("\n"):
        words = line.split()
        if words[:2] != ["warlog", "tournament"]:
            continue
        shown = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line))
        parser = build_parser()
        for name in ("tournament", words[2]):
            parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
        parser.format_help()  # adds the systems' options (--army) where the action takes them
        options = {s for a in parser._actions for s in a.option_strings}
        assert shown <= options, f"warlog tournament {words[2]}: {sorted(shown - options)}"


def check_catalogue_sketch(served: Served, text: str) -> None:
    """A sketched catalogue has the shape of the schema the server serves for its system (its armies and maps are
    cut short, so only its shape is checked: the rules would refuse a Lords of War army of one card)."""
    from engine.catalogue import shape_problems

    schema = served.http.get(f"/schemas/{json.loads(text)['system']}/catalogue").json()
    assert shape_problems(schema, json.loads(text)) == ()


def check_catalogue_refusal(served: Served, text: str) -> None:
    """The refusal shown is the server's for the sample catalogue whose fenling general is made a command card."""
    sample = json.loads((ROOT / "tests/fixtures/lords_of_war/catalogues/border-marches.json").read_text("utf-8"))
    for card in sample["cards"]:
        if card["faction"] == "fenlings" and card["rank"] == "general":
            card["rank"] = "command"
    answer = served.http.post("/catalogues", json=sample)
    shown = json.loads(text.split("\n", 1)[1])
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == shown["error"]["code"]
    assert [(d["path"], d["rule"]) for d in error["details"]] == [(d["path"], d["rule"]) for d in
                                                                  shown["error"]["details"]]
    for got, sketched in zip(error["details"], shown["error"]["details"], strict=True):
        assert re.fullmatch(re.escape(sketched["message"]).replace(r"\.\.\.", ".*"), got["message"])


def check_annotations(served: Served, text: str) -> None:
    """The annotation shown is posted as written (on a game with that step) and answered with the keys shown; the
    list answers the keys shown."""
    lines = text.strip().split("\n")
    body = json.loads(lines[0].split(None, 2)[2].replace('"author"?:', '"author":'))
    created = served.http.post("/games", json=LORDS_OF_WAR).json()
    game = f"/games/{created['id']}"
    keeper = {"Authorization": f"Bearer {created['tokens']['scorekeeper']}"}
    while served.http.get(game).json()["seq"] < body["step"]:
        action = served.http.get(f"{game}/legal", headers=keeper).json()["actions"][0]
        assert served.http.post(f"{game}/actions", json={"action": action}, headers=keeper).status_code == 201
    answer = served.http.post(f"{game}/annotations", json=body, headers=keeper)
    shown = re.search(r"^201 (\{.*?\})$", "\n".join(lines[1:3]).replace("\n     ", " "), re.M | re.S)
    assert answer.status_code == 201 and shown is not None, answer.text
    expected = json.loads(shown.group(1))
    assert set(answer.json()) == set(expected)
    assert {k: v for k, v in answer.json().items() if k != "created_at"} == {
        k: v for k, v in expected.items() if k != "created_at"}
    listed = served.http.get(f"{game}/annotations").json()
    assert set(listed) == set(re.findall(r'"([a-z_]+)":', lines[-1].split("200", 1)[1])) - {"n"}
    assert listed["annotations"] == [answer.json()]


API, CLI, RECORDS = "docs/api.md", "docs/cli.md", "docs/record-format.md"
CATALOGUES = "docs/catalogues.md"
CHECKS: dict[tuple[str, str], Callable[..., None]] = {
    (API, '{"filters": [{"name": "date_from", "type": "date", "default": null, "description": "...", '
          '"in_path": false,'): check_stats_catalogue,
    ("docs/art-of-war.md", '{"system": "art-of-war", "players": [{"id": "p1", "army": "vanguard"},'):
        check_setup("art-of-war"),
    ("docs/l5r.md", '{"system": "l5r",'): check_setup("l5r"),
    ("docs/light-wars.md", '{"system": "light-wars",'): check_setup("light-wars"),
    ("docs/contract.md", '{"seq": 12, "turn": 5, "active": "p1", "phase": "deploy" | "reinforce" | "over",'):
        check_state_keys(LORDS_OF_WAR, moves=1),
    ("docs/events.md", '{"seq", "turn", "active" (after the end: who was to act last), "phase": '
                       '"setup"|"deploy"|"reinforce"|"over", "challenge": bool,'): check_state_keys(LORDS_OF_WAR, 1),
    ("docs/light-wars.md", '{"seq", "phase": "roll_off" | "deploy" | "choose_first" | "tactics" | "actions" | "roll" '
                           '| "over",'): check_state_keys(LIGHT_WARS),
    ("docs/light-wars.md", '{"units": [{"owner": "p1", "unit": "K", "square": "A1", "facing": "N"},'):
        check_light_wars_position,
    (RECORDS, '[Event "Leeds Winter Open"]'): check_record,
    (API, 'curl -s -X POST $W/games/$G/actions -H "Authorization: Bearer $SCOREKEEPER" \\'): check_adjudication,
    ("docs/heroscape.md", "1.  1.  1.  1.  1.  1.  1.                     r = -6"): check_heroscape_map,
    ("docs/events.md", "from engine.systems import get_system"): check_python,
    ("docs/deploy.md", "warlog serve --db club.duckdb --host 0.0.0.0 --port 8000"): check_command_lines,
    ("docs/deploy.md", "createuser -P warlog && createdb -O warlog warlog          # once, as the postgres user"):
        check_command_lines,
    ("docs/statistics.md", "warlog stats NAME   # armies|matchups|first-player|game-length|end-reasons|cards|heatmap"
                           "|ratings|rating-history|"): check_synopsis,
    (CLI, "warlog games [--system S] [--player NAME] [--tournament T] [--army A] [--status live|over] [--limit N] "
          "[--json|--csv]"): check_synopsis,
    (CLI, "warlog stats: there is no database at warlog.duckdb: give one with --db or WARLOG_DB (`warlog demo`, …)"):
        check_no_database,
    (CATALOGUES, '{"system": "lords-of-war", "name": "Border Marches", "version": "1", "about": "where the data '
                 'comes from",'): check_catalogue_sketch,
    (CATALOGUES, '{"system": "light-wars", "name": "Marsh Frontier", "version": "1", "bases": 14,'):
        check_catalogue_sketch,
    (CATALOGUES, '{"system": "heroscape", "name": "Cliffside Bay", "version": "1",'): check_catalogue_sketch,
    (CATALOGUES, '{"system": "l5r", "name": "Phoenix and Scorpion", "version": "1",'):
        check_catalogue_sketch,
    (CATALOGUES, '{"system": "art-of-war", "name": "Northern Realms", "version": "1",'):
        check_catalogue_sketch,
    (CATALOGUES, "$ curl -s -X POST localhost:8000/catalogues -H 'Content-Type: application/json' -d @bad.json"):
        check_catalogue_refusal,
    (CATALOGUES, 'warlog catalogue import FILE... [--db DB]      check and store; prints "FILE: imported as c-..." '
                 '(exit 1 if any is refused)'): check_catalogue_synopsis,
    (CLI, "warlog tournament create ... --tiebreaks match_points head_to_head --cut-draws time_rule"):
        check_tournament_synopsis,
    (CLI, "warlog catalogue import FILE... | list [--system S] [--json] | show ID | export ID   [--db DB]"):
        check_catalogue_synopsis,
    (CLI, "warlog tournament create --name N --rounds R [--seeding random|rating|registration] [--check-in] ..."):
        check_tournament_synopsis,
    ("README.md", "make run     # creates .venv, installs, serves ./warlog.duckdb with sample games loaded"):
        check_make,
    (API, 'POST /games/{id}/annotations   {"step": 12, "text": "Ann forgot her shot here", "author"?: "Ada"}'):
        check_annotations,
    (CLI, "warlog annotate GAME STEP TEXT [--author NAME] [--token TOKEN] [--server URL]"): check_synopsis,
}
NOT_EXAMPLES = {
    (API, "W=http://127.0.0.1:8000"): "the curl walk-through: tests/api/test_docs.py runs it command by command",
    ("docs/architecture.md", "scorekeeper / app / CLI                      browser pages (api/web)  players, "
                             "commentators, analysts"): "a drawing of the data flow",
    ("docs/web.md", "export function draw(host, state, context) -> string"):
        "a JavaScript signature: each system's board.js is drawn by the browser tests (tests/web)",
    ("docs/web.md", "export function draw(name, host, result, kit) -> string | null"):
        "a JavaScript signature: the statistics drawings are run by the browser tests (tests/web)",
    ("docs/web.md", "export function extent(states) -> any        // what the drawing needs from every step at once"):
        "JavaScript signatures: Lords of War's extent and HeroScape's turnName run in tests/web/test_replay_boards.py",
}


def test_every_code_block_of_the_docs_is_checked() -> None:
    found = {b.key: b for b in blocks()}
    unknown = [f"{b.page}:{b.line}: {b.key[1]!r}" for key, b in found.items() if key not in CHECKS | NOT_EXAMPLES]
    assert not unknown, "code blocks no test checks (add a check to CHECKS, or a reason to NOT_EXAMPLES):\n" + \
        "\n".join(unknown)
    gone = [key for key in [*CHECKS, *NOT_EXAMPLES] if key not in found]
    assert not gone, f"checks of blocks the docs no longer have: {gone}"


@pytest.mark.parametrize("key", list(CHECKS), ids=lambda key: f"{key[0]} {key[1][:40]}")
def test_the_docs_example_is_what_the_server_answers(key: tuple[str, str], served: Served, tmp_path: Path) -> None:
    check = CHECKS[key]
    text = block(*key)
    if "tmp_path" in check.__code__.co_varnames[:check.__code__.co_argcount]:
        check(served, text, tmp_path)
    else:
        check(served, text)


# -- the sentences docs/cli.md shows -----------------------------------------------------------------------------


def shown_in_cli_doc(start: str, end: str) -> str:
    """The sentence of docs/cli.md from ``start`` to ``end`` (inclusive), on one line."""
    text = " ".join((ROOT / CLI).read_text(encoding="utf-8").split())
    at = text.index(start)
    return text[at:text.index(end, at) + len(end)]


def test_cli_doc_the_sentence_of_a_file_held_by_a_server(served: Served) -> None:
    shown = shown_in_cli_doc("the database w.duckdb is held by", "stop that server first")
    done = warlog("sql", "SELECT 1", "--db", str(served.db))
    pid = json.loads(Path(f"{served.db}.server.json").read_text())["pid"]
    expected = shown.replace("w.duckdb", str(served.db)).replace("1234", str(pid)).replace(
        "http://127.0.0.1:8000", served.url)
    assert done.returncode == 1 and done.stderr == f"warlog sql: {expected}\n"


def test_cli_doc_the_sentence_of_a_file_another_process_holds(tmp_path: Path) -> None:
    from replay.store.duckdb_store import DuckDBEventStore

    shown = shown_in_cli_doc("the database w.duckdb is in use by another process", "then try again")
    db = tmp_path / "w.duckdb"
    DuckDBEventStore(str(db)).close()
    with held_by_another_process(db) as pid:
        done = warlog("games", "--db", str(db))
    assert done.stderr == f"warlog games: {shown.replace('w.duckdb', str(db)).replace('1234', str(pid))}\n"


def test_cli_doc_the_sentence_of_a_busy_port(tmp_path: Path) -> None:
    shown = shown_in_cli_doc("cannot listen on 127.0.0.1:8000", "): ...")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = warlog("serve", "--db", str(tmp_path / "b.duckdb"), "--port", str(port))
    assert done.returncode == 1
    assert mismatch(f"warlog serve: {shown.replace('8000', str(port)).replace('...', '…')}", done.stderr) is None


def test_cli_doc_the_sentence_of_a_number_out_of_range(tmp_path: Path) -> None:
    shown = shown_in_cli_doc("warlog demo: argument --games: -1", "(see warlog demo --help)")
    done = warlog("demo", "--games", "-1", "--db", str(tmp_path / "d.duckdb"))
    assert (done.returncode, done.stderr) == (2, shown + "\n")


def test_cli_doc_the_lines_demo_and_import_print(tmp_path: Path) -> None:
    demo_line = shown_in_cli_doc("recorded ID:", "(kills)")
    import_line = shown_in_cli_doc("FILE: imported", "as ID")
    db = tmp_path / "d.duckdb"
    demo = warlog("demo", "--games", "1", "--db", str(db))
    assert demo.returncode == 0, demo.stderr
    first = demo.stdout.splitlines()[0]
    assert re.fullmatch(re.escape(demo_line).replace("ID", r"\S+").replace("p1", r"(p\d|draw)").replace(
        "kills", r"\w+"), first)
    record = tmp_path / "one.record"
    record.write_text(warlog("export", first.split()[1].rstrip(":"), "--db", str(db)).stdout)
    imported = warlog("import", str(record), "--allow-duplicate", "--db", str(db))
    assert re.fullmatch(re.escape(import_line.replace("FILE", str(record))).replace("ID", r"\S+") + "\n",
                        imported.stdout)
