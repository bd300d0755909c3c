"""What the three registries of game systems share (``engine.systems``, ``replay.systems``, ``api.systems``): a
name -> part table that tests change for a ``with`` block and get back exactly as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def scoped(table: dict[str, T], register: Callable[..., object], items: tuple[T, ...],
           replace: bool = False) -> Iterator[tuple[T, ...]]:
    """``register`` each of ``items`` for a ``with`` block; on leaving it (even by an exception) ``table`` is exactly
    as it was: the added parts removed, any replaced ones put back."""
    before = dict(table)
    try:
        for item in items:
            register(item, replace=replace)
        yield items
    finally:
        table.clear()
        table.update(before)
