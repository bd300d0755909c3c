"""Helpers of the record tests: the ``warlog`` command line as a subprocess (``warlog serve``: tests/serving.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def warlog(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``warlog ARGS`` as a user runs it (``python -m api.cli``, cwd = the repository root); WARLOG_DB unset."""
    env = {k: v for k, v in os.environ.items() if k != "WARLOG_DB"}
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=env, capture_output=True, timeout=timeout,
        input=stdin.decode() if stdin is not None else None, text=True,
    )
