"""HeroScape: the rules engine (a hex battlefield with levels, engagement, line of sight, order markers and dice).

Rules: the project's digest ``shared/rules/heroscape.md`` (§1-§8, rulings R1-R2), as implemented in
docs/heroscape.md; events: ``events.heroscape``; sample maps and army cards (ours): ``fixtures/heroscape/``.
``SYSTEM`` is the ``engine.system.GameSystem`` registered in ``engine.systems``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.adjudication import Adjudicate
from engine.errors import SetupError
from engine.heroscape.actions import Concede, HeroScapeAction, parse_action
from engine.heroscape.adjudication import adjudicated, on_time
from engine.heroscape.bots import GreedyBot, RandomBot
from engine.heroscape.history import recorded_actions, recorded_setup
from engine.heroscape.rules import decide, legal_actions
from engine.heroscape.setup import RULES_VERSION, SEATS, SYSTEM_NAME, seats_of, start
from engine.heroscape.state import PLAYERS, State, awaited, evolve, fold, initial_state, state_to_builtins
from engine.module_system import ModuleSystem, SystemFunctions, sample_pairing
from engine.system import BotFactory, GameSystem, Outcome, SeatCounts, seat_id
from events.heroscape import CODEC, HeroScapeEvent

# What ``sample_setup`` cycles through (``warlog demo``): pairs of sample armies on the three maps, both games and
# modes; Proving Ground third, so that the four sample games of ``warlog serve --load-samples`` show every map.
SAMPLE_GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("utgar", "jandar", {"map": "twin-hill"}),
    ("vydar", "utgar", {"map": "river-ford"}),
    ("jandar", "utgar", {"map": "proving-ground"}),
    ("jandar", "vydar", {"map": "twin-hill", "game": "basic"}),
    ("utgar", "vydar", {"map": "river-ford", "mode": "table"}),
    ("jandar", "utgar", {"map": "river-ford"}),
    ("vydar", "jandar", {"map": "twin-hill", "mode": "table", "game": "basic"}),
    ("vydar", "utgar", {"map": "proving-ground", "mode": "table", "game": "basic"}),
)


class HeroScapeSystem(ModuleSystem[State, HeroScapeAction, HeroScapeEvent]):
    """The ``GameSystem`` for HeroScape (two players; ``engine.system`` documents every member, and
    ``engine.module_system`` writes those that only call this package's functions)."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type: Any = HeroScapeAction | Adjudicate
    bots: Mapping[str, BotFactory[State, HeroScapeAction | Adjudicate]] = {"random": RandomBot, "greedy": GreedyBot}
    functions = SystemFunctions(
        start=start, initial_state=initial_state, decide=decide, evolve=evolve, fold=fold, parse_action=parse_action,
        legal_actions=legal_actions, concede=Concede, state_to_builtins=state_to_builtins, seats=seats_of,
        to_act=awaited, recorded_setup=recorded_setup, recorded_actions=recorded_actions, on_time=on_time,
        adjudicated=adjudicated,
    )

    def seat_counts(self, setup: Mapping[str, Any] | None = None) -> SeatCounts:
        return SEATS

    def turn(self, state: State) -> int:
        return state.round

    def outcome(self, state: State) -> Outcome | None:
        """Victory points are the scores."""
        if state.phase != "over" or state.end_reason is None:
            return None
        seats = PLAYERS[: len(state.seats)]
        scores = {p: state.points[i] for i, p in enumerate(seats)}
        return Outcome.of_winner(seats, state.winner, state.end_reason, scores, state.adjudication)

    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        if seats is not None and seats not in SEATS:
            raise SetupError("invalid_setup", "§2", f"this HeroScape scenario is played by {SEATS} players, "
                             f"not {seats}")
        first, second, variant = sample_pairing(SAMPLE_GAMES, index)
        return {"system": SYSTEM_NAME, "players": [{"id": seat_id(0), "name": "red", "army": first},
                                                   {"id": seat_id(1), "name": "blue", "army": second}],
                "variant": dict(variant), "seed": seed}


SYSTEM: GameSystem[State, HeroScapeAction | Adjudicate, HeroScapeEvent] = HeroScapeSystem()

__all__ = ["SYSTEM", "HeroScapeSystem", "State"]
