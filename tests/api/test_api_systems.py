"""Lords of War's API parts: its setup model is the engine's (variant fields and defaults), its options."""

from __future__ import annotations

import argparse
import typing

import msgspec

from api.lords_of_war import PLUGIN, LordsOfWarGameIn, VariantIn
from api.plugin import TOURNAMENT_CREATE, TOURNAMENT_REGISTER
from engine.lords_of_war import SYSTEM
from events.lords_of_war import Variant


def test_the_variant_model_has_the_engines_fields_types_and_defaults() -> None:
    engine = {f.name: f for f in msgspec.structs.fields(Variant)}
    # teams (§10) is a setup flag, checked against the number of players and not recorded: the seats record it
    assert [name for name in VariantIn.model_fields if name != "teams"] == list(engine)
    assert VariantIn.model_fields["teams"].default is False and VariantIn.model_fields["teams"].annotation is bool
    for name, field in VariantIn.model_fields.items():
        if name == "teams":
            continue
        assert field.default == engine[name].default, name
        engine_type, api_type = engine[name].type, field.annotation
        if typing.get_origin(engine_type) is typing.Literal:
            assert typing.get_args(api_type) == typing.get_args(engine_type), name
        else:
            assert api_type is engine_type, name


def test_the_players_are_as_many_as_the_engine_seats() -> None:
    players = LordsOfWarGameIn.model_fields["players"].metadata
    counts = SYSTEM.seat_counts()
    assert {type(m).__name__: getattr(m, "min_length", None) or getattr(m, "max_length", None) for m in players} \
        == {"MinLen": counts.min, "MaxLen": counts.max}


def _parsed(command: str, argv: list[str]) -> dict[str, object]:
    parser = argparse.ArgumentParser()
    PLUGIN.cli.add_options(parser, command)
    return PLUGIN.cli.options(parser.parse_args(argv), command)


def test_its_options_are_the_variants_fields_and_the_army() -> None:
    assert _parsed(TOURNAMENT_CREATE, []) == {}
    assert _parsed(TOURNAMENT_CREATE, ["--mode", "table", "--kill-target", "12", "--intermediate", "--no-unbounded"]) \
        == {"variant": {"mode": "table", "kill_target": 12, "intermediate": True, "unbounded": False}}
    assert _parsed(TOURNAMENT_REGISTER, ["--army", "orcs"]) == {"army": "orcs"}
    assert _parsed(TOURNAMENT_REGISTER, ["--army", "orcs/a, orcs/b"]) == {"army": ["orcs/a", "orcs/b"]}
    assert _parsed(TOURNAMENT_REGISTER, ["--army", '["orcs/a"]']) == {"army": ["orcs/a"]}


def test_the_team_rules_option_is_named_apart_from_another_systems_teams() -> None:
    assert _parsed("tournament create", ["--team-rules", "--kill-target", "30"]) == \
        {"variant": {"teams": True, "kill_target": 30}}
