"""What systems' catalogues share beyond ``engine.catalogue`` (issue 30).

- ``labels``: the JSON Schema properties every catalogue document starts with (its system, name, version, about).
- ``game_catalogue``: a game's catalogue from its setup, what every system that takes a catalogue does first in
  ``start``. ``setup["catalogue"]`` is the document the API resolved from a catalogue id (the engine never reads the
  store); absent or None, the game plays the system's default catalogue. A document is checked again here
  (``problems``): a game never starts on a catalogue the rules cannot play, whoever built the setup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.catalogue import catalogue_id
from engine.errors import SetupError
from engine.system import Catalogues


def labels(system: str) -> dict[str, Any]:
    """The schema properties of a catalogue's labels: ``system`` (the system's name), ``name`` and ``version`` (labels,
    not its identity: that is its content id) and ``about`` (where the data comes from)."""
    return {
        "system": {"const": system},
        "name": {"type": "string", "minLength": 1, "maxLength": 80, "description": "a label, not the identity"},
        "version": {"type": "string", "minLength": 1, "maxLength": 40, "description": "a label"},
        "about": {"type": "string", "maxLength": 2000, "description": "where the data comes from"},
    }


def game_catalogue(setup: Mapping[str, Any], rules: Catalogues,
                   default_id: str) -> tuple[dict[str, Any] | None, str | None]:
    """``(document, id)`` of the catalogue a setup names, or ``(None, None)`` for the system's default (also when the
    setup gives the default's own document). Refused with ``SetupError`` ``invalid_catalogue`` naming the first
    problems (the rule each breaks) when the document is not playable."""
    document = setup.get("catalogue")
    if document is None:
        return None, None
    if not isinstance(document, dict):
        raise SetupError("invalid_catalogue", "catalogue", "a game's catalogue is a catalogue document (an object)")
    problems = rules.problems(document)
    if problems:
        shown = "; ".join(f"{p.path}: {p.message}" + (f" ({p.rule})" if p.rule else "") for p in problems[:3])
        more = f" (and {len(problems) - 3} more problems)" if len(problems) > 3 else ""
        raise SetupError("invalid_catalogue", problems[0].rule or "catalogue",
                         f"the catalogue cannot be played: {shown}{more}")
    content_id = catalogue_id(document)
    if content_id == default_id:
        return None, None
    return document, content_id


__all__ = ["game_catalogue", "labels"]
