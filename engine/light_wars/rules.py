"""``decide`` (every rule of the digest, each refusal a ``RuleError`` citing it) and ``legal_actions``.

``decide`` returns every fact an action causes: the dice (sealed mode: drawn here from the generator whose state is
in the game state), the attack's resolution with the units removed, the turn passing, the end of the game. It
works out consequences by evolving the events it has decided so far (``evolve`` is cheap and trusts them).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Literal

from engine.errors import RuleError
from engine.light_wars import geometry
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
from engine.light_wars.setup import roll_off
from engine.light_wars.state import (
    INDEX,
    ON_MAP,
    PLAYERS,
    State,
    Unit,
    awaited,
    data_of,
    evolve,
    fold,
    marker,
    unit_at,
)
from engine.prng import SplitMix64
from events.light_wars import (
    AttackDeclared,
    AttackResolved,
    Conceded,
    DeciderNamed,
    DeploymentScreened,
    DieRolled,
    FirstPlayerChosen,
    GameEnded,
    LightWarsEvent,
    Participant,
    Placement,
    RemovedUnit,
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

PHASE_WORDS = {
    "roll_off": "a roll-off (§2.3, §2.4)",
    "deploy": "the deployment (§2.3)",
    "choose_first": "the choice of the first player (§2.4)",
    "tactics": "the tactics step (§3.1)",
    "actions": "the action phase (§3.2)",
    "roll": "the dice of an attack (§4)",
}


def _name(state: State, u: Unit) -> str:
    return data_of(state).units[u.type].name


def _described(state: State, u: Unit) -> str:
    return f"{PLAYERS[u.owner]}'s {_name(state, u)} {u.id}" + (f" at {u.square}" if u.square else "")


def _wrong_phase(state: State, what: str, rule: str) -> RuleError:
    return RuleError("wrong_phase", rule, f"{what}: now is {PHASE_WORDS.get(state.phase, state.phase)}")


def _check_turn(state: State, player: str, rule: str) -> None:
    waiting = awaited(state)
    if player not in waiting:
        who = " and ".join(waiting) or "nobody"
        raise RuleError("not_your_turn", rule, f"it is {who}'s turn in {PHASE_WORDS.get(state.phase, state.phase)}, "
                        f"not {player}'s")


def _check_facing(facing: object, rule: str) -> None:
    if facing not in geometry.FACINGS:
        raise RuleError("bad_facing", rule, f"a facing is N, E, S or W, not {facing!r}")


def _check_square(state: State, square: object, rule: str = "R1") -> str:
    board = data_of(state).board
    if not isinstance(square, str) or square not in board.squares:
        last = board.name_of(board.width - 1, board.height - 1)
        raise RuleError("bad_square", rule, f"{square!r} is not a square of the map (A1 to {last}, R1)")
    return square


def _then(state: State, events: Sequence[LightWarsEvent]) -> State:
    return fold(events, state)


# -- the end of a phase, of a turn, of the game -------------------------------------------------------------


def _ended(state: State, reason: Literal["king", "castle", "score", "concession"], winner: str | None) -> GameEnded:
    seats = [s.id for s in state.seats]
    return GameEnded(reason=reason, winner=winner, scores={p: state.scores[i] for i, p in enumerate(seats)},
                     stock={p: state.stock[i] for i, p in enumerate(seats)})


def score_winner(state: State) -> str | None:
    """§5.3: the higher score wins; a tie: more bases in stock; a tie again: a draw (None)."""
    (s1, s2), (b1, b2) = state.scores, state.stock
    if s1 != s2:
        return "p1" if s1 > s2 else "p2"
    if b1 != b2:
        return "p1" if b1 > b2 else "p2"
    return None


def _phase_over(state: State) -> bool:
    return not any(u.owner == state.active and u.status in ("ready", "moved") for u in state.units)


def after_action(state: State) -> tuple[LightWarsEvent, ...]:
    """What follows an action once its own events are folded into ``state``: the turn passes when every unit of
    the active player has acted (§3.2, §3.3); after the second player's phase on marker 1 the game ends (§5.3)."""
    if state.phase != "actions" or not _phase_over(state):
        return ()
    second = state.active != state.first
    if second and state.turn >= state.variant.max_turns:
        return (_ended(state, "score", score_winner(state)),)
    turn = state.turn + 1 if second else state.turn
    nxt = 1 - state.active
    return (TurnPassed(player=PLAYERS[nxt], turn=turn, marker=max(state.variant.max_turns - turn + 1, 1)),)


def _decider(state: State) -> tuple[LightWarsEvent, ...]:
    """§2.4 once every unit is deployed: more unused cost decides; a tie: more bases in stock; a tie: a roll-off."""
    seats = [s.id for s in state.seats]
    unused = {a.player: state.variant.total_cost - a.cost for a in state.armies}
    stock = {p: state.stock[i] for i, p in enumerate(seats)}
    (u1, u2), (b1, b2) = (unused["p1"], unused["p2"]), (stock["p1"], stock["p2"])
    if u1 != u2:
        return (DeciderNamed(player="p1" if u1 > u2 else "p2", by="cost", unused=unused, stock=stock),)
    if b1 != b2:
        return (DeciderNamed(player="p1" if b1 > b2 else "p2", by="bases", unused=unused, stock=stock),)
    named = DeciderNamed(player=None, by="dice", unused=unused, stock=stock)
    if state.variant.mode == "table":
        return (named,)
    dice, _ = roll_off(state.rng, "first_player")
    return (named, *dice)


# -- combat -------------------------------------------------------------------------------------------------


def resolve(state: State, declared: AttackDeclared, attack_die: int, defence_die: int) -> tuple[LightWarsEvent, ...]:
    """§4: attacking total against defending total; the lower side is removed, a tie removes the defender unless
    only the defender has first strike (a spearman); shooting archers are never removed (R5). Then the King's
    removal ends the game (§5.1), else the phase may end."""
    units = data_of(state).units
    attack_total = sum(p.attack + p.bonus for p in declared.participants) + declared.tactic_bonus + attack_die
    defence_total = declared.defence + defence_die
    tie: Literal["defender_removed", "first_strike", "both_first_strike"] | None = None
    if attack_total != defence_total:
        winner: Literal["attack", "defence"] = "attack" if attack_total > defence_total else "defence"
    else:
        attacker_spear = any(units[p.type].first_strike for p in declared.participants)
        defender_spear = units[declared.target_type].first_strike
        if defender_spear and not attacker_spear:
            winner, tie = "defence", "first_strike"
        else:
            winner, tie = "attack", "both_first_strike" if defender_spear else "defender_removed"
    removed: tuple[RemovedUnit, ...]
    if winner == "attack":
        removed = (RemovedUnit(player=declared.defender, unit=declared.target_unit, type=declared.target_type,
                               square=declared.target, cost=units[declared.target_type].cost),)
    else:
        removed = tuple(RemovedUnit(player=declared.player, unit=p.unit, type=p.type, square=p.square,
                                    cost=units[p.type].cost) for p in declared.participants if not p.shooting)
    resolved = AttackResolved(attack=declared.attack, attack_total=attack_total, defence_total=defence_total,
                              attack_die=attack_die, defence_die=defence_die, winner=winner, tie=tie, removed=removed)
    after = evolve(state, resolved)
    king = next((r for r in removed if units[r.type].is_king), None)
    if king is not None:  # §5.1
        return (resolved, _ended(after, "king", PLAYERS[1 - INDEX[king.player]]))
    return (resolved, *after_action(after))


def eligible(state: State, attacker: Unit, target: Unit) -> tuple[str, int] | None:
    """How ``attacker`` may strike ``target`` (§4): adjacent and facing it (distance 1), or an archer shooting 2 or
    3 squares straight ahead; -> (the facing from the target towards the attacker, distance), or None."""
    if attacker.square is None or target.square is None or attacker.facing is None:
        return None
    line = data_of(state).board.direction(attacker.square, target.square)
    if line is None or line[0] != attacker.facing:
        return None
    reach = line[1]
    if reach == 1 or reach in (2, 3) and data_of(state).units[attacker.type].shoots:
        return geometry.OPPOSITE[line[0]], reach
    return None


def declare(state: State, player: str, target: Unit, attackers: Sequence[Unit]) -> AttackDeclared:
    data = data_of(state)
    participants = []
    shooting_bonus = sum(data.tactics[t].value for t in state.tiles if data.tactics[t].effect == "shooting")
    assert target.facing is not None and target.square is not None
    for u in attackers:
        how = eligible(state, u, target)
        assert how is not None and u.square is not None
        side = geometry.side_of(target.facing, how[0])
        shooting = how[1] > 1
        participants.append(Participant(
            square=u.square, unit=u.id, type=u.type, attack=data.units[u.type].attack + (shooting_bonus * shooting),
            side=side, bonus=geometry.FACING_BONUS[side], shooting=shooting))  # type: ignore[arg-type]
    bonus = sum(data.tactics[t].value for t in state.tiles if data.tactics[t].effect == "attack_total")
    return AttackDeclared(attack=state.attacks + 1, player=player, target=target.square, target_unit=target.id,
                          target_type=target.type, defender=PLAYERS[target.owner],
                          defence=data.units[target.type].attack, participants=tuple(participants),
                          tactic_bonus=bonus)


# -- movement -----------------------------------------------------------------------------------------------


def move_value(state: State, u: Unit) -> int:
    data = data_of(state)
    return data.units[u.type].move + sum(data.tactics[t].value for t in state.tiles if data.tactics[t].effect == "move")


def reachable(state: State, origin: str, steps: int) -> dict[str, int]:
    """Squares reachable from ``origin`` in up to ``steps`` orthogonal steps, never through or onto a unit (§3.2);
    -> square: steps (``origin``: 0)."""
    occupied = {u.square for u in state.units if u.status in ON_MAP and u.square is not None}
    found = {origin: 0}
    frontier = [origin]
    adjacent = data_of(state).board.adjacent
    for n in range(1, steps + 1):
        nxt = []
        for sq in frontier:
            for nb in adjacent[sq]:
                if nb not in found and nb not in occupied:
                    found[nb] = n
                    nxt.append(nb)
        frontier = nxt
    return found


# -- decide -------------------------------------------------------------------------------------------------


def decide(state: State, action: LightWarsAction) -> tuple[LightWarsEvent, ...]:
    if state.phase == "setup":
        raise RuleError("not_started", "setup", "the game has not started")
    if state.phase == "over":
        raise RuleError("game_over", "§5", f"the game is over ({state.end_reason})")
    if action.player not in PLAYERS[: len(state.seats)]:
        raise RuleError("unknown_player", "contract", f"there is no player {action.player!r} (p1 or p2)")
    match action:
        case Concede(player=player):
            return (Conceded(player=player), _ended(state, "concession", PLAYERS[1 - INDEX[player]]))
        case Roll():
            return _roll(state, action)
        case Deploy():
            return _deploy(state, action)
        case DeployAll():
            return _deploy_all(state, action)
        case ChooseFirst(player=player, first=first):
            if state.phase != "choose_first":
                raise _wrong_phase(state, "the first player is chosen once every unit is deployed", "§2.4")
            _check_turn(state, player, "§2.4")
            if first not in PLAYERS:
                raise RuleError("unknown_player", "§2.4", f"the first player is p1 or p2, not {first!r}")
            return (FirstPlayerChosen(player=player, first=first),)
        case Tactics():
            return _tactics(state, action)
        case Move():
            return _move(state, action)
        case Turn():
            return _turn(state, action)
        case Wait():
            return _wait(state, action)
        case Attack():
            return _attack(state, action)


def _roll(state: State, action: Roll) -> tuple[LightWarsEvent, ...]:
    if state.variant.mode == "sealed":
        raise RuleError("sealed_dice", "§4", "in a sealed game the project's generator rolls every die: no die is "
                        "entered")
    if state.phase not in ("roll_off", "roll"):
        raise _wrong_phase(state, "no die is awaited", "§4")
    value = action.value
    if not 1 <= value <= 6:
        raise RuleError("die_value", "§4", f"a die shows 1 to 6, not {value}")
    _check_turn(state, action.player, "§4")
    if state.phase == "roll_off":
        purpose: Literal["deployment", "first_player"] = "deployment" if state.purpose == "deployment" \
            else "first_player"
        rolled = DieRolled(purpose=purpose, player=action.player, value=value, source="table")
        after = evolve(state, rolled)
        if 0 in after.rolls:
            return (rolled,)
        a, b = after.rolls
        if a == b:
            return (rolled, RollOffTied(purpose=purpose))
        return (rolled, RollOffWon(purpose=purpose, winner="p1" if a > b else "p2"))
    declared = state.pending
    assert declared is not None
    if not state.dice:
        return (DieRolled(purpose="attack", player=action.player, value=value, source="table",
                          attack=declared.attack),)
    rolled = DieRolled(purpose="defence", player=action.player, value=value, source="table", attack=declared.attack)
    return (rolled, *resolve(evolve(state, rolled), declared, state.dice[0], value))


def _deploy(state: State, action: Deploy) -> tuple[LightWarsEvent, ...]:
    if state.phase != "deploy":
        raise _wrong_phase(state, "units are deployed before the first turn", "§2.3")
    if state.variant.deployment != "alternate":
        raise RuleError("screened_deployment", "§2.3", "this game deploys all at once behind a screen: send "
                        "deploy_all with every unit")
    _check_turn(state, action.player, "§2.3")
    owner = INDEX[action.player]
    unit = next((u for u in state.units if u.owner == owner and u.id == action.unit), None)
    if unit is None:
        raise RuleError("unknown_unit", "§2.2", f"{action.player}'s army has no unit {action.unit!r}")
    if unit.status != "reserve":
        raise RuleError("already_deployed", "§2.3", f"{_described(state, unit)} is already deployed")
    square = _check_square(state, action.square)
    _check_facing(action.facing, "§2.3")
    if square not in data_of(state).board.territory(owner):
        raise RuleError("outside_territory", "§2.3", f"{square} is not in {action.player}'s territory (rows "
                        f"{', '.join(str(r + 1) for r in data_of(state).board.territory_rows(owner))})")
    taken = unit_at(state, square)
    if taken is not None:
        raise RuleError("occupied", "§2.3", f"{square} is taken by {_described(state, taken)}")
    deployed = UnitDeployed(player=action.player, unit=unit.id, square=square, facing=action.facing)
    after = evolve(state, deployed)
    if any(u.status == "reserve" for u in after.units):
        return (deployed,)
    return (deployed, *_decider(after))


def _deploy_all(state: State, action: DeployAll) -> tuple[LightWarsEvent, ...]:
    if state.phase != "deploy":
        raise _wrong_phase(state, "units are deployed before the first turn", "§2.3")
    if state.variant.deployment != "screen":
        raise RuleError("alternate_deployment", "§2.3", "this game deploys alternately, one unit at a time: send "
                        "deploy")
    _check_turn(state, action.player, "§2.3")
    owner = INDEX[action.player]
    mine = [u for u in state.units if u.owner == owner]
    ids = [p.unit for p in action.placements]
    if sorted(ids) != sorted(u.id for u in mine):
        raise RuleError("whole_army", "§2.3", f"behind the screen {action.player} deploys every unit once: "
                        f"{', '.join(u.id for u in mine)}")
    home = data_of(state).board.territory(owner)
    squares: set[str] = set()
    for p in action.placements:
        square = _check_square(state, p.square)
        _check_facing(p.facing, "§2.3")
        if square not in home:
            raise RuleError("outside_territory", "§2.3", f"{square} is not in {action.player}'s territory")
        if square in squares:
            raise RuleError("occupied", "§2.3", f"two units on {square}")
        squares.add(square)
    screened = DeploymentScreened(player=action.player, placements=action.placements)
    after = evolve(state, screened)
    if any(u.status == "reserve" for u in after.units):
        return (screened,)
    revealed = {
        p: tuple(Placement(unit=u.id, square=u.square or "", facing=u.facing or "")
                 for u in after.units if u.owner == i)
        for i, p in enumerate(PLAYERS[: len(state.seats)])
    }
    lifted = ScreenLifted(placements=revealed)
    return (screened, lifted, *_decider(evolve(after, lifted)))


def _tactics(state: State, action: Tactics) -> tuple[LightWarsEvent, ...]:
    if state.phase != "tactics":
        raise _wrong_phase(state, "tactic tiles are declared at the start of one's turn", "§3.1")
    _check_turn(state, action.player, "§3.1")
    owner = INDEX[action.player]
    own = state.armies[owner].tactics
    for tile in action.tiles:
        if tile not in own:
            raise RuleError("unknown_tile", "§3.1", f"{action.player}'s army has no tactic tile {tile!r}"
                            + (f" ({', '.join(own)})" if own else " (it has none)"))
    if len(set(action.tiles)) != len(action.tiles):
        raise RuleError("tile_twice", "§3.1", "a tactic tile is used once a turn")
    paid = sum(data_of(state).tactics[t].cost for t in action.tiles)
    if paid > state.stock[owner]:
        raise RuleError("not_enough_bases", "§3.1", f"the tiles cost {paid} bases; {action.player} has "
                        f"{state.stock[owner]} in stock")
    return (TacticsDeclared(player=action.player, turn=state.turn, tiles=action.tiles, paid=paid),)


def _own_unit(state: State, player: str, square: object, rule: str) -> Unit:
    sq = _check_square(state, square, rule)
    unit = unit_at(state, sq)
    if unit is None:
        raise RuleError("no_unit", rule, f"there is no unit on {sq}")
    if PLAYERS[unit.owner] != player:
        raise RuleError("not_your_unit", rule, f"{_described(state, unit)} is not {player}'s")
    if unit.status == "done":
        raise RuleError("already_acted", "§3.2", f"{_described(state, unit)} has already acted this turn "
                        "(each unit acts once)")
    return unit


def _actions_turn(state: State, player: str, what: str) -> None:
    if state.phase != "actions":
        raise _wrong_phase(state, what, "§3.2")
    _check_turn(state, player, "§3.2")


def _move(state: State, action: Move) -> tuple[LightWarsEvent, ...]:
    _actions_turn(state, action.player, "units move in the action phase")
    unit = _own_unit(state, action.player, action.square, "§3.2")
    if action.to == unit.square:
        raise RuleError("not_a_move", "R6", f"{_described(state, unit)} stays on {unit.square}: a turn is no "
                        "move; send turn (square, facing) to turn it, before or after its move")
    if unit.status == "moved":
        raise RuleError("already_moved", "R4", f"{_described(state, unit)} has moved this turn; it may still attack or "
                        "wait, not move again")
    to = _check_square(state, action.to, "§3.2")
    _check_facing(action.facing, "§3.2")
    assert unit.square is not None
    allowed = move_value(state, unit)
    if to != unit.square:
        other = unit_at(state, to)
        if other is not None:
            raise RuleError("occupied", "§3.2", f"{to} is taken by {_described(state, other)}: a unit never stops on "
                            "another")
        steps = reachable(state, unit.square, allowed).get(to)
        if steps is None:
            if data_of(state).board.distance(unit.square, to) > allowed:
                raise RuleError("too_far", "§3.2", f"{_described(state, unit)} moves up to {allowed} squares; {to} is "
                                f"{data_of(state).board.distance(unit.square, to)} steps away")
            raise RuleError("blocked", "§3.2", f"{_described(state, unit)} cannot reach {to} in {allowed} steps "
                            "without passing through another unit")
    else:
        steps = 0
    moved = UnitMoved(player=action.player, unit=unit.id, origin=unit.square, square=to, facing=action.facing,
                      steps=steps)
    after = evolve(state, moved)
    if to == data_of(state).board.castle(1 - unit.owner):  # §5.2
        return (moved, _ended(after, "castle", action.player))
    return (moved, *after_action(after))


def _turn(state: State, action: Turn) -> tuple[LightWarsEvent, ...]:
    """R6: a ready or moved unit turns; it stays ready or moved (a turn is no move and ends nothing)."""
    _actions_turn(state, action.player, "units turn in the action phase")
    unit = _own_unit(state, action.player, action.square, "R6")
    _check_facing(action.facing, "R6")
    assert unit.square is not None
    if action.facing == unit.facing:
        raise RuleError("same_facing", "R6", f"{_described(state, unit)} already faces {unit.facing}")
    return (UnitTurned(player=action.player, unit=unit.id, square=unit.square, facing=action.facing),)


def _wait(state: State, action: Wait) -> tuple[LightWarsEvent, ...]:
    _actions_turn(state, action.player, "units wait in the action phase")
    unit = _own_unit(state, action.player, action.square, "§3.2")
    if action.facing is not None:
        _check_facing(action.facing, "R3")
    assert unit.square is not None
    waited = UnitWaited(player=action.player, unit=unit.id, square=unit.square, facing=action.facing)
    return (waited, *after_action(evolve(state, waited)))


def _attack(state: State, action: Attack) -> tuple[LightWarsEvent, ...]:
    _actions_turn(state, action.player, "units attack in the action phase")
    target_square = _check_square(state, action.target, "§4")
    target = unit_at(state, target_square)
    if target is None:
        raise RuleError("no_target", "§4", f"there is no unit on {target_square} to attack")
    if PLAYERS[target.owner] == action.player:
        raise RuleError("own_unit", "§4", f"{_described(state, target)} is {action.player}'s own")
    if not action.attackers:
        raise RuleError("no_attackers", "§4", "name the units that attack")
    if len(set(action.attackers)) != len(action.attackers):
        raise RuleError("attacker_twice", "§4", "a unit joins an attack once")
    attackers = []
    for square in action.attackers:
        unit = _own_unit(state, action.player, square, "§4")
        if eligible(state, unit, target) is None:
            assert unit.square is not None
            line = data_of(state).board.direction(unit.square, target_square)
            if line is not None and line[0] == unit.facing and data_of(state).units[unit.type].shoots:
                raise RuleError("out_of_range", "§4", f"{_described(state, unit)} shoots 2 or 3 squares straight "
                                f"ahead; {target_square} is {line[1]} away")
            if line is not None and line[1] == 1:
                raise RuleError("not_facing", "§4", f"{_described(state, unit)} faces {unit.facing}, not the target on "
                                f"{target_square}: a unit attacks what it faces")
            shoots = data_of(state).units[unit.type].shoots
            raise RuleError("not_adjacent", "§4", f"{_described(state, unit)} is not next to {target_square} facing "
                            "it" + (" (nor 2 or 3 squares straight ahead of it)" if shoots else ""))
        attackers.append(unit)
    declared = declare(state, action.player, target, attackers)
    if state.variant.mode == "table":
        return (declared,)
    after = evolve(state, declared)
    gen = SplitMix64(after.rng)  # the generator's state as the game state holds it (evolve steps it per die)
    attack_die, defence_die = gen.below(6) + 1, gen.below(6) + 1
    dice = (DieRolled(purpose="attack", player=action.player, value=attack_die, source="prng",
                      attack=declared.attack),
            DieRolled(purpose="defence", player=declared.defender, value=defence_die, source="prng",
                      attack=declared.attack))
    after = _then(after, dice)
    return (declared, *dice, *resolve(after, declared, attack_die, defence_die))


# -- legal actions ------------------------------------------------------------------------------------------


def screen_layouts(state: State, owner: int) -> list[tuple[Placement, ...]]:
    """Four whole deployments behind the screen (``legal_actions`` cannot list every arrangement): the units in
    army order from the centre of the front row outwards, of the back row outwards, from the left and from the
    right, all facing the enemy."""
    units = [u for u in state.units if u.owner == owner]
    board = data_of(state).board
    rows = board.territory_rows(owner)
    front_first = rows[::-1] if owner == 0 else rows  # the territory's rows from the front (nearest the enemy) back
    front, back = front_first[0], front_first[-1]
    cols = list(range(board.width))
    centre = sorted(cols, key=lambda c: (abs(c - len(cols) // 2), c))
    facing = geometry.home_facing(owner)
    layouts = []
    for first_row, order in ((front, centre), (back, centre), (front, cols), (front, cols[::-1])):
        squares = [board.name_of(c, row) for row in (first_row, *(r for r in front_first if r != first_row))
                   for c in order]
        layouts.append(tuple(Placement(unit=u.id, square=sq, facing=facing) for u, sq in zip(units, squares,
                                                                                              strict=False)))
    return layouts


def attack_options(state: State, owner: int) -> Iterator[tuple[Unit, list[Unit]]]:
    """Each enemy unit some unit of ``owner`` may attack now, with every unit that may join (§4, R4)."""
    ready = [u for u in state.units if u.owner == owner and u.status in ("ready", "moved")]
    for target in state.units:
        if target.owner == owner or target.status not in ON_MAP:
            continue
        able = [u for u in ready if eligible(state, u, target) is not None]
        if able:
            yield target, sorted(able, key=lambda u: data_of(state).board.order[u.square or "A1"])


def legal_actions(state: State, seat: str | None = None) -> list[LightWarsAction]:
    """Every legal action of ``seat`` except the concession (legal any time); behind the screen, four whole
    deployments (``screen_layouts``) stand for the many arrangements allowed."""
    waiting = awaited(state)
    if not waiting:
        return []
    player = waiting[0] if seat is None else seat
    if player not in waiting:
        return []
    owner = INDEX[player]
    phase = state.phase
    out: list[LightWarsAction] = []
    if phase in ("roll_off", "roll"):
        return [Roll(player=player, value=v) for v in range(1, 7)] if state.variant.mode == "table" else []
    if phase == "choose_first":
        return [ChooseFirst(player=player, first=p) for p in PLAYERS[: len(state.seats)]]
    if phase == "deploy":
        if state.variant.deployment == "screen":
            return [DeployAll(player=player, placements=layout) for layout in screen_layouts(state, owner)]
        free = [sq for sq in data_of(state).board.territory(owner) if unit_at(state, sq) is None]
        for u in state.units:
            if u.owner == owner and u.status == "reserve":
                out.extend(Deploy(player=player, unit=u.id, square=sq, facing=f) for sq in free
                           for f in geometry.FACINGS)
        return out
    if phase == "tactics":
        tiles = state.armies[owner].tactics
        for n in range(len(tiles) + 1):
            for chosen in itertools.combinations(tiles, n):
                if sum(data_of(state).tactics[t].cost for t in chosen) <= state.stock[owner]:
                    out.append(Tactics(player=player, tiles=chosen))
        return out
    if phase == "actions":
        for u in state.units:
            if u.owner != owner or u.square is None:
                continue
            if u.status == "ready":
                for to in reachable(state, u.square, move_value(state, u)):
                    if to != u.square:
                        out.extend(Move(player=player, square=u.square, to=to, facing=f) for f in geometry.FACINGS)
            if u.status in ("ready", "moved"):
                out.extend(Turn(player=player, square=u.square, facing=f) for f in geometry.FACINGS if f != u.facing)
                out.append(Wait(player=player, square=u.square))
                out.extend(Wait(player=player, square=u.square, facing=f) for f in geometry.FACINGS)
        for target, able in attack_options(state, owner):
            assert target.square is not None
            for n in range(1, len(able) + 1):
                for group in itertools.combinations(able, n):
                    out.append(Attack(player=player, target=target.square,
                                      attackers=tuple(u.square or "" for u in group)))
        return out
    return out


__all__ = ["after_action", "decide", "declare", "eligible", "legal_actions", "marker", "reachable", "resolve",
           "score_winner", "screen_layouts"]
