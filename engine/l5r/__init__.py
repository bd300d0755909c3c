"""Legend of the Five Rings (Ivory Extended 40/40): the rules engine.

Rules: the project's digest ``shared/rules/l5r.md`` (§1-§8, rulings R1-R9), as implemented in docs/l5r.md; events:
``events.l5r``; sample data: ``fixtures/l5r/`` (ours). The engine enforces the procedures; what card texts do is
recorded as ``effect`` events, checked for consistency only. ``SYSTEM`` is its ``engine.system.GameSystem`` (an
``engine.definition.System``).
"""

from __future__ import annotations

from typing import Any

from engine.adjudication import Adjudicate
from engine.definition import System, conceding, fixed_seats, sample_pairing, with_scorekeeper
from engine.errors import SetupError
from engine.l5r.actions import Concede, L5RAction, parse_action
from engine.l5r.adjudication import adjudicated, on_time
from engine.l5r.bots import GreedyBot, RandomBot
from engine.l5r.catalogue import CATALOGUES
from engine.l5r.history import recorded_actions, recorded_setup
from engine.l5r.rules import decide, is_stalled, legal_actions, opening
from engine.l5r.setup import RULES_VERSION, SEATS, SYSTEM_NAME, deck_of, seats_of, start_event
from engine.l5r.state import FOLDING, State, awaited, evolve, initial_state, state_to_builtins
from engine.system import GameSystem, Outcome, seat_id
from events.l5r import CODEC, L5REvent


def start(setup: dict[str, Any]) -> tuple[L5REvent, ...]:
    """``game_started`` and what the procedures do after it (``rules.opening``: sealed draws, the first turn)."""
    started = start_event(setup)
    return (started, *opening(evolve(initial_state(), started)))


# What ``sample_setup`` cycles through: every pairing of the four sample decks, both modes.
SAMPLE_GAMES: tuple[tuple[str, str, str], ...] = (
    ("crab", "crane", "sealed"),
    ("lion", "dragon", "sealed"),
    ("crane", "lion", "table"),
    ("dragon", "crab", "sealed"),
    ("crab", "lion", "sealed"),
    ("crane", "dragon", "table"),
)


def turn(state: State) -> int:
    return state.turn


def outcome(state: State) -> Outcome | None:
    """Honor is the score."""
    if state.phase != "over" or state.end_reason is None:
        return None
    seats = tuple(p.id for p in state.players)
    scores = {p.id: p.honor for p in state.players}
    return Outcome.of_winner(seats, state.winner, state.end_reason, scores, state.adjudication)


def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
    if seats is not None and seats not in SEATS:
        raise SetupError("invalid_setup", "§2", f"this L5R game is played by {SEATS} players, not {seats}")
    first, second, mode = sample_pairing(SAMPLE_GAMES, index)
    setup: dict[str, Any] = {"system": SYSTEM_NAME,
                             "players": [{"id": seat_id(0), "name": "red", "army": first},
                                         {"id": seat_id(1), "name": "blue", "army": second}],
                             "variant": {"mode": mode}}
    if mode == "sealed":
        setup["seed"] = seed
    if deck_of("p1", first).honor == deck_of("p2", second).honor:  # R1: a tie, decided by the players
        setup["first"] = seat_id(index % 2)
    return setup


# The players' actions; the framework adds the scorekeeper's adjudication (``adjudicated``: its game_ended).
SYSTEM: GameSystem[State, L5RAction | Adjudicate, L5REvent] = with_scorekeeper(System(
    name=SYSTEM_NAME, rules_version=RULES_VERSION, codec=CODEC, action_type=L5RAction,
    folding=FOLDING, start=start,
    decide=decide, parse_action=parse_action,
    legal_actions=legal_actions, concession=conceding(Concede), state_to_builtins=state_to_builtins,
    seat_counts=fixed_seats(SEATS), seats=seats_of, to_act=awaited, turn=turn, outcome=outcome, on_time=on_time,
    recorded_setup=recorded_setup, recorded_actions=recorded_actions,
    bots={"random": RandomBot, "greedy": GreedyBot}, sample_setup=sample_setup, is_stalled=is_stalled,
    catalogues=CATALOGUES,
), adjudicated)

__all__ = ["SYSTEM", "State"]
