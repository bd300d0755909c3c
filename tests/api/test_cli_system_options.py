"""Issue 29 item 3: one option-prefixing class for the options a system adds to ``warlog tournament``. Four systems
had each their own copy of ``ModelOptions.add_options`` with its prefix, and they had drifted apart: HeroScape's and
Light Wars' ``--*-army`` did not take an army as JSON (L5R's and Art of War's did), L5R's and Art of War's options
took no number and no ``--no-`` form of a yes/no field. Now ``api.plugin.ModelOptions`` has the prefix and
the system gives only its army shorthand."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from api.plugin import TOURNAMENT_CREATE, TOURNAMENT_REGISTER, ModelOptions, option_strings
from api.systems import get_plugin, plugin_names
from tests.api.records_helpers import warlog

PREFIXES = {"l5r": "--l5r-", "art-of-war": "--aow-", "heroscape": "--hs-", "light-wars": "--lw-"}


def test_every_systems_options_are_the_one_model_options_class() -> None:
    for name in plugin_names():
        cli = get_plugin(name).cli
        assert type(cli) is ModelOptions, f"{name}: its options are its own class {type(cli).__name__}"
    for name, prefix in PREFIXES.items():
        for command in (TOURNAMENT_CREATE, TOURNAMENT_REGISTER):
            strings = option_strings(get_plugin(name).cli, command)
            assert strings and all(s.startswith((prefix, "--no-" + prefix[2:])) for s in strings), (name, strings)


def _given(system: str, command: str, *argv: str) -> dict[str, object]:
    parser = argparse.ArgumentParser(exit_on_error=False)
    get_plugin(system).cli.add_options(parser, command)
    return get_plugin(system).cli.options(parser.parse_args(argv), command)


@pytest.mark.parametrize(("system", "army"), [
    ("heroscape", {"cards": ["raelin", "airborne-elite"]}),
    ("light-wars", {"units": ["king", "cavalry", "archer"], "tactics": ["battle-cry"]}),
    ("l5r", {"stronghold": "lion-stronghold", "dynasty": ["matsu-tsuko"], "fate": ["katana"]}),
    ("art-of-war", {"king": "red-king", "cards": ["archer", "soldier"]}),
])
def test_every_prefixed_army_option_takes_an_army_as_json(system: str, army: object) -> None:
    flag = PREFIXES[system] + "army"
    assert _given(system, TOURNAMENT_REGISTER, flag, json.dumps(army)) == {"army": army}


def test_each_systems_army_shorthand_is_still_read() -> None:
    assert _given("heroscape", TOURNAMENT_REGISTER, "--hs-army", "raelin, airborne-elite") == \
        {"army": {"cards": ["raelin", "airborne-elite"]}}
    assert _given("heroscape", TOURNAMENT_REGISTER, "--hs-army", "utgar") == {"army": "utgar"}
    assert _given("light-wars", TOURNAMENT_REGISTER, "--lw-army", "king,cavalry+battle-cry") == \
        {"army": {"units": ["king", "cavalry"], "tactics": ["battle-cry"]}}
    assert _given("light-wars", TOURNAMENT_REGISTER, "--lw-army", "legion") == {"army": "legion"}
    assert _given("light-wars", TOURNAMENT_CREATE, "--lw-size", "medium", "--lw-total-cost", "25") == \
        {"variant": {"size": "medium", "total_cost": 25}}


def test_a_heroscape_tournament_player_registers_an_army_given_as_json(tmp_path: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    made = warlog("tournament", "create", "--name", "Scape", "--rounds", "1", "--system", "heroscape", "--db", db)
    assert made.returncode == 0, made.stderr
    tournament = next(word for word in made.stdout.split() if word.startswith("t-"))
    army = json.dumps({"cards": ["raelin", "airborne-elite"]})
    registered = warlog("tournament", "register", tournament, "bob", "--hs-army", army, "--db", db)
    assert registered.returncode == 0, registered.stderr
