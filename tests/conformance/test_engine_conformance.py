"""Every registered game system, held to the ``GameSystem`` protocol's promises (engine/system.py), through the
protocol alone: the suite knows no system. It runs over the registry (Lords of War) and over ``pebbles``, a tiny
test-only system registered here for each test and gone after.

Games come from each system's ``sample_setup`` and ``bots``; the default run plays a few per system (kept fast),
the ``slow`` hypothesis tests many more. Each system plays on its default catalogue and again on each second catalogue
``tests/conformance/catalogues.py`` lists for it (issue 30: ``SECOND_CATALOGUES``, the one list).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib
import itertools
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warlog_pebbles.rules import PEBBLES

from engine.errors import RuleError, SetupError
from engine.folding import Folding
from engine.play import PlayedGame, play, verify
from engine.system import GameSystem, Records, Results, Rules, Seating, SelfPlay, seat_id
from engine.systems import get_system, registered, system_names
from tests.conformance.catalogues import catalogue_path, on_catalogue, registered_system, with_catalogues

ROOT = Path(__file__).resolve().parents[2]
TEST_SYSTEMS = (PEBBLES,)  # registered for each test only
NAMES = sorted({*system_names(), *(s.name for s in TEST_SYSTEMS)})
SAMPLES = 6  # sample setups per system in the default run (Lords of War: each of its sample variants once)
SEED = 20240601

AnySystem = GameSystem[Any, Any, Any]


@pytest.fixture(params=with_catalogues(NAMES), ids=lambda name: name.id)
def system(request: pytest.FixtureRequest) -> Iterator[AnySystem]:
    with registered(*TEST_SYSTEMS):
        found = get_system(request.param)
        yield found if request.param.catalogue is None else on_catalogue_of(found, request.param.catalogue)


@functools.cache
def on_catalogue_of(system: AnySystem, path: str) -> AnySystem:
    """One copy per system and catalogue, so ``played`` plays its games once."""
    played_on: AnySystem = on_catalogue(system, path)
    return played_on


def lineups(system: AnySystem) -> list[tuple[str, ...]]:
    """Every bot alone, then each bot against the next (a game per lineup in turn)."""
    names = sorted(system.bots)
    return [(name,) for name in names] + [(a, b) for a, b in zip(names, names[1:] + names[:1], strict=True) if a != b]


@functools.cache
def played(system: AnySystem, index: int, seed: int = SEED,
           seats: int | None = None) -> tuple[dict[str, Any], PlayedGame[Any, Any]]:
    """Sample game ``index`` of a system (with ``seats`` seats, None: the system's choice): its setup and the bot
    game (deterministic, so computed once)."""
    setup = system.sample_setup(index, seed + index, seats)
    bots = lineups(system)[index % len(lineups(system))]
    return setup, play(system, setup, bots, max_actions=3000)


def games(system: AnySystem, count: int = SAMPLES) -> list[tuple[dict[str, Any], PlayedGame[Any, Any]]]:
    """``count`` sample games, then one game of each seat count they left out (Lords of War: 3, 4 and 6)."""
    out = [played(system, index) for index in range(count)]
    covered = {len(system.seats(setup)) for setup, _ in out}
    out += [played(system, index, seats=n) for index, n in enumerate(system.seat_counts().counts) if n not in covered]
    return out


def states_along(system: AnySystem, events: Sequence[Any]) -> list[Any]:
    """The state before any event, then after each event (evolve step by step)."""
    out = [system.initial_state()]
    for event in events:
        out.append(system.evolve(out[-1], event))
    return out


def encoded(system: AnySystem, events: Sequence[Any]) -> bytes:
    return b"\n".join(system.codec.encode_json(event) for event in events)


def tag(event: Any) -> str:
    return type(event).tag_name()


# -- the protocol and the registry ------------------------------------------------------------------------------


def test_conformance_every_system_speaks_every_capability(system: AnySystem) -> None:
    for capability in (Rules, Seating, Results, Records, SelfPlay, GameSystem):
        assert isinstance(system, capability), capability.__name__
    assert get_system(system.name) is registered_system(system) and system.name in system_names()
    assert {"random", "greedy"} <= set(system.bots)  # SYSTEMS.md: a random and a greedy bot


def test_conformance_the_test_system_is_gone_after_the_test() -> None:
    assert PEBBLES.name not in system_names()
    with registered(*TEST_SYSTEMS):
        assert get_system(PEBBLES.name) is PEBBLES
    assert PEBBLES.name not in system_names()


# -- seats ------------------------------------------------------------------------------------------------------


def test_conformance_seats_agree_with_the_setup(system: AnySystem) -> None:
    overall = system.seat_counts()
    for index in range(SAMPLES):
        setup = system.sample_setup(index, SEED)
        seats = system.seats(setup)
        counts = system.seat_counts(setup)
        assert overall.min <= counts.min <= counts.max <= overall.max
        assert len(seats) in counts
        assert [s.id for s in seats] == [str(p.get("id", seat_id(i))) for i, p in enumerate(setup["players"])]
        assert [(s.id, s.index) for s in seats] == [(seat_id(i), i) for i in range(len(seats))]
        teams = [s.team for s in seats]
        assert all(t is None for t in teams) or (None not in teams and len(set(teams)) >= 2)
        opening = system.start(setup)
        assert tag(opening[0]) == "game_started"
        awaited = system.to_act(system.fold(opening))
        assert awaited and set(awaited) <= {s.id for s in seats}
        assert system.to_act(system.initial_state()) == ()


def test_conformance_every_seat_count_has_a_sample_and_no_other_count_starts(system: AnySystem) -> None:
    overall = system.seat_counts()
    for count in range(overall.min, overall.max + 1):
        if count not in overall:  # a gap (Lords of War: no five-player game)
            with pytest.raises(SetupError):
                system.sample_setup(0, SEED, seats=count)
            continue
        setups = []
        for index in range(2 * SAMPLES):
            try:
                setups.append(system.sample_setup(index, SEED, seats=count))
            except SetupError:
                continue
        assert setups, f"no sample setup with {count} seats"
        assert all(len(system.seats(setup)) == count for setup in setups)
    for count in (overall.min - 1, overall.max + 1):
        with pytest.raises(SetupError):
            system.sample_setup(0, SEED, seats=count)
    setup = system.sample_setup(0, SEED)
    players = setup["players"]
    one_too_many = dict(players[-1], id=seat_id(len(players)), name="one too many")
    crowded = players + [one_too_many] * (overall.max + 1 - len(players))
    for wrong in (players[: overall.min - 1], crowded):
        with pytest.raises(SetupError) as refused:
            system.start({**setup, "players": wrong})
        assert refused.value.code and refused.value.rule
        with pytest.raises(SetupError):
            system.seats({**setup, "players": wrong})


# -- determinism ------------------------------------------------------------------------------------------------

_DIGEST_SCRIPT = """
import hashlib, sys
from api.installed import load_systems
from engine.play import play
from engine.systems import get_system, registered
from warlog_pebbles.rules import PEBBLES
from tests.conformance.test_engine_conformance import lineups
from tests.conformance.catalogues import on_catalogue
name, index, seed, catalogue = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
load_systems(exclude=["pebbles"])  # a process starts as the product does
with registered(PEBBLES):
    system = get_system(name)
    if catalogue:  # the system played on a second catalogue (tests/conformance/catalogues.py)
        system = on_catalogue(system, catalogue)
    setup = system.sample_setup(index, seed + index)
    game = play(system, setup, lineups(system)[index % len(lineups(system))], max_actions=3000)
    print(hashlib.sha256(b"\\n".join(system.codec.encode_json(e) for e in game.events)).hexdigest())
"""


def test_conformance_same_setup_and_bot_seeds_give_the_same_bytes(system: AnySystem) -> None:
    for index in (0, 1):
        setup, first = played(system, index)
        again = play(system, setup, lineups(system)[index % len(lineups(system))], max_actions=3000)
        assert again.events == first.events and encoded(system, again.events) == encoded(system, first.events)
    # other processes, other hash seeds: set and dict orders of strings change, the bytes may not
    _, first = played(system, 1)
    digests = {hashlib.sha256(encoded(system, first.events)).hexdigest()}
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT, system.name, "1", str(SEED),
                               catalogue_path(system)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        digests.add(done.stdout.strip())
    assert len(digests) == 1


def test_conformance_a_different_seed_gives_a_different_game(system: AnySystem) -> None:
    _, one = played(system, 0)
    _, other = played(system, 0, SEED + 1)
    assert encoded(system, one.events) != encoded(system, other.events)


# -- bots -------------------------------------------------------------------------------------------------------


def test_conformance_bots_play_every_sample_to_the_end(system: AnySystem) -> None:
    for setup, game in games(system):
        assert not game.conceded_at_limit, f"bots did not finish {setup}"
        assert tag(game.events[0]) == "game_started" and tag(game.events[-1]) == "game_ended"
        assert sum(tag(e) == "game_ended" for e in game.events) == 1
        assert system.outcome(system.fold(game.events)) is not None


def test_conformance_a_bot_given_the_same_seed_chooses_the_same(system: AnySystem) -> None:
    _, game = played(system, 0)
    states = states_along(system, game.events)
    for _, factory in sorted(system.bots.items()):
        for step in game.actions[:: max(1, len(game.actions) // 10)]:
            state = states[step.start]
            assert factory(7).choose(state, step.seat) == factory(7).choose(state, step.seat)


# -- fold and evolve --------------------------------------------------------------------------------------------


def test_conformance_fold_of_every_prefix_equals_evolve_step_by_step(system: AnySystem) -> None:
    for _, game in games(system, 3):
        states = states_along(system, game.events)
        for n, state in enumerate(states):
            assert system.fold(game.events[:n]) == state, f"prefix of {n} events"
        msgspec.json.encode(system.state_to_builtins(states[-1]))  # plain JSON data


def test_conformance_fold_from_a_state_goes_on_from_it(system: AnySystem) -> None:
    """``fold(events, state)`` is the fold of the whole stream when ``state`` is the fold of what came before, from
    every point of a game (the statistics' core steps through the opening and folds the rest on)."""
    for _, game in games(system, 3):
        states = states_along(system, game.events)
        for n, state in enumerate(states):
            assert system.fold(game.events[n:], state) == states[-1], f"from the state after {n} events"
            assert system.fold([], state) == state


def folding_of(system: AnySystem) -> Folding[Any, Any, Any] | None:
    """The system's ``Folding`` (DESIGN-29: ``FOLDING`` in ``engine/<system>/state.py`` or ``work.py`` beside it, from
    which its ``evolve`` and ``fold`` are derived), or None for a system that has none: the system object's own
    ``folding``, the Folding its ``evolve`` is bound to, else the ``FOLDING`` of the package its code comes from."""
    for candidate in (getattr(system, "folding", None), getattr(system.evolve, "__self__", None)):
        if isinstance(candidate, Folding):
            return candidate
    modules = {type(system).__module__, getattr(system.decide, "__module__", None),
               getattr(system.evolve, "__module__", None)}
    packages = {m if hasattr(importlib.import_module(m), "__path__") else m.rpartition(".")[0] for m in modules if m}
    for package in sorted(packages):
        for name in (f"{package}.state", f"{package}.work", package):
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
            folding = getattr(module, "FOLDING", None)
            if isinstance(folding, Folding):
                return folding
    return None


def test_conformance_freeze_of_thaw_is_the_state_at_every_prefix_of_bot_games(system: AnySystem) -> None:
    """Issue 29: ``thaw`` and ``freeze`` lose nothing: the working copy of every state of a game freezes back to it,
    and the Folding's ``evolve`` and ``fold`` are the system's."""
    folding = folding_of(system)
    if folding is None:
        pytest.skip(f"{system.name} has no FOLDING yet (engine/<system>/state.py or work.py; issue 29 item 2)")
    for _, game in games(system, 3):
        states = states_along(system, game.events)
        for n, state in enumerate(states):
            assert folding.freeze(folding.thaw(state)) == state, f"freeze(thaw(s)) != s after {n} events"
        assert folding.fold(game.events) == system.fold(game.events) == states[-1]
        assert [folding.evolve(state, event) for state, event in zip(states, game.events, strict=False)] == states[1:]


def test_conformance_evolve_and_fold_leave_the_state_they_came_from_unchanged(system: AnySystem) -> None:
    """A state is a value: ``evolve`` and ``fold`` build new states and never change the one they were given, nor
    does going on from a later state change an earlier one (no mutable part shared between states)."""
    for _, game in games(system, 3):
        states = [system.initial_state()]
        kept = [copy.deepcopy(states[0])]
        for event in game.events:
            states.append(system.evolve(states[-1], event))
            kept.append(copy.deepcopy(states[-1]))
            assert states[-2] == kept[-2], f"evolve changed the state it came from ({tag(event)})"
        middle = len(states) // 2
        system.fold(game.events[middle:], states[middle])
        system.fold(game.events)
        for n, (state, before) in enumerate(zip(states, kept, strict=True)):
            assert state == before, f"the state after {n} events changed later"


# -- outcome ----------------------------------------------------------------------------------------------------


def test_conformance_outcome_is_none_until_game_ended_then_agrees_with_the_state(system: AnySystem) -> None:
    for setup, game in games(system):
        seats = system.seats(setup)
        ids = {s.id for s in seats}
        states = states_along(system, game.events)
        ended_at = next(i for i, e in enumerate(game.events) if tag(e) == "game_ended") + 1
        turns = [system.turn(s) for s in states]
        assert turns == sorted(turns) and turns[0] == 0
        for n, state in enumerate(states):
            outcome = system.outcome(state)
            shown = system.state_to_builtins(state)
            if n < ended_at:
                assert outcome is None and shown["phase"] != "over", f"after {n} events"
                assert n == 0 or set(system.to_act(state)) <= ids and system.to_act(state), f"after {n} events"
                continue
            assert outcome is not None and system.to_act(state) == ()
            assert shown["phase"] == "over" and shown["end_reason"] == outcome.reason
            assert sorted(outcome.seats) == sorted(ids)
            assert not outcome.scores or set(outcome.scores) == ids
            team_of = {s.id: s.team for s in seats}
            for group in outcome.placings:  # a team finishes together
                for seat in group:
                    mates = {s.id for s in seats if s.team is not None and s.team == team_of[seat]}
                    assert mates <= set(group)
            assert outcome.is_draw or outcome.place_of(outcome.winners[0]) == 1


# -- records ----------------------------------------------------------------------------------------------------


def test_conformance_recorded_actions_are_the_played_ones_and_redecide_to_the_same_events(system: AnySystem) -> None:
    for _setup, game in games(system):  # the setup is re-read from the events: recorded_setup is under test
        events = game.events
        recorded = system.recorded_actions(events)
        assert recorded == game.actions
        assert all(a.stop == b.start for a, b in itertools.pairwise(recorded)) and recorded[-1].stop == len(events)
        opening = system.start(system.recorded_setup(events))
        assert list(opening) == events[: recorded[0].start]
        steps = system.redecide(events)
        while True:
            try:
                step = next(steps)
            except StopIteration as done:
                assert done.value == system.fold(events)
                break
            assert step.outcome == tuple(events[step.start : step.stop]), step
        assert verify(system, events) is None


def test_conformance_verify_names_a_recorded_event_that_today_s_rules_do_not_give(system: AnySystem) -> None:
    _, game = played(system, 0)
    events = list(game.events)
    last = game.actions[-1]
    forged = events[: last.start] + events[last.start + 1 : last.stop]  # the action's first event is lost
    assert verify(system, forged) is not None
    assert verify(system, events[:1] + events[2:]) is not None  # a dealt hand or bonus lost from the opening


# -- legal and illegal actions ----------------------------------------------------------------------------------


def sampled_states(system: AnySystem, game: PlayedGame[Any, Any], count: int) -> list[Any]:
    """About ``count`` states a seat acted in, spread over the game, the last one always among them."""
    states = states_along(system, game.events)
    steps = game.actions[:: max(1, len(game.actions) // count)]
    if steps[-1] != game.actions[-1]:
        steps.append(game.actions[-1])
    return [states[step.start] for step in steps]


def legal_set(system: AnySystem, state: Any) -> list[Any]:
    return [a for seat in system.to_act(state) for a in system.legal_actions(state, seat)]


def test_conformance_every_legal_action_is_decided_and_round_trips_as_json(system: AnySystem) -> None:
    for _, game in games(system, 3):
        for state in sampled_states(system, game, 12):
            actions = legal_set(system, state)
            assert actions, "a seat is awaited, so it has a legal action"
            assert list(system.legal_actions(state)) == list(system.legal_actions(state, system.to_act(state)[0]))
            for action in actions[:: max(1, len(actions) // 25)]:
                assert system.decide(state, action), action
                assert system.parse_action(msgspec.to_builtins(action)) == action


def _mutations(action: Any, others: Sequence[Any]) -> Iterator[Any]:
    """``action`` with one scalar field changed: to the value another action of its kind has there, or to a value
    just past those, or one no game uses. Containers and empty fields are left alone (they carry data no state
    enumerates, like the shots of a Lords of War placement)."""
    for field in action.__struct_fields__:
        value = getattr(action, field)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            continue
        seen = {getattr(o, field) for o in others if type(o) is type(action)} - {value}
        if isinstance(value, str):
            strange: tuple[Any, ...] = ("zz9", "")
        else:  # just past the values in use, and far off
            known = [v for v in seen | {value} if isinstance(v, int)]
            strange = (min(known) - 1, max(known) + 1, -1, 0, 10**6)
        for other in sorted(seen, key=repr)[:6] + list(strange):
            if isinstance(other, type(value)):
                yield msgspec.structs.replace(action, **{field: other})


def _reseated(action: Any, seat_ids: Sequence[str], seat: str) -> Any:
    """``action`` with every field naming a seat made to name ``seat`` (an action of another state, for the seat
    the game awaits now)."""
    changes = {f: seat for f in action.__struct_fields__ if getattr(action, f) in seat_ids}
    return msgspec.structs.replace(action, **changes) if changes else action


def test_conformance_every_illegal_action_raises_rule_error_naming_its_rule(system: AnySystem) -> None:
    probed = 0
    for setup, game in games(system, 4):
        seat_ids = [s.id for s in system.seats(setup)]
        states = sampled_states(system, game, 12)
        pools = [legal_set(system, s) for s in states]
        for i, state in enumerate(states):
            legal = pools[i] + [system.concession(seat) for seat in seat_ids]
            for seat in seat_ids:
                if seat not in system.to_act(state):
                    assert list(system.legal_actions(state, seat)) == [], seat
            others = [a for j, pool in enumerate(pools) if j != i for a in pool[:: max(1, len(pool) // 12)]]
            reseated = [_reseated(a, seat_ids, system.to_act(state)[0]) for a in others]
            mutated = [m for a in pools[i][:: max(1, len(pools[i]) // 4)] for m in _mutations(a, others)]
            for probe in others + reseated + mutated:
                if probe in legal:
                    continue
                with pytest.raises(RuleError) as refused:
                    system.decide(state, probe)
                assert isinstance(refused.value.code, str) and refused.value.code, probe
                assert isinstance(refused.value.rule, str) and refused.value.rule, probe
                probed += 1
        # before the start and after the end, nothing is legal, not even a concession
        everything = [a for pool in pools for a in pool[:5]] + [system.concession(seat) for seat in seat_ids]
        for state in (system.initial_state(), system.fold(game.events)):
            for probe in everything:
                with pytest.raises(RuleError):
                    system.decide(state, probe)
    assert probed > 50


def test_conformance_malformed_actions_are_refused_as_malformed(system: AnySystem) -> None:
    for data in ("place C3", 17, None, [], {}, {"type": "no-such-action"}, {"type": 3}):
        with pytest.raises(RuleError) as refused:
            system.parse_action(data)
        assert refused.value.code == "malformed", data


# -- many games (hypothesis) ------------------------------------------------------------------------------------


def _check_game(system: AnySystem, setup: dict[str, Any], bots: tuple[str, ...], seed: int) -> None:
    game = play(system, setup, bots, seed=seed, max_actions=3000)
    assert not game.conceded_at_limit
    assert play(system, setup, bots, seed=seed, max_actions=3000).events == game.events
    assert system.recorded_actions(game.events) == game.actions
    assert verify(system, game.events) is None
    final = system.fold(game.events)
    assert system.outcome(final) is not None and system.to_act(final) == ()


def _many_games(name: str, index: int, seed: int, data: st.DataObject) -> None:
    with registered(*TEST_SYSTEMS):
        system = get_system(name)
        counts = system.seat_counts().counts
        seats = data.draw(st.sampled_from((None, *counts)))  # the system's choice, or any count it allows
        setup = system.sample_setup(index, seed, seats)
        bots = tuple(data.draw(st.lists(st.sampled_from(sorted(system.bots)), min_size=1, max_size=6)))
        _check_game(system, setup, bots, seed)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 200), seed=st.integers(0, 2**63 - 1), data=st.data())
def test_conformance_any_sample_game_is_deterministic_recorded_and_verified(
    name: str, index: int, seed: int, data: st.DataObject
) -> None:
    _many_games(name, index, seed, data)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 10_000), seed=st.integers(0, 2**63 - 1), data=st.data())
def test_conformance_many_sample_games_are_deterministic_recorded_and_verified(
    name: str, index: int, seed: int, data: st.DataObject
) -> None:
    _many_games(name, index, seed, data)


def test_conformance_a_system_taking_catalogues_plays_its_default_and_names_problems_by_path(
    system: AnySystem,
) -> None:
    """The optional ``Catalogues`` capability (issue 30): the default is the built-in data, playable, with its
    labels, the same document (the same id) each time; the schema is JSON Schema 2020-12 of an object naming the
    system; a document of the wrong shape gets shape problems (``rule`` None) by path, and nothing else."""
    from engine.catalogue import JSON_SCHEMA_DIALECT, catalogue_id
    from engine.system import catalogues_of

    catalogues = catalogues_of(system)
    if catalogues is None:
        pytest.skip(f"{system.name} takes no catalogue yet")
    default = catalogues.default()
    assert catalogues.problems(default) == ()
    assert default["system"] == system.name and default["name"] and default["version"]
    assert catalogue_id(catalogues.default()) == catalogue_id(default)
    schema = catalogues.schema()
    assert schema["$schema"] == JSON_SCHEMA_DIALECT and schema["type"] == "object"
    assert schema["properties"]["system"] == {"const": system.name}
    problems = catalogues.problems({"system": system.name, "name": 7})
    assert problems and all(p.rule is None for p in problems)
    assert {"name", "version"} <= {p.path for p in problems}
    assert catalogues.problems([]) and catalogues.problems("cards")

