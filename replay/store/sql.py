"""Loads the SQL statements kept as files under `replay/sql/` (one statement per file), cached.

Statements take `$name` parameters; SQL is never assembled from strings carrying user data.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

SQL_DIR = Path(__file__).parent.parent / "sql"
_MIGRATION = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


@cache
def sql(name: str) -> str:
    """The text of `replay/sql/<name>.sql`."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise ValueError(f"bad statement name {name!r}")
    return (SQL_DIR / f"{name}.sql").read_text(encoding="utf-8")


@cache
def migrations() -> tuple[tuple[int, str, str], ...]:
    """Every `replay/sql/migrations/NNN_name.sql` as (version, name, text), in version order."""
    found = []
    folder = SQL_DIR / "migrations"
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        match = _MIGRATION.match(path.name)
        if match:
            found.append((int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    if not found:  # e.g. an install whose package data left out sql/migrations/*.sql
        raise RuntimeError(f"no migrations found under {SQL_DIR / 'migrations'}")
    versions = [version for version, _, _ in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a version: {versions}")
    return tuple(found)
