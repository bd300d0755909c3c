"""Issue 30 item 7: the conformance suites (engine, replay) run every system on its default catalogue and again on
each catalogue listed here, its second sample catalogue (tests/fixtures/<system>/catalogues/), through the protocols
alone: the suites know no system, and a catalogue's games are its system's sample setups moved onto it
(``engine.catalogue.setup_on_catalogue``: its armies in turn, and its maps where a setup names a built-in map).

THE ONE LIST: a system's tests declare its second catalogue by adding a line to ``SECOND_CATALOGUES`` (the system's
name, the document's file under tests/fixtures/). Both suites read it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from engine.catalogue import army_names, catalogue_id, map_names, setup_on_catalogue
from engine.system import catalogues_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

SECOND_CATALOGUES: tuple[tuple[str, str], ...] = (
    ("lords-of-war", "lords_of_war/catalogues/border-marches.json"),
    ("l5r", "l5r/catalogues/phoenix-scorpion.json"),
    ("art-of-war", "art_of_war/catalogues/northern-realms.json"),
    ("light-wars", "light_wars/catalogues/marsh-frontier.json"),
    ("heroscape", "heroscape/catalogues/cliffside-bay.json"),
)


def document(path: str) -> dict[str, Any]:
    """The catalogue document at ``path`` under tests/fixtures."""
    loaded: dict[str, Any] = json.loads((FIXTURES / path).read_text(encoding="utf-8"))
    return loaded


def label(path: str) -> str:
    """A catalogue's short name in test ids: its file's stem (``border-marches``)."""
    return Path(path).stem


class SystemName(str):
    """A system's name (equal to it, so every lookup by name works) with the catalogue its games are played on:
    ``catalogue`` the file under tests/fixtures, None for the system's default."""

    catalogue: str | None = None

    @classmethod
    def on(cls, name: str, catalogue: str | None) -> SystemName:
        named = cls(name)
        named.catalogue = catalogue
        return named

    @property
    def key(self) -> tuple[str, str | None]:
        """What tells two of them apart (equality does not: both equal the system's name)."""
        return str(self), self.catalogue

    @property
    def id(self) -> str:
        """The test id: ``lords-of-war``, ``lords-of-war@border-marches``."""
        return str(self) if self.catalogue is None else f"{self}@{label(self.catalogue)}"


def with_catalogues(names: list[str]) -> list[SystemName]:
    """Every system of ``names`` on its default, then each listed second catalogue of one of them."""
    return [SystemName.on(name, None) for name in names] + [
        SystemName.on(name, path) for name, path in SECOND_CATALOGUES if name in names]


def on_catalogue(system: Any, path: str) -> Any:
    """``system`` whose sample setups are played on the catalogue at ``path`` (the document in the setup, as the
    engine takes it): a copy of the ``engine.definition.System`` with that ``sample_setup``."""
    played = document(path)
    armies = army_names(catalogues_of(system), played)
    assert armies, f"{system.name}: its catalogues do not name their armies (engine.catalogue.army_names)"
    maps = map_names(catalogues_of(system), played)  # HeroScape's sample setups name built-in maps: moved onto its
    sample = system.sample_setup

    def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        return setup_on_catalogue(sample(index, seed, seats), index, armies, played, maps)

    copy = dataclasses.replace(system, sample_setup=sample_setup)
    COPIES[id(copy)] = (system, path)
    return copy


COPIES: dict[int, tuple[Any, str]] = {}  # a copy ``on_catalogue`` made -> (the registered system, the catalogue)


def registered_system(system: Any) -> Any:
    """The registered system ``system`` is (itself, or the one a copy ``on_catalogue`` made plays)."""
    return COPIES.get(id(system), (system, ""))[0]


def catalogue_path(system: Any) -> str:
    """The catalogue a copy ``on_catalogue`` made plays (its file under tests/fixtures), ``""`` for the default."""
    return COPIES.get(id(system), (system, ""))[1]


def stored_id(path: str) -> str:
    """The content id of the catalogue at ``path``."""
    return catalogue_id(document(path))
