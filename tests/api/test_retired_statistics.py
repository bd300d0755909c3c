"""Issue 29 item 3: the per-system statistics that recounted a core one are retired (CHANGELOG names each with the
core statistic that answers it): ``aow-victories`` and ``lw-victories`` (core ``end-reasons --system S``),
``aow-first-player`` and ``lw-first-player`` (core ``first-player --system S``). The core ones answering the same is
shown beside each system's statistics (tests/replay/art_of_war/test_art_of_war_stats.py,
tests/replay/light_wars/test_light_wars_stats.py); here, from the user's side, the old names are gone and the core
names answer for those systems."""

from __future__ import annotations

import json

import pytest

from api.cli import main
from replay.analytics.catalogue import catalogue

RETIRED = {"aow-victories": "end-reasons", "aow-first-player": "first-player", "lw-victories": "end-reasons",
           "lw-first-player": "first-player"}


def test_statistics_that_repeat_a_core_one_are_retired() -> None:
    names = {entry.name for entry in catalogue()}
    assert not names & set(RETIRED), names & set(RETIRED)
    assert set(RETIRED.values()) <= names


@pytest.mark.parametrize(("retired", "system"), [("aow-victories", "art-of-war"), ("lw-first-player", "light-wars")])
def test_a_retired_statistic_is_refused_and_its_core_one_answers(retired: str, system: str, tmp_path, capsys) -> None:
    db = str(tmp_path / "w.duckdb")
    assert main(["demo", "--system", system, "--games", "2", "--db", db]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main(["stats", retired, "--system", system, "--db", db])
    assert refused.value.code == 2 and f"'{retired}'" in capsys.readouterr().err
    assert main(["stats", RETIRED[retired], "--system", system, "--json", "--db", db]) == 0
    answer = json.loads(capsys.readouterr().out)
    games = answer["overall"]["games"] if RETIRED[retired] == "first-player" else answer["games"]
    assert games == 2
