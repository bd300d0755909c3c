"""The documentation stays true: the curl walk-through of docs/api.md runs against a real server, every error code
the API can answer is in its error table, and no doc points outside the repository."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.serving import free_port, serve, stop

ROOT = Path(__file__).parents[2]
API_DOC = ROOT / "docs" / "api.md"


def walkthrough() -> str:
    text = API_DOC.read_text()
    section = text[text.index("## A scorekeeper's game with curl"):]
    return section[section.index("```sh\n") + len("```sh\n"):section.index("\n```\n")]


@dataclass
class Step:
    """One command of a shell example and the answer the page shows under it (None: none shown)."""

    command: str
    shown: str | None


def _complete(command: str) -> bool:
    """Whether the shell would stop reading the command here (its quotes are closed)."""
    lexer = shlex.shlex(command, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        list(lexer)
    except ValueError:
        return False
    return not command.rstrip().endswith("\\")


NOTE = re.compile(r"\s{2,}\(\d{3}\b[^)]*\)\s*$")  # "    (422: nothing was stored)": a note on the status


def _shown(lines: list[str]) -> str:
    """The answer of ``#`` lines: ``# x`` starts a line of output, ``#  x`` (two spaces or more) goes on with the
    line above (a long JSON line, wrapped); a note on the status after two spaces, in parentheses, is left out."""
    out: list[str] = []
    for line in lines:
        body = line[1:]
        if body.startswith("  ") and out:
            out[-1] += body.strip()
        else:
            out.append(body.strip())
    return "\n".join(NOTE.sub("", line) for line in out)


def steps(script: str) -> list[Step]:
    """The commands of a shell example with their answers: the ``#`` lines right under a command are its answer;
    a comment after a blank line (or before any command) explains what follows and is not an answer."""
    lines = script.split("\n")
    found: list[Step] = []
    i = 0
    while i < len(lines):
        if not lines[i].strip() or lines[i].lstrip().startswith("#"):
            i += 1
            continue
        command = [lines[i]]
        i += 1
        while not _complete("\n".join(command)):
            command.append(lines[i])
            i += 1
        answer = []
        while i < len(lines) and lines[i].startswith("#"):
            answer.append(lines[i])
            i += 1
        found.append(Step("\n".join(command), _shown(answer) if answer else None))
    return found


def mismatch(shown: str, output: str) -> str | None:
    """None when ``output`` is the answer ``shown``: its pieces between ``…`` appear in order, the first at the
    start and the last at the end unless ``…`` stands there; whitespace counts as one space on both sides (JSON
    wrapped on the page, a record's tags one to a line). Else what is wrong."""
    expected, actual = " ".join(shown.split()), " ".join(output.split())
    pieces = [piece.strip() for piece in expected.split("…")]
    at = 0
    for index, piece in enumerate(pieces):
        if not piece:
            continue
        found = actual.find(piece, at)
        if found < 0 or (index == 0 and found != 0):
            return f"{piece!r} not found {'at the start' if index == 0 else 'after what came before'}"
        at = found + len(piece)
    if pieces[-1] and not actual.endswith(pieces[-1]):
        return f"the answer does not end with {pieces[-1]!r}"
    return None


def test_mismatch_reads_the_pages_shortened_answers() -> None:
    assert mismatch('{"seq":4,…,"card":"x"}', '{"seq":4,"hash":"h","card":"x"}') is None
    assert mismatch('{"seq":4,…', '{"seq":5,"card":"x"}') is not None  # the start is the start
    assert mismatch('…"card":"x"}', '{"card":"x"},{"more":1}') is not None  # the end is the end
    assert mismatch("[A] … [C] [D]", "[A]\n[B]\n[C]\n[D]") is None
    assert mismatch('{"a":1,"b":2}', '{"b":2,"a":1}') is not None  # in order
    assert steps("X=1\n\n# explains\necho '{\n  }'\n# {\n#  }   (200: fine)\necho b\n") == [
        Step("X=1", None), Step("echo '{\n  }'", "{}"), Step("echo b", None)]


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walk-through uses curl")
def test_the_curl_walkthrough_runs_as_written(tmp_path):
    """Every command of docs/api.md's walk-through runs against a real server, and each answer it shows is the
    answer the server gives (issue 28 item 26: the concession's seqs were 8/9 where the server answers 7/8). The
    id and the tokens are the server's pick: the page's are put in place of this run's."""
    port = free_port()
    db = tmp_path / "walk.duckdb"
    script = walkthrough()
    assert script.startswith("W=http://127.0.0.1:8000\n")
    script = script.replace("W=http://127.0.0.1:8000", f"W=http://127.0.0.1:{port}", 1)
    script = script.replace(".venv/bin/warlog ", f"{sys.executable} -m api.cli ")
    walk = steps(script)
    assert len(walk) == 22 and sum(step.shown is not None for step in walk) == 15
    marked = "".join(f"printf '\\n\\036%d\\036\\n' {n}\n{step.command}\n" for n, step in enumerate(walk))
    server = serve(db, port)
    try:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", marked], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "WARLOG_DB": str(db), "PYTHONPATH": str(ROOT)})
    finally:
        stop(server)
    assert done.returncode == 0, done.stderr
    parts = re.split(r"\n\x1e(\d+)\x1e\n", done.stdout)
    outputs = dict(zip(map(int, parts[1::2]), parts[2::2], strict=True))
    assert sorted(outputs) == list(range(len(walk)))
    created = json.loads(outputs[next(n for n, step in enumerate(walk) if "tee game.json" in step.command)])
    example = json.loads(re.sub(r"…", "", next(step.shown for step in walk if step.shown)))
    picks = {example["id"]: created["id"]} | {example["tokens"][k]: created["tokens"][k][:len(example["tokens"][k])]
                                               for k in example["tokens"]}
    wrong = []
    for n, step in enumerate(walk):
        if step.shown is None:
            continue
        shown = step.shown
        for page, run in picks.items():
            shown = shown.replace(page, run)
        problem = mismatch(shown, outputs[n])
        if problem:
            wrong.append(f"{step.command.splitlines()[0]}\n  shown:  {step.shown}\n  answer: {outputs[n][:1500]}\n"
                         f"  {problem}")
    assert not wrong, "\n\n".join(wrong)


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
