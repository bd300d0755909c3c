"""Legend of the Five Rings (Ivory Extended 40/40): the rules engine.

Rules: the project's digest ``shared/rules/l5r.md`` (§1-§7, rulings R1-R3), as implemented in docs/l5r.md; events:
``events.l5r``; sample data: ``fixtures/l5r/`` (ours). The engine enforces the procedures; what card texts do is
recorded as ``effect`` events, checked for consistency only. ``SYSTEM`` is registered in ``engine.systems``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

from engine.errors import SetupError
from engine.l5r.actions import Concede, L5RAction, parse_action
from engine.l5r.bots import GreedyBot, RandomBot
from engine.l5r.records import recorded_actions
from engine.l5r.rules import decide, legal_actions, opening
from engine.l5r.setup import RULES_VERSION, SEATS, SYSTEM_NAME, deck_of, recorded_setup, seats_of, start_event
from engine.l5r.state import State, awaited, evolve, fold, initial_state, state_to_builtins
from engine.play import redecide_by_evolve
from engine.system import BotFactory, GameSystem, Outcome, RecordedAction, Redecided, Seat, SeatCounts, seat_id
from events.l5r import CODEC, L5REvent

# What ``sample_setup`` cycles through: every pairing of the four sample decks, both modes.
SAMPLE_GAMES: tuple[tuple[str, str, str], ...] = (
    ("crab", "crane", "sealed"),
    ("lion", "dragon", "sealed"),
    ("crane", "lion", "table"),
    ("dragon", "crab", "sealed"),
    ("crab", "lion", "sealed"),
    ("crane", "dragon", "table"),
)


class L5RSystem:
    """The ``GameSystem`` for L5R (two players; ``engine.system`` documents every member)."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type = L5RAction
    bots: Mapping[str, BotFactory[State, L5RAction]] = {"random": RandomBot, "greedy": GreedyBot}

    def start(self, setup: dict[str, Any]) -> tuple[L5REvent, ...]:
        started = start_event(setup)
        return (started, *opening(evolve(initial_state(), started)))

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, action: L5RAction) -> tuple[L5REvent, ...]:
        return decide(state, parse_action(action))

    def evolve(self, state: State, event: L5REvent) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[L5REvent], state: State | None = None) -> State:
        return fold(events, state)

    def parse_action(self, data: Any) -> L5RAction:
        return parse_action(data)

    def legal_actions(self, state: State, seat: str | None = None) -> Sequence[L5RAction]:
        return legal_actions(state, seat)

    def concession(self, seat: str) -> L5RAction:
        return Concede(player=seat)

    def state_to_builtins(self, state: State) -> dict[str, Any]:
        return state_to_builtins(state)

    def seat_counts(self, setup: Mapping[str, Any] | None = None) -> SeatCounts:
        return SEATS

    def seats(self, setup: Mapping[str, Any]) -> tuple[Seat, ...]:
        return seats_of(setup)

    def to_act(self, state: State) -> tuple[str, ...]:
        return awaited(state)

    def turn(self, state: State) -> int:
        return state.turn

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over" or state.end_reason is None:
            return None
        seats = tuple(p.id for p in state.players)
        scores = {p.id: p.honor for p in state.players}
        if state.winner is None:
            return Outcome.ranked([seats], state.end_reason, scores)
        return Outcome.ranked([(state.winner,), tuple(s for s in seats if s != state.winner)], state.end_reason,
                              scores)

    def recorded_setup(self, events: Sequence[L5REvent]) -> dict[str, Any]:
        return recorded_setup(events)

    def recorded_actions(self, events: Sequence[L5REvent]) -> list[RecordedAction[L5RAction]]:
        return recorded_actions(events)

    def redecide(self, events: Sequence[L5REvent]) -> Generator[Redecided[L5RAction, L5REvent], None, State]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))

    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        if seats is not None and seats not in SEATS:
            raise SetupError("invalid_setup", "§2", f"this L5R game is played by {SEATS} players, not {seats}")
        first, second, mode = SAMPLE_GAMES[index % len(SAMPLE_GAMES)]
        if index // len(SAMPLE_GAMES) % 2:
            first, second = second, first
        setup: dict[str, Any] = {"system": SYSTEM_NAME,
                                 "players": [{"id": seat_id(0), "name": "red", "army": first},
                                             {"id": seat_id(1), "name": "blue", "army": second}],
                                 "variant": {"mode": mode}}
        if mode == "sealed":
            setup["seed"] = seed
        if deck_of("p1", first).honor == deck_of("p2", second).honor:  # R1: a tie, decided by the players
            setup["first"] = seat_id(index % 2)
        return setup


SYSTEM: GameSystem[State, L5RAction, L5REvent] = L5RSystem()

__all__ = ["SYSTEM", "L5RSystem", "State"]
