"""Suite-wide hooks: one line in the report header when the PostgreSQL tests cannot run (tests/pg.py)."""

from __future__ import annotations

import pytest


def pytest_report_header(config: pytest.Config) -> str | None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller prints the header once
        return None
    from tests.pg import unavailable

    reason = unavailable()
    return None if reason is None else f"PostgreSQL tests: SKIPPED, {reason}"
