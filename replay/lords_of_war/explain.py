"""One line a person reads at a glance for each Lords of War event, and the structured cause behind it.

The line speaks the game's words and cites the rule (§/R numbers of the rules digest) where a rule decided
something less than obvious. With a view, hidden cards stay hidden: a draw explained to the opponent reads
"p1 draws a card".
"""

from __future__ import annotations

from typing import Any, assert_never

from engine.lords_of_war import State
from engine.lords_of_war.catalogue import CardTable
from engine.lords_of_war.rules import GENERAL_DEPLOYED
from engine.lords_of_war.seating import VICTORY, layout_of
from engine.lords_of_war.state import cards_of
from events.lords_of_war import (
    Attacker,
    BerserkerMoved,
    CardDrawn,
    Conceded,
    DestroyedUnit,
    Eliminated,
    ExtraTurnGranted,
    GameEnded,
    GameStarted,
    HandDealt,
    HandRevealed,
    LordsOfWarEvent,
    Placed,
    Recalled,
    ReinforceSkipped,
    Shot,
)
from replay.adjudication import ADJUDICATION_RULE, adjudication_line
from replay.lords_of_war.views import as_json, redacted_event

BASIS_RULES: dict[str, str] = {
    "challenge": "§4",
    "contact": "§5.1",
    "support": "§5.1a",
    "no_enemy": "§5.1b",
    "empty_mat": "§5.1b",
    "forced": "§5.1c",
    "forced_friendly": "R4",
    "forced_anywhere": "R4",
}
BASIS_WORDS: dict[str, str] = {
    "support": "support unit next to a friend, §5.1a",
    "no_enemy": "no enemy on the mat, §5.1b",
    "empty_mat": "empty mat, §5.1b",
    "forced": "forced placement, hand revealed, §5.1c",
    "forced_friendly": "forced placement next to a friend, R4",
    "forced_anywhere": "forced placement anywhere, R4",
}
END_RULES: dict[str, str] = {"kills": "§7", "commanders": "§7", "exhausted": "R8", "concession": "§7",
                             "adjudicated": ADJUDICATION_RULE}


def card_name(card: str | None, cards: CardTable) -> str:
    """A card's name in the game's catalogue (``cards``: ``cards_of`` the game's state)."""
    if card is None:
        return "a card"
    known = cards.cards.get(card)
    return known.name if known is not None else card


def _attacker(a: Attacker, cards: CardTable) -> str:
    if a.kind == "shot":
        return f"{card_name(a.card, cards)} shot {a.value}"
    return f"{card_name(a.card, cards)} {a.direction} {a.value}"


def _destroyed(unit: DestroyedUnit, cards: CardTable) -> str:
    sources = ", ".join(_attacker(a, cards) for a in unit.attackers)
    return f"{card_name(unit.card, cards)} at {unit.square} is destroyed: {unit.damage} > {unit.defence} ({sources})"


def _side(state: State, name: str | None) -> str:
    """A side as a line names it: the seat, or (§10) the team with its seats: ``team odd (p1, p3)``."""
    layout = state.layout
    if name is None or not layout.teams or name not in layout.teams:
        return name or "no winner"
    return f"team {name} ({', '.join(layout.members(layout.teams.index(name)))})"


def _end(event: GameEnded, state: State) -> str:
    variant = state.variant
    winner = _side(state, event.winner)
    section = "§10" if state.layout.teams else "§7"
    match event.reason:
        case "kills":
            return f"{winner} wins: {variant.kill_target} enemy cards destroyed ({section})"
        case "commanders":
            return f"{winner} wins: {variant.command_target} enemy commanders destroyed ({section})"
        case "exhausted":
            sides = [state.layout.side_name(side) for side in (0, 1)]
            if event.winner in sides:
                loser = _side(state, sides[1 - sides.index(event.winner)])
                return f"{winner} wins: {loser} cannot deploy (empty hand or full mat, R8)"
            return f"the game ends: {winner} (exhausted, R8)"
        case "concession":
            return f"{winner} wins by concession"
        case "adjudicated":
            assert event.adjudication is not None
            return adjudication_line(event.adjudication)
        case _:
            assert_never(event.reason)


def text(state: State, event: LordsOfWarEvent) -> str:
    """The line for ``event`` (already redacted for the view) applied to ``state``."""
    table = cards_of(state)
    match event:
        case GameStarted():
            v = event.variant
            seats = len(event.players)
            if seats == 2:
                sides = " vs ".join(f"{p.id} {p.name} ({p.army_name})" for p in event.players)
            else:  # §10: the two teams, each seat with its army
                layout = layout_of(seats)
                sides = " vs ".join(
                    f"team {layout.side_name(side)} ("
                    + ", ".join(f"{p.id} {p.name} ({p.army_name})" for i, p in enumerate(event.players)
                                if layout.side[i] == side) + ")"
                    for side in (0, 1))
            options = [v.mode] + [o for o, on in (("intermediate", v.intermediate), ("unbounded", v.unbounded)) if on]
            if seats == 3:
                options.append("three players: p1 alone against p2 and p3 sharing one army (§10)")
            elif seats > 3:
                options.append(f"team rules for {seats} (§10)")
            if (v.kill_target, v.command_target) != VICTORY[seats]:
                options.append(f"victory at {v.kill_target} cards or {v.command_target} commanders")
            if event.catalogue:  # issue 30: not the default catalogue
                options.append(f"catalogue {event.catalogue.get('name')} ({event.catalogue_id})")
            if event.seed is not None:
                options.append(f"seed {event.seed}")
            if event.position is not None:
                options.append(f"from a position, {event.position.to_move} to move")
            return f"Lords of War: {sides}; {', '.join(options)}"
        case HandDealt(player=player, cards=cards, count=count):
            if cards is None:
                return f"{player} is dealt {count} cards"
            return f"{player} is dealt {count} cards: {', '.join(card_name(c, table) for c in cards)}"
        case HandRevealed(player=player, cards=cards):
            hand = ", ".join(card_name(c, table) for c in cards)
            return f"{player} cannot place by the contact rule and reveals the hand: {hand} (§5.1c)"
        case Placed(player=player, card=card, square=square, challenge=challenge, basis=basis):
            line = f"{player} places {card_name(card, table)} at {square}"
            if challenge:
                return line + " (the challenge, §4)"
            if basis in BASIS_WORDS:
                line += f" ({BASIS_WORDS[basis]})"
            return line
        case Shot(player=player, shooter_square=s, shooter_card=sc, target_square=t, target_card=tc, value=value):
            return f"{player}'s {card_name(sc, table)} at {s} shoots {card_name(tc, table)} at {t} for {value} (§6)"
        case Eliminated(round=round_no, units=units):
            line = "; ".join(_destroyed(u, table) for u in units)
            return line if round_no == 1 else f"elimination round {round_no} (R13): {line}"
        case BerserkerMoved(player=player, card=card, origin=origin, target=target):
            return f"{player}'s {card_name(card, table)} charges from {origin} into {target} (berserker, §8 R12)"
        case ExtraTurnGranted(player=player):
            return f"{player} destroyed the enemy general and takes another turn after reinforcing (§5.4)"
        case CardDrawn(player=player, card=card):
            return f"{player} draws {card_name(card, table)}"
        case Recalled(player=player, square=square, card=card):
            return f"{player} recalls {card_name(card, table)} from {square} (§5.3)"
        case ReinforceSkipped(player=player, reason=reason):
            if reason == GENERAL_DEPLOYED:
                return f"{player} deployed the team's general and neither draws nor recalls this turn (§10, R15)"
            return f"{player} cannot reinforce: the deck is empty and no unit may be recalled (R7)"
        case Conceded(player=player) if state.layout.teams:
            side = state.layout.side[int(player[1:]) - 1]
            return f"{player} concedes for {_side(state, state.layout.side_name(side))} (§10, R19)"
        case Conceded(player=player):
            return f"{player} concedes"
        case GameEnded():
            return _end(event, state)
        case _:
            assert_never(event)


def rule(event: LordsOfWarEvent) -> str | None:
    match event:
        case Placed(basis=basis):
            return BASIS_RULES.get(basis)
        case HandRevealed():
            return "§5.1c"
        case Shot():
            return "§6"
        case Eliminated(round=round_no):
            return "§5.2" if round_no == 1 else "R13"
        case BerserkerMoved():
            return "R12"
        case ExtraTurnGranted():
            return "§5.4"
        case CardDrawn() | Recalled():
            return "§5.3"
        case ReinforceSkipped(reason=reason):
            return "§10" if reason == GENERAL_DEPLOYED else "R7"
        case GameEnded(reason=reason):
            return END_RULES[reason]
        case HandDealt() | GameStarted():
            return "§3"
        case Conceded():
            return "§7"
        case _:
            assert_never(event)


def explain(state_before: State, event: LordsOfWarEvent, view: str = "all") -> tuple[str, dict[str, Any]]:
    """(line, cause) for ``event`` applied to ``state_before``, hidden cards redacted for ``view``."""
    shown = redacted_event(event, view)
    cause: dict[str, Any] = as_json(shown)
    cause.pop("catalogue", None)  # issue 30: the game's catalogue by its id only (catalogue_id)
    cause["rule"] = rule(shown)
    cards = cards_of(state_before)
    if isinstance(shown, Eliminated):
        cause["units"] = [
            {
                **unit,
                "name": card_name(unit["card"], cards),
                "attackers": [{**a, "name": card_name(a["card"], cards)} for a in unit["attackers"]],
            }
            for unit in cause["units"]
        ]
    return text(state_before, shown), cause
