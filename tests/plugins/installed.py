"""The test system pebbles as installed: ``tests/plugins/pebbles`` is a package of its own (``warlog-pebbles``,
installed into the test venv by the Makefile), found through its ``warlog.systems`` entry point like any installed
system. The suite's session leaves it out (tests/conftest.py: ``WARLOG_EXCLUDE_SYSTEMS=pebbles``), so the tests
over "every registered system" see the product's; a test that plays pebbles registers it for a while::

    with pebbles_registered():
        ...
"""

from __future__ import annotations

import dataclasses
import functools
from contextlib import AbstractContextManager
from typing import Any

from api.installed import installed_plugins
from engine.systems import SystemPlugin, registered

PEBBLES = "pebbles"


@functools.cache
def pebbles_plugin() -> SystemPlugin:
    """The plug-in pebbles' entry point names (AssertionError saying how to install it when it is not)."""
    found = installed_plugins(names=[PEBBLES])
    assert found, "pebbles is not installed: make .venv/.installed-stamp (it installs tests/plugins/pebbles)"
    return found[0]


def pebbles_registered(**parts: Any) -> AbstractContextManager[tuple[SystemPlugin, ...]]:
    """Pebbles registered (every layer) for a ``with`` block; ``parts``: layers given other parts (``replay=...``)."""
    plugin = pebbles_plugin()
    return registered(dataclasses.replace(plugin, **parts) if parts else plugin)
