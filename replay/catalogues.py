"""The catalogues of a database (issue 30): each system's default (its built-in data, computed from the package,
never stored) beside the catalogues users brought (stored by content id, immutable). What ``POST /catalogues``,
the other catalogue routes and ``warlog catalogue`` share: a document is checked by its system's ``Catalogues``
capability before anything is stored, and a game's catalogue id is resolved to its document here."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.catalogue import (
    CatalogueError,
    CatalogueProblem,
    CatalogueTooLarge,
    canonical,
    catalogue_id,
    size_problem,
)
from engine.system import Catalogues, catalogues_of
from engine.systems import UnknownSystem, derived, get_system, system_names
from replay.errors import CatalogueNotFound, CatalogueRefused
from replay.store.base import CatalogueStoring


class CatalogueSummary(msgspec.Struct, frozen=True):
    """A catalogue as ``GET /catalogues`` lists it."""

    id: str
    system: str
    name: str
    version: str
    default: bool
    created_at: str | None = None


def capability(system: str) -> Catalogues | None:
    """The ``Catalogues`` of the registered system ``system``; None when there is no such system or it takes none."""
    try:
        return catalogues_of(get_system(system))
    except UnknownSystem:
        return None


def _defaults() -> dict[str, tuple[CatalogueSummary, bytes]]:
    found = {}
    for name in system_names():
        caps = capability(name)
        if caps is not None:
            document = caps.default()
            summary = CatalogueSummary(catalogue_id(document), name, document["name"], document["version"], True)
            found[name] = (summary, canonical(document))
    return found


def defaults() -> dict[str, tuple[CatalogueSummary, bytes]]:
    """Each system that takes catalogues -> its default catalogue (summary, canonical JSON), made once per state of
    the registry."""
    return derived("replay.catalogues.defaults", _defaults)


def check(document: Any) -> tuple[str, Catalogues]:
    """The system of a catalogue document and its capability, once the document is playable. Raises
    CatalogueTooLarge (over a size limit) or CatalogueError (every problem)."""
    if not isinstance(document, dict):
        raise CatalogueError((CatalogueProblem("", "must be an object"),))
    system = document.get("system")
    if not isinstance(system, str) or system not in system_names():
        raise CatalogueError((CatalogueProblem("system", f"must name a game system ({', '.join(system_names())})"),))
    caps = capability(system)
    if caps is None:
        raise CatalogueError((CatalogueProblem("system", f"{system} takes no catalogue yet: it plays its built-in "
                                               "data"),))
    too_big = size_problem(document)
    if too_big is not None:
        raise CatalogueTooLarge((too_big,))
    problems = caps.problems(document)
    if problems:
        raise CatalogueError(problems)
    return system, caps


class CatalogueBook:
    """The catalogues of one store."""

    def __init__(self, store: CatalogueStoring) -> None:
        self.store = store

    def add(self, document: Any) -> tuple[CatalogueSummary, bool]:
        """Check and store ``document``: (its summary, whether this call stored it). A system's default is not
        stored (it is already every database's). Raises as ``check``."""
        system, _ = check(document)
        identity = catalogue_id(document)
        default = defaults()[system][0]
        if identity == default.id:
            return default, False
        record, added = self.store.add_catalogue(identity, system, document["name"], document["version"],
                                                 canonical(document))
        return self._summary(record), added

    def list(self, system: str | None = None) -> list[CatalogueSummary]:
        """Every catalogue (of ``system``): the defaults first, then the stored ones, oldest first."""
        found = [summary for name, (summary, _) in defaults().items() if system in (None, name)]
        return found + [self._summary(record) for record in self.store.list_catalogues(system)]

    def document(self, identity: str) -> bytes:
        """The canonical JSON of catalogue ``identity``. Raises CatalogueNotFound."""
        for summary, document in defaults().values():
            if summary.id == identity:
                return document
        return self.store.get_catalogue(identity).document

    @staticmethod
    def _summary(record: Any) -> CatalogueSummary:
        return CatalogueSummary(record.catalogue_id, record.system, record.name, record.version, False,
                                record.created_at)


CATALOGUE = "catalogue"  # the setup field naming a game's catalogue, and the games' metadata key holding its id


def resolve_setup(store: object, setup: dict[str, Any]) -> dict[str, Any]:
    """``setup`` with the catalogue it names by id (``setup["catalogue"]``, as ``POST /games`` takes it) replaced by
    the catalogue's document, as the engine's setup takes it (the engine never reads the store). Unchanged without
    a catalogue id (a document already there, as an imported game's recorded setup has, is the engine's to check);
    the system's default catalogue named by its id is the same as none. Raises CatalogueRefused:
    ``catalogue_not_supported`` for a system that takes no catalogue, ``unknown_catalogue`` for an id not stored
    or stored for another system."""
    identity = setup.get(CATALOGUE)
    if not isinstance(identity, str):
        return setup
    system = str(setup.get("system", ""))
    if capability(system) is None:
        raise CatalogueRefused("catalogue_not_supported",
                               f"{system} plays its built-in data only: it takes no catalogue yet (leave "
                               "catalogue out)")
    others = {summary.id: name for name, (summary, _) in defaults().items()}
    if others.get(identity) == system:
        return {key: value for key, value in setup.items() if key != CATALOGUE}
    try:
        if others.get(identity) is not None:
            raise CatalogueRefused("unknown_catalogue", f"catalogue {identity} is {others[identity]}'s default "
                                   f"catalogue, not a {system} catalogue")
        if not isinstance(store, CatalogueStoring):
            raise CatalogueNotFound(identity)
        record = store.get_catalogue(identity)
    except CatalogueNotFound:
        raise CatalogueRefused("unknown_catalogue", f"no catalogue {identity!r} is stored: upload it first "
                               "(POST /catalogues or warlog catalogue import; GET /catalogues lists them)") from None
    if record.system != system:
        raise CatalogueRefused("unknown_catalogue",
                               f"catalogue {identity} ({record.name}) is a {record.system} catalogue, not a "
                               f"{system} one")
    return {**setup, CATALOGUE: msgspec.json.decode(record.document)}


def keep_embedded(store: object, document: Any) -> None:
    """Store the catalogue a game's ``game_started`` embeds (its field ``catalogue``, issue 30) in ``store``'s
    catalogues, so ``GET /catalogues/{id}`` answers for an imported game's catalogue too (nothing when ``document``
    is not one, when the store keeps no catalogues, or when it is stored already). Raises as ``check``: the
    document is checked again."""
    if isinstance(document, dict) and isinstance(store, CatalogueStoring):
        CatalogueBook(store).add(document)


__all__ = ["CATALOGUE", "CatalogueBook", "CatalogueNotFound", "CatalogueRefused", "CatalogueSummary", "capability",
           "check", "defaults", "keep_embedded", "resolve_setup"]
