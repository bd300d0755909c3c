"""HeroScape: the rules engine (a hex battlefield with levels, engagement, line of sight, order markers and dice).

Rules: the project's digest ``shared/rules/heroscape.md`` (§1-§8, rulings R1-R2), as implemented in
docs/heroscape.md; events: ``events.heroscape``; sample maps and army cards (ours): ``fixtures/heroscape/``.
``SYSTEM`` is the ``engine.system.GameSystem`` registered in ``engine.systems``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

from engine.errors import SetupError
from engine.heroscape.actions import Concede, HeroScapeAction, parse_action
from engine.heroscape.bots import GreedyBot, RandomBot
from engine.heroscape.records import recorded_actions
from engine.heroscape.rules import decide, legal_actions
from engine.heroscape.setup import RULES_VERSION, SEATS, SYSTEM_NAME, recorded_setup, seats_of, start
from engine.heroscape.state import PLAYERS, State, awaited, evolve, fold, initial_state, state_to_builtins
from engine.play import redecide_by_evolve
from engine.system import BotFactory, GameSystem, Outcome, RecordedAction, Redecided, Seat, SeatCounts, seat_id
from events.heroscape import CODEC, HeroScapeEvent

# What ``sample_setup`` cycles through (``warlog demo``): pairs of sample armies on both maps, both games and modes.
SAMPLE_GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("utgar", "jandar", {"map": "twin-hill"}),
    ("vydar", "utgar", {"map": "river-ford"}),
    ("jandar", "vydar", {"map": "twin-hill", "game": "basic"}),
    ("utgar", "vydar", {"map": "river-ford", "mode": "table"}),
    ("jandar", "utgar", {"map": "river-ford"}),
    ("vydar", "jandar", {"map": "twin-hill", "mode": "table", "game": "basic"}),
)


class HeroScapeSystem:
    """The ``GameSystem`` for HeroScape (two players; ``engine.system`` documents every member)."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type = HeroScapeAction
    bots: Mapping[str, BotFactory[State, HeroScapeAction]] = {"random": RandomBot, "greedy": GreedyBot}

    # -- Rules ----------------------------------------------------------------------------------------------
    def start(self, setup: dict[str, Any]) -> tuple[HeroScapeEvent, ...]:
        return start(setup)

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, action: HeroScapeAction) -> tuple[HeroScapeEvent, ...]:
        return decide(state, parse_action(action))

    def evolve(self, state: State, event: HeroScapeEvent) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[HeroScapeEvent], state: State | None = None) -> State:
        return fold(events, state)

    def parse_action(self, data: Any) -> HeroScapeAction:
        return parse_action(data)

    def legal_actions(self, state: State, seat: str | None = None) -> Sequence[HeroScapeAction]:
        return legal_actions(state, seat)

    def concession(self, seat: str) -> HeroScapeAction:
        return Concede(player=seat)

    def state_to_builtins(self, state: State) -> dict[str, Any]:
        return state_to_builtins(state)

    # -- Seating --------------------------------------------------------------------------------------------
    def seat_counts(self, setup: Mapping[str, Any] | None = None) -> SeatCounts:
        return SEATS

    def seats(self, setup: Mapping[str, Any]) -> tuple[Seat, ...]:
        return seats_of(setup)

    def to_act(self, state: State) -> tuple[str, ...]:
        return awaited(state)

    def turn(self, state: State) -> int:
        return state.round

    # -- Results --------------------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over" or state.end_reason is None:
            return None
        seats = PLAYERS[: len(state.seats)]
        scores = {p: state.points[i] for i, p in enumerate(seats)}
        if state.winner is None:
            return Outcome.ranked([seats], state.end_reason, scores)
        loser = next(p for p in seats if p != state.winner)
        return Outcome.ranked([(state.winner,), (loser,)], state.end_reason, scores)

    # -- Records --------------------------------------------------------------------------------------------
    def recorded_setup(self, events: Sequence[HeroScapeEvent]) -> dict[str, Any]:
        return recorded_setup(events)

    def recorded_actions(self, events: Sequence[HeroScapeEvent]) -> list[RecordedAction[HeroScapeAction]]:
        return recorded_actions(events)

    def redecide(
        self, events: Sequence[HeroScapeEvent]
    ) -> Generator[Redecided[HeroScapeAction, HeroScapeEvent], None, State]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))

    # -- SelfPlay -------------------------------------------------------------------------------------------
    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        if seats is not None and seats not in SEATS:
            raise SetupError("invalid_setup", "§2", f"this HeroScape scenario is played by {SEATS} players, "
                             f"not {seats}")
        first, second, variant = SAMPLE_GAMES[index % len(SAMPLE_GAMES)]
        if index // len(SAMPLE_GAMES) % 2:
            first, second = second, first
        return {"system": SYSTEM_NAME, "players": [{"id": seat_id(0), "name": "red", "army": first},
                                                   {"id": seat_id(1), "name": "blue", "army": second}],
                "variant": dict(variant), "seed": seed}


SYSTEM: GameSystem[State, HeroScapeAction, HeroScapeEvent] = HeroScapeSystem()

__all__ = ["SYSTEM", "HeroScapeSystem", "State"]
