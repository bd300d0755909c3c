"""Lords of War (Black Box Games, 2012): the rules engine.

Public interface: ``initial_state``, ``evolve``, ``fold``, ``decide``, ``legal_actions``, ``start``,
``parse_action``, ``state_to_builtins``, the ``State`` struct, the action union and ``SYSTEM`` (the
``engine.system.GameSystem`` object registered in ``engine.systems``). Rules: the project's digest
(rulings R1–R23; §10 in docs/lords-of-war-teams.md); events: ``events.lords_of_war`` and docs/events.md.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

from engine.adjudication import acting_seat
from engine.errors import SetupError
from engine.lords_of_war.actions import Concede, Draw, LordsOfWarAction, Place, Recall, Shoot, parse_action
from engine.lords_of_war.adjudication import on_time
from engine.lords_of_war.armies import RULES_VERSION, SYSTEM_NAME, army_cards, parse_variant, start
from engine.lords_of_war.bots import GreedyBot, RandomBot, play_bot_game
from engine.lords_of_war.catalogue import CARDS, CORE_DECKS, FACTIONS, Card
from engine.lords_of_war.history import recorded_actions, recorded_setup, redecide, verify
from engine.lords_of_war.rules import decide, legal_actions
from engine.lords_of_war.seating import SEAT_COUNTS, SEAT_NAMES, layout_of
from engine.lords_of_war.state import PLAYER_INDEX, PLAYERS, State, evolve, fold, initial_state, state_to_builtins
from engine.system import (
    BotFactory,
    GameSystem,
    Outcome,
    RecordedAction,
    Redecided,
    Seat,
    SeatCounts,
    TimeRuling,
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


class LordsOfWarSystem:
    """The ``GameSystem`` for Lords of War (2, 3, 4 or 6 players; ``engine.system`` documents every member)."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type = LordsOfWarAction
    event_type = LordsOfWarEvent
    bots: Mapping[str, BotFactory[State, LordsOfWarAction]] = {"random": RandomBot, "greedy": GreedyBot}

    # -- Rules ----------------------------------------------------------------------------------------------
    def start(self, setup: dict[str, Any]) -> tuple[LordsOfWarEvent, ...]:
        return start(setup)

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, action: LordsOfWarAction | dict[str, Any]) -> tuple[LordsOfWarEvent, ...]:
        return decide(state, parse_action(action) if isinstance(action, dict) else action)

    def evolve(self, state: State, event: LordsOfWarEvent) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[LordsOfWarEvent], state: State | None = None) -> State:
        return fold(events, state)

    def state_to_builtins(self, state: State) -> dict[str, Any]:
        return state_to_builtins(state)

    def parse_action(self, data: Any) -> LordsOfWarAction:
        return parse_action(data)

    def legal_actions(self, state: State, seat: str | None = None) -> Sequence[LordsOfWarAction]:
        """Every legal action of the seat to act but concession (always legal), the scorekeeper's adjudication, and the
        data no state enumerates:
        placements come without shots (``rules.legal_shots`` lists each placement's), a table-mode draw without
        its card, and a table-mode forced placement (it needs the revealed hand) not at all."""
        if seat is not None and seat not in self.to_act(state):
            return []
        return legal_actions(state)

    def concession(self, seat: str) -> LordsOfWarAction:
        return Concede(player=seat)

    # -- Seating --------------------------------------------------------------------------------------------
    def seat_counts(self, setup: Mapping[str, Any] | None = None) -> SeatCounts:
        """None: 2, 3, 4 or 6; ``variant.teams``: 3, 4 or 6 (§10's variant; three players need not say it); else 2
        or 3 (§3, §10)."""
        if setup is None:
            return ANY_SEATS
        variant = setup.get("variant")
        if isinstance(variant, Mapping) and variant.get("teams") is True:
            return SeatCounts(3, 6, gaps=(5,))
        return SeatCounts(2, 3)

    def seats(self, setup: Mapping[str, Any]) -> tuple[Seat, ...]:
        """The seats, with their teams for §10 games (``odd``/``even``; three players: ``solo``/``allies``)."""
        players = setup.get("players")
        count = len(players) if isinstance(players, (list, tuple)) else 0
        if count not in self.seat_counts(setup):
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

    def to_act(self, state: State) -> tuple[str, ...]:
        return (SEAT_NAMES[state.active],) if state.phase in ("deploy", "reinforce") else ()

    def turn(self, state: State) -> int:
        return state.turn  # 0: the challenge (§4)

    # -- Results --------------------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """The winning side first (§10: a team's seats together, all of them winners); a ``draw`` (or no winner)
        recorded in ``game_ended`` places every seat together; an adjudication its placings. Scores: the cards each
        seat's side destroyed (position kills included; §10: a team's seats share its count)."""
        if state.phase != "over":
            return None
        layout = state.layout
        seats = SEAT_NAMES[: layout.seats]
        scores = {seat: state.kills[layout.side[i]] for i, seat in enumerate(seats)}
        if state.adjudication is not None:
            return Outcome.adjudicated(state.adjudication, scores)
        reason = state.end_reason or "unknown"
        sides = {layout.side_name(side): side for side in (0, 1)}
        winner = sides.get(state.winner or "")
        if winner is None:
            return Outcome.ranked((seats,), reason, scores)
        return Outcome.ranked((layout.members(winner), layout.members(1 - winner)), reason, scores)

    def on_time(self, state: State) -> TimeRuling:
        """Time called (docs/rulings.md): more cards destroyed wins, then more commanders, else a draw."""
        return on_time(state)

    # -- Records --------------------------------------------------------------------------------------------
    def recorded_setup(self, events: Sequence[LordsOfWarEvent]) -> dict[str, Any]:
        return recorded_setup(events)

    def recorded_actions(self, events: Sequence[LordsOfWarEvent]) -> list[RecordedAction[LordsOfWarAction]]:
        return [RecordedAction(start, stop, acting_seat(action), action)
                for start, stop, action in recorded_actions(events)]

    def redecide(
        self, events: Sequence[LordsOfWarEvent]
    ) -> Generator[Redecided[LordsOfWarAction, LordsOfWarEvent], None, State]:
        steps = redecide(events)
        while True:
            try:
                start, stop, action, outcome = next(steps)
            except StopIteration as done:
                final: State = done.value
                return final
            yield Redecided(start, stop, acting_seat(action), action, outcome)

    def verify(self, events: Sequence[LordsOfWarEvent]) -> str | None:
        """Re-decide a recorded game with today's rules: None, or the first divergence (``warlog verify``)."""
        return verify(events)

    # -- SelfPlay -------------------------------------------------------------------------------------------
    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        """Every faction pairing in turn (p1's faction changes slowest), the variants of ``SAMPLE_VARIANTS`` in
        turn: ``warlog demo``'s games. With 3, 4 or 6 seats (§10): the factions in turn from ``index`` (the
        three-player team's two seats share one army), the variants of ``SAMPLE_TEAM_VARIANTS``."""
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


SYSTEM: GameSystem[State, LordsOfWarAction, LordsOfWarEvent] = LordsOfWarSystem()

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
    "LordsOfWarSystem",
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
