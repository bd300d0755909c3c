"""Suite-wide hooks: one line at the end of the run when the PostgreSQL tests could not run (tests/pg.py)."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller says it once
        return
    from tests.pg import unavailable

    reason = unavailable()
    if reason is not None:
        terminalreporter.write_line(f"PostgreSQL tests: SKIPPED, {reason}", yellow=True)
