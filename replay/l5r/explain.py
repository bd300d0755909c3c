"""Why each event happened, in one line a person reads at a glance, and its cause (the redacted event + rule).

The issue's examples: "Doji Hotaru wins the duel 7 to 5 after three focuses; Matsu Tsuko is destroyed" and "the
Lion army of 9 force against 4 + province 5: the province falls". A line reads only the redacted event and what
every view sees of the state before it (names of cards in play, clans), never a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

import msgspec

from engine.l5r.catalogue import DEFAULT, CardBook, book_of, cards_of
from engine.l5r.state import State
from events.l5r import (
    CODEC,
    ArmyAssigned,
    AttackDeclared,
    AttackEnded,
    BattleResolved,
    CardAttached,
    CardDiscarded,
    CardDrawn,
    CardRecruited,
    CardsRevealed,
    Conceded,
    DuelChallenged,
    DuelFocused,
    DuelResolved,
    DuelStruck,
    DynastyDiscarded,
    EffectApplied,
    FocusRevealed,
    GameEnded,
    GameStarted,
    GoldProduced,
    HonorChanged,
    L5REvent,
    NothingDrawn,
    Passed,
    PhaseStarted,
    PlayerEliminated,
    ProvinceFilled,
    RingPlayed,
    StrategyPlayed,
    TurnEnded,
    TurnStarted,
)
from replay.adjudication import ADJUDICATION_RULE, adjudication_line
from replay.l5r.views import redacted_event

RULES = {
    "game_started": "§2", "card_drawn": "§3.4", "province_filled": "§2", "turn_started": "§3.1",
    "cards_revealed": "§3.1", "phase_started": "§3", "passed": "§3", "gold_produced": "§3.3",
    "card_recruited": "§3.3", "card_attached": "§3.1", "ring_played": "§1", "strategy_played": "§3.1",
    "effect": "§3.1", "honor_changed": "§4", "attack_declared": "§3.2", "army_assigned": "§3.2",
    "battle_resolved": "§4", "attack_ended": "§3.2", "duel_challenged": "§5.1", "duel_focused": "§5.2",
    "duel_struck": "§5.2", "duel_resolved": "§5.3", "dynasty_discarded": "§3.3", "card_discarded": "§3.4",
    "turn_ended": "§3.4", "player_eliminated": "§6", "conceded": "concession", "game_ended": "§6",
    "nothing_drawn": "R9", "focus_revealed": "§5.3",
}
END_RULES = {"honor": "§6", "enlightenment": "§6", "military": "§6", "concession": "concession", "card": "R9",
             "adjudicated": ADJUDICATION_RULE}
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
PHASES = {"attack": "attack phase", "dynasty": "dynasty phase", "end": "end phase"}
KIND_WORDS = {"force": "force", "chi": "chi", "honor": "personal honour", "duel": "duel total",
              "province": "province strength"}


def joined(words: Sequence[str]) -> str:
    words = list(words)
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def number(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def clan(state: State, seat: str) -> str:
    try:
        return state.player(seat).clan.capitalize()
    except KeyError:
        return seat


def _provinces(state: State, seat: str) -> tuple[Any, ...]:
    try:
        return state.player(seat).provinces
    except KeyError:
        return ()


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _battle(state: State, e: BattleResolved) -> str:
    name = cards_of(state).name
    a, d = clan(state, e.attacker), clan(state, e.defender)
    where = f"battlefield {e.battlefield}"
    if e.winner is None:
        if e.attacker_force == 0 and e.defender_force == 0:
            return f"{where}: no army fights: nothing happens (§4)"
        return f"{where}: a tie at {e.attacker_force} with one army: nothing is destroyed (§4)"
    if e.winner == "attacker":
        head = f"{where}: the {a} army of {e.attacker_force} force against {e.defender_force} + province " \
            f"{e.province_strength}: " + ("the province falls" if e.province_destroyed else "the province holds")
    elif e.winner == "defender":
        head = f"{where}: the {d} army of {e.defender_force} force beats the {a} army of {e.attacker_force}"
    else:
        head = f"{where}: both armies have {e.attacker_force} force: each destroys the other"
    tail = []
    if e.destroyed:
        tail.append(f"{joined([name(c) for c in e.destroyed])} destroyed")
    if e.restored:
        tail.append(f"{joined([name(c) for c in e.restored])} restored instead of gaining honour")
    gains = [f"{h.player} {signed(h.amount)} honour" for h in e.honor]
    if gains:
        tail.append(", ".join(gains))
    return head + ("; " + "; ".join(tail) if tail else "") + " (§4)"


def _duel(book: CardBook, e: DuelResolved) -> str:
    name = book.name
    focuses = number(len(e.revealed))
    after = f"after {focuses} focus{'es' if len(e.revealed) != 1 else ''}"
    if e.winner is None:
        head = f"{name(e.challenger)} and {name(e.challenged)} tie at {e.totals[0]} {after}: both lose (§5.3)"
    else:
        loser_total, winner_total = sorted(e.totals)
        head = f"{name(e.winner)} wins the duel {winner_total} to {loser_total} {after}"
    if e.destroyed:
        verb = "is" if len(e.destroyed) == 1 else "are"
        head = f"{head}; {joined([name(c) for c in e.destroyed])} {verb} destroyed"
    if e.returned_home:
        verb = "returns" if len(e.returned_home) == 1 else "return"
        head = f"{head}; {joined([name(c) for c in e.returned_home])} {verb} home from the battle (R7)"
    return head


def _effect(book: CardBook, e: EffectApplied) -> str:
    name = book.name
    source = f"{name(e.card)} ({e.player})"
    until = {"battle": " until the end of the battle", "turn": " until the end of the turn", "game": ""}[e.until]
    match e.kind:
        case "force" | "chi" | "honor" | "duel":
            line = f"{source}: {name(e.target)} {KIND_WORDS[e.kind]} {signed(e.amount)}{until}"
        case "province":
            line = f"{source}: province {e.target} strength {signed(e.amount)}{until}"
        case "family_honor":
            line = f"{source}: {e.target}'s family honour {signed(e.amount)}"
        case "gold":
            line = f"{source}: {e.target} gains {e.amount} gold"
        case "draw":
            line = f"{source}: {e.target} draws {e.amount}"
        case "send_home":
            line = f"{source}: {name(e.target)} is sent home"
        case "discard":
            line = f"{source}: {name(e.target)} is discarded from hand"
        case "remove":
            line = f"{source}: {name(e.target)} is removed from the game"
        case "eliminate":
            line = f"{source}: {e.target} is eliminated"
        case "win":
            line = f"{source}: {e.target} wins the game"
        case _:
            verb = {"bow": "bowed", "straighten": "straightened", "dishonor": "dishonoured", "restore": "restored",
                    "destroy": "destroyed"}.get(e.kind, e.kind)
            line = f"{source}: {name(e.target)} is {verb}"
    if e.destroyed and e.kind != "destroy":
        line += f"; {joined([name(c) for c in e.destroyed])} destroyed (chi 0, §4)"
    return line


def text(state: State, event: L5REvent) -> str:  # noqa: C901 - one line per event
    # the game's cards: game_started's catalogue (the state before it has none yet), else the state's
    book = (book_of(event.catalogue) or DEFAULT) if isinstance(event, GameStarted) else cards_of(state)
    name = book.name
    match event:
        case GameStarted(decks=decks, order=order, seats=seats):
            names = {s.id: s.name for s in seats}
            who = [f"{names[d.player]} ({d.clan.capitalize()}, {name(f'{d.player}.{d.stronghold}.1')}, honour "
                   f"{d.honor})" for d in decks]
            return f"{joined(who)} begin; {order[0]} goes first (R1)"
        case CardDrawn(player=player, card=card):
            return f"{player} draws {name(card) if card else 'a card'}"
        case ProvinceFilled(player=player, province=province, source="unseen"):
            return f"{player}'s province {province} is filled face down, unseen"
        case ProvinceFilled(player=player, province=province):
            return f"{player}'s province {province} is filled face down"
        case TurnStarted(player=player, turn=turn, straightened=straightened):
            stand = f"; {number(len(straightened))} card{'s' if len(straightened) != 1 else ''} straighten" \
                if straightened else ""
            return f"turn {turn}: {player}'s action phase{stand} (§3.1)"
        case CardsRevealed(player=player, cards=cards, discarded=discarded, table=True) \
                if not any(pr.number == cards[0].province for pr in _provinces(state, player)):
            return f"{player}'s destroyed province {cards[0].province} held {name(cards[0].card)}: discarded"
        case CardsRevealed(player=player, cards=cards, discarded=discarded):
            shown = joined([f"{name(r.card)} (province {r.province})" for r in cards])
            gone = f"; {joined([name(c) for c in discarded])} discarded (an event)" if discarded else ""
            return f"{player} reveals {shown}{gone}"
        case PhaseStarted(player=player, phase=phase):
            return f"{player}'s {PHASES[phase]}"
        case Passed(player=player, window=window):
            return f"{player} passes ({window})"
        case GoldProduced(player=player, card=card, gold=gold):
            return f"{player} bows {name(card)} for {gold} gold"
        case CardRecruited(player=player, province=province, card=card, gold=gold, surcharge=surcharge,
                           proclaimed=proclaimed):
            extra = f" ({surcharge} for a clan not yet at home)" if surcharge else ""
            proclaim = ", proclaimed" if proclaimed else ""
            return f"{player} recruits {name(card)} from province {province} for {gold} gold{extra}{proclaim}"
        case CardAttached(player=player, card=card, to=to, gold=gold):
            return f"{player} attaches {name(card)} to {name(to)} for {gold} gold"
        case RingPlayed(player=player, card=card):
            return f"{player} plays {name(card)}"
        case StrategyPlayed(player=player, card=card, gold=gold):
            return f"{player} plays {name(card)}" + (f" for {gold} gold" if gold else "")
        case EffectApplied():
            return _effect(book, event)
        case HonorChanged(player=player, amount=amount, total=total, reason=reason):
            why = {"proclaim": "proclaimed", "battle": "battle", "dishonored_destroyed": "a dishonoured personality "
                   "destroyed", "effect": "a card"}[reason]
            return f"{player}'s family honour {signed(amount)} to {total} ({why})"
        case AttackDeclared(player=player, defender=defender, battlefields=fields):
            return f"{player} attacks {defender}: a battlefield at province{'s' if len(fields) != 1 else ''} " \
                f"{joined([str(f) for f in fields])}"
        case ArmyAssigned(player=player, side=side, battlefield=field, units=units):
            verb = "sends" if side == "attacker" else "defends with"
            return f"{player} {verb} {joined([name(u) for u in units])} " \
                f"{'to' if side == 'attacker' else 'at'} battlefield {field}"
        case BattleResolved():
            return _battle(state, event)
        case AttackEnded(returned=returned):
            back = f": {joined([name(u) for u in returned])} return home" if returned else ""
            return f"the attack is over{back}"
        case DuelChallenged(challenger=a, challenged=d, stat=stat, card=card):
            by = f" ({name(card)})" if card else ""
            return f"{name(a)} challenges {name(d)} to a duel of {stat}{by}"
        case DuelFocused(player=player, unseen=True):
            return f"{player} focuses the top card of the fate deck face down, unseen"
        case FocusRevealed(player=player, card=card):
            return f"{player}'s focus card from the top of the deck turns up: {name(card)}"
        case DuelFocused(player=player, source=source, card=card):
            where = "from hand" if source == "hand" else "from the top of the fate deck"
            what = name(card) if card else "a card"
            return f"{player} focuses {what} face down {where}"
        case DuelStruck(player=player):
            if player is None:
                return "both have focused four times: the duel strikes (R2)"
            return f"{player} strikes"
        case DuelResolved():
            return _duel(book, event)
        case DynastyDiscarded(player=player, province=province, card=card):
            return f"{player} discards {name(card)} from province {province}"
        case CardDiscarded(player=player, card=card):
            return f"{player} discards {name(card)} down to 8 cards"
        case TurnEnded(player=player, next=nxt):
            return f"{player}'s turn ends; {nxt} is next"
        case PlayerEliminated(player=player, reason="card", card=card):
            return f"{player} is eliminated by {name(card)} (R9)"
        case PlayerEliminated(player=player, reason=reason):
            why = "every province destroyed" if reason == "provinces" else "family honour -20 or lower"
            return f"{player} is eliminated: {why} (§6)"
        case Conceded(player=player):
            return f"{player} concedes"
        case GameEnded(adjudication=adjudication) if adjudication is not None:
            return adjudication_line(adjudication)
        case NothingDrawn(player=player, deck="fate"):
            return f"{player} draws nothing: its fate deck is empty (R9)"
        case NothingDrawn(player=player, province=province):
            return f"{player}'s province {province} stays empty: its dynasty deck is empty (R9)"
        case GameEnded(winner=winner, reason="card", card=card):
            return f"{winner} wins the game by {name(card)} (R9)"
        case GameEnded(winner=winner, reason=reason):
            if reason == "concession":
                return f"{winner} wins by concession"
            how = {"honor": "honour victory (family honour 40 or more at the start of its turn)",
                   "enlightenment": "enlightenment (all five rings in play)",
                   "military": "military victory (every other player eliminated)"}[reason]
            return f"{winner} wins by {how} (§6)"
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
