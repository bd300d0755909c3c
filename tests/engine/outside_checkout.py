"""Run code against the engine as a wheel installs it, away from the checkout (issue 29 item 1).

``run_outside_checkout`` copies what the wheel holds of ``events`` and ``engine`` (their modules and the package data
pyproject ships, ``engine/*/data/*.json``) into a fresh directory and runs Python code there, so a module that reads
``fixtures/`` or any other file of the repository fails as it would in an installed wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _wheel_files(folder: str, names: list[str]) -> set[str]:
    """What ``copytree`` leaves out: all but packages, modules and ``data/*.json`` of an engine package."""
    keep = {n for n in names if n.endswith(".py") or (Path(folder, n).is_dir() and n != "__pycache__")}
    if Path(folder).name == "data" and Path(folder).parent.parent.name == "engine":
        keep |= {n for n in names if n.endswith(".json")}
    return set(names) - keep


def run_outside_checkout(where: Path, code: str) -> str:
    """Run ``code`` with only the wheel's ``events`` and ``engine`` importable (copied under ``where``); its output.
    The code runs after a check that ``engine`` is the copy, not the checkout."""
    for package in ("events", "engine"):
        shutil.copytree(ROOT / package, where / package, ignore=_wheel_files)
    check = f"import engine\nassert engine.__file__.startswith({str(where)!r}), engine.__file__\n"
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", check + code], cwd=where, env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
