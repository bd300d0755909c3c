"""`warlog serve` settings that reach the store: DuckDB's memory cap."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.app import create_app
from api.cli import build_parser, main
from api.settings import Settings


def duckdb_memory_limit(settings: Settings) -> str:
    with TestClient(create_app(settings)) as client:
        conn = client.app.state.service.store.reader()
        try:
            return conn.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        finally:
            conn.close()


def test_memory_limit_reaches_duckdb(tmp_path: Path) -> None:
    assert duckdb_memory_limit(Settings(db=str(tmp_path / "a.duckdb"), memory_limit="64MB")) == "61.0 MiB"


def test_a_database_file_gets_256mb_by_default(tmp_path: Path) -> None:
    assert duckdb_memory_limit(Settings(db=str(tmp_path / "b.duckdb"))) == "244.1 MiB"  # 256 MB in MiB


def test_none_leaves_duckdb_its_own_default(tmp_path: Path) -> None:
    capped = duckdb_memory_limit(Settings(db=str(tmp_path / "c.duckdb")))
    assert duckdb_memory_limit(Settings(db=str(tmp_path / "d.duckdb"), memory_limit="none")) != capped


def test_the_memory_limit_comes_from_the_flag_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    args = build_parser().parse_args(["serve", "--memory-limit", "1GB"])
    assert args.memory_limit == "1GB"
    monkeypatch.setenv("WARLOG_MEMORY_LIMIT", "512MB")
    assert Settings.from_env().memory_limit == "512MB"
    assert Settings.from_env(memory_limit="2GB").memory_limit == "2GB"


def test_a_memory_limit_that_is_not_a_size_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValidationError):
        Settings(memory_limit="lots")
    assert main(["serve", "--db", ":memory:", "--memory-limit", "lots"]) == 2
    assert "not a size" in capsys.readouterr().err
