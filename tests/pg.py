"""A real PostgreSQL for the tests of the PostgreSQL store (issue 19): ``WARLOG_TEST_PG`` (a URL) if set, else the
local default (``postgresql://warlog:warlog@127.0.0.1:5432/warlog_test``, the role and database ``.ci/run``
creates). Each test gets a schema of its own (``fresh_url``), dropped afterwards. Without a reachable server every
PostgreSQL test is skipped; ``tests/conftest.py`` says why in one line of the report header.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from urllib.parse import quote

import pytest

LOCAL_DEFAULT = "postgresql://warlog:warlog@127.0.0.1:5432/warlog_test"


def base_url() -> str:
    return os.environ.get("WARLOG_TEST_PG") or LOCAL_DEFAULT


@cache
def unavailable() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None when they can."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[pg]')"
    try:
        with psycopg.connect(base_url(), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return f"no PostgreSQL at {redacted()} ({first}); set WARLOG_TEST_PG or start one (.ci/run does)"
    return None


def redacted() -> str:
    from replay.store.postgres_store import redact

    return redact(base_url())


def require_pg() -> None:
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")


def with_schema(url: str, schema: str) -> str:
    """The URL whose connections use ``schema`` (their search_path)."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A new, empty schema for one test: yields the URL that uses it; drops it (and everything in it) after."""
    import psycopg

    require_pg()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(base_url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(base_url(), schema)
    finally:
        with psycopg.connect(base_url(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_schema() as url:
        yield url
