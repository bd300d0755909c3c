"""A recorded Art of War stream read back: its setup (``recorded_setup``) and the actions that produced it
(``recorded_actions``), for ``warlog verify`` and record import; re-deciding them is the framework's
(``engine.play.redecide_by_evolve``: this system has nothing of its own to add).

Each action starts with one event: ``card_drawn`` entered at a table (``draw``), ``redraw_decided``, ``deployed``,
``arranged``, ``battle_declared``, ``attack_declared``, ``support_declared``, ``passed``, ``entered``,
``conscripted``, ``turn_ended`` (``end``), ``conceded``; every other event is a consequence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from engine.art_of_war.actions import (
    ArtOfWarAction,
    Attack,
    Battle,
    Concede,
    Conscript,
    Deploy,
    Draw,
    End,
    Entry,
    Pass,
    Place,
    Play,
    Redraw,
    Rotate,
    Shift,
    Support,
)
from engine.art_of_war.catalogue import DEFAULT, book_of, kind_of
from engine.art_of_war.setup import SYSTEM_NAME
from engine.errors import StreamError
from engine.play import actions_from
from engine.system import RecordedAction
from events.art_of_war import (
    Arranged,
    ArtOfWarEvent,
    AttackDeclared,
    BattleDeclared,
    CardDrawn,
    Conceded,
    Conscripted,
    Deployed,
    Entered,
    GameStarted,
    Passed,
    RedrawDecided,
    SupportDeclared,
    TurnEnded,
)


def _hidden(index: int, what: str) -> StreamError:
    return StreamError(index, f"event {index + 1}: {what} is hidden in this copy of the game")


def by_type(started: GameStarted) -> bool:
    """Whether the game's actions name hand cards by type: where reveals are numbered (R7; ``numbers_reveals``:
    no seeded deck order), the id an event names is the one the rules gave, not the copy the player named."""
    return started.seed is None or started.position is not None


def action_of(event: ArtOfWarEvent, index: int, typed: bool = False) -> ArtOfWarAction | None:  # noqa: C901
    """The action ``event`` starts (one case per action), or None; ``typed``: hand cards named by type."""
    named: Callable[[str], str] = kind_of if typed else str
    match event:
        case CardDrawn(source="table", player=player, card=card):
            if card is None:
                raise _hidden(index, "the card drawn")
            return Draw(player=player, card=kind_of(card))
        case RedrawDecided(player=player, again=again, hand=hand, source=source):
            if again is None:
                raise _hidden(index, "the re-draw")
            if again and source == "table":
                if hand is None:
                    raise _hidden(index, "the re-drawn hand")
                return Redraw(player=player, again=True, cards=tuple(kind_of(c) for c in hand))
            return Redraw(player=player, again=again)
        case Deployed(player=player, card=card, square=square, standby=standby, kingdom=kingdom, source=source):
            return Deploy(player=player, card=named(card), square=square, standby=named(standby),
                          kingdom=kind_of(kingdom) if source == "table" else None)
        case Arranged(player=player, how=how, square=square, to=to, card=card):
            if how == "place":
                return Place(player=player, square=square)
            if how == "rotate":
                return Rotate(player=player, square=square)
            if how == "shift":
                return Shift(player=player, square=square, to=to or "")
            return Play(player=player, card=named(card or ""), square=square)
        case BattleDeclared(player=player):
            return Battle(player=player)
        case AttackDeclared(player=player, square=square, target=target):
            return Attack(player=player, square=square, target=target)
        case SupportDeclared(player=player, card=card, effect=effect, target=target, square=square, to=to):
            return Support(player=player, card=named(card), effect=effect, target=target, square=square, to=to)
        case Passed(player=player):
            return Pass(player=player)
        case Entered(player=player, card=card):
            return Entry(player=player, card=named(card))
        case Conscripted(player=player, card=card, square=square, source=source):
            return Conscript(player=player, square=square, card=card if source == "kingdom" else None)
        case TurnEnded(player=player):
            return End(player=player)
        case Conceded(player=player):
            return Concede(player=player)
        case GameStarted():
            raise StreamError(index, f"event {index + 1}: a second game_started")
        case _:
            return None


def opening_length(events: Sequence[ArtOfWarEvent]) -> int:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "an Art of War stream starts with game_started")
    i = 1
    while i < len(events) and action_of(events[i], i) is None:
        i += 1
    return i


def recorded_actions(events: Sequence[ArtOfWarEvent]) -> list[RecordedAction[ArtOfWarAction]]:
    start = opening_length(events)
    assert isinstance(events[0], GameStarted)
    typed = by_type(events[0])
    return actions_from(events, start, lambda event, index: action_of(event, index, typed))


def recorded_setup(events: Sequence[ArtOfWarEvent]) -> dict[str, Any]:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "an Art of War stream starts with game_started")
    started = events[0]
    decks = (book_of(started.catalogue) or DEFAULT).decks
    players = []
    for seat, deck in zip(started.seats, started.decks, strict=True):
        shown: Any = deck.name if deck.name in decks else {"king": deck.king, "cards": list(deck.cards)}
        players.append({"id": seat.id, "name": seat.name, "army": shown})
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": players, "variant": {"mode": started.variant.mode},
                             "seed": started.seed, "first": started.first}
    if started.position is not None:
        setup["position"] = msgspec.to_builtins(started.position)
    if isinstance(started.catalogue, dict):  # issue 30: the game's own catalogue, as recorded
        setup["catalogue"] = started.catalogue
    return setup


__all__ = ["action_of", "by_type", "opening_length", "recorded_actions", "recorded_setup"]
