"""A system's ``apply(work, event)`` as a table: one step per event type, found by the event's exact type.

``Steps.on(Kind)`` registers the step that writes what a ``Kind`` event means (mypy checks the step takes that
kind); ``Steps.check(Union)`` fails at import when an event of the system's union has no step, or a step no event
(what ``case _: assert_never(event)`` proves for a ``match``); ``Steps.table`` is the dict the steps are found in.

``Steps.apply`` is the system's ``apply`` (``apply = STEPS.apply``): it counts the event (``work.seq``, every state's
count of the events of its stream) and runs its step; an object of another type is refused by name (a
``TypeError``, "not a Lords of War event: ..."). ``run`` is the same for a whole stream, the loop
``engine.folding.Folding.fold`` uses: the look-up written inline and the events counted once, at the end, so a
stream pays one Python call an event (the step's), not two, and no attribute write of its own. So a step never
reads or writes ``work.seq`` (a ``game_started`` step, which starts the work over, keeps it as it found it).

Why not a ``match`` over the union: a class pattern is an ``isinstance`` test, and one that misses against a
msgspec Struct class (whose metaclass is not ``type``) takes Python's slow path (about 0.1 µs). A ``match`` pays that
for every case before the right one, on every event a stream folds; with msgspec decoding an event in about 0.4 µs,
the misses alone cost as much as the decode (Art of War: fold 1.2 µs an event with a ``match`` ordered by frequency,
0.84 µs with this table; docs/art-of-war.md "Speed").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, NoReturn, Protocol, TypeVar, get_args


class Counted(Protocol):
    """What ``Steps`` reads of a working state: the count of the events applied to its stream."""

    seq: int


W = TypeVar("W", bound=Counted)  # the working state
K = TypeVar("K")  # one event type

Step = Callable[[W, K], None]


class Steps(Generic[W]):
    """The steps of one system's ``apply``, by event type; ``system`` names the system in the refusal of an event
    of another ("not a Lords of War event")."""

    def __init__(self, system: str) -> None:
        self.system = system
        self.table: dict[type, Callable[[W, Any], None]] = {}

    def on(self, kind: type[K]) -> Callable[[Step[W, K]], Step[W, K]]:
        """Register the decorated function as what a ``kind`` event does to the working state."""

        def register(step: Step[W, K]) -> Step[W, K]:
            if kind in self.table:
                raise TypeError(f"{kind.__name__} has two steps")
            self.table[kind] = step
            return step

        return register

    def check(self, union: Any) -> None:
        """Every event type of ``union`` (a union of event classes) has its step, and every step an event type."""
        kinds = set(get_args(union))
        missing = sorted(k.__name__ for k in kinds - self.table.keys())
        extra = sorted(k.__name__ for k in self.table.keys() - kinds)
        if missing or extra:
            raise TypeError(f"events without a step: {missing}; steps without an event: {extra}")

    def apply(self, work: W, event: Any) -> None:
        """``event`` happened (one more in the stream): its step changes ``work`` accordingly (trusting the event:
        no rule is re-run)."""
        try:
            step = self.table[type(event)]
        except KeyError:
            self._refuse(event)
        work.seq += 1
        step(work, event)

    def run(self, work: W, events: Iterable[Any]) -> None:
        """``apply`` of each of ``events`` in turn, inline (a stream's loop: ``fold``); counted at the end."""
        table = self.table
        count = 0
        for count, event in enumerate(events, 1):  # noqa: B007 - the count is what the loop leaves
            try:
                step = table[type(event)]
            except KeyError:
                self._refuse(event)
            step(work, event)
        work.seq += count

    def _refuse(self, event: object) -> NoReturn:
        raise TypeError(f"not a {self.system} event: {event!r}") from None


__all__ = ["Counted", "Steps"]
