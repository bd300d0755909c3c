"""``warlog tournament`` for a multi-seat system (pebbles, registered from the tests): the system's own options,
pods, forfeits as placings with scores, standings with place points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from tests.plugins.installed import pebbles_registered


def test_the_cli_runs_a_tournament_of_pebbles_pods(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "pods.duckdb")
    with pebbles_registered():
        create = ["tournament", "create", "--db", db, "--name", "Pebble night", "--rounds", "1", "--system", "pebbles"]
        assert main([*create, "--kill-target", "5"]) == 2  # another system's option
        assert "options of lords-of-war were given, but the tournament's system is pebbles" in capsys.readouterr().err
        with pytest.raises(SystemExit) as refused:  # pebbles' own range, 6 to 99: a usage error (issue 28 item 22)
            main([*create, "--heap", "5"])
        assert refused.value.code == 2
        assert "argument --heap: 5 is out of range: give a whole number from 6 to 99" in capsys.readouterr().err
        assert main([*create, "--heap", "9", "--seeding", "registration"]) == 0  # the seats below: registration order
        out = capsys.readouterr().out
        tid = out.split()[1]
        assert "rounds of 4-seat pods of pebbles" in out
        for name in ("ann", "ben", "cy", "dan", "eve"):
            assert main(["tournament", "register", tid, name, "--db", db]) == 0
        assert main(["tournament", "register", tid, "fay", "--army", "orcs", "--db", db]) == 2
        capsys.readouterr()
        assert main(["tournament", "round", tid, "--json", "--db", db]) == 0
        started = json.loads(capsys.readouterr().out)
        assert [t["seats"] for t in started["tables"]] == [{"p1": "ann", "p2": "ben", "p3": "cy", "p4": "dan"}]
        assert started["byes"] == ["eve"] and set(started["tables"][0]["tokens"]) == {"scorekeeper", "p1", "p2",
                                                                                     "p3", "p4"}
        assert main(["tournament", "result", tid, "1", "1", "--winner", "p1", "--db", db]) == 1
        assert "invalid_result" in capsys.readouterr().err
        assert main(["tournament", "result", tid, "1", "1", "--placings", "p2", "p1", "--db", db]) == 1
        assert "every seat of the table" in capsys.readouterr().err
        assert main(["tournament", "result", tid, "1", "1", "--placings", "p2", "p1,p3", "p4", "--scores", "3", "5",
                     "--db", db]) == 2  # a score per seat
        capsys.readouterr()
        assert main(["tournament", "result", tid, "1", "1", "--placings", "p2", "p1,p3", "p4", "--scores", "3", "5",
                     "1", "0", "--db", db]) == 0
        assert "p2 > p1,p3 > p4 (forfeit)" in capsys.readouterr().out
        assert main(["tournament", "standings", tid, "--json", "--db", db]) == 0
        rows = {r["player"]: r for r in json.loads(capsys.readouterr().out)}
        assert {p: r["match_points"] for p, r in rows.items()} == {"ben": 3, "eve": 3, "ann": 1.5, "cy": 1.5,
                                                                 "dan": 0}
        assert rows["ben"]["score_difference"] == round(5 - (3 + 1 + 0) / 3, 4) == rows["ben"]["kill_difference"]
        assert [r["rank"] for r in rows.values()] == [1, 2, 3, 4, 5]
        assert main(["tournament", "standings", tid, "--db", db]) == 0
        assert "1.5" in capsys.readouterr().out
        assert main(["tournament", "show", tid, "--json", "--db", db]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["seats"] == 4 and shown["variant"] == {"heap": 9}
        assert shown["tables"][0]["placings"] == [["p2"], ["p1", "p3"], ["p4"]]
