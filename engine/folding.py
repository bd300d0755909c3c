"""One way to apply an event, per system: ``apply(work, event)`` on a mutable working state (HOUSE_STYLE).

A system writes three functions once: ``thaw(state) -> work`` (a mutable working copy of a frozen ``State``; it
shares nothing mutable with the state, so the state never changes), ``apply(work, event)`` (the event's meaning:
trusts its input and never re-runs a rule) and ``freeze(work) -> state`` (a new frozen ``State``). The framework
derives both readers from them:

- ``evolve(state, event)``: thaw, apply, freeze (one step: the replay cursor, the service after a decision);
- ``fold(events, state=None)``: thaw once, apply every event, freeze once (a whole stream: loading a game,
  statistics, verify).

So the two can never disagree: there is no second implementation to keep in step. The working state is typed (a
mutable class of the system's own, never ``Any``), so mypy checks ``apply`` as strictly as ``decide``.

A system's ``apply`` is its ``engine.steps.Steps.apply`` (one step per event type; it counts the event and runs the
step); ``fold`` then loops with ``Steps.run``, the same two lines inline, so a stream pays one Python call an event
instead of two. Any other ``apply`` callable works the same way, one call an event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.steps import Steps

S = TypeVar("S")  # the frozen state
W = TypeVar("W")  # the mutable working state
E = TypeVar("E")  # the system's event union


@dataclass(frozen=True, slots=True)
class Folding(Generic[S, W, E]):
    """A system's ``initial`` state and its ``thaw`` / ``apply`` / ``freeze``; ``evolve`` and ``fold`` derived."""

    initial: Callable[[], S]
    thaw: Callable[[S], W]
    apply: Callable[[W, E], None]
    freeze: Callable[[W], S]
    # derived: the loop over a stream (``Steps.run`` when ``apply`` is a ``Steps.apply``)
    run: Callable[[W, Iterable[E]], None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        steps = getattr(self.apply, "__self__", None)
        object.__setattr__(self, "run", steps.run if isinstance(steps, Steps) else self._apply_each)

    def _apply_each(self, work: W, events: Iterable[E]) -> None:
        apply = self.apply
        for event in events:
            apply(work, event)

    def evolve(self, state: S, event: E) -> S:
        """The state after ``event``: thaw, apply, freeze."""
        work = self.thaw(state)
        self.apply(work, event)
        return self.freeze(work)

    def fold(self, events: Iterable[E], state: S | None = None) -> S:
        """The state after every event of ``events`` from ``state`` (None: the initial state): thaw once, apply
        each, freeze once. Equal to ``evolve`` over them one by one, by construction."""
        work = self.thaw(self.initial() if state is None else state)
        self.run(work, events)
        return self.freeze(work)


__all__ = ["Folding"]
