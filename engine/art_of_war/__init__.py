"""Art of War: The Card Game: the rules engine.

Rules: the project's digest ``shared/rules/art-of-war.md`` (§1–§8, rulings R1–R4), as implemented in
docs/art-of-war.md; events: ``events.art_of_war``; sample KINGs and decks: ``fixtures/art_of_war/`` (ours).
``SYSTEM`` is registered in ``engine.systems``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

from engine.art_of_war.actions import ArtOfWarAction, Concede, parse_action
from engine.art_of_war.bots import GreedyBot, RandomBot
from engine.art_of_war.records import recorded_actions
from engine.art_of_war.rules import decide, legal_actions, opening
from engine.art_of_war.setup import RULES_VERSION, SEATS, SYSTEM_NAME, recorded_setup, seats_of, start_event
from engine.art_of_war.state import State, awaited, evolve, fold, initial_state, state_to_builtins
from engine.errors import SetupError
from engine.play import redecide_by_evolve
from engine.system import BotFactory, GameSystem, Outcome, RecordedAction, Redecided, Seat, SeatCounts, seat_id
from events.art_of_war import CODEC, ArtOfWarEvent

SAMPLE_GAMES: tuple[tuple[str, str, str], ...] = (
    ("vanguard", "longbow", "sealed"),
    ("temple", "horde", "sealed"),
    ("longbow", "temple", "table"),
    ("horde", "vanguard", "sealed"),
    ("vanguard", "temple", "sealed"),
    ("longbow", "horde", "table"),
)


class ArtOfWarSystem:
    """The ``GameSystem`` for Art of War (two players)."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type = ArtOfWarAction
    bots: Mapping[str, BotFactory[State, ArtOfWarAction]] = {"random": RandomBot, "greedy": GreedyBot}

    def start(self, setup: dict[str, Any]) -> tuple[ArtOfWarEvent, ...]:
        started = start_event(setup)
        return (started, *opening(evolve(initial_state(), started)))

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, action: ArtOfWarAction) -> tuple[ArtOfWarEvent, ...]:
        return decide(state, parse_action(action))

    def evolve(self, state: State, event: ArtOfWarEvent) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[ArtOfWarEvent], state: State | None = None) -> State:
        return fold(events, state)

    def parse_action(self, data: Any) -> ArtOfWarAction:
        return parse_action(data)

    def legal_actions(self, state: State, seat: str | None = None) -> Sequence[ArtOfWarAction]:
        return legal_actions(state, seat)

    def concession(self, seat: str) -> ArtOfWarAction:
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
        scores = {p.id: len(p.kingdom) for p in state.players}
        if state.winner is None:
            return Outcome.ranked([seats], state.end_reason, scores)
        return Outcome.ranked([(state.winner,), tuple(s for s in seats if s != state.winner)], state.end_reason,
                              scores)

    def recorded_setup(self, events: Sequence[ArtOfWarEvent]) -> dict[str, Any]:
        return recorded_setup(events)

    def recorded_actions(self, events: Sequence[ArtOfWarEvent]) -> list[RecordedAction[ArtOfWarAction]]:
        return recorded_actions(events)

    def redecide(self, events: Sequence[ArtOfWarEvent]) -> Generator[Redecided[ArtOfWarAction, ArtOfWarEvent],
                                                                      None, State]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))

    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        if seats is not None and seats not in SEATS:
            raise SetupError("invalid_setup", "§3", f"Art of War is played by {SEATS} players, not {seats}")
        first, second, mode = SAMPLE_GAMES[index % len(SAMPLE_GAMES)]
        if index // len(SAMPLE_GAMES) % 2:
            first, second = second, first
        setup: dict[str, Any] = {"system": SYSTEM_NAME, "variant": {"mode": mode}, "first": seat_id(index % 2),
                                 "players": [{"id": seat_id(0), "name": "red", "army": first},
                                             {"id": seat_id(1), "name": "blue", "army": second}]}
        if mode == "sealed":
            setup["seed"] = seed
        return setup


SYSTEM: GameSystem[State, ArtOfWarAction, ArtOfWarEvent] = ArtOfWarSystem()

__all__ = ["SYSTEM", "ArtOfWarSystem", "State"]
