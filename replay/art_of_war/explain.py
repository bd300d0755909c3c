"""Why each event happened, in one line, and its cause (the redacted event + rule). The issue's example: "ARCHER at
B2 deals 2 to GUARDIAN (defence 3, sideways 2): captured"."""

from __future__ import annotations

from typing import Any, assert_never

import msgspec

from engine.art_of_war.catalogue import DEFAULT, book_of, cards_of
from engine.art_of_war.state import State
from events.art_of_war import (
    CODEC,
    Arranged,
    ArtOfWarEvent,
    AttackDeclared,
    BattleDeclared,
    CardDrawn,
    ChainResolved,
    Conceded,
    Conscripted,
    ConscriptionStarted,
    Damaged,
    Deployed,
    Entered,
    GameEnded,
    GameStarted,
    KingsTaken,
    Moved,
    Passed,
    RedrawDecided,
    SupportDeclared,
    TurnEnded,
    TurnStarted,
)
from replay.adjudication import ADJUDICATION_RULE, adjudication_line
from replay.art_of_war.views import redacted_event

RULES = {
    "game_started": "§3", "card_drawn": "§4.2", "redraw_decided": "§3.3", "kings_taken": "§3.3", "deployed": "§3.4",
    "turn_started": "§4.1", "arranged": "§4.3", "battle_declared": "§4.3", "attack_declared": "§5",
    "support_declared": "§4", "passed": "R3", "chain_resolved": "R3", "damaged": "R2", "moved": "§2",
    "entered": "§4", "conscription_started": "§6", "conscripted": "§6", "turn_ended": "§4", "conceded": "concession",
    "game_ended": "§7",
}
END_RULES = {"execution": "§7.1", "nation_building": "§7.2", "end_of_war": "§7.3", "annihilation": "§7.4",
             "concession": "concession", "adjudicated": ADJUDICATION_RULE}
REASONS = {"execution": "execution (the opposing KING is gone)",
           "nation_building": "nation-building (more cards in 4 of the 5 types of the kingdoms)",
           "end_of_war": "the end of the war (both decks empty)", "annihilation": "annihilation (no conscription)"}


def text(state: State, event: ArtOfWarEvent) -> str:  # noqa: C901 - one line per event
    # the game's cards: game_started's catalogue (the state before it has none yet), else the state's
    book = (book_of(event.catalogue) or DEFAULT) if isinstance(event, GameStarted) else cards_of(state)
    name = book.name
    match event:
        case GameStarted(decks=decks, first=first):
            kings = ", ".join(f"{d.player} {name(f'{d.player}.{d.king}.1')} ({d.name})" for d in decks)
            return f"{kings}; {first} goes first (§3.2)"
        case CardDrawn(player=player, card=card):
            return f"{player} draws {name(card) if card else 'a card'}"
        case RedrawDecided(player=player, again=again):
            if again is None:
                return f"{player} decides on its opening hand (§3.3)"
            return f"{player} {'returns its three cards and draws three again' if again else 'keeps its hand'} (§3.3)"
        case KingsTaken():
            return "each player takes its KING into its hand (§3.3)"
        case Deployed(player=player, card=card, square=square, standby=standby, kingdom=kingdom):
            return (f"{player} deploys {name(card)} at {square}, {name(standby)} to the standby, and {name(kingdom)} "
                    "from the deck's top into the kingdom (§3.4)")
        case TurnStarted(player=player, turn=turn):
            return f"turn {turn}: {player}'s units stand upright (§4.1)"
        case Arranged(player=player, how=how, square=square, to=to, card=card, moved=moved):
            if how == "place":
                return f"{player} places {name(moved[0].card)} from the standby at {square}"
            if how == "rotate":
                return f"{player} sends {name(moved[0].card)} from {square} to the standby; {name(moved[1].card)} " \
                    "takes its place"
            if how == "shift":
                swap = f", swapping with {name(moved[1].card)}" if len(moved) > 1 else ""
                return f"{player} moves {name(moved[0].card)} from {square} to {to}{swap}"
            back = f"; {name(moved[1].card)} goes back to hand" if len(moved) > 1 else ""
            return f"{player} plays {name(card)} from hand at {square}{back}"
        case BattleDeclared(player=player):
            return f"{player} goes to battle (§4.3)"
        case AttackDeclared(player=player, square=square, unit=unit, target=target, value=value):
            defender = state.player(state.other(player)) if state.players else None
            victim = defender.unit_at(target) if defender else None
            return f"{name(unit)} at {square} attacks {name(victim.card) if victim else 'the unit'} at {target} " \
                f"for {value}"
        case SupportDeclared(player=player, card=card, effect=effect, target=target, square=square, to=to):
            as_ = "" if book.card(card).name.lower() == effect else f" as {effect.upper()}"
            what = {"soldier": "+1 attack to every unit this turn", "archer": f"1 damage to the unit at {target}",
                    "priest": f"moves its unit at {square} to {to}", "guardian": "cancels the attack",
                    "wizard": "negates the support"}[effect]
            return f"{player}'s {name(card)}{as_} in rear support: {what}"
        case Passed(player=player):
            return f"{player} does not answer"
        case ChainResolved(effective=effective):
            if effective[0]:
                base = state.chain[0] if state.chain else None
                nothing = ": an attack of 0 deals no damage (R5)" if base and base.kind == "attack" and \
                    base.value == 0 else ""
                return "it stands" + (" (the answers cancel each other)" if len(effective) > 1 else "") + \
                    f" (R3){nothing}"
            return "it is cancelled (R3)"
        case Damaged(source=source, source_square=source_square, unit=unit, value=value, result=result, total=total,
                     to=to):
            up, side = book.card(unit).defence
            who = f"{name(source)} at {source_square}" if source_square else f"{name(source)}'s support"
            outcome = {"captured": "captured", "destroyed": "destroyed"}.get(result, f"{total} damage so far")
            if result == "captured" and to == "graveyard":
                outcome += "; a KING goes to the graveyard (R6)"
            return f"{who} deals {value} to {name(unit)} (defence {up}, sideways {side}): {outcome}"
        case Moved(player=player, moves=moves, forced=forced):
            steps = ", ".join(f"{a}→{b}" for a, b in moves)
            return f"{player}'s back row moves forward: {steps} (§2)" if forced else f"{player} moves {steps}"
        case Entered(player=player, card=card):
            return f"{player} puts {name(card)} into its kingdom (§4)"
        case ConscriptionStarted(player=player):
            return f"{player}'s battlefield is empty: conscription (§6)"
        case Conscripted(player=player, card=card, square=square, source=source):
            return f"{player} conscripts {name(card)} from its {source} at {square} (§6)"
        case TurnEnded(player=player, next=nxt):
            return f"{player}'s turn ends; {nxt} is next"
        case Conceded(player=player):
            return f"{player} concedes"
        case GameEnded(adjudication=adjudication) if adjudication is not None:
            return adjudication_line(adjudication)
        case GameEnded(winner=winner, reason=reason, kingdoms=kingdoms, graveyards=graveyards):
            if reason == "concession":
                return f"{winner} wins by concession"
            if winner is None:
                return f"both decks are empty: kingdoms {kingdoms[0]} to {kingdoms[1]}, graveyards " \
                    f"{graveyards[0]} to {graveyards[1]}: a draw (§7.3)"
            return f"{winner} wins by {REASONS[reason]} ({END_RULES[reason]})"
        case _:
            assert_never(event)


def explain(state_before: State, event: Any, view: str = "all") -> tuple[str, dict[str, Any]]:
    shown = redacted_event(event, view)
    cause: dict[str, Any] = msgspec.json.decode(CODEC.encode_json(shown))
    cause.pop("catalogue", None)  # a game's catalogue is served by GET /catalogues/{id} (its catalogue_id)
    tag = type(shown).tag_name()
    cause["rule"] = END_RULES[shown.reason] if isinstance(shown, GameEnded) else RULES[tag]
    return text(state_before, shown), cause


__all__ = ["explain", "text"]
