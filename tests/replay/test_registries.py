"""Every registered system has replay parts, and each implements its protocols; parts that do not are refused."""

from __future__ import annotations

import dataclasses

import pytest

from engine.systems import BrokenPlugin, plugin_of, registered, system_names
from replay.plugin import Explanations, RecordSyntax, ReplayParts, ReplaySystem, TerminalPicture, Views
from replay.systems import get_plugin, plugin_names


def test_the_engine_and_replay_registries_list_the_same_systems():
    assert system_names() == plugin_names()


@pytest.mark.parametrize("name", plugin_names())
def test_each_systems_replay_parts_implement_the_protocols(name):
    plugin = get_plugin(name)
    assert isinstance(plugin, ReplaySystem) and plugin.name == name
    assert isinstance(plugin.views, Views)
    assert isinstance(plugin.explanations, Explanations)
    assert isinstance(plugin.records, RecordSyntax)
    assert isinstance(plugin.terminal, TerminalPicture)


def test_replay_parts_that_miss_a_capability_or_name_another_system_are_refused():
    lords = get_plugin("lords-of-war")
    half = ReplayParts(name="lords-of-war", views=lords.views, explanations=lords.explanations,
                       records=object(),  # type: ignore[arg-type]
                       terminal=lords.terminal)
    installed = plugin_of("lords-of-war")
    with registered(dataclasses.replace(installed, replay=half), replace=True):
        with pytest.raises(BrokenPlugin, match="records part does not implement replay.plugin.RecordSyntax"):
            get_plugin("lords-of-war")
    other = dataclasses.replace(lords, name="l5r")
    with registered(dataclasses.replace(installed, replay=other), replace=True):
        with pytest.raises(BrokenPlugin, match="its replay parts are named 'l5r'"):
            get_plugin("lords-of-war")
    copy = dataclasses.replace(lords)
    with registered(dataclasses.replace(installed, replay=copy), replace=True):
        assert get_plugin("lords-of-war") is copy
    assert get_plugin("lords-of-war") is lords
