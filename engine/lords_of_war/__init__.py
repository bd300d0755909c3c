"""Lords of War (Black Box Games, 2012): the rules engine.

Public interface: ``initial_state``, ``evolve``, ``fold``, ``decide``, ``legal_actions``, ``start``,
``parse_action``, ``state_to_builtins``, the ``State`` struct, the action union and ``SYSTEM`` (the
``engine.system.GameSystem`` object registered in ``engine.systems``). Rules: the project's digest
(rulings R1–R23; §10 in docs/lords-of-war-teams.md); events: ``events.lords_of_war`` and docs/events.md.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any

from engine.adjudication import acting_seat
from engine.definition import System
from engine.errors import SetupError
from engine.lords_of_war.actions import Concede, Draw, LordsOfWarAction, Place, Recall, Shoot, parse_action
from engine.lords_of_war.adjudication import on_time
from engine.lords_of_war.armies import RULES_VERSION, SYSTEM_NAME, army_cards, parse_variant, start
from engine.lords_of_war.bots import GreedyBot, RandomBot, play_bot_game
from engine.lords_of_war.catalogue import CARDS, CATALOGUES, CORE_DECKS, FACTIONS, Card
from engine.lords_of_war.history import recorded_actions, recorded_setup, redecide, verify
from engine.lords_of_war.rules import decide, legal_actions
from engine.lords_of_war.seating import SEAT_COUNTS, SEAT_NAMES, layout_of
from engine.lords_of_war.state import (
    FOLDING,
    PLAYER_INDEX,
    PLAYERS,
    State,
    evolve,
    fold,
    initial_state,
    state_to_builtins,
)
from engine.system import (
    BotFactory,
    GameSystem,
    Outcome,
    RecordedAction,
    Redecided,
    Seat,
    SeatCounts,
    seat_id,
)
from events.lords_of_war import CODEC, LordsOfWarEvent

TWO_PLAYERS = SeatCounts(2, 2)  # §3
ANY_SEATS = SeatCounts(2, 6, gaps=(5,))  # §3, §10: 2, 3, or 4 or 6 in two teams

# What ``sample_setup`` cycles through (as ``warlog demo`` does): plain sealed games most often, then each variant.
SAMPLE_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"intermediate": True},
    {},
    {"unbounded": True},
    {"mode": "table"},
    {"intermediate": True, "unbounded": True},
)
# ``sample_setup`` with 3, 4 or 6 seats (§10) cycles through these (4 and 6 add ``teams``)
SAMPLE_TEAM_VARIANTS: tuple[dict[str, Any], ...] = ({}, {"intermediate": True}, {"unbounded": True}, {"mode": "table"})


def decide_action(state: State, action: LordsOfWarAction | dict[str, Any]) -> tuple[LordsOfWarEvent, ...]:
    """``rules.decide`` of the action as given, or as JSON data (``parse_action``)."""
    return decide(state, parse_action(action) if isinstance(action, dict) else action)


def legal_actions_of(state: State, seat: str | None = None) -> Sequence[LordsOfWarAction]:
    """Every legal action of the seat to act but concession (always legal), the scorekeeper's adjudication, and the
    data no state enumerates: placements come without shots (``rules.legal_shots`` lists each placement's), a
    table-mode draw without its card, and a table-mode forced placement (it needs the revealed hand) not at all."""
    if seat is not None and seat not in to_act(state):
        return []
    return legal_actions(state)


def concession(seat: str) -> LordsOfWarAction:
    return Concede(player=seat)


# -- Seating ------------------------------------------------------------------------------------------------------


def seat_counts(setup: Mapping[str, Any] | None = None) -> SeatCounts:
    """None: 2, 3, 4 or 6; ``variant.teams``: 3, 4 or 6 (§10's variant; three players need not say it); else 2 or 3
    (§3, §10)."""
    if setup is None:
        return ANY_SEATS
    variant = setup.get("variant")
    if isinstance(variant, Mapping) and variant.get("teams") is True:
        return SeatCounts(3, 6, gaps=(5,))
    return SeatCounts(2, 3)


def seats(setup: Mapping[str, Any]) -> tuple[Seat, ...]:
    """The seats, with their teams for §10 games (``odd``/``even``; three players: ``solo``/``allies``)."""
    players = setup.get("players")
    count = len(players) if isinstance(players, (list, tuple)) else 0
    if count not in seat_counts(setup):
        if count in SEAT_COUNTS:  # 4 or 6 without the team rules, or 2 with them: the variant says how to fix it
            parse_variant(setup.get("variant"), count)
        raise SetupError(
            "invalid_setup", "§10",
            "Lords of War is played by 2 players (§3), 3 (§10, one against a team of two) or 4 or 6 in two "
            f"teams (§10, variant teams); not {count}",
        )
    if count == 2:
        return tuple(Seat(id=seat_id(i), index=i) for i in range(count))
    layout = layout_of(count)
    return tuple(Seat(id=seat_id(i), index=i, team=layout.teams[layout.side[i]]) for i in range(count))


def to_act(state: State) -> tuple[str, ...]:
    return (SEAT_NAMES[state.active],) if state.phase in ("deploy", "reinforce") else ()


def turn(state: State) -> int:
    return state.turn  # 0: the challenge (§4)


# -- Results ------------------------------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """The winning side first (§10: a team's seats together, all of them winners); a ``draw`` (or no winner)
    recorded in ``game_ended`` places every seat together; an adjudication its placings. Scores: the cards each
    seat's side destroyed (position kills included; §10: a team's seats share its count)."""
    if state.phase != "over":
        return None
    layout = state.layout
    seated = SEAT_NAMES[: layout.seats]
    scores = {seat: state.kills[layout.side[i]] for i, seat in enumerate(seated)}
    if state.adjudication is not None:
        return Outcome.adjudicated(state.adjudication, scores)
    reason = state.end_reason or "unknown"
    sides = {layout.side_name(side): side for side in (0, 1)}
    winner = sides.get(state.winner or "")
    if winner is None:
        return Outcome.ranked((seated,), reason, scores)
    return Outcome.ranked((layout.members(winner), layout.members(1 - winner)), reason, scores)


# -- Records ------------------------------------------------------------------------------------------------------


def recorded_steps(events: Sequence[LordsOfWarEvent]) -> list[RecordedAction[LordsOfWarAction]]:
    """``history.recorded_actions`` with the seat of each action (``Records.recorded_actions``)."""
    return [RecordedAction(start, stop, acting_seat(action), action)
            for start, stop, action in recorded_actions(events)]


def redecided(
    events: Sequence[LordsOfWarEvent],
) -> Generator[Redecided[LordsOfWarAction, LordsOfWarEvent], None, State]:
    """``history.redecide`` (the full R6 check) as ``Records.redecide`` steps."""
    steps = redecide(events)
    while True:
        try:
            start, stop, action, outcome = next(steps)
        except StopIteration as done:
            final: State = done.value
            return final
        yield Redecided(start, stop, acting_seat(action), action, outcome)


# -- SelfPlay -----------------------------------------------------------------------------------------------------


def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
    """Every faction pairing in turn (p1's faction changes slowest), the variants of ``SAMPLE_VARIANTS`` in turn:
    ``warlog demo``'s games. With 3, 4 or 6 seats (§10): the factions in turn from ``index`` (the three-player
    team's two seats share one army), the variants of ``SAMPLE_TEAM_VARIANTS``."""
    if seats is not None and seats not in (2, 3, 4, 6):
        raise SetupError("invalid_setup", "§10",
                         f"Lords of War is played by 2, 3, 4 or 6 players (§3, §10), not {seats}")
    factions = sorted(FACTIONS)
    if seats is not None and seats > 2:
        armies = [factions[(index + i) % len(factions)] for i in range(seats)]
        if seats == 3:
            armies[2] = armies[1]  # §10: the team shares one army
        variant = dict(SAMPLE_TEAM_VARIANTS[index % len(SAMPLE_TEAM_VARIANTS)])
        if seats in (4, 6):
            variant["teams"] = True
        return {
            "system": SYSTEM_NAME,
            "players": [{"id": seat_id(i), "name": f"{army.title()} bot {i + 1}", "army": army}
                        for i, army in enumerate(armies)],
            "variant": variant,
            "seed": seed,
        }
    pairing = index % (len(factions) ** 2)
    army1, army2 = factions[pairing // len(factions)], factions[pairing % len(factions)]
    return {
        "system": SYSTEM_NAME,
        "players": [
            {"id": "p1", "name": f"{army1.title()} bot", "army": army1},
            {"id": "p2", "name": f"{army2.title()} bot", "army": army2},
        ],
        "variant": dict(SAMPLE_VARIANTS[index % len(SAMPLE_VARIANTS)]),
        "seed": seed,
    }


BOTS: Mapping[str, BotFactory[State, LordsOfWarAction]] = {"random": RandomBot, "greedy": GreedyBot}

# The ``GameSystem`` for Lords of War (2, 3, 4 or 6 players; ``engine.system`` documents every member). Its own
# rules decide the scorekeeper's adjudication (``rules.decide``), and its re-decide is ``history.redecide``.
SYSTEM: GameSystem[State, LordsOfWarAction, LordsOfWarEvent] = System(
    name=SYSTEM_NAME, rules_version=RULES_VERSION, codec=CODEC, action_type=LordsOfWarAction,
    folding=FOLDING, start=start, decide=decide_action, parse_action=parse_action,
    legal_actions=legal_actions_of, concession=concession, state_to_builtins=state_to_builtins,
    seat_counts=seat_counts, seats=seats, to_act=to_act, turn=turn, outcome=outcome, on_time=on_time,
    recorded_setup=recorded_setup, recorded_actions=recorded_steps, own_redecide=redecided, bots=BOTS,
    sample_setup=sample_setup, catalogues=CATALOGUES,
)

__all__ = [
    "CARDS",
    "CODEC",
    "CORE_DECKS",
    "FACTIONS",
    "RULES_VERSION",
    "SAMPLE_VARIANTS",
    "SYSTEM",
    "SYSTEM_NAME",
    "Card",
    "Concede",
    "Draw",
    "GreedyBot",
    "LordsOfWarAction",
    "LordsOfWarEvent",
    "PLAYERS",
    "PLAYER_INDEX",
    "SEAT_NAMES",
    "Place",
    "RandomBot",
    "Recall",
    "Shoot",
    "State",
    "army_cards",
    "decide",
    "evolve",
    "fold",
    "initial_state",
    "legal_actions",
    "parse_action",
    "play_bot_game",
    "recorded_actions",
    "start",
    "state_to_builtins",
    "verify",
]
