"""Why each event happened, in one line, and its cause (the redacted event + rule). The issue's example:
"Grimnak attacks from 2 levels higher: 4+1 dice, 3 skulls against 1 shield: 2 wounds, destroyed"."""

from __future__ import annotations

from typing import Any, assert_never

import msgspec

from engine.heroscape.combat import Outcome, face
from engine.heroscape.geometry import height_bonus
from engine.heroscape.state import INDEX, State, card_of
from events.heroscape import (
    CODEC,
    ArmyPlaced,
    AttackDeclared,
    AttackResolved,
    ChargeResolved,
    Conceded,
    DiceRolled,
    EffectApplied,
    FigureDestroyed,
    FigureMoved,
    FigureWounded,
    GameEnded,
    GameStarted,
    GlyphTaken,
    HeroScapeEvent,
    InitiativeTied,
    InitiativeWon,
    MarkerRevealed,
    MarkersPlaced,
    MoveDeclared,
    RoundEnded,
    TurnEnded,
    TurnLost,
)
from replay.adjudication import ADJUDICATION_RULE, adjudication_line
from replay.heroscape.views import redacted_event

RULES = {
    "game_started": "§1", "army_placed": "§1", "markers_placed": "§2", "dice_rolled": "§1", "initiative_tied": "§2",
    "initiative_won": "§2", "marker_revealed": "§2", "turn_lost": "§2", "move_declared": "§3", "figure_moved": "§3",
    "figure_wounded": "§5", "figure_destroyed": "§5", "glyph_taken": "§6", "charge_resolved": "§7",
    "attack_declared": "§5", "attack_resolved": "§5", "effect_applied": "§7", "turn_ended": "§2",
    "round_ended": "§2", "conceded": "concession", "game_ended": "§8",
}
CAUSES = {"attack": "§5", "leaving": "§4", "falling": "§3", "effect": "§7"}
REASONS = {"annihilation": "no opposing figure remains (§8)", "rounds": "the round limit: more points on the map",
           "concession": "concession"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def explain_attack(attacker: str, attack: int, attacker_level: int, defender_level: int, outcome: Outcome) -> str:
    """The sentence for one attack: where it came from, its dice, the faces and the result (§5)."""
    diff = attacker_level - defender_level
    where = (f" from {_plural(diff, 'level')} higher" if diff > 0
             else f" from {_plural(-diff, 'level')} lower" if diff < 0 else "")
    bonus = height_bonus(attacker_level, defender_level)
    dice = f"{attack}+{bonus} dice" if bonus else ("1 die" if attack == 1 else f"{attack} dice")
    result = _plural(outcome.wounds, "wound") if outcome.wounds else "no wound"
    if outcome.destroyed:
        result += ", destroyed"
    return (f"{attacker} attacks{where}: {dice}, {_plural(outcome.skulls, 'skull')} against "
            f"{_plural(outcome.shields, 'shield')}: {result}")


def figure_name(state: State, player: str, figure: str | None) -> str:
    if figure is None:
        return "?"
    key, _, number = figure.partition("/")
    try:
        name = card_of(state, INDEX[player], key).name
    except (KeyError, IndexError):
        return figure
    return f"{name} {number}" if number else name


def card_name(state: State, player: str, key: str) -> str:
    try:
        return card_of(state, INDEX[player], key).name
    except (KeyError, IndexError):
        return key


def _faces(values: tuple[int, ...], die: str) -> str:
    if die == "d20":
        return ", ".join(str(v) for v in values)
    return ", ".join(face(v) for v in values)


def text(state: State, event: HeroScapeEvent) -> str:  # noqa: C901 - one line per event
    match event:
        case GameStarted(armies=armies, board=board, variant=variant):
            sides = "; ".join(f"{a.player} {a.name} ({', '.join(c.name for c in a.cards)}, {a.points} points)"
                              for a in armies)
            return f"{board.name}, {variant.game} game, at most {variant.max_rounds} rounds: {sides}"
        case ArmyPlaced(player=player, placements=placements):
            return f"{player} places {_plural(len(placements), 'figure')} in its start zone (§1)"
        case MarkersPlaced(player=player, round=rnd, markers=markers):
            if markers is None:
                return f"{player} places its order markers for round {rnd} in secret (§2)"
            shown = ", ".join(f"{k} on {card_name(state, player, v)}" for k, v in sorted(markers.items()))
            return f"{player} places its order markers for round {rnd}: {shown} (§2)"
        case DiceRolled(purpose=purpose, player=player, die=die, values=values, figure=figure, source=source):
            who = figure_name(state, player, figure) if figure else player
            how = " at the table" if source == "table" else ""
            return f"{who} rolls{how} for {purpose}: {_faces(values, die)}"
        case InitiativeTied(contenders=contenders, totals=totals):
            return f"initiative tied at {max(totals.values())} between {' and '.join(contenders)}: they roll again (§2)"
        case InitiativeWon(round=rnd, order=order, totals=totals):
            shown = ", ".join(f"{p} {v}" for p, v in totals.items())
            return f"round {rnd}: {order[0]} wins the initiative ({shown}); order {', '.join(order)} (§2)"
        case MarkerRevealed(player=player, number=number, card=card):
            return f"{player} reveals order marker {number} on {card_name(state, player, card)}"
        case TurnLost(player=player, number=number, card=card):
            return f"{player} loses turn {number}: every figure of {card_name(state, player, card)} is " \
                "destroyed (§2)"
        case MoveDeclared(player=player, figure=figure, origin=origin, to=to, cost=cost, allowance=allowance,
                          road=road, strikers=strikers, fall_dice=fall_dice):
            parts = [f"{figure_name(state, player, figure)} moves from {list(origin)} to {list(to)} for {cost} of "
                     f"{allowance}" + (" along the road" if road else "")]
            if strikers:
                other = "p2" if player == "p1" else "p1"
                parts.append("leaving engagement with " + ", ".join(figure_name(state, other, s) for s in strikers))
            if fall_dice:
                parts.append(f"falling: {_plural(fall_dice, 'die')}")
            return "; ".join(parts)
        case FigureMoved(player=player, figure=figure, to=to):
            return f"{figure_name(state, player, figure)} stands on {list(to)}"
        case FigureWounded(player=player, figure=figure, wounds=wounds, total=total, cause=cause):
            return f"{figure_name(state, player, figure)} takes {_plural(wounds, 'wound')} ({cause}, " \
                f"{CAUSES[cause]}): {total} in all"
        case FigureDestroyed(player=player, figure=figure, cause=cause, by=by, by_player=by_player):
            who = f" by {figure_name(state, by_player, by)}" if by and by_player else (f" by {by}" if by else "")
            return f"{figure_name(state, player, figure)} is destroyed{who} ({cause}, {CAUSES[cause]})"
        case GlyphTaken(player=player, figure=figure, glyph=glyph, healed=healed):
            return f"{figure_name(state, player, figure)} takes the glyph {glyph.capitalize()}: " \
                f"{_plural(healed, 'wound')} healed (§6)"
        case ChargeResolved(card=card, roll=roll, again=again, player=player):
            name = card_name(state, player, card)
            return f"{name}'s Berserker Charge: {roll} — " + ("they move again (§7)" if again else "no more (§7)")
        case AttackDeclared(player=player, figure=figure, special=special, targets=targets, dice=dice,
                            distance=distance, sight=sight, referee=referee):
            target = targets[0]
            how = f" with {special}" if special else ""
            seen = ""
            if referee is not None:
                seen = f"; the referee rules {'clear' if referee else 'blocked'} sight (engine: " \
                    f"{'clear' if sight else 'blocked'}, R1)"
            more = f" and {_plural(len(targets) - 1, 'figure')} around it" if len(targets) > 1 else ""
            away = f"{distance} {'hex' if distance == 1 else 'hexes'}"
            return f"{figure_name(state, player, figure)} attacks {figure_name(state, target.player, target.figure)}" \
                f"{more}{how} at {away}: {dice} dice against {target.dice}{seen}"
        case AttackResolved(attack=_, target=target, defender=defender, skulls=skulls, shields=shields, wounds=wounds,
                            destroyed=destroyed):
            declared = state.attack
            if declared is None:
                return f"{figure_name(state, defender, target)}: {skulls} skulls against {shields} shields"
            t = next(x for x in declared.targets if x.figure == target and x.player == defender)
            attacker = figure_name(state, declared.player, declared.figure)
            victim = figure_name(state, defender, target)
            base = declared.base + declared.glyph_bonus
            outcome = Outcome(skulls, shields, wounds, destroyed)
            if declared.special is None:
                sentence = explain_attack(attacker, base, declared.level, t.level, outcome)
                return sentence.replace(" attacks", f" attacks {victim}", 1)
            sentence = explain_attack(attacker, base, 0, 0, outcome)  # special attacks: no height bonus (§5)
            return sentence.replace(" attacks", f" attacks {victim} with {declared.special}", 1)
        case EffectApplied(card=card, change=change, figure=figure, owner=owner, amount=amount, to=to, text=said,
                           player=player):
            name = card_name(state, player, card)
            what = {"wound": f"wounds {figure_name(state, owner, figure)} {amount}",
                    "heal": f"heals {amount} of {figure_name(state, owner, figure)}'s wounds",
                    "destroy": f"destroys {figure_name(state, owner, figure)}",
                    "move": f"moves {figure_name(state, owner, figure)} to {list(to) if to else '?'}"}[change]
            return f"{name}'s card text {what}" + (f" ({said})" if said else "") + " (§7)"
        case TurnEnded(player=player, number=number):
            return f"{player}'s turn {number} ends"
        case RoundEnded(round=rnd, points=points):
            return f"round {rnd} ends: points on the map " + ", ".join(f"{p} {v}" for p, v in points.items())
        case Conceded(player=player):
            return f"{player} concedes"
        case GameEnded(adjudication=adjudication) if adjudication is not None:
            return adjudication_line(adjudication)
        case GameEnded(winner=winner, reason=reason, points=points):
            shown = ", ".join(f"{p} {v}" for p, v in points.items())
            if winner is None:
                return f"a draw: {REASONS[reason]} ({shown})"
            return f"{winner} wins: {REASONS[reason]} ({shown})"
        case _:
            assert_never(event)


def explain(state_before: State, event: Any, view: str = "all") -> tuple[str, dict[str, Any]]:
    shown = redacted_event(event, view)
    cause: dict[str, Any] = msgspec.json.decode(CODEC.encode_json(shown))
    tag = type(shown).tag_name()
    cause["rule"] = RULES[tag] if not isinstance(shown, (FigureWounded, FigureDestroyed)) else CAUSES[shown.cause]
    if isinstance(shown, AttackDeclared) and shown.referee is not None:
        cause["rule"] = "R1"
    if isinstance(shown, GameEnded) and shown.adjudication is not None:
        cause["rule"] = ADJUDICATION_RULE
    return text(state_before, shown), cause


__all__ = ["explain", "explain_attack", "text"]
