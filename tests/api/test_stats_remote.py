"""``warlog stats NAME`` for every statistic of the catalogue, on the file and through a running ``warlog serve``
that holds it (the client built from the catalogue: path, path and query parameters, --limit): the same output."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "replay"))

import stats_fixtures as fx  # noqa: E402

from api import remote  # noqa: E402
from api.cli import main  # noqa: E402
from replay.analytics.catalogue import catalogue  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402
from tests.serving import free_port, serve, stop  # noqa: E402

OPTIONS = {  # what each statistic is asked, beyond the filters
    "heatmap": ("--card", "orcs/orc-catapult", "--owner-view"),
    "ratings": ("--limit", "2"),
    "rating-history": ("--player", "ann"),
    "head-to-head": ("--player", "ann", "--opponent", "bob"),
}
FILTERS = ("--tournament", "spring", "--from", "2026-01-01")


def stats_output(db: Path, name: str, *args: str) -> str:
    remote._holders.clear()  # the server started or stopped since the last look
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["stats", name, "--db", str(db), *OPTIONS.get(name, ()), *args]) == 0, name
    return out.getvalue()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("remote") / "w.duckdb"
    clock = fx.Clock()
    store = DuckDBEventStore(path, clock=clock)
    fx.load(store, clock)
    store.close()
    return path


def test_every_statistic_through_a_running_server_prints_what_it_prints_on_the_file(db: Path) -> None:
    names = [s.name for s in catalogue()]
    assert set(OPTIONS) <= set(names) and len(names) >= 11
    asked = [(name, extra) for name in names for extra in ((), ("--json",), (*FILTERS, "--json"))]
    before = {(name, extra): stats_output(db, name, *extra) for name, extra in asked}
    assert '"game_id":"A"' in before[("rating-history", ("--json",))]  # the answers say something
    server = serve(db, free_port())
    try:
        remote._holders.clear()
        assert remote.find_holder(str(db)) is not None
        for name, extra in asked:
            assert stats_output(db, name, *extra) == before[(name, extra)], (name, extra)
    finally:
        stop(server)
        remote._holders.clear()


def test_a_path_parameters_flag_is_required(db: Path, capsys) -> None:
    assert main(["stats", "rating-history", "--db", str(db)]) == 2
    assert capsys.readouterr().err.strip() == "warlog stats: --player is required for this statistic"
