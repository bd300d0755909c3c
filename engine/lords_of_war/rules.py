"""The rules: ``decide(state, action) -> events`` and the legal-action enumeration.

``decide`` is the only place that checks rules (HOUSE_STYLE). It returns every fact an action causes: the
placement, the revealed hand of a forced placement, the shots, the eliminations with each destroyed unit's
attackers, berserker moves and later elimination rounds, the extra turn, a skipped reinforcement, the end of the
game. Sections (§) and rulings (R#) refer to the project's digest of the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal, assert_never

from engine.adjudication import Adjudicate
from engine.errors import RuleError
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.actions import Concede, Draw, LordsOfWarAction, Place, Recall, Shoot
from engine.lords_of_war.adjudication import adjudicated
from engine.lords_of_war.catalogue import COMMANDER_RANKS, Card, CardTable
from engine.lords_of_war.geometry import DIRECTIONS, MAT_SQUARES, NEIGHBOUR_DELTAS
from engine.lords_of_war.seating import SEAT_NAMES
from engine.lords_of_war.state import PLAYER_INDEX, PLAYERS, State, cards_of, seat_of
from events.lords_of_war import (
    Attacker,
    BerserkerMoved,
    CardDrawn,
    Conceded,
    DestroyedUnit,
    Eliminated,
    ExtraTurnGranted,
    GameEnded,
    HandRevealed,
    Placed,
    Recalled,
    ReinforceSkipped,
)
from events.lords_of_war import Shot as ShotEvent

Board = dict[int, tuple[str, int]]
# a shot as the elimination sees it: (shooter square, shooter card, shooter owner, value)
ShotSource = tuple[int, str, int, int]

NO_REINFORCEMENT = "deck_empty_nothing_to_recall"
GENERAL_DEPLOYED = "general_deployed"  # §10 three players: a team player who deploys the general does not reinforce


# -- the board's questions ---------------------------------------------------------------------------------


def melee_damage(board: Board, k: int, cards: CardTable) -> int:
    """Sum of the arrows of adjacent enemy units pointing at the unit on ``k`` (§5.2); ``cards``: the game's."""
    table = cards.cards
    owner = board[k][1]
    total = 0
    for d in NEIGHBOUR_DELTAS:
        unit = board.get(k + d)
        if unit is not None and unit[1] != owner:
            total += table[unit[0]].points[unit[1]].get(-d, 0)
    return total


def is_engaged(board: Board, k: int, cards: CardTable) -> bool:
    """§1: an adjacent enemy unit points at the unit on ``k``."""
    table = cards.cards
    owner = board[k][1]
    for d in NEIGHBOUR_DELTAS:
        unit = board.get(k + d)
        if unit is not None and unit[1] != owner and -d in table[unit[0]].points[unit[1]]:
            return True
    return False


def is_engaged_by_spearman(board: Board, k: int, cards: CardTable) -> bool:
    owner = board[k][1]
    for d in NEIGHBOUR_DELTAS:
        unit = board.get(k + d)
        if unit is not None and unit[1] != owner:
            card = cards.cards[unit[0]]
            if card.cls == "spearman" and -d in card.points[unit[1]]:
                return True
    return False


def _has_neighbour(board: Board, k: int, owner: int, enemy: bool) -> bool:
    for d in NEIGHBOUR_DELTAS:
        unit = board.get(k + d)
        if unit is not None and (unit[1] != owner) == enemy:
            return True
    return False


def _points_at_enemy(board: Board, k: int, card: Card, owner: int) -> bool:
    for d, _, _ in card.arrows[owner]:
        unit = board.get(k + d)
        if unit is not None and unit[1] != owner:
            return True
    return False


def _has_enemy(board: Board, owner: int) -> bool:
    for _, o in board.values():
        if o != owner:
            return True
    return False


def placement_basis(board: Board, k: int, card: Card, owner: int, enemy_on_mat: bool) -> str | None:
    """Which rule allows ``card`` on empty square ``k`` without forcing (§5.1), or None."""
    if enemy_on_mat:
        if _points_at_enemy(board, k, card, owner):
            return "contact"
        if card.is_support and _has_neighbour(board, k, owner, enemy=False):
            return "support"  # §5.1 (a)
        return None
    if not board:
        return "empty_mat"  # §5.1 (b)
    if _has_neighbour(board, k, owner, enemy=False):
        return "no_enemy"  # §5.1 (b)
    return None


def _empty_neighbours(board: Board, owner: int, enemy: bool, unbounded: bool) -> set[int]:
    """Empty squares adjacent to a unit of the enemy (enemy=True) or of ``owner``."""
    out: set[int] = set()
    for k, (_, o) in board.items():
        if (o != owner) == enemy:
            for d in NEIGHBOUR_DELTAS:
                n = k + d
                if n not in board and (unbounded or n in MAT_SQUARES):
                    out.add(n)
    return out


def _candidate_squares(board: Board, owner: int, unbounded: bool) -> set[int]:
    """Every empty square a normal placement could use (§5.1): next to any unit, or anywhere on an empty mat."""
    if not board:
        return set(MAT_SQUARES)  # unbounded: "anywhere" is enumerated over the mat's window
    return _empty_neighbours(board, owner, True, unbounded) | _empty_neighbours(board, owner, False, unbounded)


def has_normal_placement(board: Board, hand: Iterable[str], owner: int, unbounded: bool, cards: CardTable) -> bool:
    enemy_on_mat = _has_enemy(board, owner)
    squares = _candidate_squares(board, owner, unbounded)
    for card_id in set(hand):
        card = cards.cards[card_id]
        for k in squares:
            if placement_basis(board, k, card, owner, enemy_on_mat) is not None:
                return True
    return False


def forced_squares(board: Board, owner: int, unbounded: bool) -> tuple[str, set[int]]:
    """§5.1 (c) and R4: the squares a forced placement may use, and the basis recorded for it."""
    near_enemy = _empty_neighbours(board, owner, True, unbounded)
    if near_enemy:
        return "forced", near_enemy
    near_friend = _empty_neighbours(board, owner, False, unbounded)
    if near_friend:
        return "forced_friendly", near_friend  # R4
    return "forced_anywhere", {k for k in MAT_SQUARES if k not in board}  # R4 (unbounded: the mat's window)


# -- elimination (§5.2, R6) --------------------------------------------------------------------------------


def destroyed_units(
    board: Board, shots: dict[int, list[ShotSource]], candidates: Iterable[int] | None, cards: CardTable
) -> list[tuple[int, int, tuple[tuple[int, str, int, str, str | None, int], ...]]]:
    """The units destroyed now: (square, damage, attackers), board order.

    ``candidates=None`` is the full check of every unit; otherwise only those squares are checked (R6: the placed
    unit and the enemies it points at, the shot targets, the squares around a moved berserker). Each attacker is
    (square, card, owner, kind, direction, value).
    """
    keys = board.keys() if candidates is None else candidates
    get = board.get
    arrow_at = cards.arrow_at
    defence = cards.defence
    out: list[tuple[int, int, tuple[tuple[int, str, int, str, str | None, int], ...]]] = []
    for k in keys:
        unit = get(k)
        if unit is None:
            continue
        owner = unit[1]
        damage = 0
        # gathered in the same pass: a destroyed unit's attackers are not looked for again
        attackers: list[tuple[int, str, int, str, str | None, int]] = []
        for d, back in _NEIGHBOURS_BACK:
            n = k + d
            other = get(n)
            if other is not None and other[1] != owner:
                arrow = arrow_at[other[0]][other[1]].get(back)  # a card has at most one arrow per direction
                if arrow is not None:
                    damage += arrow[0]
                    attackers.append((n, other[0], other[1], "arrow", arrow[1], arrow[0]))
        incoming = shots.get(k) if shots else None
        if incoming:
            for shot in incoming:
                damage += shot[3]
        if damage > defence[unit[0]]:
            for square, card, shooter_owner, value in incoming or ():
                attackers.append((square, card, shooter_owner, "shot", None, value))
            out.append((k, damage, tuple(attackers)))
    if len(out) > 1:
        out.sort(key=lambda item: geo.board_order(item[0]))
    return out


# The elimination check's tables (issue 7: it ran for every candidate square of every placement, ~30% of decide):
# each neighbour delta with its opposite; per card and owner the board delta of each arrow -> (value, direction),
# and each card's defence, are the game's ``CardTable`` (``arrow_at``, ``defence``), not a Card's attributes.
_NEIGHBOURS_BACK: tuple[tuple[int, int], ...] = tuple((d, -d) for d in NEIGHBOUR_DELTAS)


def _direction_index(dx: int, dy: int, owner: int) -> int:
    if owner == 1:
        dx, dy = -dx, -dy
    step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    for i, name in enumerate(DIRECTIONS):
        if geo.DIRECTION_STEPS[name] == step:
            return i
    return len(DIRECTIONS)


# -- decide ------------------------------------------------------------------------------------------------


def _name(k: int, state: State) -> str:
    return (geo.UNBOUNDED_NAMES if state.unbounded else geo.MAT_NAMES)[k]


def _seat(state: State, player: str) -> int:
    p = PLAYER_INDEX.get(player) if type(player) is str else None
    if p is None or p >= state.layout.seats:
        seats = SEAT_NAMES[: state.layout.seats]
        raise RuleError("unknown_player", "contract",
                        f"unknown player {player!r}: {', '.join(seats[:-1])} or {seats[-1]}")
    return p


def _check_turn(state: State, player: str, phase: str) -> int:
    """The seat of ``player`` when it is to act in ``phase``; else the RuleError saying why not."""
    if state.phase == "setup":
        raise RuleError("not_started", "§3", "the game has not started")
    if state.phase == "over":
        raise RuleError("game_over", "§7", f"the game is over ({state.end_reason})")
    p = _seat(state, player)
    if p != state.active:
        rule = "§10" if state.layout.seats > 2 else "§5"
        raise RuleError("not_your_turn", rule, f"it is {SEAT_NAMES[state.active]}'s turn, not {player}'s")
    if state.phase != phase:
        if state.phase == "deploy":
            raise RuleError("wrong_phase", "§5", f"{player} must first deploy a card (deploy phase, §5.1)")
        what = "draw (the challenge, §4)" if state.challenge else "draw or recall (reinforce phase, §5.3)"
        raise RuleError("wrong_phase", "§5", f"{player} has already deployed this turn and must now {what}")
    return p


def _square(state: State, text: str, what: str = "square") -> int:
    # a name seen before (recorded events, earlier actions) is one dict lookup; anything else is parsed
    k = (geo.UNBOUNDED_KEYS if state.unbounded else geo.MAT_KEYS).get(text) if type(text) is str else None
    if k is None:
        k = geo.parse(text, state.unbounded)
    if k is None:
        form = "x,y (e.g. 2,2)" if state.unbounded else "a column A–G and a row 1–6 (e.g. C3)"
        raise RuleError("malformed", "§1", f"{text!r} is not a {what}: write {form}")
    if not state.unbounded and k not in MAT_SQUARES:
        raise RuleError("off_mat", "§1", f"{text} is off the battle mat (columns A–G, rows 1–6)")
    return k


def _army_count(state: State, seat: int, card: str) -> int:
    """Copies of ``card`` in the army ``seat`` plays (§10 three players: the team players' records hold the one
    army they share)."""
    return state.armies[seat].cards.count(card)


def _copies_out(state: State, seat: int, card: str) -> int:
    """Table mode (§11): copies of ``card`` of the army ``seat`` plays known to have left its unknown pool (its deck
    and its players' unknown hand cards): on the mat, destroyed, recalled or known in a hand, whichever seat holds
    them now (``State.spent``)."""
    return state.spent[state.layout.stock[seat]].count(card)


def middle_for(state: State, seat: int) -> tuple[str, ...]:
    """§10 three players, R15: the team's general lying between the team players, if ``seat`` is one of them."""
    if state.middle and state.layout.side[seat] == 1:
        return state.middle
    return ()


def deployable(state: State, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` may deploy from (sealed mode): its hand, and the team's general between the team
    players (§10 three players, R15)."""
    middle = middle_for(state, seat)
    return tuple(state.hands[seat]) + middle if middle else tuple(state.hands[seat])


def _check_card_available(state: State, p: int, card: str) -> None:
    player = SEAT_NAMES[p]
    table = cards_of(state).cards
    if card not in table:
        raise RuleError("not_in_army", "§11", f"{card!r} is not a Lords of War card")
    if not state.table:
        if card not in state.hands[p]:
            if card in middle_for(state, p):
                return  # R15: either team player may deploy the general lying between them
            where = " or between the team players" if state.layout.shared_general and state.layout.side[p] else ""
            raise RuleError("not_in_hand", "§5.1", f"{table[card].name} ({card}) is not in {player}'s hand{where}")
        return
    if card in state.hands[p] or card in middle_for(state, p):
        return  # known in hand (a recalled team-mate's card too, §10), or the team's general between them (R15)
    count = _army_count(state, p, card)
    if count == 0:
        raise RuleError("not_in_army", "§11", f"{table[card].name} ({card}) is not in {player}'s army")
    if state.hand_counts[p] - len(state.hands[p]) <= 0:
        raise RuleError(
            "not_in_hand", "§11",
            f"{player}'s hand is known ({', '.join(state.hands[p])}) and holds no {table[card].name}",
        )
    if _copies_out(state, p, card) + 1 > count:
        raise RuleError(
            "copies_exceeded",
            "§11",
            f"{player}'s army holds {count} {table[card].name} ({card}) and all are already in play, destroyed or "
            "known in hand",
        )


def decide(state: State, action: LordsOfWarAction, *, full_check: bool = False) -> tuple[Any, ...]:
    """Check ``action`` against the rules; return every event it causes, or raise RuleError.

    ``full_check=True`` runs every elimination over the whole mat instead of the changed neighbourhoods (R6);
    the result is the same, and the property tests hold the engine to it.
    """
    match action:
        case Place():
            return _place(state, action, full_check)
        case Draw():
            return _draw(state, action)
        case Recall():
            return _recall(state, action)
        case Concede(player=player):
            if state.phase == "setup":
                raise RuleError("not_started", "§3", "the game has not started")
            if state.phase == "over":
                raise RuleError("game_over", "§7", f"the game is over ({state.end_reason})")
            layout = state.layout
            side = layout.side[_seat(state, player)]  # §10 (R19): a team player concedes for the team
            return (Conceded(player=player), GameEnded(winner=layout.side_name(1 - side), reason="concession"))
        case Adjudicate():
            return (adjudicated(state, action),)
        case _:
            assert_never(action)


def _place(state: State, action: Place, full_check: bool = False) -> tuple[Any, ...]:
    seat = _check_turn(state, action.player, "deploy")
    layout = state.layout
    p = layout.side[seat]  # the board's questions are the side's (§10: team-mates are friends)
    player = action.player
    k = _square(state, action.square)
    board = state.board
    if k in board:
        occupant = board[k]
        raise RuleError("occupied", "§5.1",
                        f"{action.square} is occupied by {cards_of(state).cards[occupant[0]].name} "
                        f"({SEAT_NAMES[seat_of(state, k)]})")
    _check_card_available(state, seat, action.card)
    card = cards_of(state).cards[action.card]
    events: list[Any] = []

    if state.challenge:  # §4, R1, R3; §10: R14 (teams), R17 (three players)
        if k != layout.challenge[seat]:
            must = _name(layout.challenge[seat], state)
            rule = "R14" if layout.is_teams and not layout.shared_general else "R1"
            raise RuleError("challenge_square", rule,
                            f"{player}'s challenge card goes on {must}, not {action.square}")
        if action.shots:
            raise RuleError("no_shots_in_challenge", "R3", "no shots are fired during the challenge")
        placed = Placed(player=player, card=action.card, square=_name(k, state), turn=state.turn, challenge=True,
                        basis="challenge")
        if action.card in middle_for(state, seat) and action.card not in state.hands[seat]:
            # §10 three players: the general deployed from between the team players; no draw follows
            return (placed, ReinforceSkipped(player=player, reason=GENERAL_DEPLOYED))
        return (placed,)

    enemy_on_mat = _has_enemy(board, p)
    basis = placement_basis(board, k, card, p, enemy_on_mat)
    forced = False
    if basis is None:
        basis = _forced_basis(state, seat, k, card, action)
        forced = True
        hand = action.reveal if state.table else state.hands[seat]
        events.append(HandRevealed(player=player, cards=tuple(hand or ())))
    elif action.reveal is not None:
        raise RuleError(
            "not_forced", "§5.1c", f"{card.name} at {action.square} is a normal placement: no hand is revealed"
        )
    events.append(Placed(player=player, card=action.card, square=_name(k, state), turn=state.turn,
                         forced=forced, basis=basis))

    after: Board = dict(board)
    after[k] = (action.card, p)
    owners: dict[int, int] | None = None
    if layout.seats > 2:
        owners = dict(state.owners)
        owners[k] = seat
    shot_map: dict[int, list[ShotSource]] = {}
    if action.shots:  # most placements fire no shot
        shots = _shots(state, p, after, action.shots)
        for shooter, target, value in shots:
            events.append(ShotEvent(player=player, shooter_square=_name(shooter, state), shooter_card=after[shooter][0],
                                    target_square=_name(target, state), target_card=after[target][0], value=value))
        for shooter, target, value in shots:
            shot_map.setdefault(target, []).append((shooter, after[shooter][0], p, value))
    candidates = None
    if not full_check:
        # R6: only a unit whose incoming damage changed can be destroyed (every other unit on the mat survived a
        # full check and takes what it took then): the placed unit, the enemy units it points at, the shot
        # targets. (The placed unit's whole neighbourhood gives the same units; its friends and the enemies it
        # does not point at take no new damage, and checking them was a third of a placement's cost.)
        candidates = {k}
        for d, _, _ in card.arrows[p]:
            other = after.get(k + d)
            if other is not None and other[1] != p:
                candidates.add(k + d)
        if shot_map:
            candidates.update(shot_map)
    from_middle = action.card in middle_for(state, seat) and action.card not in state.hands[seat]
    events.extend(_resolve(state, seat, after, owners, shot_map, candidates, k, from_middle))
    return tuple(events)


def _forced_basis(state: State, seat: int, k: int, card: Card, action: Place) -> str:
    """§5.1 (c) with R4: allowed only when no card in hand has a normal placement."""
    board = state.board
    p = state.layout.side[seat]
    player = SEAT_NAMES[seat]
    sq = action.square
    if state.table:
        if action.reveal is None:
            raise RuleError("contact", "contact", _contact_message(board, k, card, p, sq)
                            + "; a forced placement needs the whole hand revealed (reveal)")
        _check_reveal(state, seat, action)
        hand: Iterable[str] = tuple(action.reveal) + middle_for(state, seat)
    else:
        if action.reveal is not None and Counter(action.reveal) != Counter(state.hands[seat]):
            raise RuleError("reveal_mismatch", "§5.1c", f"the revealed cards are not {player}'s hand")
        hand = deployable(state, seat)
    if has_normal_placement(board, hand, p, state.unbounded, cards_of(state)):
        raise RuleError("contact", "contact", _contact_message(board, k, card, p, sq))
    basis, squares = forced_squares(board, p, state.unbounded)
    if k not in squares:
        where = {"forced": "adjacent to an enemy unit", "forced_friendly": "adjacent to a friendly unit (R4)"}
        raise RuleError("forced_placement", "R4" if basis != "forced" else "§5.1c",
                        f"forced placement: {card.name} must go {where.get(basis, 'on the mat')}, not {sq}")
    return basis


def _contact_message(board: Board, k: int, card: Card, p: int, sq: str) -> str:
    if not _has_neighbour(board, k, p, enemy=True):
        return f"{card.name} at {sq} is not adjacent to any enemy unit (contact rule, §5.1)"
    return f"{card.name} at {sq} does not point at any adjacent enemy unit (contact rule, §5.1)"


def _check_reveal(state: State, p: int, action: Place) -> None:
    """§11: a forced placement's revealed hand (seat p's) fits what is known of it and of its army."""
    reveal = action.reveal or ()
    player = SEAT_NAMES[p]
    if len(reveal) != state.hand_counts[p]:
        raise RuleError("reveal_mismatch", "§5.1c",
                        f"{player} holds {state.hand_counts[p]} cards; the reveal shows {len(reveal)}")
    if action.card not in reveal:
        raise RuleError("reveal_mismatch", "§5.1c", f"the revealed hand does not contain the placed {action.card}")
    shown = Counter(reveal)
    if Counter(state.hands[p]) - shown:
        raise RuleError("reveal_mismatch", "§5.1c", f"the revealed hand misses cards known to be in {player}'s hand")
    for card_id, n in shown.items():
        new = n - state.hands[p].count(card_id)  # copies not known before: from the unknown hand, so the seat's army
        if new <= 0:
            continue
        if card_id not in cards_of(state).cards or _army_count(state, p, card_id) == 0:
            raise RuleError("not_in_army", "§11", f"revealed {card_id!r} is not in {player}'s army")
        if _copies_out(state, p, card_id) + new > _army_count(state, p, card_id):
            raise RuleError("copies_exceeded", "§11",
                            f"the reveal shows more {cards_of(state).cards[card_id].name} than {player}'s army "
                            "has left")


def _shots(state: State, p: int, board: Board, orders: tuple[Shoot, ...]) -> list[tuple[int, int, int]]:
    """Validate the turn's shots (§6, R5) on the board after the placement: (shooter, target, value)."""
    done: set[int] = set()
    out = []
    for order in orders:
        s = _square(state, order.shooter, "shooter square")
        t = _square(state, order.target, "target square")
        unit = board.get(s)
        if unit is None or unit[1] != p:  # §10: a team-mate's shooter shoots on this turn too
            whose = "no unit" if state.layout.seats == 2 else "no unit of its own or of a team-mate"
            raise RuleError("not_a_shooter", "§10" if unit is not None and state.layout.seats > 2 else "§6",
                            f"{SEAT_NAMES[state.active]} has {whose} on {order.shooter} to shoot with")
        card = cards_of(state).cards[unit[0]]
        if not card.is_ranged:
            raise RuleError("not_a_shooter", "§6", f"{card.name} at {order.shooter} is not a ranged unit")
        if s in done:
            raise RuleError("already_shot", "§6", f"{card.name} at {order.shooter} has already shot this turn")
        if is_engaged(board, s, cards_of(state)):
            raise RuleError("shooter_engaged", "§6",
                            f"{card.name} at {order.shooter} is engaged (an adjacent enemy points at it) and "
                            "cannot shoot")
        target = board.get(t)
        if target is None:
            raise RuleError("no_target", "§6", f"there is no unit on {order.target} to shoot at")
        if target[1] == p:
            mate = state.layout.seats > 2 and t in state.board and seat_of(state, t) != state.active
            raise RuleError("friendly_target", "§10" if mate else "§6",
                            f"{cards_of(state).cards[target[0]].name} at {order.target} is "
                            + ("a team-mate's unit: team-mates never attack each other" if mate else "your own unit"))
        if t - s not in card.grid_deltas[p]:
            raise RuleError("target_out_of_grid", "§6",
                            f"{order.target} is outside the target grid of {card.name} at {order.shooter}")
        done.add(s)
        out.append((s, t, card.ranged_value))
    return out


def _resolve(state: State, seat: int, board: Board, owners: dict[int, int] | None,
             shots: dict[int, list[ShotSource]], candidates: set[int] | None, placed: int | None,
             from_middle: bool = False) -> list[Any]:
    """Elimination (§5.2), berserker rounds (R12, R13), extra turn (§5.4, R9), victory (§7, R10), then R7/R8.

    ``board`` is the mat after the placement and is changed in place, as is ``owners`` (square -> seat, more than
    two seats). Sides do the fighting (§10); ``seat`` is the active seat, ``from_middle`` says the team's general
    was deployed from between the team players (§10 three players: no reinforcement that turn).
    """
    layout = state.layout
    p = layout.side[seat]
    def whose(k: int, side: int) -> str:
        return SEAT_NAMES[owners[k]] if owners is not None else PLAYERS[side]

    events: list[Any] = []
    involved: set[int] | frozenset[int] = state.involved
    extra_turn = False
    cards = cards_of(state)
    destroyed = destroyed_units(board, shots, candidates, cards)
    if destroyed:  # most placements destroy nothing: set the elimination's bookkeeping up only when one does
        names = geo.UNBOUNDED_NAMES if state.unbounded else geo.MAT_NAMES
        variant = state.variant
        kills = list(state.kills)
        commanders = list(state.commanders)
        involved = set(involved)
        round_no = 1
    while destroyed:
        assert isinstance(involved, set)  # made a set above, when the first round destroyed anything
        units = []
        kills_to: dict[str, int] = {}
        generals_lost = [False, False]
        damage_by: dict[int, list[tuple[int, int, int]]] = {}  # attacker square -> (target square, damage, order key)
        for k, damage, attackers in destroyed:
            card_id, owner = board[k]
            card = cards.cards[card_id]
            destroyer = 1 - owner
            kills[destroyer] += 1
            if card.rank in COMMANDER_RANKS:
                commanders[destroyer] += 1
            if card.rank == "general":
                generals_lost[owner] = True
            destroyer_name = layout.side_name(destroyer)  # §10: a team's kill pile
            kills_to[destroyer_name] = kills_to.get(destroyer_name, 0) + 1
            units.append(DestroyedUnit(
                square=names[k], card=card_id, owner=whose(k, owner), damage=damage, defence=card.defence,
                attackers=tuple([Attacker(square=names[a[0]], card=a[1], owner=whose(a[0], a[2]), kind=a[3],  # type: ignore[arg-type]
                                          direction=a[4], value=a[5]) for a in attackers])))
            for a in attackers:
                involved.add(a[0])
                damage_by.setdefault(a[0], []).append((k, a[5], 0))
        if len(kills_to) > 1:  # one destroying player (the usual round) is already in order
            kills_to = dict(sorted(kills_to.items()))
        events.append(Eliminated(round=round_no, units=tuple(units), kills_to=kills_to))
        removed = {k for k, _, _ in destroyed}
        for k in removed:
            del board[k]
            if owners is not None:
                del owners[k]
        involved -= removed
        if placed in removed:
            placed = None
        if generals_lost[1 - p] and not generals_lost[p]:
            extra_turn = True  # §5.4; R9: only the active player earns it; R20 (§10): an enemy general, none of its own
        winner = _winner(kills, commanders, variant.kill_target, variant.command_target, p)
        if winner is not None:
            events.append(GameEnded(winner=layout.side_name(winner),
                                    reason=winner_reason(kills, winner, variant.kill_target)))
            return events
        shots = {}  # R13: no new shots in later rounds
        if not variant.intermediate:
            break
        moves = _berserker_moves(state, p, board, damage_by, removed)
        if not moves:
            break
        moved: set[int] = set()
        for origin, target in moves:
            card_id, owner = board.pop(origin)
            board[target] = (card_id, owner)
            mover = whose(origin, owner)
            if owners is not None:
                owners[target] = owners.pop(origin)
            events.append(BerserkerMoved(player=mover, card=card_id, origin=_name(origin, state),
                                         target=_name(target, state)))
            if origin in involved:
                involved.discard(origin)
                involved.add(target)
            if placed == origin:
                placed = target
            moved.add(target)
            moved.update(target + d for d in NEIGHBOUR_DELTAS)
        if candidates is not None:
            candidates = moved  # R6: only the moved berserkers' neighbourhoods changed
        round_no += 1
        destroyed = destroyed_units(board, shots, candidates, cards)
    if extra_turn:
        events.append(ExtraTurnGranted(player=SEAT_NAMES[seat]))
    skip = None
    if from_middle:
        skip = GENERAL_DEPLOYED  # §10 three players: who deploys the general neither draws nor recalls
    elif not _can_reinforce(state, seat, board, owners, placed, involved):  # R7
        skip = NO_REINFORCEMENT
    if skip is not None:
        events.append(ReinforceSkipped(player=SEAT_NAMES[seat], reason=skip))
        next_seat = seat if extra_turn else layout.order[layout.next_slot(state.slot)]
        hand_count = state.hand_counts[next_seat] - (1 if next_seat == seat and not from_middle else 0)
        middle = () if from_middle else middle_for(state, next_seat)
        events.extend(_next_turn_check(state, next_seat, hand_count, board, middle))
    return events


def _winner(kills: list[int], commanders: list[int], kill_target: int, command_target: int, active: int) -> int | None:
    if kills[active] >= kill_target or commanders[active] >= command_target:
        return active  # R10: the active player wins when both reach a condition
    other = 1 - active
    if kills[other] >= kill_target or commanders[other] >= command_target:
        return other
    return None


def winner_reason(kills: list[int], winner: int, kill_target: int) -> Literal["kills", "commanders"]:
    return "kills" if kills[winner] >= kill_target else "commanders"


def _berserker_moves(state: State, p: int, board: Board, damage_by: dict[int, list[tuple[int, int, int]]],
                     removed: set[int]) -> list[tuple[int, int]]:
    """R12/R13: the berserkers that move after this elimination round, in order, and where to."""
    cards = cards_of(state)
    movers = [k for k in damage_by if k in board and cards.cards[board[k][0]].cls == "berserker"]
    if not movers:
        return []
    movers.sort(key=lambda k: (board[k][1] != p, geo.board_order(k)))  # active player's first, board order
    moves: list[tuple[int, int]] = []
    taken: set[int] = set()
    # moves happen one at a time: engagement is judged on the board as the previous moves left it
    work = dict(board)
    for k in movers:
        owner = work[k][1]
        if is_engaged(work, k, cards):
            continue
        totals: dict[int, int] = {}
        for target, value, _ in damage_by[k]:
            totals[target] = totals.get(target, 0) + value
        target = _berserker_target(k, owner, totals)
        if target in work or target in taken:
            continue  # R13: its square is taken, it stays
        work[target] = work.pop(k)
        taken.add(target)
        moves.append((k, target))
    return moves


def _berserker_target(k: int, owner: int, totals: dict[int, int]) -> int:
    """R12: the square the berserker on k moves to, among the destroyed units it damaged (``totals``: the damage it
    dealt each): the most damaged, then the nearest, then the first in its owner's direction order N…NW."""
    kx, ky = geo.coords(k)

    def preference(t: int) -> tuple[int, int, int]:
        tx, ty = geo.coords(t)
        return (-totals[t], geo.chebyshev(k, t), _direction_index(tx - kx, ty - ky, owner))

    return min(totals, key=preference)


def _is_recallable(
    state: State, board: Board, k: int, p: int, placed: int | None, involved: set[int] | frozenset[int]
) -> str | None:
    """None when the unit on k may be recalled (§5.3, §8 cavalry, R11); else the error code."""
    if k == placed:
        return "recall_just_placed"
    if k in involved:
        return "recall_involved"
    cards = cards_of(state)
    if is_engaged(board, k, cards):
        if (state.variant.intermediate and cards.cards[board[k][0]].cls == "cavalry"
                and not is_engaged_by_spearman(board, k, cards)):
            return None
        return "recall_engaged"
    return None


def _faction(state: State, seat: int) -> str | None:
    """The one faction of a seat's army, None for a mercenary army (§9)."""
    factions = {cards_of(state).cards[c].faction for c in state.armies[seat].cards}
    return next(iter(factions)) if len(factions) == 1 else None


def recall_refusal(state: State, seat: int, unit_seat: int, card_id: str) -> tuple[str, str, str] | None:
    """Whose units ``seat`` may recall (§5.3, §10): None, or (code, rule, why not) for the unit of ``unit_seat``.

    Two players: its own. Team rules: its own, a team-mate's only when the team-mates play the same faction, never
    a team-mate's general. Three players: the team's players recall each other's units (their shared army)."""
    if unit_seat == seat:
        return None
    layout = state.layout
    owner = SEAT_NAMES[unit_seat]
    if layout.side[unit_seat] != layout.side[seat]:
        return "not_your_unit", "§5.3", f"belongs to {owner}"
    if layout.shared_general:
        return None  # §10 three players: team-mates may recall each other's units
    if cards_of(state).cards[card_id].rank == "general":
        return "teammate_general", "§10", f"is {owner}'s general: a team-mate's general is never recalled"
    mine, theirs = _faction(state, seat), _faction(state, unit_seat)
    if mine is None or mine != theirs:
        return "teammate_faction", "§10", (
            f"belongs to team-mate {owner}; a team-mate's units are recalled only when both play the same faction"
        )
    return None


def _unit_seat(state: State, owners: dict[int, int] | None, board: Board, k: int) -> int:
    return owners[k] if owners is not None else board[k][1]


def _can_reinforce(state: State, seat: int, board: Board, owners: dict[int, int] | None, placed: int | None,
                   involved: set[int] | frozenset[int]) -> bool:
    if state.deck_counts[state.layout.stock[seat]] > 0:
        return True
    p = state.layout.side[seat]
    return any(
        o == p
        and recall_refusal(state, seat, _unit_seat(state, owners, board, k), card) is None
        and _is_recallable(state, board, k, p, placed, involved) is None
        for k, (card, o) in board.items()
    )


def _next_turn_check(state: State, next_seat: int, hand_count: int, board: Board,
                     middle: tuple[str, ...] = ()) -> list[Any]:
    """R8: a player who must deploy with an empty hand (and no general between the team players, R15) loses, for
    the whole team (§10); so does one with no empty square left (our ruling)."""
    if (hand_count <= 0 and not middle) or (not state.unbounded and len(board) >= len(MAT_SQUARES)):
        return [GameEnded(winner=state.layout.side_name(1 - state.layout.side[next_seat]), reason="exhausted")]
    return []


def _draw(state: State, action: Draw) -> tuple[Any, ...]:
    p = _check_turn(state, action.player, "reinforce")
    stock = state.layout.stock[p]
    if state.deck_counts[stock] <= 0:
        raise RuleError("deck_empty", "R7", f"{action.player}'s army deck is empty: recall a unit instead")
    if state.table:
        card = action.card
        if card is not None:
            if card not in cards_of(state).cards or _army_count(state, p, card) == 0:
                raise RuleError("not_in_army", "§11", f"{card!r} is not in {action.player}'s army")
            if _copies_out(state, p, card) + 1 > _army_count(state, p, card):
                raise RuleError("copies_exceeded", "§11",
                                f"{action.player}'s army has no {cards_of(state).cards[card].name} left to draw")
    else:
        if action.card is not None:  # refused whatever the card: comparing it with the top would reveal the deck
            raise RuleError("hidden_card", "§11",
                            "in sealed mode the engine deals the top card of the deck: send draw without a card")
        card = state.decks[stock][0]
    events: list[Any] = [CardDrawn(player=action.player, card=card)]
    return tuple(events + _after_reinforce(state, p, state.board))


def _after_reinforce(state: State, seat: int, board: Board, recalled: str | None = None) -> list[Any]:
    if state.challenge:
        return []
    layout = state.layout
    next_seat = seat if state.extra_turn else layout.order[layout.next_slot(state.slot)]
    hand = state.hand_counts[next_seat] + (1 if next_seat == seat else 0)
    return _next_turn_check(state, next_seat, hand, board, middle_for(state, next_seat))


def _recall(state: State, action: Recall) -> tuple[Any, ...]:
    p = _check_turn(state, action.player, "reinforce")
    if state.challenge:
        raise RuleError("challenge_draw", "§4", "after the challenge placement the player draws; no recall")
    k = _square(state, action.square)
    unit = state.board.get(k)
    if unit is None:
        raise RuleError("no_unit", "§5.3", f"there is no unit on {action.square} to recall")
    card = cards_of(state).cards[unit[0]]
    refusal = recall_refusal(state, p, seat_of(state, k), unit[0])
    if refusal is not None:
        code, rule, why = refusal
        raise RuleError(code, rule, f"{card.name} at {action.square} {why}")
    problem = _is_recallable(state, state.board, k, state.layout.side[p], state.placed_square, state.involved)
    if problem == "recall_just_placed":
        raise RuleError(problem, "§5.3", f"{card.name} at {action.square} was placed this turn and cannot be recalled")
    if problem == "recall_involved":
        raise RuleError(problem, "R11" if card.cls == "cavalry" and state.variant.intermediate else "§5.3",
                        f"{card.name} at {action.square} was involved in a kill this turn and cannot be recalled")
    if problem == "recall_engaged":
        if card.cls == "cavalry" and state.variant.intermediate:
            raise RuleError(problem, "§8",
                            f"{card.name} at {action.square} is engaged by an enemy spearman and cannot be recalled")
        raise RuleError(problem, "§5.3",
                        f"{card.name} at {action.square} is engaged (an adjacent enemy points at it) and cannot be "
                        "recalled")
    board = dict(state.board)
    del board[k]
    events: list[Any] = [Recalled(player=action.player, square=_name(k, state), card=unit[0])]
    return tuple(events + _after_reinforce(state, p, board))


# -- legal actions -----------------------------------------------------------------------------------------


def hand_candidates(state: State, p: int) -> list[str]:
    """The distinct cards seat p could place: the hand and a general between the team players (sealed); known
    cards, that general, and any army card with copies left while the hand holds unknown cards (table)."""
    if not state.table:
        return sorted(set(deployable(state, p)))
    cards = set(deployable(state, p))
    if state.hand_counts[p] > len(state.hands[p]):
        for card in set(state.armies[p].cards):
            if _copies_out(state, p, card) < _army_count(state, p, card):
                cards.add(card)
    return sorted(cards)


def legal_placement_keys(state: State) -> list[tuple[str, int]]:
    """Every legal (card, square key) placement for the side to deploy; per card in id order, squares in board
    order. In table mode forced placements are not enumerated (they need the revealed hand as data)."""
    if state.phase != "deploy":
        return []
    seat = state.active
    p = state.layout.side[seat]
    board = state.board
    cards = hand_candidates(state, seat)
    if state.challenge:
        return [(c, state.layout.challenge[seat]) for c in cards]
    squares = sorted(_candidate_squares(board, p, state.unbounded), key=geo.board_order)
    enemy_on_mat = _has_enemy(board, p)
    out = []
    table = cards_of(state).cards
    for c in cards:
        card = table[c]
        for k in squares:
            if placement_basis(board, k, card, p, enemy_on_mat) is not None:
                out.append((c, k))
    if out or state.table:
        return out
    _, forced = forced_squares(board, p, state.unbounded)
    forced_sorted = sorted(forced, key=geo.board_order)
    return [(c, k) for c in cards for k in forced_sorted]


def legal_placements(state: State) -> list[Place]:
    """``legal_placement_keys`` as ``Place`` actions (without shots; see ``legal_shots``)."""
    player = SEAT_NAMES[state.active]
    return [Place(player=player, card=c, square=_name(k, state)) for c, k in legal_placement_keys(state)]


def legal_shots(state: State, place: Place) -> dict[str, list[str]]:
    """For a placement: each shooter that may shoot (square) -> the enemy squares in its grid (§6)."""
    p = state.layout.side[PLAYER_INDEX[place.player]]
    board = dict(state.board)
    board[_square(state, place.square)] = (place.card, p)
    out: dict[str, list[str]] = {}
    for s in sorted(board, key=geo.board_order):
        card_id, owner = board[s]
        card = cards_of(state).cards[card_id]
        if owner != p or not card.is_ranged or is_engaged(board, s, cards_of(state)):
            continue
        targets = [s + d for d in card.grid_deltas[p] if (s + d) in board and board[s + d][1] != p]
        if targets:
            out[_name(s, state)] = [_name(t, state) for t in sorted(targets, key=geo.board_order)]
    return out


def recallable_squares(state: State) -> list[str]:
    if state.phase != "reinforce" or state.challenge:
        return []
    seat = state.active
    p = state.layout.side[seat]
    return [
        _name(k, state)
        for k in sorted(state.board, key=geo.board_order)
        if state.board[k][1] == p
        and recall_refusal(state, seat, seat_of(state, k), state.board[k][0]) is None
        and _is_recallable(state, state.board, k, p, state.placed_square, state.involved) is None
    ]


def legal_actions(state: State) -> list[LordsOfWarAction]:
    """Every legal action for the side to act, concession excepted (always legal); placements without shots
    (``legal_shots`` lists the shots each placement allows)."""
    if state.phase == "deploy":
        return list(legal_placements(state))
    if state.phase == "reinforce":
        player = SEAT_NAMES[state.active]
        out: list[LordsOfWarAction] = []
        if state.deck_counts[state.layout.stock[state.active]] > 0:
            out.append(Draw(player=player))
        out.extend(Recall(player=player, square=sq) for sq in recallable_squares(state))
        return out
    return []
