"""Light Wars (ライトウォーズ, Shonan Rocketeers 2012): the rules engine.

Rules: the project's digest ``shared/rules/light-wars.md`` (sections §1-§5, rulings R1-R6), as implemented in
docs/light-wars.md; events: ``events.light_wars``; sample data (R1): ``fixtures/light_wars/catalogue.json``.
``SYSTEM`` is its ``engine.system.GameSystem`` (an ``engine.definition.System``).
"""

from __future__ import annotations

from typing import Any

from engine.adjudication import Adjudicate
from engine.definition import System, conceding, fixed_seats, sample_pairing, with_scorekeeper
from engine.errors import SetupError
from engine.light_wars.actions import Concede, LightWarsAction, parse_action
from engine.light_wars.adjudication import adjudicated, on_time
from engine.light_wars.bots import GreedyBot, RandomBot
from engine.light_wars.catalogue import CATALOGUES
from engine.light_wars.history import recorded_actions, recorded_setup
from engine.light_wars.rules import decide, legal_actions
from engine.light_wars.setup import RULES_VERSION, SEATS, SYSTEM_NAME, seats_of, start
from engine.light_wars.state import FOLDING, PLAYERS, State, awaited, state_to_builtins
from engine.system import GameSystem, Outcome, seat_id
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


def turn(state: State) -> int:
    return state.turn


def outcome(state: State) -> Outcome | None:
    """The scenario's scores are the scores."""
    if state.phase != "over" or state.end_reason is None:
        return None
    seats = PLAYERS[: len(state.seats)]
    scores = {p: state.scores[i] for i, p in enumerate(seats)}
    return Outcome.of_winner(seats, state.winner, state.end_reason, scores, state.adjudication)


def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
    if seats is not None and seats not in SEATS:
        raise SetupError("invalid_setup", "§2.1", f"Light Wars is played by {SEATS} players, not {seats}")
    first, second, variant = sample_pairing(SAMPLE_GAMES, index)
    return {"system": SYSTEM_NAME, "players": [{"id": seat_id(0), "name": "red", "army": first},
                                               {"id": seat_id(1), "name": "blue", "army": second}],
            "variant": dict(variant), "seed": seed}


# The players' actions; the framework adds the scorekeeper's adjudication (``adjudicated``: its game_ended).
SYSTEM: GameSystem[State, LightWarsAction | Adjudicate, LightWarsEvent] = with_scorekeeper(System(
    name=SYSTEM_NAME, rules_version=RULES_VERSION, codec=CODEC, action_type=LightWarsAction,
    folding=FOLDING, start=start,
    decide=decide, parse_action=parse_action,
    legal_actions=legal_actions, concession=conceding(Concede), state_to_builtins=state_to_builtins,
    seat_counts=fixed_seats(SEATS), seats=seats_of, to_act=awaited, turn=turn, outcome=outcome, on_time=on_time,
    recorded_setup=recorded_setup, recorded_actions=recorded_actions,
    bots={"random": RandomBot, "greedy": GreedyBot}, sample_setup=sample_setup, catalogues=CATALOGUES,
), adjudicated)

__all__ = ["SYSTEM", "State"]
