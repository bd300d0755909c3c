"""Every registry lists the same game systems, and each system's parts implement their protocols."""

from __future__ import annotations

import pytest

from engine.systems import SYSTEMS
from replay.plugin import Explanations, RecordSyntax, ReplayParts, ReplaySystem, TerminalPicture, Views
from replay.systems import PLUGINS, get_plugin, register, registered


def test_the_engine_and_replay_registries_list_the_same_systems():
    assert sorted(SYSTEMS) == sorted(PLUGINS)


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_each_systems_replay_parts_implement_the_protocols(name):
    plugin = get_plugin(name)
    assert isinstance(plugin, ReplaySystem) and plugin.name == name
    assert isinstance(plugin.views, Views)
    assert isinstance(plugin.explanations, Explanations)
    assert isinstance(plugin.records, RecordSyntax)
    assert isinstance(plugin.terminal, TerminalPicture)


def test_register_refuses_parts_that_miss_a_capability_and_a_taken_name():
    lords = get_plugin("lords-of-war")
    half = ReplayParts(name="half", views=lords.views, explanations=lords.explanations, records=object(),  # type: ignore[arg-type]
                       terminal=lords.terminal)
    with pytest.raises(TypeError, match="records part does not implement replay.plugin.RecordSyntax"):
        register(half)
    copy = ReplayParts(name="lords-of-war", views=lords.views, explanations=lords.explanations,
                       records=lords.records, terminal=lords.terminal)
    with pytest.raises(ValueError, match="already registered"):
        register(copy)
    with registered(copy, replace=True):
        assert get_plugin("lords-of-war") is copy
    assert get_plugin("lords-of-war") is lords
