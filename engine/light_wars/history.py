"""A recorded Light Wars stream read back: its setup (``recorded_setup``) and the actions that produced it
(``recorded_actions``), for ``warlog verify``, record and JSONL import; re-deciding them is the framework's
(``engine.play.redecide_by_evolve``: this system has nothing of its own to add).

Each action starts with one event: ``die_rolled`` entered at the table (``roll``), ``unit_deployed``,
``deployment_screened``, ``first_player_chosen``, ``tactics_declared``, ``unit_moved``, ``unit_turned``,
``unit_waited``, ``attack_declared``, ``conceded``; every other event is a consequence that follows the action's
first event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import UnsetType

from engine.errors import StreamError
from engine.light_wars.actions import (
    Attack,
    ChooseFirst,
    Concede,
    Deploy,
    DeployAll,
    LightWarsAction,
    Move,
    Roll,
    Tactics,
    Turn,
    Wait,
)
from engine.light_wars.catalogue import tables_of
from engine.light_wars.setup import SYSTEM_NAME
from engine.play import actions_from
from engine.system import RecordedAction
from events.light_wars import (
    AttackDeclared,
    Conceded,
    DeploymentScreened,
    DieRolled,
    FirstPlayerChosen,
    GameStarted,
    LightWarsEvent,
    TacticsDeclared,
    UnitDeployed,
    UnitMoved,
    UnitTurned,
    UnitWaited,
)

CONSEQUENCES = frozenset({"die_rolled", "roll_off_tied", "roll_off_won", "screen_lifted", "decider_named",
                          "attack_resolved", "turn_passed", "game_ended"})


def action_of(event: LightWarsEvent, index: int) -> LightWarsAction | None:
    """The action an event starts, or None for a consequence. StreamError for an event no action may carry."""
    match event:
        case DieRolled(source="table", player=player, value=value):
            return Roll(player=player, value=value)
        case UnitDeployed(player=player, unit=unit, square=square, facing=facing):
            return Deploy(player=player, unit=unit, square=square, facing=facing)
        case DeploymentScreened(player=player, placements=placements):
            if placements is None:
                raise StreamError(index, f"event {index + 1}: {player}'s screened deployment is hidden in this copy")
            return DeployAll(player=player, placements=placements)
        case FirstPlayerChosen(player=player, first=first):
            return ChooseFirst(player=player, first=first)
        case TacticsDeclared(player=player, tiles=tiles):
            return Tactics(player=player, tiles=tiles)
        case UnitMoved(player=player, origin=origin, square=square, facing=facing):
            return Move(player=player, square=origin, to=square, facing=facing)
        case UnitTurned(player=player, square=square, facing=facing):
            return Turn(player=player, square=square, facing=facing)
        case UnitWaited(player=player, square=square, facing=facing):
            return Wait(player=player, square=square, facing=facing)
        case AttackDeclared(player=player, target=target, participants=participants):
            return Attack(player=player, target=target, attackers=tuple(p.square for p in participants))
        case Conceded(player=player):
            return Concede(player=player)
        case GameStarted():
            raise StreamError(index, f"event {index + 1}: a second game_started")
        case _:
            return None


def opening_length(events: Sequence[LightWarsEvent]) -> int:
    """The events ``start`` gives: game_started and, sealed and alternate, the deployment roll-off."""
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a Light Wars stream starts with game_started")
    i = 1
    while i < len(events) and type(events[i]).tag_name() in CONSEQUENCES and action_of(events[i], i) is None:
        tag = type(events[i]).tag_name()
        i += 1
        if tag == "roll_off_won":
            break
    return i


def recorded_actions(events: Sequence[LightWarsEvent]) -> list[RecordedAction[LightWarsAction]]:
    return actions_from(events, opening_length(events), action_of)


def recorded_setup(events: Sequence[LightWarsEvent]) -> dict[str, Any]:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a Light Wars stream starts with game_started")
    started = events[0]
    document = None if isinstance(started.catalogue, UnsetType) else started.catalogue
    board = None if isinstance(started.map, UnsetType) else started.map
    armies = tables_of(document, board).armies
    players = []
    for seat, army in zip(started.seats, started.armies, strict=True):
        shown: Any = army.name if army.name in armies else {"units": [u.type for u in army.units],
                                                            "tactics": list(army.tactics)}
        players.append({"id": seat.id, "name": seat.name, "army": shown})
    v = started.variant
    variant: dict[str, Any] = {"mode": v.mode, "size": v.size, "deployment": v.deployment}
    if v.size == "custom":
        variant |= {"total_cost": v.total_cost, "max_turns": v.max_turns}
    if board is not None:
        variant["map"] = board
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": players, "variant": variant, "seed": started.seed}
    if document is not None:
        setup["catalogue"] = document
    if started.position is not None:
        p = started.position
        setup["position"] = {
            "units": [{"owner": u.owner, "unit": u.unit, "square": u.square, "facing": u.facing} for u in p.units],
            "to_move": p.to_move, "first": p.first, "turn": p.turn, "stock": dict(p.stock), "scores": dict(p.scores),
        }
    return setup


__all__ = ["action_of", "opening_length", "recorded_actions", "recorded_setup"]
