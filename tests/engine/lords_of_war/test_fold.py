"""``fold`` (thaw once, apply every event, freeze once) against ``evolve`` (thaw, apply, freeze for each event): the
same state at every prefix of a game, bit for bit, and neither changes its input.

Since issue 29 both are derived from one ``apply`` on a typed working copy (``engine.folding.Folding``; state.py's
``Work``), so these tests hold the derivation and thaw/freeze, not two implementations. Bot games come from
test_properties' strategy; the default run plays ~25 games, ``-m slow`` plays 200 more.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args, get_type_hints

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.lords_of_war import Draw, decide, evolve, fold, initial_state, start, state_to_builtins
from engine.lords_of_war import geometry as geo
from engine.lords_of_war import state as state_module
from engine.lords_of_war.history import recorded_actions, redecide
from engine.lords_of_war.prng import SplitMix64, _draws, shuffle, shuffled_decks
from engine.lords_of_war.state import FOLDING, State, Work
from events.lords_of_war import CODEC, GameStarted, Placed
from tests.engine.lords_of_war.test_properties import games, play

GAMES_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "games"


def shape(value: Any) -> Any:
    """A value with the type of every container and element spelled out: equal shapes = the same data bit for
    bit (a list is not a tuple here, a set not a frozenset; sets are compared sorted)."""
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [shape(v) for v in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(shape(v) for v in value))
    if isinstance(value, dict):
        return ("dict", sorted((shape(k), shape(v)) for k, v in value.items()))
    return (type(value).__name__, repr(value))


def state_shape(state: State) -> list[Any]:
    return [(name, shape(getattr(state, name))) for name in State.__struct_fields__]


def evolve_states(events: list[Any]) -> list[State]:
    states = [initial_state()]
    for event in events:
        states.append(evolve(states[-1], event))
    return states


def check_fold_equals_evolve(events: list[Any]) -> None:
    states = evolve_states(events)
    for k in range(len(events) + 1):
        folded = fold(events[:k])
        assert folded == states[k], f"fold and evolve differ after event {k}: {events[k - 1] if k else None!r}"
        assert state_shape(folded) == state_shape(states[k])
        assert state_to_builtins(folded) == state_to_builtins(states[k])
    final = states[-1]
    # fold from a state in the middle, and from an iterator, as the replay reads games
    for k in (1, len(events) // 3, len(events) // 2, len(events) - 1):
        assert fold(events[k:], states[k]) == final
        assert fold(iter(events[k:]), fold(events[:k])) == final
    # deterministic; and neither fold nor evolve changed a state it was given
    assert fold(events) == fold(list(events)) == final
    assert evolve_states(events) == states
    assert [state_shape(s) for s in evolve_states(events)] == [state_shape(s) for s in states]


def table_mode_events(events: list[Any]) -> list[Any]:
    """The same game recorded by a scorekeeper in table mode (hands unknown, forced placements with the revealed
    hand): the other paths of hand_revealed, placed and card_drawn."""
    started = events[0]
    variant = {f: getattr(started.variant, f) for f in started.variant.__struct_fields__}
    out = list(start({
        "players": [{"id": a.id, "name": a.name, "army": list(a.cards)} for a in started.players],
        "variant": {**variant, "mode": "table"},
    }))
    state = fold(out)
    for _, _, action in recorded_actions(events, table=True):
        if isinstance(action, Draw):
            action = Draw(player=action.player)
        for event in decide(state, action):
            out.append(event)
            state = evolve(state, event)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(games)
def test_fold_equals_the_evolve_loop_at_every_prefix_of_bot_games(game):
    events = play(game)
    check_fold_equals_evolve(events)
    if game[0] % 3 == 0:
        check_fold_equals_evolve(table_mode_events(events))


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
          database=None)
@given(games)
def test_fold_slow_equals_the_evolve_loop_in_more_bot_games(game):
    events = play(game)
    check_fold_equals_evolve(events)
    check_fold_equals_evolve(table_mode_events(events))


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.jsonl")), ids=lambda p: p.stem)
def test_fold_equals_the_evolve_loop_in_the_fixture_games(path):
    events = [CODEC.decode_json(line) for line in path.read_bytes().splitlines() if line.strip()]
    check_fold_equals_evolve(events)


def test_fold_of_a_starting_position_equals_evolve():
    opening = list(start({
        "players": [{"id": "p1", "name": "Ann", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "dwarves"}],
        "position": {"to_move": "p2", "kills": {"p1": {"total": 3, "commanders": 1}},
                     "board": [{"square": "C3", "card": "orcs/orc-ravager-2", "owner": "p1"},
                               {"square": "E4", "card": "dwarves/dwarf-marauder-1", "owner": "p2"}]},
    }))
    assert isinstance(opening[0], GameStarted) and opening[0].position is not None
    check_fold_equals_evolve(opening)


def test_fold_and_evolve_refuse_what_is_not_an_event():
    state = fold(play((1, "orcs", "elves", {}, ("random", "random")))[:5])
    with pytest.raises(TypeError, match="not a Lords of War event"):
        evolve(state, "placed")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a Lords of War event"):
        fold([Placed(player="p1", card="orcs/orc-ravager-2", square="C3", turn=1), object()], state)  # type: ignore[list-item]


def test_evolve_and_fold_are_derived_from_one_apply_on_a_typed_work():
    """Issue 29 item 2: one way to apply an event. ``evolve`` and ``fold`` are the Folding's (no second path), and
    the working copy has State's fields, each typed (no ``Any`` anywhere in its annotations)."""
    assert evolve == FOLDING.evolve and state_module.evolve == FOLDING.evolve
    assert fold == FOLDING.fold and state_module.fold == FOLDING.fold
    assert (FOLDING.initial, FOLDING.thaw, FOLDING.apply, FOLDING.freeze) == (
        initial_state, state_module.thaw, state_module.apply, state_module.freeze)
    hints = get_type_hints(Work)
    assert list(hints) == list(State.__struct_fields__)

    def has_any(annotation: Any) -> bool:
        return annotation is Any or any(has_any(arg) for arg in get_args(annotation))

    assert [name for name, annotation in hints.items() if has_any(annotation)] == []


def test_fold_of_no_events_is_the_state_it_was_given():
    events = play((2, "undead", "templars", {"intermediate": True}, ("greedy", "random")))
    state = fold(events[:40])
    assert fold([], state) == state and state_shape(fold([], state)) == state_shape(state)
    assert fold([]) == initial_state()


# -- redecide: decide on the working copy -------------------------------------------------------------------------


def outcome_of(state: State, action: Any, full_check: bool = False) -> Any:
    try:
        return decide(state, action, full_check=full_check)
    except RuleError as exc:
        return (exc.code, exc.rule, exc.message)


def check_redecide_equals_decide_on_folded_states(events: list[Any], full_check: bool = False) -> None:
    """redecide decides on fold's working copy, moved on in place; the outcomes must be decide's on the State."""
    redecided = list(redecide(events, full_check=full_check))
    assert [(s, e, a) for s, e, a, _ in redecided] == recorded_actions(events)
    for first, _, action, outcome in redecided:
        if isinstance(outcome, RuleError):
            outcome = (outcome.code, outcome.rule, outcome.message)
        assert outcome == outcome_of(fold(events[:first]), action, full_check), f"action at event {first}"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(games)
def test_redecide_outcomes_equal_decide_on_the_folded_state(game):
    events = play(game)
    check_redecide_equals_decide_on_folded_states(events, full_check=game[0] % 2 == 0)
    if game[0] % 3 == 0:
        check_redecide_equals_decide_on_folded_states(table_mode_events(events))


def test_redecide_refusals_equal_decide_on_the_folded_state():
    """A recorded stream today's rules refuse (here: placements of cards the hand does not hold, and squares
    off the mat): the same RuleErrors as decide on the State gives."""
    events = play((11, "orcs", "dwarves", {}, ("greedy", "random")))
    placed = [i for i, e in enumerate(events) if isinstance(e, Placed) and not e.challenge]
    events[placed[3]] = msgspec.structs.replace(events[placed[3]], card="dwarves/dwarf-slugger-1")
    events[placed[6]] = msgspec.structs.replace(events[placed[6]], card="elves/elven-archer")
    redecided = list(redecide(events))
    refused = [outcome for _, _, _, outcome in redecided if isinstance(outcome, RuleError)]
    assert len(refused) >= 2 and {e.code for e in refused} <= {"not_in_hand", "not_in_army", "contact", "occupied"}
    check_redecide_equals_decide_on_folded_states(events)


# -- the shuffle and the square names, as fold uses them --------------------------------------------------------


def reference_decks(seed: int, decks: list[list[int]]) -> list[list[int]]:
    rng = SplitMix64(seed)
    return [shuffle(deck, rng) for deck in decks]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=-2**80, max_value=2**80)),
       st.lists(st.integers(min_value=0, max_value=45), max_size=3))
def test_shuffled_decks_equals_splitmix64_and_fisher_yates_one_draw_at_a_time(seed, sizes):
    decks = [list(range(100 * i, 100 * i + n)) for i, n in enumerate(sizes)]
    assert shuffled_decks(seed, decks) == reference_decks(seed, decks)


def test_shuffled_decks_draws_are_the_reference_vectors():
    rng = SplitMix64(1234567)  # Vigna's splitmix64.c, as in test_rulings
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert list(_draws(1234567, 3)) == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    # pinned: seed 42's two 35-card decks (any change here changes every stored sealed game's deck order)
    decks = shuffled_decks(42, [list(range(35)), list(range(35, 70))])
    assert decks == reference_decks(42, [list(range(35)), list(range(35, 70))])
    with pytest.raises(ValueError, match="unknown shuffle algorithm"):
        shuffled_decks(42, [[1, 2]], "mersenne-twister/1")


def test_square_keys_are_parse_remembered():
    for k in geo.MAT_SQUARES:
        assert geo.key_of(geo.name(k, False), False) == geo.parse(geo.name(k, False), False) == k
        assert geo.key_of(geo.name(k, True), True) == k
    assert geo.key_of("-3,17", True) == geo.key(-3, 17) == geo.parse("-3,17", True)
    keys = geo._SquareKeys(unbounded=True, limit=3)  # noqa: SLF001
    for x in range(10):
        assert keys[f"{x},1"] == geo.key(x, 1)
        assert len(keys) <= 3
