"""The documentation stays true: the curl walk-through of docs/api.md runs against a real server, every error code
the API can answer is in its error table, and no doc points outside the repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.serving import free_port, serve, stop

ROOT = Path(__file__).parents[2]
API_DOC = ROOT / "docs" / "api.md"


def walkthrough() -> str:
    text = API_DOC.read_text()
    section = text[text.index("## A scorekeeper's game with curl"):]
    return section[section.index("```sh\n") + len("```sh\n"):section.index("\n```\n")]


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walk-through uses curl")
def test_the_curl_walkthrough_runs_as_written(tmp_path):
    port = free_port()
    db = tmp_path / "walk.duckdb"
    server = serve(db, port)
    try:
        script = walkthrough()
        assert script.startswith("W=http://127.0.0.1:8000\n")
        script = script.replace("W=http://127.0.0.1:8000", f"W=http://127.0.0.1:{port}", 1)
        script = script.replace(".venv/bin/warlog ", f"{sys.executable} -m api.cli ")
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "WARLOG_DB": str(db), "PYTHONPATH": str(ROOT)})
    finally:
        stop(server)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # each answer the page shows is the answer the server gives, in the order shown
    shown = [
        '"active":"p1","actions":[{"type":"place"',
        '{"seq":4,"events":[{"seq":4,"type":"placed"',
        '"type":"card_drawn"', '"player":"p1","card":"orcs/',  # the server's seed deals it
        '{"error":{"code":"illegal_action","message":"p2\'s challenge card goes on E4, not A1","rule":"R1",'
        '"reason":"challenge_square"}}',
        '{"error":{"code":"conflict","message":"game ', "expected last seq 4, but it is 5",
        '{"seq":6,"events":[{"seq":6,"type":"placed","recorded_at"',
        '"board":[{"square":"C3","card":"orcs/',
        '"hands":{"p1":{"count":6},',
        '"seq":5,"type":"card_drawn"', '"player":"p1","card":null}',
        '"explanations":[',
        "id: 6\ndata: {\"seq\":6,\"type\":\"placed\"",
        '"type":"game_ended"', '"winner":"p1","reason":"concession"',
        '[P1 "Alice"]', '[Result "1-0"]', "0. p1 ", "@C3 draw\n0. p2 ", "@E4 concede\n1-0\n",  # the deal varies
    ]
    at = 0
    for piece in shown:
        found = out.find(piece, at)
        assert found >= 0, f"{piece!r} not in the walk-through's output after position {at}:\n{out[at:at + 2000]}"
        at = found
    assert out.count('[Result "1-0"]') == 2  # the HTTP export and the CLI's


def emitted_error_codes() -> set[str]:
    """Every ``error.code`` the API can answer, read from the code that answers them."""
    codes: set[str] = set()
    for path in sorted((ROOT / "api").glob("*.py")):
        source = path.read_text()
        codes |= set(re.findall(r'ApiError\(\s*\d{3},\s*"([a-z_]+)"', source))
        codes |= set(re.findall(r'_json\(\s*\d{3},\s*"([a-z_]+)"', source))
        codes |= set(re.findall(r'_refuse\(\s*\w+,\s*\d{3},\s*"([a-z_]+)"', source))
        codes |= set(re.findall(r'\{\s*\d{3}:\s*"([a-z_]+)"(?:,\s*\d{3}:\s*"([a-z_]+)")*', source)[0]
                     if re.search(r'\{\s*\d{3}:\s*"[a-z_]+"', source) else ())
    tournaments = (ROOT / "replay" / "tournaments" / "service.py").read_text()
    codes |= set(re.findall(r'^\s+code = "([a-z_]+)"', tournaments, re.M)) - {"tournament_error"}
    for raised in re.finditer(r"raise Tournament\w+\(", tournaments):  # the code is the last argument, if given
        depth, end = 1, raised.end()
        while depth:  # to the call's closing parenthesis
            depth += {"(": 1, ")": -1}.get(tournaments[end], 0)
            end += 1
        call = tournaments[raised.end():end]
        codes |= set(re.findall(r',\s*"([a-z_]+)",?\s*\)', call))
    return codes - {""}


def documented_error_codes() -> set[str]:
    text = API_DOC.read_text()
    table = text[text.index("## Errors"):]
    table = table[:table.index("\n## ", 1)]
    return set(re.findall(r"`([a-z_]+)`", table))


def test_the_error_table_lists_every_code_the_api_answers():
    emitted = emitted_error_codes()
    assert {"invalid_json", "invalid_request", "illegal_action", "not_found", "method_not_allowed"} <= emitted
    missing = emitted - documented_error_codes()
    assert not missing, f"docs/api.md's error table lacks {sorted(missing)}"


def test_docs_point_only_inside_the_repository():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text()
        assert "../shared" not in text and "shared/rules" not in text, f"{page.name} points outside the repository"
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a URL
            assert (page.parent / target).resolve().is_relative_to(ROOT), f"{page.name}: {target} leaves the repo"
            assert (page.parent / target).exists(), f"{page.name}: the link {target} leads nowhere"
