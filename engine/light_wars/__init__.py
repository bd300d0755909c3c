"""Light Wars (ライトウォーズ, Shonan Rocketeers 2012): the rules engine.

Rules: the project's digest ``shared/rules/light-wars.md`` (sections §1-§5, rulings R1-R5), as implemented in
docs/light-wars.md; events: ``events.light_wars``; sample data (R1): ``fixtures/light_wars/catalogue.json``.
``SYSTEM`` is the ``engine.system.GameSystem`` registered in ``engine.systems``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

from engine.errors import SetupError
from engine.light_wars.actions import Concede, LightWarsAction, parse_action
from engine.light_wars.bots import GreedyBot, RandomBot
from engine.light_wars.records import recorded_actions
from engine.light_wars.rules import decide, legal_actions
from engine.light_wars.setup import RULES_VERSION, SEATS, SYSTEM_NAME, recorded_setup, seats_of, start
from engine.light_wars.state import PLAYERS, State, awaited, evolve, fold, initial_state, state_to_builtins
from engine.play import redecide_by_evolve
from engine.system import BotFactory, GameSystem, Outcome, RecordedAction, Redecided, Seat, SeatCounts, seat_id
from events.light_wars import CODEC, LightWarsEvent

# What ``sample_setup`` cycles through (``warlog demo``): pairs of sample armies, each scenario size, both ways of
# deploying, both modes.
SAMPLE_GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("balanced", "archers", {"size": "small", "deployment": "alternate"}),
    ("riders", "horde", {"size": "small", "deployment": "screen"}),
    ("legion", "balanced", {"size": "medium", "deployment": "alternate"}),
    ("archers", "riders", {"size": "small", "deployment": "alternate", "mode": "table"}),
    ("host", "legion", {"size": "large", "deployment": "screen"}),
    ("horde", "balanced", {"size": "small", "deployment": "screen", "mode": "table"}),
)


class LightWarsSystem:
    """The ``GameSystem`` for Light Wars (two players; ``engine.system`` documents every member)."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type = LightWarsAction
    bots: Mapping[str, BotFactory[State, LightWarsAction]] = {"random": RandomBot, "greedy": GreedyBot}

    # -- Rules ----------------------------------------------------------------------------------------------
    def start(self, setup: dict[str, Any]) -> tuple[LightWarsEvent, ...]:
        return start(setup)

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, action: LightWarsAction) -> tuple[LightWarsEvent, ...]:
        return decide(state, parse_action(action))

    def evolve(self, state: State, event: LightWarsEvent) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[LightWarsEvent], state: State | None = None) -> State:
        return fold(events, state)

    def parse_action(self, data: Any) -> LightWarsAction:
        return parse_action(data)

    def legal_actions(self, state: State, seat: str | None = None) -> Sequence[LightWarsAction]:
        return legal_actions(state, seat)

    def concession(self, seat: str) -> LightWarsAction:
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
        return state.turn

    # -- Results --------------------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over" or state.end_reason is None:
            return None
        seats = PLAYERS[: len(state.seats)]
        scores = {p: state.scores[i] for i, p in enumerate(seats)}
        if state.winner is None:
            return Outcome.ranked([seats], state.end_reason, scores)
        loser = next(p for p in seats if p != state.winner)
        return Outcome.ranked([(state.winner,), (loser,)], state.end_reason, scores)

    # -- Records --------------------------------------------------------------------------------------------
    def recorded_setup(self, events: Sequence[LightWarsEvent]) -> dict[str, Any]:
        return recorded_setup(events)

    def recorded_actions(self, events: Sequence[LightWarsEvent]) -> list[RecordedAction[LightWarsAction]]:
        return recorded_actions(events)

    def redecide(
        self, events: Sequence[LightWarsEvent]
    ) -> Generator[Redecided[LightWarsAction, LightWarsEvent], None, State]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))

    # -- SelfPlay -------------------------------------------------------------------------------------------
    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        if seats is not None and seats not in SEATS:
            raise SetupError("invalid_setup", "§2.1", f"Light Wars is played by {SEATS} players, not {seats}")
        first, second, variant = SAMPLE_GAMES[index % len(SAMPLE_GAMES)]
        if index // len(SAMPLE_GAMES) % 2:  # the next round of samples swaps the armies' seats
            first, second = second, first
        return {"system": SYSTEM_NAME, "players": [{"id": seat_id(0), "name": "red", "army": first},
                                                   {"id": seat_id(1), "name": "blue", "army": second}],
                "variant": dict(variant), "seed": seed}


SYSTEM: GameSystem[State, LightWarsAction, LightWarsEvent] = LightWarsSystem()

__all__ = ["SYSTEM", "LightWarsSystem", "State"]
