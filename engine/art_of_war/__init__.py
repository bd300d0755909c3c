"""Art of War: The Card Game: the rules engine.

Rules: the project's digest ``shared/rules/art-of-war.md`` (§1–§9, rulings R1–R7), as implemented in
docs/art-of-war.md; events: ``events.art_of_war``; sample KINGs and decks: ``fixtures/art_of_war/`` (ours).
``SYSTEM`` is its ``engine.system.GameSystem`` (an ``engine.definition.System``).
"""

from __future__ import annotations

from typing import Any

from engine.adjudication import Adjudicate
from engine.art_of_war.actions import ArtOfWarAction, Concede, parse_action
from engine.art_of_war.adjudication import adjudicated, on_time
from engine.art_of_war.bots import GreedyBot, RandomBot
from engine.art_of_war.catalogue import CATALOGUES, cards_of
from engine.art_of_war.history import recorded_actions, recorded_setup
from engine.art_of_war.rules import decide, legal_actions, opening
from engine.art_of_war.setup import RULES_VERSION, SEATS, SYSTEM_NAME, seats_of, start_event
from engine.art_of_war.state import FOLDING, State, awaited, evolve, initial_state, state_to_builtins
from engine.definition import System, conceding, fixed_seats, sample_pairing, with_scorekeeper
from engine.errors import SetupError
from engine.system import GameSystem, Outcome, seat_id
from events.art_of_war import CODEC, ArtOfWarEvent


def start(setup: dict[str, Any]) -> tuple[ArtOfWarEvent, ...]:
    """``game_started`` and what the procedures do after it (``rules.opening``)."""
    started = start_event(setup)
    return (started, *opening(evolve(initial_state(), started)))


SAMPLE_GAMES: tuple[tuple[str, str, str], ...] = (
    ("vanguard", "longbow", "sealed"),
    ("temple", "horde", "sealed"),
    ("longbow", "temple", "table"),
    ("horde", "vanguard", "sealed"),
    ("vanguard", "temple", "sealed"),
    ("longbow", "horde", "table"),
)


def turn(state: State) -> int:
    return state.turn


def outcome(state: State) -> Outcome | None:
    """The cards in each kingdom are the scores: basic units only (R6: a KING never counts in a kingdom, not
    even the one a game recorded under art-of-war/1 captured into it)."""
    if state.phase != "over" or state.end_reason is None:
        return None
    seats = tuple(p.id for p in state.players)
    card_of = cards_of(state).card
    scores = {p.id: sum(1 for c in p.kingdom if not card_of(c).king) for p in state.players}
    return Outcome.of_winner(seats, state.winner, state.end_reason, scores, state.adjudication)


def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
    if seats is not None and seats not in SEATS:
        raise SetupError("invalid_setup", "§3", f"Art of War is played by {SEATS} players, not {seats}")
    first, second, mode = sample_pairing(SAMPLE_GAMES, index)
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "variant": {"mode": mode}, "first": seat_id(index % 2),
                             "players": [{"id": seat_id(0), "name": "red", "army": first},
                                         {"id": seat_id(1), "name": "blue", "army": second}]}
    if mode == "sealed":
        setup["seed"] = seed
    return setup


# The players' actions; the framework adds the scorekeeper's adjudication (``adjudicated``: its game_ended).
SYSTEM: GameSystem[State, ArtOfWarAction | Adjudicate, ArtOfWarEvent] = with_scorekeeper(System(
    name=SYSTEM_NAME, rules_version=RULES_VERSION, codec=CODEC, action_type=ArtOfWarAction,
    folding=FOLDING, start=start,
    decide=decide, parse_action=parse_action,
    legal_actions=legal_actions, concession=conceding(Concede), state_to_builtins=state_to_builtins,
    seat_counts=fixed_seats(SEATS), seats=seats_of, to_act=awaited, turn=turn, outcome=outcome, on_time=on_time,
    recorded_setup=recorded_setup, recorded_actions=recorded_actions,
    bots={"random": RandomBot, "greedy": GreedyBot}, sample_setup=sample_setup,
    catalogues=CATALOGUES,
), adjudicated)

__all__ = ["SYSTEM", "State"]
