"""Issue 29 item 1: Lords of War's built-in data (its cards) is package data, ``engine/lords_of_war/data/cards.json``,
read with ``importlib.resources``: the package as setuptools builds it (what a wheel carries) has it and reads it
with no repository around it; ``fixtures/`` keeps test data only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import engine.lords_of_war
from engine.lords_of_war.catalogue import CARDS, CATALOGUE

ROOT = Path(__file__).resolve().parents[3]


def test_catalogue_is_read_from_the_package_not_the_repository() -> None:
    assert Path(str(CATALOGUE)) == Path(engine.lords_of_war.__file__).parent / "data" / "cards.json"
    assert not (ROOT / "fixtures" / "lords_of_war").exists()  # one copy of the data, the package's


def test_built_package_carries_its_cards_and_reads_them_without_the_repository(tmp_path: Path) -> None:
    build = tmp_path / "build"
    subprocess.run(  # egg_info into tmp_path: nothing is written into the repository
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "egg_info", "--egg-base", str(tmp_path),
         "build_py", "-d", str(build)],
        cwd=ROOT, check=True, capture_output=True,
    )
    assert (build / "engine" / "lords_of_war" / "data" / "cards.json").is_file()
    # -I: no current directory, no PYTHONPATH; the built copy comes first on the path, the repository nowhere
    probe = (f"import sys; sys.path.insert(0, {str(build)!r}); import engine.lords_of_war.catalogue as c; "
             "print(c.__file__); print(len(c.CARDS))")
    out = subprocess.run([sys.executable, "-I", "-c", probe], cwd=tmp_path, check=True, capture_output=True,
                         text=True).stdout.split()
    assert out == [str(build / "engine" / "lords_of_war" / "catalogue.py"), str(len(CARDS))]
