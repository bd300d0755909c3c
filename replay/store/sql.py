"""Loads SQL statements kept as files (one statement per file), cached: the shared ones under `replay/sql/`, and a
game system's own under its folder (`replay/<system>/sql/`), each folder with its migration chain (`migrations/`).

Statements take `$name` parameters; SQL is never assembled from strings carrying user data.
"""

from __future__ import annotations

import re
from pathlib import Path

SQL_DIR = Path(__file__).parent.parent / "sql"
SHARED_CHAIN = "shared"  # the chain of replay/sql/migrations (ledger: schema_migrations)
_MIGRATION = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


class SqlFolder:
    """A folder of statements (``<name>.sql``) and its migration chain (``migrations/NNN_name.sql``, applied in
    version order, each once; the chain's name keys its ledger)."""

    def __init__(self, path: Path, chain: str) -> None:
        self.path = path
        self.chain = chain
        self._statements: dict[str, str] = {}
        self._migrations: tuple[tuple[int, str, str], ...] | None = None

    def __repr__(self) -> str:
        return f"SqlFolder({str(self.path)!r}, chain={self.chain!r})"

    def __call__(self, name: str) -> str:
        """The text of ``<folder>/<name>.sql``."""
        text = self._statements.get(name)
        if text is None:
            if not re.fullmatch(r"[a-z0-9_]+", name):
                raise ValueError(f"bad statement name {name!r}")
            text = self._statements[name] = (self.path / f"{name}.sql").read_text(encoding="utf-8")
        return text

    def migrations(self) -> tuple[tuple[int, str, str], ...]:
        """Every ``migrations/NNN_name.sql`` as (version, name, text), in version order."""
        if self._migrations is None:
            found = []
            folder = self.path / "migrations"
            for path in sorted(folder.iterdir()) if folder.is_dir() else []:
                match = _MIGRATION.match(path.name)
                if match:
                    found.append((int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
            if not found:  # e.g. an install whose package data left out sql/migrations/*.sql
                raise RuntimeError(f"no migrations found under {folder}")
            versions = [version for version, _, _ in found]
            if len(set(versions)) != len(versions):
                raise RuntimeError(f"two migrations of {self.chain} share a version: {versions}")
            self._migrations = tuple(found)
        return self._migrations


SHARED = SqlFolder(SQL_DIR, SHARED_CHAIN)


def sql(name: str) -> str:
    """The text of `replay/sql/<name>.sql`."""
    return SHARED(name)


def migrations() -> tuple[tuple[int, str, str], ...]:
    """Every `replay/sql/migrations/NNN_name.sql` as (version, name, text), in version order."""
    return SHARED.migrations()
