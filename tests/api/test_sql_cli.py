"""``warlog sql``: rows are streamed, at most ``--limit`` of them (default 1,000), within ``--timeout`` seconds."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from api.cli import main
from replay.store.duckdb_store import DuckDBEventStore

ROOT = Path(__file__).parents[2]

# runs the CLI and reports its own peak memory (VmHWM, KiB) as the last line of stderr. Not ru_maxrss: Linux keeps
# that across fork and exec, so a child of a big pytest process would report the parent's peak (CI saw 380 MB).
WITH_PEAK_MEMORY = """
import os, runpy, sys
sys.path.insert(0, os.getcwd())
sys.argv = ["warlog", *sys.argv[1:]]
try:
    runpy.run_module("api.cli", run_name="__main__")
finally:
    with open("/proc/self/status") as status:
        print(next(line.split()[1] for line in status if line.startswith("VmHWM:")), file=sys.stderr)
"""


@pytest.fixture
def db(tmp_path) -> str:
    path = str(tmp_path / "w.duckdb")
    DuckDBEventStore(path).close()
    return path


def test_sql_huge_result_streams_the_default_limit_promptly_in_little_memory(db):
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", WITH_PEAK_MEMORY, "sql", "select * from range(20000000)", "--db", db],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].strip() == "range" and lines[2].strip() == "0" and lines[1001].strip() == "999"
    assert lines[1002:] == ["(the first 1,000 rows: --limit N for more, --limit 0 for all)"]
    peak_mb = int(done.stderr.splitlines()[-1]) / 1024
    assert peak_mb < 300, f"peak memory {peak_mb:.0f} MB (was 5.9-9 GB: every row fetched before printing)"
    assert elapsed < 20, f"{elapsed:.1f} s"


def test_sql_timeout_stops_a_slow_query_with_one_sentence(db, capsys):
    started = time.monotonic()
    code = main(["sql", "select count(*) from range(100000000) a, range(100000000) b", "--db", db, "--timeout", "1"])
    assert code == 1 and time.monotonic() - started < 10
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("warlog sql: the query was stopped after 1 s (--timeout); narrow it, or give it more "
                            "time with --timeout SECONDS (0 = no limit).\n")


def test_sql_limit_says_when_rows_were_left_out(db, capsys):
    assert main(["sql", "select range as n from range(5)", "--db", db, "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.strip() for line in lines] == ["n", "-", "0", "1", "2",
                                                "(the first 3 rows: --limit N for more, --limit 0 for all)"]
    assert main(["sql", "select range as n from range(5)", "--db", db, "--limit", "5"]) == 0
    assert "first" not in capsys.readouterr().out  # exactly the limit: nothing left out, no note
    assert main(["sql", "select range as n from range(2500)", "--db", db, "--limit", "0", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [{"n": i} for i in range(2500)] and captured.err == ""
    assert main(["sql", "select range as n from range(5)", "--db", db, "--limit", "2", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [{"n": 0}, {"n": 1}]  # the note goes to stderr: stdout stays JSON
    assert captured.err.strip() == "(the first 2 rows: --limit N for more, --limit 0 for all)"
    assert main(["sql", "select 1 as n where false", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    with pytest.raises(SystemExit) as refused:  # a usage error (issue 28 item 22)
        main(["sql", "select 1", "--db", db, "--limit", "-1"])
    assert refused.value.code == 2
    assert "argument --limit: -1 is out of range: give a whole number from 0 (every row)" in capsys.readouterr().err


def test_sql_any_statement_shape_still_runs_under_the_limit(db, capsys):
    # a single SELECT is bounded inside DuckDB (LIMIT n + 1); comments, semicolons, PRAGMA and several statements
    # must run exactly as typed
    assert main(["sql", "select range as n from range(9) order by n desc; -- the top", "--db", db, "--limit", "2"]) == 0
    assert [line.strip() for line in capsys.readouterr().out.splitlines()][2:4] == ["8", "7"]
    assert main(["sql", "select 'a;' as x -- a comment", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines()[2].strip() == "a;"
    assert main(["sql", "pragma version", "--db", db]) == 0
    assert "library_version" in capsys.readouterr().out
    assert main(["sql", "select 1 as a; select 2 as b", "--db", db]) == 0
    assert capsys.readouterr().out.split()[0] == "b"


def test_sql_reaches_no_file_not_even_through_the_database_s_temporary_directory(tmp_path, capsys):
    """Issue 28 item 16: DuckDB lets a connection without external access use one directory, its temporary one
    (``<db>.tmp/``): COPY wrote files there, read_text/read_csv read them back, glob listed it, ATTACH created a
    database there, and a symlink placed in it led outside (to /etc). The read-only connection reaches no file:
    every attempt is refused, and nothing is written or read."""
    db = tmp_path / "w.duckdb"
    DuckDBEventStore(str(db)).close()
    spill = tmp_path / "w.duckdb.tmp"
    spill.mkdir()
    (spill / "inside.csv").write_text("a\nfrom-inside\n")
    secret = tmp_path / "secret.txt"
    secret.write_text("outside-secret\n")
    (spill / "etc").symlink_to("/etc")
    (spill / "passwd").symlink_to("/etc/passwd")
    (spill / "secret.txt").symlink_to(secret)
    before = sorted(p.name for p in spill.iterdir())
    for folder in (str(spill), "w.duckdb.tmp"):  # absolute, and relative to the working directory
        attempts = [
            f"select * from read_text('{folder}/inside.csv')",
            f"select * from read_csv('{folder}/inside.csv')",
            f"select * from read_blob('{folder}/inside.csv')",
            f"select * from glob('{folder}/*')",
            f"select * from read_text('{folder}/passwd')",
            f"select * from read_text('{folder}/etc/passwd')",
            f"select * from read_csv('{folder}/etc/passwd')",
            f"select * from read_text('{folder}/secret.txt')",
            f"copy (select 'written' as x) to '{folder}/out.csv'",
            f"copy (select 'written' as x) to '{folder}/etc/warlog-test'",
            f"attach '{folder}/new.duckdb' as other (read_only false)",
            f"export database '{folder}/export'",
            f"set temp_directory = '{folder}'",
        ]
        for query in attempts + [
            "select * from read_text('/etc/passwd')",
            f"select * from read_text('{secret}')",
            "set enable_external_access = true",
            "set allowed_directories = ['/']",
            "install httpfs",
            "load httpfs",
        ]:
            with pytest.MonkeyPatch.context() as patch:
                patch.chdir(tmp_path)
                code = main(["sql", query, "--db", str(db)])
            captured = capsys.readouterr()
            assert code == 2, (query, captured.out, captured.err)
            assert "root:" not in captured.out and "from-inside" not in captured.out, query
            assert "outside-secret" not in captured.out and "inside.csv" not in captured.out, query
            assert captured.err.startswith("warlog sql: "), captured.err
    assert sorted(p.name for p in spill.iterdir()) == before  # nothing written
    assert not (Path("/etc") / "warlog-test").exists()
    assert main(["sql", "select count(*) as n from games", "--db", str(db)]) == 0  # the database itself: yes
    assert capsys.readouterr().out.split()[-1] == "0"
