"""What the three registries of game systems share (``engine.systems``, ``replay.systems``, ``api.systems``): a
name -> part table with its lookup, listing and "already registered" check, each in the layer's own words, and the
``with`` block in which tests change the table and get it back exactly as it was. What a part must be to register
(its protocol, its fit with the other parts) stays with each layer's ``register``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...  # the engine system's name: the registry key


P = TypeVar("P", bound=Named)


class Registry(Generic[P]):
    """The parts of one layer by system name.

    ``unknown`` is the layer's KeyError for a name it has no part for; ``missing`` and ``taken`` its messages, with
    ``{name!r}`` and (``missing``) ``{known}``, the registered names joined by commas."""

    def __init__(self, unknown: type[KeyError], missing: str, taken: str) -> None:
        self.parts: dict[str, P] = {}  # name -> part, in registration order (the layer exposes it by its own name)
        self._unknown = unknown
        self._missing = missing
        self._taken = taken

    def get(self, name: str) -> P:
        """The part registered as ``name``; the layer's ``unknown`` error, naming the known ones, if none is."""
        try:
            return self.parts[name]
        except KeyError:
            raise self._unknown(self._missing.format(name=name, known=", ".join(self.names()))) from None

    def names(self) -> tuple[str, ...]:
        """The registered names, sorted."""
        return tuple(sorted(self.parts))

    def add(self, part: P, *, replace: bool = False, check: Callable[[P], object] | None = None) -> P:
        """Add ``part`` under its name: ValueError if another part has the name (the same part again is no conflict)
        unless ``replace``; then ``check(part)`` (the layer's checks against the other parts), then it is added."""
        held = self.parts.get(part.name)
        if held is not None and held is not part and not replace:
            raise ValueError(self._taken.format(name=part.name))
        if check is not None:
            check(part)
        self.parts[part.name] = part
        return part

    def remove(self, name: str) -> P:
        """Remove the part registered as ``name`` and return it (the layer's ``unknown`` error if none is)."""
        part = self.get(name)
        del self.parts[name]
        return part

    @contextmanager
    def scoped(self, register: Callable[..., object], items: tuple[P, ...], replace: bool = False
               ) -> Iterator[tuple[P, ...]]:
        """``register`` each of ``items`` for a ``with`` block; on leaving it (even by an exception) the table is
        exactly as it was: the added parts removed, any replaced ones put back."""
        before = dict(self.parts)
        try:
            for item in items:
                register(item, replace=replace)
            yield items
        finally:
            self.parts.clear()
            self.parts.update(before)
