"""``decide`` (every rule of the digest, each refusal a ``RuleError`` citing it) and ``legal_actions``.

``decide`` returns every fact an action causes. Dice are a queue in the state (``State.due``): in sealed mode
``decide`` draws every die due from the generator at once and works out what each roll causes; in table mode it stops
at the first die due and the ``roll`` action of the awaited seat carries the game on. It works out consequences on
one working state a decision (``Decision``: the events decided so far applied to it, as ``fold`` does), not by
chaining frozen states through ``evolve`` (a thaw and a freeze an event).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import RuleError
from engine.heroscape import geometry
from engine.heroscape.actions import (
    Attack,
    Charge,
    Concede,
    Effect,
    EndTurn,
    HeroScapeAction,
    Markers,
    Move,
    Place,
    Roll,
)
from engine.heroscape.combat import SHIELD, SKULL, face
from engine.heroscape.geometry import Hex, Mover, Occupant
from engine.heroscape.glyphs import GLYPH_BONUS, HEALING, PERMANENT, Bonuses, bonuses
from engine.heroscape.powers import BERSERKER_TARGET
from engine.heroscape.state import (
    INDEX,
    MARKERS,
    PLAYERS,
    TURNS_PER_ROUND,
    Due,
    Figure,
    Reading,
    State,
    Work,
    alive_cards,
    apply,
    awaited,
    board,
    card_alive,
    card_of,
    cards_of,
    figure_index,
    freeze,
    hexes_of,
    points_on_map,
    seats_standing,
    thaw,
    turn_player,
)
from engine.prng import SplitMix64
from events.heroscape import (
    ArmyPlaced,
    AttackDeclared,
    AttackResolved,
    BoardRecord,
    CardRecord,
    ChargeResolved,
    Conceded,
    DiceRolled,
    EffectApplied,
    FigureDestroyed,
    FigureMoved,
    FigureWounded,
    GameEnded,
    GlyphTaken,
    HeroScapeEvent,
    InitiativeTied,
    InitiativeWon,
    MarkerRevealed,
    MarkersPlaced,
    MoveDeclared,
    Placement,
    RoundEnded,
    Special,
    Target,
    TurnEnded,
    TurnLost,
)

UNLIMITED = 1 << 30  # a height no step stops (to say when the climb limit is what stops a move)

PHASE_WORDS = {
    "placement": "the placement of the armies (§1)",
    "markers": "the placing of order markers (§2)",
    "initiative": "the initiative roll (§2)",
    "turn": "a turn (§2)",
}


class Decision:
    """The events one action causes, as ``decide`` works them out, and the state after them (so a consequence reads
    the state it follows). They are applied to one working state (``engine.heroscape.state``'s ``apply``, as
    ``fold`` does), thawed at the first event and frozen only when ``state`` is read after a change: one thaw a
    decision rather than a thaw and a freeze an event (the way ``engine.l5r.rules.Builder`` decides)."""

    __slots__ = ("_state", "_work", "events")

    def __init__(self, state: State) -> None:
        self._state: State | None = state
        self._work: Work | None = None
        self.events: list[HeroScapeEvent] = []

    @property
    def state(self) -> State:
        """The state after the events so far."""
        state = self._state
        if state is None:
            assert self._work is not None
            state = self._state = freeze(self._work)
        return state

    @property
    def now(self) -> Reading:
        """The state after the events so far, for reading its plain fields (``due``, ``phase``, ...) without a
        freeze: the working state once thawed (read only here), else the state."""
        state = self._state
        if state is not None:
            return state
        assert self._work is not None
        return self._work

    def emit(self, *events: HeroScapeEvent) -> None:
        """``events`` happen next (trusted: ``apply`` re-runs no rule)."""
        if not events:
            return
        work = self._work
        if work is None:
            assert self._state is not None
            work = self._work = thaw(self._state)
        for event in events:
            apply(work, event)
        self.events += events
        self._state = None

    def done(self) -> tuple[HeroScapeEvent, ...]:
        return tuple(self.events)


def _card(state: Reading, f: Figure) -> CardRecord:
    return card_of(state, f.owner, f.card)


def described(state: State, f: Figure) -> str:
    card = _card(state, f)
    name = card.name if card.figures == 1 else f"{card.name} {f.id.rsplit('/', 1)[-1]}"
    return f"{PLAYERS[f.owner]}'s {name}"


def _wrong_phase(state: State, what: str, rule: str) -> RuleError:
    return RuleError("wrong_phase", rule, f"{what}: now is {PHASE_WORDS.get(state.phase, state.phase)}")


def _check_turn(state: State, player: str, rule: str) -> None:
    waiting = awaited(state)
    if player not in waiting:
        who = " and ".join(waiting) or "nobody"
        if state.due:
            raise RuleError("dice_due", "§5", f"{who} has {state.due[0].count} {state.due[0].purpose} "
                            f"{'d20' if state.due[0].die == 'd20' else 'combat dice'} to roll first")
        raise RuleError("not_your_turn", rule, f"it is {who}'s turn in {PHASE_WORDS.get(state.phase, state.phase)}, "
                        f"not {player}'s")


def _figure(state: State, owner: int, figure: str, rule: str) -> Figure:
    i = figure_index(state, owner, figure)
    f = state.figures[i] if i >= 0 else None
    if f is None:
        raise RuleError("unknown_figure", rule, f"{PLAYERS[owner]}'s army has no figure {figure!r}")
    if f.status != "placed":
        raise RuleError("figure_gone", rule, f"{described(state, f)} is not on the map")
    return f


# -- the map around figures ---------------------------------------------------------------------------------


def pair_engaged(state: State, f: Figure, g: Figure, f_hexes: Sequence[Hex] | None = None) -> bool:
    """§4: two enemy figures are engaged when some hex of one is engaged with some hex of the other."""
    pairs = [(a, c) for a in (f_hexes if f_hexes is not None else hexes_of(f)) for c in hexes_of(g)
             if geometry.distance(a, c) == 1]
    if not pairs:
        return False
    b = board(state)
    cards = cards_of(state)
    hf, hg = cards[(f.owner, f.card)].height, cards[(g.owner, g.card)].height
    return any(geometry.engaged(b, a, hf, c, hg) for a, c in pairs)


_POSITIONS: dict[int, tuple[tuple[Figure, ...], dict[Hex, Figure]]] = {}


def positions(state: State) -> dict[Hex, Figure]:
    """Hex -> the figure on it (both hexes of a double-space one), built once per figures tuple."""
    figures = state.figures
    cached = _POSITIONS.get(id(figures))
    if cached is None or cached[0] is not figures:
        if len(_POSITIONS) > 256:
            _POSITIONS.clear()
        where: dict[Hex, Figure] = {}
        for g in figures:
            if g.status == "placed" and g.hex is not None:  # ``hexes_of``
                where[g.hex] = g
                if g.tail is not None:
                    where[g.tail] = g
        cached = _POSITIONS[id(figures)] = (figures, where)
    return cached[1]


def engaged_with(state: State, f: Figure, at: Sequence[Hex] | None = None) -> list[Figure]:
    """The enemy figures ``f`` is engaged with (standing on ``at`` instead of where it is, when given)."""
    where = positions(state)
    b = board(state)
    cards = cards_of(state)
    height = cards[(f.owner, f.card)].height
    found: list[Figure] = []
    for h in at if at is not None else hexes_of(f):
        for nb in geometry.neighbours(h):
            g = where.get(nb)
            if g is None or g.owner == f.owner or g in found:
                continue
            if geometry.engaged(b, h, height, nb, cards[(g.owner, g.card)].height):
                found.append(g)
    if len(found) > 1:
        found.sort(key=state.figures.index)
    return found


def occupants(state: State, mover: Figure) -> dict[Hex, Occupant]:
    """Who stands where, for ``mover``'s movement: hex -> (player, engaged); the mover's own hexes left out."""
    where = positions(state)
    b = board(state)
    cards = cards_of(state)
    owner = mover.owner
    engaged: set[str] = set()  # the mover's friends engaged with an enemy (they cannot be passed through), by id
    for h, g in where.items():
        if g.owner != owner or g is mover or g.id in engaged:
            continue
        height = cards[(g.owner, g.card)].height
        for nb in geometry.neighbours(h):
            e = where.get(nb)
            if e is not None and e.owner != owner and geometry.engaged(b, h, height, nb,
                                                                       cards[(e.owner, e.card)].height):
                engaged.add(g.id)
                break
    return {h: (PLAYERS[g.owner], g.owner == owner and g.id in engaged) for h, g in where.items() if g is not mover}


def glyph_cells(state: State) -> tuple[tuple[Hex, str], ...]:
    """Every glyph of the map with its hex, read once per game's map."""
    assert state.board is not None
    found = _GLYPH_CELLS.get(id(state.board))
    if found is None or found[0] is not state.board:
        if len(_GLYPH_CELLS) > 64:
            _GLYPH_CELLS.clear()
        found = (state.board, tuple(((q, r), g) for q, r, _, _, g in state.board.cells if g))
        _GLYPH_CELLS[id(state.board)] = found
    return found[1]


_GLYPH_CELLS: dict[int, tuple[BoardRecord, tuple[tuple[Hex, str], ...]]] = {}
NO_BONUSES = Bonuses()


def glyphs_held(state: State, owner: int) -> tuple[str, ...]:
    """R2: the permanent glyphs the player's figures stand on."""
    where = positions(state)
    return tuple(sorted({g for h, g in glyph_cells(state) if g in PERMANENT and h in where
                         and where[h].owner == owner}))


def glyph_bonuses(state: State, owner: int) -> Bonuses:
    """R2: what the permanent glyphs the player's figures stand on add."""
    where = positions(state)
    held = [g for h, g in glyph_cells(state) if g in PERMANENT and (f := where.get(h)) is not None and f.owner == owner]
    return bonuses(held) if held else NO_BONUSES


def mover_of(state: State, f: Figure) -> Mover:
    card = _card(state, f)
    return Mover(player=PLAYERS[f.owner], height=card.height, move=card.move + glyph_bonuses(state, f.owner).move,
                 life=card.life, double=card.space == 2, flying="flying" in card.powers)


def _healing(state: State) -> frozenset[str]:
    """The healing glyphs still on the map (a life-1 figure may not enter them, §3)."""
    return frozenset(g for h, g in glyph_cells(state) if g in HEALING and h not in state.used_glyphs)


def destinations(state: State, f: Figure) -> dict[Hex, int]:
    """Where ``f`` may end its move (head hex -> movement spent), §3."""
    assert f.hex is not None
    return geometry.reachable(board(state), f.hex, mover_of(state, f), occupants(state, f), _healing(state))


def tails(state: State, f: Figure, to: Hex) -> list[Hex]:
    """A double-space figure's possible second hexes when its head stops on ``to`` (§3: same level, free)."""
    b = board(state)
    taken = {h for g in state.figures if g.status == "placed" and g is not f for h in hexes_of(g)}
    return [h for h in geometry.neighbours(to) if h in b.cells and h not in taken and b.level(h) == b.level(to)]


def spaces_between(state: State, f: Figure, g: Figure) -> int | None:
    """The range between two figures (§5): the fewest spaces from a hex of one to a hex of the other, counted over
    the map's hexes (round an inlet: ``Board.spaces``); None when no way over the map joins them."""
    b = board(state)
    found = [d for a in hexes_of(f) for c in hexes_of(g) if (d := b.spaces(a, c)) is not None]
    return min(found, default=None)


def sight(state: State, f: Figure, g: Figure) -> bool:
    """R1: some hex of the attacker sees some hex of the target."""
    b = board(state)
    hf, hg = _card(state, f).height, _card(state, g).height
    return any(geometry.line_of_sight(b, a, hf, c, hg) for a in hexes_of(f) for c in hexes_of(g))


def level_of(state: State, f: Figure) -> int:
    assert f.hex is not None
    return board(state).level(f.hex)


# -- the flow of the round ----------------------------------------------------------------------------------


def _ended(state: Reading, reason: str, winner: str | None) -> GameEnded:
    seats = [s.id for s in state.seats]
    return GameEnded(reason=reason, winner=winner,  # type: ignore[arg-type]
                     points={p: points_on_map(state, i) for i, p in enumerate(seats)})


def points_winner(state: Reading) -> str | None:
    """Our round-limit ruling (docs/heroscape.md): more points of army cards still on the map wins; equal: a draw."""
    a, b = points_on_map(state, 0), points_on_map(state, 1)
    return None if a == b else "p1" if a > b else "p2"


def next_turn(d: Decision) -> None:
    """After the initiative or a turn: reveal the next marker (§2, a lost turn when its card is gone), or end the
    round (and the game at the round limit)."""
    while True:
        now = d.now
        k = now.turn_index + 1
        if k >= TURNS_PER_ROUND * len(now.order):
            state = d.state  # the glyphs held read the figures' positions (``positions``: a frozen state's)
            points = {s.id: points_on_map(state, i) for i, s in enumerate(state.seats)}
            ended = RoundEnded(round=state.round, glyphs={s.id: glyphs_held(state, i) for i, s in
                                                          enumerate(state.seats)}, points=points)
            if state.round >= state.variant.max_rounds:
                d.emit(ended, _ended(state, "rounds", points_winner(state)))
            else:
                d.emit(ended)
            return
        player, number = turn_player(now, k)
        owner = INDEX[player]
        markers = dict(now.markers[owner] or ())
        card = markers[str(number)]
        d.emit(MarkerRevealed(player=player, round=now.round, number=number, card=card))
        if card_alive(d.now, owner, card):
            return
        d.emit(TurnLost(player=player, number=number, card=card))


def _annihilation(state: Reading) -> GameEnded | None:
    """§8: a player wins when no opposing figure remains (checked at the end of each turn)."""
    standing = seats_standing(state)
    if len(standing) == len(state.seats):
        return None
    return _ended(state, "annihilation", PLAYERS[standing[0]] if len(standing) == 1 else None)


def _wound(state: Reading, f: Figure, wounds: int, cause: str, by: Figure | None,
           by_name: str | None = None) -> list[HeroScapeEvent]:
    """Wounds on ``f`` (§5): destroyed at wounds ≥ life (basic game: any wound destroys)."""
    if wounds <= 0:
        return []
    card = _card(state, f)
    total = f.wounds + wounds
    who = by.id if by is not None else by_name
    out: list[HeroScapeEvent] = []
    if state.variant.game == "basic":
        total = card.life
    else:
        out.append(FigureWounded(player=PLAYERS[f.owner], figure=f.id, wounds=wounds, total=min(total, card.life),
                                 cause=cause, by=who))  # type: ignore[arg-type]
    if total >= card.life:
        assert f.hex is not None
        out.append(FigureDestroyed(player=PLAYERS[f.owner], figure=f.id, card=f.card, hex=f.hex,
                                   cause=cause, by=who,  # type: ignore[arg-type]
                                   by_player=PLAYERS[by.owner] if by is not None else None))
    return out


def _find(state: Reading, player: str, figure: str | None) -> Figure:
    assert figure is not None
    i = figure_index(state, INDEX[player], figure)
    assert i >= 0, f"{player}'s {figure} is in the state"
    return state.figures[i]


def _arrive(state: Reading, f: Figure) -> list[HeroScapeEvent]:
    """A figure's move is over: a hero stopping on an unused power glyph takes it (§6: Kelda heals fully, once)."""
    if f.status != "placed" or f.hex is None:
        return []
    b = board(state)
    for h in hexes_of(f):
        glyph = b.cells[h].glyph
        if glyph in HEALING and h not in state.used_glyphs and _card(state, f).kind == "hero":
            return [GlyphTaken(player=PLAYERS[f.owner], figure=f.id, glyph=glyph, hex=h, healed=f.wounds)]
    return []


def _moved(d: Decision) -> None:
    """Every strike of leaving engagement is rolled and the figure stands: it moves; then it may fall (§3)."""
    m = d.now.moving
    assert m is not None
    d.emit(FigureMoved(player=m.player, figure=m.figure, origin=m.origin, to=m.to, tail=m.tail))
    after = d.now
    if not after.due:
        d.emit(*_arrive(after, _find(after, m.player, m.figure)))


def after_roll(d: Decision, due: Due, rolled: DiceRolled) -> None:
    """What a roll causes (``d`` has the roll emitted)."""
    state = d.now
    purpose = due.purpose
    if purpose == "initiative":
        if state.due:
            return
        state = d.state  # the glyphs' bonus reads the figures' positions (``positions``: a frozen state's)
        totals = {p: v + glyph_bonuses(state, INDEX[p]).initiative for p, v in state.rolls}
        top = max(totals.values())
        best = tuple(p for p in state.contenders if totals[p] == top)
        if len(best) > 1:
            d.emit(InitiativeTied(contenders=best, totals=totals))
            return
        seats = [s.id for s in state.seats]
        first = seats.index(best[0])
        d.emit(InitiativeWon(round=state.round, order=tuple(seats[first:] + seats[:first]), totals=totals))
        next_turn(d)
        return
    if purpose in ("leaving", "falling"):
        m = state.moving
        assert m is not None
        f = _find(state, m.player, m.figure)
        skulls = sum(face(v) == SKULL for v in rolled.values)
        by = _find(state, due.player, due.figure) if purpose == "leaving" else None
        d.emit(*_wound(state, f, skulls, purpose, by))
        now = d.now
        if now.moving is None:  # destroyed: its move is over
            return
        if purpose == "leaving":
            if not now.due:
                _moved(d)
            return
        d.emit(*_arrive(now, _find(now, m.player, m.figure)))
        return
    if purpose == "attack":
        return
    # defense: the target whose dice these are
    attack = state.attack
    assert attack is not None
    target = attack.targets[state.targets_done - 1]
    g = _find(state, target.player, target.figure)
    skulls = sum(face(v) == SKULL for v in state.attack_values)
    shields = sum(face(v) == SHIELD for v in rolled.values)
    card = _card(state, g)
    attacker = _find(state, attack.player, attack.figure)
    if state.variant.game == "basic":
        wounds = card.life - g.wounds if skulls > shields else 0
    else:
        wounds = max(0, skulls - shields)
    destroyed = g.status == "placed" and g.wounds + wounds >= card.life
    resolved = AttackResolved(attack=attack.attack, target=g.id, defender=target.player, skulls=skulls,
                              shields=shields, wounds=wounds, destroyed=destroyed)
    d.emit(resolved)
    d.emit(*_wound(d.now, g, wounds, "attack", attacker))


def run_dice(d: Decision) -> tuple[HeroScapeEvent, ...]:
    """Sealed mode: draw every die due and follow what each roll causes; table mode: stop at the first die due (the
    awaited seat's ``roll`` goes on). -> every event of the decision."""
    while (now := d.now).due and now.variant.mode == "sealed" and now.phase != "over":
        due = now.due[0]
        gen = SplitMix64(now.rng)
        sides = 20 if due.die == "d20" else 6
        values = tuple(gen.below(sides) + 1 for _ in range(due.count))
        rolled = _rolled(now, due, values, "prng")
        d.emit(rolled)
        after_roll(d, due, rolled)
    return d.done()


def _rolled(state: Reading, due: Due, values: tuple[int, ...], source: str) -> DiceRolled:
    attack = state.attack.attack if due.purpose in ("attack", "defense") and state.attack is not None else None
    return DiceRolled(purpose=due.purpose, player=due.player, die=due.die, values=values,  # type: ignore[arg-type]
                      source=source, figure=due.figure, attack=attack)  # type: ignore[arg-type]


# -- decide -------------------------------------------------------------------------------------------------


def decide(state: State, action: HeroScapeAction) -> tuple[HeroScapeEvent, ...]:
    if state.phase == "setup":
        raise RuleError("not_started", "setup", "the game has not started")
    if state.phase == "over":
        raise RuleError("game_over", "§8", f"the game is over ({state.end_reason})")
    if action.player not in PLAYERS[: len(state.seats)]:
        raise RuleError("unknown_player", "contract", f"there is no player {action.player!r} (p1 or p2)")
    kind = type(action)
    if state.due and kind not in _WHILE_DUE and not isinstance(action, _WHILE_DUE):
        due = state.due[0]
        raise RuleError("dice_due", "§5", f"{due.player} has {due.count} {due.purpose} "
                        f"{'d20' if due.die == 'd20' else 'combat dice'} to roll first")
    decider = _DECIDERS.get(kind) or next(f for t, f in _DECIDERS.items() if isinstance(action, t))
    return decider(state, action)


def _concede(state: State, action: Concede) -> tuple[HeroScapeEvent, ...]:
    return (Conceded(player=action.player), _ended(state, "concession", PLAYERS[1 - INDEX[action.player]]))


def _roll(state: State, action: Roll) -> tuple[HeroScapeEvent, ...]:
    if state.variant.mode == "sealed":
        raise RuleError("sealed_dice", "§5", "in a sealed game the project's generator rolls every die: no die is "
                        "entered")
    if not state.due:
        raise RuleError("no_dice_due", "§5", f"no die is awaited now ({PHASE_WORDS.get(state.phase, state.phase)})")
    due = state.due[0]
    _check_turn(state, action.player, "§5")
    sides = 20 if due.die == "d20" else 6
    if len(action.values) != due.count:
        raise RuleError("dice_count", "§5", f"{due.count} {'d20' if sides == 20 else 'combat'} "
                        f"{'die is' if due.count == 1 else 'dice are'} due for the {due.purpose} roll, not "
                        f"{len(action.values)}")
    for v in action.values:
        if not 1 <= v <= sides:
            raise RuleError("die_value", "§1", f"a {'d20' if sides == 20 else 'combat die'} shows 1 to {sides}, "
                            f"not {v}")
    rolled = _rolled(state, due, action.values, "table")
    d = Decision(state)
    d.emit(rolled)
    after_roll(d, due, rolled)
    return run_dice(d)


def _place(state: State, action: Place) -> tuple[HeroScapeEvent, ...]:
    if state.phase != "placement":
        raise _wrong_phase(state, "armies are placed before the first round", "§1")
    _check_turn(state, action.player, "§1")
    owner = INDEX[action.player]
    assert state.board is not None
    zone = set(state.board.start_zones.get(action.player, ()))
    mine = {f.id: f for f in state.figures if f.owner == owner}
    named = [p.figure for p in action.placements]
    if sorted(named) != sorted(mine):
        raise RuleError("whole_army", "§1", f"{action.player} places every figure once: {', '.join(mine)}")
    b = board(state)
    taken: set[Hex] = set()
    for p in action.placements:
        card = _card(state, mine[p.figure])
        head: Hex = (p.hex[0], p.hex[1])
        hexes = [head] if p.tail is None else [head, (p.tail[0], p.tail[1])]
        if (card.space == 2) != (p.tail is not None):
            raise RuleError("double_space", "§3", f"{card.name} is {'double' if card.space == 2 else 'single'}-"
                            f"space: {'give hex and tail' if card.space == 2 else 'give one hex, no tail'}")
        for h in hexes:
            if h not in zone:
                raise RuleError("outside_start_zone", "§1", f"{list(h)} is not in {action.player}'s start zone")
            if h in taken:
                raise RuleError("occupied", "§3", f"two figures on {list(h)}")
            taken.add(h)
        if p.tail is not None and not geometry.double_space_end_ok(b, head, (p.tail[0], p.tail[1])):
            raise RuleError("double_space", "§3", f"{card.name} stands on two adjacent hexes of the same level")
    placed = ArmyPlaced(player=action.player, placements=action.placements)
    return (placed,)


def _markers(state: State, action: Markers) -> tuple[HeroScapeEvent, ...]:
    if state.phase != "markers":
        raise _wrong_phase(state, "order markers are placed at the start of a round", "§2")
    _check_turn(state, action.player, "§2")
    owner = INDEX[action.player]
    if sorted(action.markers) != sorted(MARKERS):
        raise RuleError("markers", "§2", "place the four order markers 1, 2, 3 and X, each on one of your cards")
    alive = alive_cards(state, owner)
    for marker, card in sorted(action.markers.items()):
        if card not in alive:
            raise RuleError("marker_card", "§2", f"marker {marker}: {card!r} is not one of {action.player}'s cards "
                            f"with a figure on the map ({', '.join(alive)})")
    placed = MarkersPlaced(player=action.player, round=state.round, markers=dict(sorted(action.markers.items())))
    d = Decision(state)
    d.emit(placed)
    return run_dice(d)


def _in_turn(state: State, player: str, what: str) -> None:
    if state.phase != "turn":
        raise _wrong_phase(state, what, "§2")
    _check_turn(state, player, "§2")


def _turn_figure(state: State, player: str, figure: str, rule: str) -> Figure:
    f = _figure(state, INDEX[player], figure, rule)
    if f.card != state.card:
        card = _card(state, f)
        raise RuleError("not_this_card", "§2", f"{card.name} has no order marker this turn: only the figures of "
                        f"{card_of(state, INDEX[player], state.card or '').name} (marker {state.number}) act")
    return f


def _move(state: State, action: Move) -> tuple[HeroScapeEvent, ...]:
    _in_turn(state, action.player, "figures move in their card's turn")
    f = _turn_figure(state, action.player, action.figure, "§3")
    if state.attacking:
        raise RuleError("attack_made", "§2", "the turn's figures move first, then attack: an attack has been made")
    if (f.owner, f.id) in state.moved:
        raise RuleError("already_moved", "§3", f"{described(state, f)} has moved this turn")
    b = board(state)
    to = tuple(action.to)
    if to not in b.cells:
        raise RuleError("off_map", "§1", f"{list(to)} is not a hex of the map")
    card = _card(state, f)
    assert f.hex is not None
    if card.space == 2:
        if action.tail is None:
            raise RuleError("double_space", "§3", f"{card.name} is double-space: name the tail hex it ends on too")
    elif action.tail is not None:
        raise RuleError("double_space", "§3", f"{card.name} is single-space: no tail hex")
    if to == f.hex and (action.tail is None or tuple(action.tail) == f.tail):
        raise RuleError("no_move", "§3", f"{described(state, f)} is already on {list(to)}")
    mover = mover_of(state, f)
    occ = occupants(state, f)
    path = geometry.plan(b, f.hex, to, mover, occ, _healing(state))  # type: ignore[arg-type]
    if path is None:
        why = _unreachable(state, f, to, mover, occ)  # type: ignore[arg-type]
        raise RuleError(why[0], why[1], why[2])
    tail = None
    if action.tail is not None:
        tail = tuple(action.tail)
        if tail not in tails(state, f, to):  # type: ignore[arg-type]
            raise RuleError("double_space", "§3", f"{card.name} ends on two adjacent free hexes of the same level: "
                            f"{list(tail)} is not one next to {list(to)}")
    end = (to,) if tail is None else (to, tail)
    staying = engaged_with(state, f, end)  # type: ignore[arg-type]
    strikers = [g for g in engaged_with(state, f) if g not in staying]
    declared = MoveDeclared(player=action.player, figure=f.id, origin=f.hex, to=to, tail=tail,  # type: ignore[arg-type]
                            path=path.hexes, cost=path.cost, allowance=mover.move + (geometry.ROAD_BONUS
                                                                                     if path.road else 0),
                            road=path.road, strikers=tuple(g.id for g in strikers), fall_dice=path.fall_dice)
    d = Decision(state)
    d.emit(declared)
    if not d.now.due:
        _moved(d)
    return run_dice(d)


def _unreachable(state: State, f: Figure, to: Hex, mover: Mover, occ: dict[Hex, Occupant]) -> tuple[str, str, str]:
    """Why ``f`` cannot end its move on ``to`` (§3), as (code, rule, message): the first rule that, set aside alone,
    would let it get there."""
    b = board(state)
    who = described(state, f)
    if to in occ:
        other = next(g for g in state.figures if g.status == "placed" and to in hexes_of(g))
        return "occupied", "§3", f"{list(to)} is taken by {described(state, other)}: no move ends on another figure"
    cell = b.cells[to]
    if cell.glyph in HEALING and mover.life <= 1 and tuple(to) not in state.used_glyphs:
        return "healing_glyph", "§3", f"{who} has life 1 and cannot enter the healing glyph {cell.glyph}"
    assert f.hex is not None
    heal = _healing(state)
    if to in geometry.reachable(b, f.hex, mover, {}, heal):
        return "blocked", "§3", (f"{who} cannot reach {list(to)} with move {mover.move}: enemies (and engaged "
                                 "friends) cannot be passed through")
    if to in geometry.reachable(b, f.hex, mover, {}, heal, stopping=False):
        return "stopped", "§3", (f"{who} cannot reach {list(to)}: entering water or a glyph ends a move (a "
                                 "double-space figure crosses one water hex, and stops in a second one), and every "
                                 f"way there within move {mover.move} enters one first")
    if to in geometry.reachable(b, f.hex, replace(mover, height=UNLIMITED), {}, heal):
        return "too_high", "§3", (f"{who} (height {mover.height}) cannot climb a step of {mover.height} levels or "
                                  f"more at once, and every way to {list(to)} within move {mover.move} climbs one")
    spaces = b.spaces(f.hex, to)
    return "too_far", "§3", (f"{who} cannot reach {list(to)} with move {mover.move}: it is {spaces} spaces away "
                             "over the map, and climbing costs 1 more a level")


def _charge(state: State, action: Charge) -> tuple[HeroScapeEvent, ...]:
    if state.due:
        raise RuleError("dice_due", "§5", f"{state.due[0].player} has dice to roll first")
    _in_turn(state, action.player, "a Berserker Charge is rolled in its card's turn")
    owner = INDEX[action.player]
    card = card_of(state, owner, state.card or "")
    if "berserker-charge" not in card.powers:
        raise RuleError("no_power", "§7", f"{card.name} has no Berserker Charge")
    if state.attacking:
        raise RuleError("attack_made", "§7", "Berserker Charge is rolled after moving, before attacking")
    if not state.charge_ready:
        raise RuleError("move_first", "§7", f"{card.name} rolls for Berserker Charge after moving")
    if state.variant.mode == "table":
        if action.value is None or not 1 <= action.value <= 20:
            raise RuleError("die_value", "§7", f"enter the d20 rolled (1 to 20), not {action.value!r}")
        value, source = action.value, "table"
    else:
        if action.value is not None:
            raise RuleError("sealed_dice", "§7", "in a sealed game the project's generator rolls the d20")
        value, source = SplitMix64(state.rng).below(20) + 1, "prng"
    rolled = DiceRolled(purpose="berserker", player=action.player, die="d20", values=(value,),
                        source=source)  # type: ignore[arg-type]
    return (rolled, ChargeResolved(player=action.player, card=card.key, roll=value, again=value >= BERSERKER_TARGET))


def special_of(card: CardRecord, name: str) -> Special | None:
    return next((s for s in card.specials if s.name == name), None)


def _attack(state: State, action: Attack) -> tuple[HeroScapeEvent, ...]:
    _in_turn(state, action.player, "figures attack in their card's turn")
    f = _turn_figure(state, action.player, action.figure, "§5")
    declared = declare(state, f, action.target, action.special, action.referee)
    d = Decision(state)
    d.emit(declared)
    return run_dice(d)


def declare(state: State, f: Figure, target: str, special: str | None, referee: bool | None) -> AttackDeclared:
    """Check an attack (§4, §5, §7, R1) and declare it with its dice."""
    card = _card(state, f)
    player = PLAYERS[f.owner]
    spec = None
    if special is not None:
        spec = special_of(card, special)
        if spec is None:
            raise RuleError("no_special", "§7", f"{card.name} has no special attack {special!r}"
                            + (f" ({', '.join(s.name for s in card.specials)})" if card.specials else ""))
        if spec.once and f"{player}:{f.card}:{special}" in state.specials_used:
            raise RuleError("special_spent", "§7", f"{card.name}'s {special} is used once a game, and has been")
    if spec is not None and spec.extra:
        if (f.owner, f.id) in state.extra_attacked:
            raise RuleError("already_attacked", "§7", f"{described(state, f)} has used {special} this turn")
    elif (f.owner, f.id) in state.attacked:
        raise RuleError("already_attacked", "§5", f"{described(state, f)} has attacked this turn")
    enemy = 1 - f.owner
    g = next((x for x in state.figures if x.owner == enemy and x.id == target), None)
    if g is None:
        if any(x.owner == f.owner and x.id == target for x in state.figures):
            raise RuleError("own_figure", "§5", f"{target!r} is {player}'s own figure")
        raise RuleError("unknown_figure", "§5", f"{PLAYERS[enemy]} has no figure {target!r}")
    if g.status != "placed":
        raise RuleError("figure_gone", "§5", f"{described(state, g)} is not on the map")
    engaged = engaged_with(state, f)
    with_target = g in engaged
    if engaged and not with_target:
        raise RuleError("engaged", "§4", f"{described(state, f)} is engaged and may attack only the figures it is "
                        f"engaged with ({', '.join(described(state, x) for x in engaged)})")
    bonus = glyph_bonuses(state, f.owner)
    reach = spec.range if spec is not None else bonus.range_for(card.range)
    dist = spaces_between(state, f, g)
    if dist is None:
        raise RuleError("out_of_range", "§5", f"no way over the map joins {described(state, f)} and "
                        f"{described(state, g)}: range is counted along the map")
    if dist > reach:
        straight = min(geometry.distance(a, c) for a in hexes_of(f) for c in hexes_of(g))
        raise RuleError("out_of_range", "§5", f"{described(state, f)} has range {reach}; {described(state, g)} is "
                        f"{dist} spaces away" + (f", counted round the gap in the map between them ({straight} "
                                                 "straight across it)" if dist > straight else ""))
    if reach == 1 and not with_target:
        raise RuleError("not_engaged", "§5", f"range 1 attacks only an engaged figure: {described(state, g)} is "
                        "too far above or below, or behind an obstacle")
    seen: bool | None = None
    if not with_target:
        seen = sight(state, f, g)
        if referee is not None and state.variant.mode == "sealed":
            raise RuleError("sealed_sight", "R1", "in a sealed game the engine computes line of sight: no referee")
        if not (seen if referee is None else referee):
            raise RuleError("no_line_of_sight", "R1", f"{described(state, f)} cannot see {described(state, g)}"
                            + (": the referee rules it out of sight" if referee is False else
                               ": the line from its eyes to the target's centre is blocked by the ground or a wall"))
    elif referee is not None:
        raise RuleError("no_sight_needed", "§4", "an engaged figure needs no line of sight: no referee's call")
    own_level, their_level = level_of(state, f), level_of(state, g)
    height = 0 if spec is not None else geometry.height_bonus(own_level, their_level)
    base = spec.attack if spec is not None else card.attack
    glyph = 0 if spec is not None else bonus.attack
    struck = [g]
    if spec is not None and spec.area:
        around = (geometry.around_double(g.hex, g.tail) if g.tail is not None and g.hex is not None
                  else frozenset(geometry.neighbours(g.hex)) if g.hex is not None else frozenset())
        struck += sorted((x for x in state.figures if x.status == "placed" and x is not f and x is not g
                          and any(h in around for h in hexes_of(x))), key=lambda x: (x.owner, x.id))
    targets = []
    for x in struck:
        level = level_of(state, x)
        defense = _card(state, x).defense + glyph_bonuses(state, x.owner).defense
        up = geometry.height_bonus(level, own_level)
        assert x.hex is not None
        targets.append(Target(figure=x.id, player=PLAYERS[x.owner], hex=x.hex, level=level, defense=defense,
                              height_bonus=up, dice=defense + up))
    assert f.hex is not None
    return AttackDeclared(attack=state.attacks + 1, player=player, figure=f.id, card=f.card, hex=f.hex,
                          level=own_level, special=special, distance=dist, range=reach, engaged=with_target,
                          sight=seen, referee=referee, base=base, glyph_bonus=glyph, height_bonus=height,
                          dice=base + glyph + height, targets=tuple(targets))


def _effect(state: State, action: Effect) -> tuple[HeroScapeEvent, ...]:
    _in_turn(state, action.player, "a card's text acts in its player's turn")
    owner = INDEX[action.player]
    alive = alive_cards(state, owner)
    if action.card not in alive:
        raise RuleError("card_not_in_play", "§7", f"{action.card!r} is not one of {action.player}'s cards with a "
                        f"figure on the map ({', '.join(alive)})")
    if action.owner is not None:
        if action.owner not in PLAYERS[: len(state.seats)]:
            raise RuleError("unknown_player", "§7", f"there is no player {action.owner!r}")
        candidates = [f for f in state.figures if f.owner == INDEX[action.owner] and f.id == action.figure]
    else:
        candidates = [f for f in state.figures if f.id == action.figure and f.status == "placed"]
    if len(candidates) > 1:
        raise RuleError("ambiguous_figure", "§7", f"both players have a {action.figure!r}: name its owner")
    if not candidates or candidates[0].status != "placed":
        raise RuleError("unknown_figure", "§7", f"no figure {action.figure!r} on the map")
    g = candidates[0]
    card = _card(state, g)
    who = PLAYERS[g.owner]
    base = dict(player=action.player, card=action.card, change=action.change, figure=g.id, owner=who,
                amount=action.amount, text=action.text)
    if action.change in ("wound", "heal"):
        if action.amount < 1:
            raise RuleError("effect_amount", "§7", f"a {action.change} effect names how many wounds (1 or more)")
        if action.change == "heal" and action.amount > g.wounds:
            raise RuleError("effect_amount", "§7", f"{described(state, g)} has {g.wounds} wounds to heal, not "
                            f"{action.amount}")
    elif action.amount:
        raise RuleError("effect_amount", "§7", f"a {action.change} effect has no amount")
    if action.change != "move" and (action.to is not None or action.tail is not None):
        raise RuleError("effect_move", "§7", "only a move effect names hexes")
    if action.change == "move":
        b = board(state)
        if action.to is None or tuple(action.to) not in b.cells:
            raise RuleError("effect_move", "§7", f"a move effect names a hex of the map, not {action.to!r}")
        to = tuple(action.to)
        taken = {h for x in state.figures if x.status == "placed" and x is not g for h in hexes_of(x)}
        if to in taken:
            raise RuleError("occupied", "§3", f"{list(to)} is taken")
        if card.space == 2:
            if action.tail is None or tuple(action.tail) not in tails(state, g, to):  # type: ignore[arg-type]
                raise RuleError("double_space", "§3", f"{card.name} ends on two adjacent free hexes of one level: "
                                "name a tail next to the hex")
        elif action.tail is not None:
            raise RuleError("double_space", "§3", f"{card.name} is single-space: no tail hex")
        applied = EffectApplied(**base, to=to, tail=tuple(action.tail) if action.tail else None)  # type: ignore[arg-type]
        return (applied,)
    applied = EffectApplied(**base)  # type: ignore[arg-type]
    if action.change == "wound":
        d = Decision(state)
        d.emit(applied)
        return (applied, *_wound(d.now, g, action.amount, "effect", None, action.card))
    if action.change == "destroy":
        assert g.hex is not None
        return (applied, FigureDestroyed(player=who, figure=g.id, card=g.card, hex=g.hex, cause="effect",
                                         by=action.card, by_player=action.player))
    return (applied,)


def _end_turn(state: State, action: EndTurn) -> tuple[HeroScapeEvent, ...]:
    _in_turn(state, action.player, "a turn ends in the turn")
    d = Decision(state)
    d.emit(TurnEnded(player=action.player, round=state.round, number=state.number))
    over = _annihilation(d.now)
    if over is not None:
        d.emit(over)
    else:
        next_turn(d)
    return d.done()


# -- legal actions ------------------------------------------------------------------------------------------


def layouts(state: State, owner: int) -> list[tuple[Placement, ...]]:
    """A few whole placements in the start zone (``legal_actions`` cannot list every arrangement): the zone's hexes
    in four orders, each figure taking the next free hex (a double-space one with a free neighbour of its level)."""
    assert state.board is not None
    b = board(state)
    zone = list(state.board.start_zones.get(PLAYERS[owner], ()))
    orders = [zone, zone[::-1], sorted(zone), sorted(zone, reverse=True)]
    figures = [f for f in state.figures if f.owner == owner]
    out: list[tuple[Placement, ...]] = []
    for order in orders:
        taken: set[Hex] = set()
        placed: list[Placement] = []
        for f in sorted(figures, key=lambda x: -_card(state, x).space):  # double-space figures first
            double = _card(state, f).space == 2
            spot: tuple[Hex, Hex | None] | None = None
            for h in order:
                if h in taken:
                    continue
                if not double:
                    spot = (h, None)
                    break
                tail = next((t for t in geometry.neighbours(h) if t in zone and t not in taken and t != h
                             and geometry.double_space_end_ok(b, h, t)), None)
                if tail is not None:
                    spot = (h, tail)
                    break
            if spot is None:
                break
            taken.add(spot[0])
            if spot[1] is not None:
                taken.add(spot[1])
            placed.append(Placement(figure=f.id, hex=spot[0], tail=spot[1]))
        if len(placed) == len(figures):
            layout = tuple(sorted(placed, key=lambda p: p.figure))
            if layout not in out:
                out.append(layout)
    return out


def move_options(state: State, f: Figure) -> list[Move]:
    out: list[Move] = []
    for to in destinations(state, f):
        if _card(state, f).space == 2:
            out.extend(Move(player=PLAYERS[f.owner], figure=f.id, to=to, tail=t) for t in tails(state, f, to)
                       if (to, t) != (f.hex, f.tail))
        elif to != f.hex:
            out.append(Move(player=PLAYERS[f.owner], figure=f.id, to=to))
    return out


def attack_options(state: State, f: Figure) -> list[Attack]:
    out: list[Attack] = []
    card = _card(state, f)
    player = PLAYERS[f.owner]
    kinds: list[str | None] = [None, *(s.name for s in card.specials)]
    for g in state.figures:
        if g.owner == f.owner or g.status != "placed":
            continue
        for special in kinds:
            try:
                declare(state, f, g.id, special, None)
            except RuleError:
                continue
            out.append(Attack(player=player, figure=f.id, target=g.id, special=special))
    return out


def legal_actions(state: State, seat: str | None = None) -> list[HeroScapeAction]:
    """Every legal action of ``seat`` except the concession (legal any time) and card-text effects (any card text
    could be one); placements are four whole layouts (``layouts``), table rolls one value per face for all dice."""
    waiting = awaited(state)
    if not waiting:
        return []
    player = waiting[0] if seat is None else seat
    if player not in waiting:
        return []
    owner = INDEX[player]
    if state.due:
        if state.variant.mode != "table":
            return []
        due = state.due[0]
        sides = 20 if due.die == "d20" else 6
        return [Roll(player=player, values=(v,) * due.count) for v in range(1, sides + 1)]
    if state.phase == "placement":
        return [Place(player=player, placements=layout) for layout in layouts(state, owner)]
    if state.phase == "markers":
        alive = alive_cards(state, owner)
        return [Markers(player=player, markers=dict(zip(MARKERS, combo, strict=True)))
                for combo in itertools.product(alive, repeat=len(MARKERS))]
    out: list[HeroScapeAction] = []
    if state.phase == "turn":
        mine = [f for f in state.figures if f.owner == owner and f.status == "placed" and f.card == state.card]
        if not state.attacking:
            for f in mine:
                if (f.owner, f.id) not in state.moved:
                    out.extend(move_options(state, f))
            card = card_of(state, owner, state.card or "")
            if state.charge_ready and "berserker-charge" in card.powers:
                if state.variant.mode == "sealed":
                    out.append(Charge(player=player))
                else:
                    out.extend(Charge(player=player, value=v) for v in range(1, 21))
        for f in mine:
            out.extend(attack_options(state, f))
        out.append(EndTurn(player=player))
    return out


__all__ = ["GLYPH_BONUS", "after_roll", "attack_options", "decide", "declare", "described", "destinations",
           "engaged_with", "glyph_bonuses", "layouts", "legal_actions", "move_options",
           "next_turn", "occupants", "points_winner", "run_dice", "sight", "spaces_between", "tails"]


_WHILE_DUE = (Roll, Concede, Charge)  # the actions taken while dice are due
# Each action's decider, by the action's type: one dict look-up (a ``match`` over the classes pays an ``isinstance``
# miss, Python's slow path against a msgspec Struct class, for every case before the right one).
_DECIDERS: dict[type, Callable[[State, Any], tuple[HeroScapeEvent, ...]]] = {
    Concede: _concede, Roll: _roll, Place: _place, Markers: _markers, Move: _move, Charge: _charge, Attack: _attack,
    Effect: _effect, EndTurn: _end_turn,
}
