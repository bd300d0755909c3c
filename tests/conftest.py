"""Suite-wide hooks: the game systems loaded once for the session, as the product loads them; one line at the end
of the run when the PostgreSQL tests could not run (tests/pg.py).

The session loads the installed systems through their entry points (``api.installed.load_systems``), but the test
system pebbles (tests/plugins/pebbles, installed into the test venv by the Makefile): the suite, and the ``warlog``
processes it starts (``WARLOG_EXCLUDE_SYSTEMS``), see the product's systems; a test that plays pebbles registers it
for a while (``tests.plugins.installed.pebbles_registered``), found through its entry point like any installed system.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from api.installed import EXCLUDE_SETTING, load_systems

TEST_SYSTEMS = "pebbles"  # installed in the test venv, registered only where a test asks

# Hypothesis: `make test` draws the same examples on every run and machine (a red run is the change's, never the
# dice's, and repeats); `make test-all` sets HYPOTHESIS_PROFILE=explore for new examples on every run.
settings.register_profile("fixed", derandomize=True, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault(EXCLUDE_SETTING, TEST_SYSTEMS)  # this process and the warlog processes the tests start
    load_systems()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller says it once
        return
    from tests.pg import unavailable

    reason = unavailable()
    if reason is not None:
        terminalreporter.write_line(f"PostgreSQL tests: SKIPPED, {reason}", yellow=True)
