"""Why each event happened, in one line a person reads at a glance, and its cause (the redacted event + rule).

The line of an attack's resolution is the issue's example: "Cavalry and Infantry attack the Archer from its side
and rear: 3+1 + 2+2 + die 4 = 12 against 1 + die 5 = 6: the Archer is removed".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

import msgspec

from engine.light_wars.state import INDEX, State, data_of, unit_index
from events.light_wars import (
    CODEC,
    AttackDeclared,
    AttackResolved,
    Conceded,
    DeciderNamed,
    DeploymentScreened,
    DieRolled,
    FirstPlayerChosen,
    GameEnded,
    GameStarted,
    LightWarsEvent,
    Participant,
    RollOffTied,
    RollOffWon,
    ScreenLifted,
    TacticsDeclared,
    TurnPassed,
    UnitDeployed,
    UnitMoved,
    UnitTurned,
    UnitWaited,
)
from replay.adjudication import ADJUDICATION_RULE, adjudication_line
from replay.light_wars.views import redacted_event

RULES = {
    "game_started": "§2", "die_rolled": "§4", "roll_off_tied": "§2.3", "roll_off_won": "§2.3",
    "unit_deployed": "§2.3", "deployment_screened": "§2.3", "screen_lifted": "§2.3", "decider_named": "§2.4",
    "first_player_chosen": "§2.4", "tactics_declared": "§3.1", "unit_moved": "§3.2", "unit_turned": "R6",
    "unit_waited": "§3.2", "attack_declared": "§4", "attack_resolved": "§4", "turn_passed": "§3.3",
    "conceded": "concession", "game_ended": "§5",
}
END_RULES = {"king": "§5.1", "castle": "§5.2", "score": "§5.3", "concession": "concession",
             "adjudicated": ADJUDICATION_RULE}


def name(state: State, unit_type: str) -> str:
    """A unit type's name in the game's catalogue."""
    return data_of(state).units[unit_type].name


def _type_of(state: State, player: str, unit: str) -> str:
    i = unit_index(state, INDEX[player], unit)
    return state.units[i].type if i >= 0 else "infantry"


def _joined(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _sides(participants: Sequence[Participant]) -> str:
    seen = []
    for p in participants:
        if p.side not in seen:
            seen.append(p.side)
    return "its " + _joined(seen)


def _attackers(state: State, participants: Sequence[Participant]) -> str:
    return _joined([name(state, p.type) + (" (shooting)" if p.shooting else "") for p in participants])


def _totals(declared: AttackDeclared, event: AttackResolved) -> str:
    parts = " + ".join(f"{p.attack}+{p.bonus}" if p.bonus else f"{p.attack}" for p in declared.participants)
    bonus = f" + tactics {declared.tactic_bonus}" if declared.tactic_bonus else ""
    return (f"{parts}{bonus} + die {event.attack_die} = {event.attack_total} against "
            f"{declared.defence} + die {event.defence_die} = {event.defence_total}")


def _resolution(state: State, event: AttackResolved) -> str:
    declared = state.pending
    if declared is None or declared.attack != event.attack:  # a stream cut before its declaration
        return f"attack {event.attack}: {event.attack_total} against {event.defence_total}"
    target = f"the {name(state, declared.target_type)}"
    verb = "attacks" if len(declared.participants) == 1 else "attack"
    head = f"{_attackers(state, declared.participants)} {verb} {target} " \
        f"from {_sides(declared.participants)}: {_totals(declared, event)}"
    if event.tie == "first_strike":
        why = ": a tie, and the defending Spearman strikes first"
    elif event.tie == "both_first_strike":
        why = ": a tie; both sides have first strike, so the defender falls"
    elif event.tie == "defender_removed":
        why = ": a tie removes the defender"
    else:
        why = ""
    if event.winner == "attack":
        return f"{head}{why}: {target} is removed"
    if not event.removed:
        return f"{head}{why}: the shot fails; shooting archers are never removed (R5)"
    fallen = _joined([f"the {name(state, r.type)}" for r in event.removed])
    kept = " (the shooting archers stay, R5)" if any(p.shooting for p in declared.participants) else ""
    return f"{head}{why}: {fallen} {'is' if len(event.removed) == 1 else 'are'} removed{kept}"


def text(state: State, event: LightWarsEvent) -> str:
    match event:
        case GameStarted(variant=v, seats=seats, armies=armies, seed=seed):
            people = " against ".join(f"{s.id} {s.name} ({a.name}, cost {a.cost}, {len(a.units)} units)"
                                      for s, a in zip(seats, armies, strict=True))
            start = "from a position" if event.position is not None else f"{v.deployment} deployment"
            dice = "dice entered at the table" if v.mode == "table" else "sealed dice" + \
                (f" (seed {seed})" if seed is not None else "")
            return f"Light Wars, {v.size} battle (total cost {v.total_cost}, {v.max_turns} turns), {start}, {dice}: " \
                f"{people}"
        case DieRolled(purpose=purpose, player=player, value=value, attack=attack, source=source):
            how = "rolls" if source == "prng" else "rolls at the table"
            if purpose == "deployment":
                return f"{player} {how} {value} for the deployment roll-off (§2.3)"
            if purpose == "first_player":
                return f"{player} {how} {value} for the roll-off that decides who chooses the first player (§2.4)"
            if purpose == "attack":
                return f"{player} {how} {value} for attack {attack} (§4)"
            return f"{player} {how} {value} to defend against attack {attack} (§4)"
        case RollOffTied():
            return "the roll-off is tied: both roll again"
        case RollOffWon(purpose=purpose, winner=winner):
            if purpose == "deployment":
                return f"{winner} wins the roll-off and deploys first (§2.3)"
            return f"{winner} wins the roll-off and chooses the first player (§2.4)"
        case UnitDeployed(player=player, unit=unit, square=square, facing=facing):
            kind = name(state, _type_of(state, player, unit))
            return f"{player} deploys {kind} {unit} on {square} facing {facing} (§2.3)"
        case DeploymentScreened(player=player, placements=placements):
            if placements is None:
                return f"{player} deploys every unit behind the screen (§2.3)"
            shown = ", ".join(f"{p.unit} {p.square} {p.facing}" for p in placements)
            return f"{player} deploys behind the screen: {shown} (§2.3)"
        case ScreenLifted(placements=placements):
            shown = "; ".join(f"{player} " + ", ".join(f"{p.unit} {p.square} {p.facing}" for p in placed)
                              for player, placed in placements.items())
            return f"the screen is lifted: {shown} (§2.3)"
        case DeciderNamed(player=player, by=by, unused=unused, stock=stock):
            if by == "cost":
                return f"{player} has more unused cost ({unused.get('p1')} against {unused.get('p2')} for p1 and " \
                    f"p2) and chooses the first player (§2.4)"
            if by == "bases":
                return f"unused cost is equal; {player} has more bases in stock ({stock.get('p1')} against " \
                    f"{stock.get('p2')}) and chooses the first player (§2.4)"
            return "unused cost and bases in stock are equal: a roll-off decides who chooses the first player (§2.4)"
        case FirstPlayerChosen(player=player, first=first):
            return f"{player} chooses {first} to play first; turn 1 begins (§2.4)"
        case TacticsDeclared(player=player, tiles=tiles, paid=paid):
            if not tiles:
                return f"{player} uses no tactic tile this turn (§3.1)"
            used = _joined([data_of(state).tactics[t].name for t in tiles])
            left = state.stock[INDEX[player]] - paid
            return f"{player} uses {used}, paying {paid} bases ({left} left in stock) (§3.1)"
        case UnitMoved(player=player, unit=unit, origin=origin, square=square, facing=facing, steps=steps):
            kind = name(state, _type_of(state, player, unit))
            if steps == 0:  # a game recorded under light-wars/1: turning in place was its move (D1 then)
                return f"{player}'s {kind} {unit} on {origin} turns to face {facing} (§3.2)"
            won = " onto the enemy Castle" if square == data_of(state).board.castle(1 - INDEX[player]) else ""
            return f"{player}'s {kind} {unit} moves {origin}-{square}{won} ({steps} step{'s' * (steps > 1)}), " \
                f"facing {facing} (§3.2)"
        case UnitTurned(player=player, unit=unit, square=square, facing=facing):
            kind = name(state, _type_of(state, player, unit))
            return f"{player}'s {kind} {unit} on {square} turns to face {facing}; it " \
                "may still act (R6)"
        case UnitWaited(player=player, unit=unit, square=square, facing=facing):
            kind = name(state, _type_of(state, player, unit))
            if facing is None:
                return f"{player}'s {kind} {unit} on {square} waits (§3.2)"
            return f"{player}'s {kind} {unit} on {square} waits, turning to face {facing} (R3)"
        case AttackDeclared(attack=attack, participants=participants, target=target, target_type=target_type):
            verb = "attacks" if len(participants) == 1 else "attack"
            return f"attack {attack}: {_attackers(state, participants)} {verb} " \
                f"the {name(state, target_type)} on {target} from {_sides(participants)} (§4)"
        case AttackResolved():
            return _resolution(state, event)
        case TurnPassed(player=player, turn=turn, marker=marker):
            return f"every unit has acted: {player}'s turn (turn {turn}, the turn marker on {marker}) (§3.3)"
        case Conceded(player=player):
            return f"{player} concedes"
        case GameEnded(adjudication=adjudication) if adjudication is not None:
            return adjudication_line(adjudication)
        case GameEnded(reason=reason, winner=winner, scores=scores, stock=stock):
            if reason == "king":
                return f"the King is removed: {winner} wins (§5.1)"
            if reason == "castle":
                return f"{winner} reaches the enemy Castle: {winner} wins (§5.2)"
            if reason == "concession":
                return f"{winner} wins by concession"
            score = f"scores {scores.get('p1')} to {scores.get('p2')}"
            if scores.get("p1") != scores.get("p2"):
                return f"the last turn is over: {score}: {winner} wins (§5.3)"
            bases = f"bases in stock {stock.get('p1')} to {stock.get('p2')}"
            if winner is None:
                return f"the last turn is over: {score}, {bases}: a draw (§5.3)"
            return f"the last turn is over: {score}, {bases}: {winner} wins (§5.3)"
        case _:
            assert_never(event)


def explain(state_before: State, event: Any, view: str = "all") -> tuple[str, dict[str, Any]]:
    shown = redacted_event(event, view)
    cause: dict[str, Any] = msgspec.json.decode(CODEC.encode_json(shown))
    tag = type(shown).tag_name()
    cause["rule"] = END_RULES[shown.reason] if isinstance(shown, GameEnded) else RULES[tag]
    return text(state_before, shown), cause


__all__ = ["explain", "text"]
