"""The registry: built-in systems, registration that tests can undo, lookups."""

from __future__ import annotations

import pytest

from engine import systems
from engine.lords_of_war import SYSTEM as LORDS_OF_WAR
from engine.systems import SYSTEMS, UnknownSystem, get_system, register, registered, system_names, unregister
from tests.conformance.pebbles import PEBBLES, Pebbles

BUILT_IN = system_names()  # what engine.systems registers on import (Lords of War first)


def test_systems_lords_of_war_is_built_in():
    assert "lords-of-war" in BUILT_IN and get_system("lords-of-war") is LORDS_OF_WAR
    assert next(iter(SYSTEMS)) == "lords-of-war"  # registered first: the default of commands naming none
    assert SYSTEMS["lords-of-war"] is LORDS_OF_WAR  # the old mapping still answers existing callers


def test_systems_an_unknown_name_says_which_are_known():
    with pytest.raises(UnknownSystem) as unknown:
        get_system("chess")
    assert "'chess'" in str(unknown.value) and "lords-of-war" in str(unknown.value)
    assert isinstance(unknown.value, KeyError)


def test_systems_registered_adds_for_the_block_only_even_when_it_raises():
    with registered(PEBBLES) as added:
        assert added == (PEBBLES,) and system_names() == tuple(sorted((*BUILT_IN, "pebbles")))
        assert get_system("pebbles") is PEBBLES
    assert system_names() == BUILT_IN
    with pytest.raises(RuntimeError), registered(PEBBLES):
        raise RuntimeError("a failing test")
    assert system_names() == BUILT_IN


def test_systems_registered_with_replace_puts_the_original_back():
    class Renamed(Pebbles):
        name = "lords-of-war"

    impostor = Renamed()
    with pytest.raises(ValueError, match="already registered"):
        register(impostor)
    with registered(impostor, replace=True):
        assert get_system("lords-of-war") is impostor
    assert get_system("lords-of-war") is LORDS_OF_WAR


def test_systems_register_and_unregister_by_hand():
    try:
        assert register(PEBBLES) is PEBBLES
        assert register(PEBBLES) is PEBBLES  # the same object again is no conflict
        assert unregister("pebbles") is PEBBLES
    finally:
        systems.SYSTEMS.pop("pebbles", None)
    assert "pebbles" not in system_names()
    with pytest.raises(UnknownSystem):
        unregister("pebbles")


def test_systems_register_refuses_what_is_not_a_game_system():
    class HalfASystem:
        name = "half"

        def start(self, setup):
            return ()

    with pytest.raises(TypeError, match="GameSystem"):
        register(HalfASystem())  # type: ignore[arg-type]
    assert system_names() == BUILT_IN


@pytest.mark.parametrize("name", ["Pebbles", "peb bles", "pebbles-", "-pebbles", "", "pebbles_2"])
def test_systems_register_refuses_a_name_that_is_not_a_slug(name):
    class Named(Pebbles):
        pass

    Named.name = name
    with pytest.raises(ValueError, match="lower-case words"):
        register(Named())
    assert system_names() == BUILT_IN
