"""HeroScape's built-in data (cards, armies, maps) is package data: an installed wheel carries it and reads it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _as_a_wheel_installs_it(target: Path) -> None:
    """``events`` and ``engine`` as the wheel lays them out: their modules and the package data pyproject names
    (setuptools globs each pattern in the package's folder), nothing else of the repository."""
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package in ("events", "engine"):
        source = ROOT / package
        shipped = set(source.rglob("*.py"))
        for pattern in package_data.get(package, []):
            shipped.update(p for p in source.glob(pattern) if p.is_file())
        for path in shipped:
            if "__pycache__" not in path.parts:
                (target / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target / path.relative_to(ROOT))


def test_an_installed_package_reads_its_cards_armies_and_maps_without_the_repository(tmp_path: Path) -> None:
    installed = tmp_path / "site"
    _as_a_wheel_installs_it(installed)
    script = (
        "import sys; sys.path[0:0] = [sys.argv[1]]\n"
        "import engine.heroscape.catalogue as c\n"
        "assert c.__file__.startswith(sys.argv[1]), c.__file__\n"
        "cards, armies = c.catalogue()\n"
        "print(len(cards), sorted(armies), sorted(c.sample_maps()), sorted(c.load_maps()))\n"
    )
    run = subprocess.run([sys.executable, "-I", "-c", script, str(installed)], cwd=tmp_path, capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split(" ", 1)[1].strip() == (
        "['jandar', 'utgar', 'vydar'] ['proving-ground', 'river-ford', 'twin-hill'] "
        "['proving-ground', 'river-ford', 'twin-hill']")


def test_fixtures_keep_no_built_in_heroscape_data() -> None:
    assert not list((ROOT / "fixtures").glob("heroscape/*.json"))
    assert {p.name for p in (ROOT / "engine" / "heroscape" / "data").glob("*.json")} == {"armies.json", "maps.json"}
