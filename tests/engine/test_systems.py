"""The registry (engine.systems): one table of plug-ins, filled at start-up from the installed entry points, changed by
tests for a while and put back exactly, looked up by name."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest
from warlog_pebbles.rules import PEBBLES

from engine.lords_of_war import SYSTEM as LORDS_OF_WAR
from engine.systems import (
    DEFAULT_SYSTEM,
    BrokenPlugin,
    SystemPlugin,
    UnknownSystem,
    get_system,
    plugin_of,
    register,
    registered,
    system_names,
    unregister,
)

BUILT_IN = system_names()  # what the session loaded (tests/conftest.py: every installed system but pebbles)


def test_systems_the_five_built_in_systems_are_loaded_and_lords_of_war_is_the_default():
    assert BUILT_IN == ("art-of-war", "heroscape", "l5r", "light-wars", "lords-of-war")
    assert get_system("lords-of-war") is LORDS_OF_WAR and DEFAULT_SYSTEM == "lords-of-war"


def test_systems_no_registry_fills_itself_on_import():
    code = ("import api.systems, engine.systems, replay.systems, replay.analytics.catalogue; "
            "print(engine.systems.system_names(), replay.systems.plugin_names(), api.systems.plugin_names())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "() () ()"


def test_systems_an_unknown_name_says_which_are_known():
    with pytest.raises(UnknownSystem) as unknown:
        get_system("chess")
    assert "'chess'" in str(unknown.value) and "lords-of-war" in str(unknown.value)
    assert isinstance(unknown.value, KeyError)


def test_systems_registered_adds_for_the_block_only_even_when_it_raises():
    with registered(PEBBLES) as added:
        assert [plugin.engine for plugin in added] == [PEBBLES]
        assert system_names() == tuple(sorted((*BUILT_IN, "pebbles")))
        assert get_system("pebbles") is PEBBLES
    assert system_names() == BUILT_IN
    with pytest.raises(RuntimeError), registered(PEBBLES):
        raise RuntimeError("a failing test")
    assert system_names() == BUILT_IN


def test_systems_registered_with_replace_puts_the_original_back():
    impostor = dataclasses.replace(PEBBLES, name="lords-of-war")
    with pytest.raises(ValueError, match="already registered"):
        register(impostor)
    with registered(impostor, replace=True):
        assert get_system("lords-of-war") is impostor
    assert get_system("lords-of-war") is LORDS_OF_WAR


def test_systems_register_and_unregister_by_hand():
    try:
        plugin = register(PEBBLES)
        assert isinstance(plugin, SystemPlugin) and plugin.engine is PEBBLES and plugin.replay is None
        assert register(PEBBLES) is plugin  # the same system again is no conflict
        assert plugin_of("pebbles") is plugin
        assert unregister("pebbles") is plugin
    finally:
        if "pebbles" in system_names():
            unregister("pebbles")
    assert "pebbles" not in system_names()
    with pytest.raises(UnknownSystem):
        unregister("pebbles")


def test_systems_register_refuses_what_is_not_a_game_system():
    class HalfASystem:
        name = "half"

        def start(self, setup):
            return ()

    with pytest.raises(BrokenPlugin, match="does not implement engine.system.GameSystem"):
        register(HalfASystem())  # type: ignore[arg-type]
    assert system_names() == BUILT_IN


@pytest.mark.parametrize("name", ["Pebbles", "peb bles", "pebbles-", "-pebbles", "", "pebbles_2"])
def test_systems_register_refuses_a_name_that_is_not_a_slug(name):
    with pytest.raises(ValueError, match="lower-case words"):
        register(dataclasses.replace(PEBBLES, name=name))
    assert system_names() == BUILT_IN


def test_systems_a_part_given_by_a_bad_reference_is_refused_when_its_layer_reads_it():
    plugin = SystemPlugin(name="pebbles", engine=PEBBLES, replay="nowhere.at_all:PLUGIN", api="not a reference")
    with pytest.raises(BrokenPlugin, match="its replay part nowhere.at_all:PLUGIN cannot be imported"):
        plugin.part("replay")
    with pytest.raises(BrokenPlugin, match="is not a \"module:attribute\""):
        plugin.part("api")
