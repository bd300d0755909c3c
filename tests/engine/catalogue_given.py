"""What the catalogue tests of every system share: a system's ``Catalogues`` and its sample catalogues in
tests/fixtures/<system>/catalogues/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.system import Catalogues, catalogues_of

FIXTURES = Path(__file__).parents[1] / "fixtures"


def capability(system: object) -> Catalogues:
    """The system's ``Catalogues`` (it has one)."""
    found = catalogues_of(system)
    assert found is not None
    return found


def sample_catalogue(folder: str, name: str) -> dict[str, Any]:
    """A fresh copy of tests/fixtures/<folder>/catalogues/<name>.json."""
    document: dict[str, Any] = json.loads((FIXTURES / folder / "catalogues" / f"{name}.json").read_text(
        encoding="utf-8"))
    return document
