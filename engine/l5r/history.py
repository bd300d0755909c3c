"""A recorded stream read back into its setup and the actions that produced it (``warlog verify``, record and JSONL
import).

Each action starts with one event: ``card_drawn`` / ``province_filled`` entered at the table, ``cards_revealed`` /
``focus_revealed`` entered at the table as an unseen card turns face up (``draw``),
``passed``, ``gold_produced``, ``card_recruited``, ``card_attached``, ``ring_played``, ``strategy_played``,
``effect``, ``attack_declared``, ``army_assigned``, ``duel_challenged``, ``duel_focused``, ``duel_struck`` by a
player, ``dynasty_discarded``, ``card_discarded``, ``conceded``. Every other event is a consequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.errors import StreamError
from engine.l5r.actions import (
    Army,
    Attach,
    Attack,
    Challenge,
    Concede,
    Discard,
    DiscardDynasty,
    Draw,
    Effect,
    Focus,
    L5RAction,
    Pass,
    PlayRing,
    PlayStrategy,
    Produce,
    Recruit,
    Strike,
)
from engine.l5r.catalogue import DEFAULT, book_of
from engine.l5r.setup import SYSTEM_NAME
from engine.play import actions_from
from engine.system import RecordedAction
from events.l5r import (
    ArmyAssigned,
    AttackDeclared,
    CardAttached,
    CardDiscarded,
    CardDrawn,
    CardRecruited,
    CardsRevealed,
    Conceded,
    DuelChallenged,
    DuelFocused,
    DuelStruck,
    DynastyDiscarded,
    EffectApplied,
    FocusRevealed,
    GameStarted,
    GoldProduced,
    L5REvent,
    Passed,
    ProvinceFilled,
    RingPlayed,
    StrategyPlayed,
)


def recorded_setup(events: Sequence[L5REvent]) -> dict[str, Any]:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "an L5R stream starts with game_started")
    started = events[0]
    decks = (book_of(started.catalogue) or DEFAULT).decks
    players = []
    for seat, deck in zip(started.seats, started.decks, strict=True):
        shown: Any = deck.name if deck.name in decks else {
            "stronghold": deck.stronghold, "sensei": deck.sensei, "dynasty": list(deck.dynasty),
            "fate": list(deck.fate)}
        players.append({"id": seat.id, "name": seat.name, "army": shown})
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": players, "variant": {"mode": started.variant.mode},
                             "seed": started.seed}
    best = max(d.honor for d in started.decks)
    if sum(1 for d in started.decks if d.honor == best) > 1:
        setup["first"] = started.order[0]
    if started.position is not None:
        setup["position"] = msgspec.to_builtins(started.position)
    if isinstance(started.catalogue, dict):  # issue 30: the game's own catalogue, as recorded
        setup["catalogue"] = started.catalogue
    return setup


def _hidden(index: int, what: str) -> StreamError:
    return StreamError(index, f"event {index + 1}: {what} is hidden in this copy of the game")


def action_of(event: L5REvent, index: int) -> L5RAction | None:  # noqa: C901 - one case per action
    """The action an event starts, or None for a consequence."""
    match event:
        case CardDrawn(source="table", player=player, card=card) | ProvinceFilled(source="table", player=player,
                                                                                 card=card):
            if card is None:
                raise _hidden(index, "the card drawn")
            return Draw(player=player, card=card.split(".")[1])
        case CardsRevealed(table=True, player=player, cards=(revealed,)):  # an unseen card entered, turned face up
            return Draw(player=player, card=revealed.card.split(".")[1])
        case FocusRevealed(player=player, card=card):
            return Draw(player=player, card=card.split(".")[1])
        case Passed(player=player):
            return Pass(player=player)
        case GoldProduced(player=player, card=card):
            return Produce(player=player, card=card)
        case CardRecruited(player=player, province=province, proclaimed=proclaimed):
            return Recruit(player=player, province=province, proclaim=proclaimed)
        case CardAttached(player=player, card=card, to=to):
            return Attach(player=player, card=card, to=to)
        case RingPlayed(player=player, card=card):
            return PlayRing(player=player, card=card)
        case StrategyPlayed(player=player, card=card):
            return PlayStrategy(player=player, card=card)
        case EffectApplied(player=player, card=card, kind=kind, target=target, amount=amount, until=until):
            return Effect(player=player, card=card, kind=kind, target=target, amount=amount,  # type: ignore[arg-type]
                          until=until)
        case AttackDeclared(player=player):
            return Attack(player=player)
        case ArmyAssigned(player=player, battlefield=field, units=units):
            return Army(player=player, battlefield=field, units=units)
        case DuelChallenged(player=player, challenger=a, challenged=d, stat=stat, card=card, destroy_loser=destroy):
            return Challenge(player=player, challenger=a, challenged=d, stat=stat, card=card, destroy_loser=destroy)
        case DuelFocused(player=player, source=source, card=card, table=table, unseen=unseen):
            if unseen:
                return Focus(player=player, source="deck")
            if source == "hand":
                if card is None:
                    raise _hidden(index, "the focus card")
                return Focus(player=player, source="hand", card=card)
            if table:
                if card is None:
                    raise _hidden(index, "the focus card")
                return Focus(player=player, source="deck", card=card.split(".")[1])
            return Focus(player=player, source="deck")
        case DuelStruck(player=player) if player is not None:
            return Strike(player=player)
        case DynastyDiscarded(player=player, province=province):
            return DiscardDynasty(player=player, province=province)
        case CardDiscarded(player=player, card=card):
            return Discard(player=player, card=card)
        case Conceded(player=player):
            return Concede(player=player)
        case GameStarted():
            raise StreamError(index, f"event {index + 1}: a second game_started")
        case _:
            return None


def opening_length(events: Sequence[L5REvent]) -> int:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "an L5R stream starts with game_started")
    i = 1
    while i < len(events) and action_of(events[i], i) is None:
        i += 1
    return i


def recorded_actions(events: Sequence[L5REvent]) -> list[RecordedAction[L5RAction]]:
    return actions_from(events, opening_length(events), action_of)


__all__ = ["action_of", "opening_length", "recorded_actions", "recorded_setup"]
