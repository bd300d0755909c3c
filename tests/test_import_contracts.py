"""The import rules (issue 29 item 6), enforced: the contracts of pyproject.toml hold (``lint-imports``: the layers
events <- engine <- replay <- api, each system apart from the others, shared code reaching the systems only through
the registry), the contracts' list of shared modules is complete, and no two modules import each other."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import grimp
import pytest

from engine.systems import ENTRY_POINTS

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("events", "engine", "replay", "api")
# The built-in systems' packages, from warlog's own entry points (engine.<package>.plugin:PLUGIN)
SYSTEMS = tuple(sorted(point.value.split(":")[0].split(".")[1] for point in entry_points(group=ENTRY_POINTS)
                       if point.dist is not None and point.dist.name == "warlog"))


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*LAYERS, cache_dir=None)


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"{len(_contracts())} kept, 0 broken" in done.stdout


def test_every_built_in_system_has_its_contract_apart_from_the_others() -> None:
    assert len(SYSTEMS) == 5
    apart = {tuple(c["source_modules"]): set(c["forbidden_modules"]) for c in _contracts()
             if c["name"].startswith("systems are independent")}
    expected = {tuple(f"{layer}.{name}" for layer in LAYERS): {f"{layer}.{other}" for layer in LAYERS
                                                                for other in SYSTEMS if other != name}
                for name in SYSTEMS}
    assert apart == expected


def test_the_contract_of_shared_code_names_every_module_that_is_not_a_systems(graph: grimp.ImportGraph) -> None:
    (shared,) = [c for c in _contracts() if c["name"].startswith("shared code reaches the systems")]
    systems = {f"{layer}.{name}" for layer in LAYERS for name in SYSTEMS}
    top = {child for layer in LAYERS for child in graph.find_children(layer)}
    assert set(shared["source_modules"]) == top - systems
    assert set(shared["forbidden_modules"]) == systems
    for layer in LAYERS:  # the packages themselves (their __init__) import no system either
        assert not {m for m in graph.find_modules_directly_imported_by(layer) if m.split(".")[:2] in
                    [s.split(".") for s in systems]}, layer


def test_no_two_modules_import_each_other(graph: grimp.ImportGraph) -> None:
    cycles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                cycles.add(tuple(sorted(set(back))))
    assert not cycles, sorted(cycles)
