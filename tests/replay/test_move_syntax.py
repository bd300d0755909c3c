"""Issue 29 item 3: a record's move syntax is declared once per system. One table of forms
(``replay.archive.notation.MoveSyntax``) reads a token, writes an action and lists the accepted forms in its error;
before, each system's notation.py stated its syntax twice (the parser and, again by hand, the error message)."""

from __future__ import annotations

import msgspec
import pytest

from engine.play import play
from engine.systems import get_system
from replay.archive.notation import MoveForm, MoveSyntax, RecordSyntaxError, bare
from replay.art_of_war import notation as art_of_war
from replay.heroscape import notation as heroscape
from replay.l5r import notation as l5r
from replay.light_wars import notation as light_wars
from replay.lords_of_war import notation as lords_of_war

SYSTEMS = {"art-of-war": art_of_war, "heroscape": heroscape, "l5r": l5r, "light-wars": light_wars,
           "lords-of-war": lords_of_war}


class Hop(msgspec.Struct, frozen=True, tag="hop"):
    player: str
    to: str


class Rest(msgspec.Struct, frozen=True, tag="rest"):
    player: str


def test_one_table_reads_writes_and_lists_the_forms_in_its_error() -> None:
    syntax = MoveSyntax([MoveForm(Hop, "hop", "hop:A1", lambda rest, p: Hop(player=p, to=rest) if rest else None,
                                  lambda a: f"hop:{a.to}"), bare("rest", Rest)])
    assert syntax.read("hop:B2", "p1", 3) == Hop(player="p1", to="B2") and syntax.write(Hop("p2", "C3")) == "hop:C3"
    assert syntax.read("rest", "p2", 3) == Rest(player="p2") and syntax.write(Rest("p1")) == "rest"
    for bad in ("jump:B2", "hop", "rest:now"):
        with pytest.raises(RecordSyntaxError, match=r"line 3: cannot read move '.*': hop:A1 or rest$"):
            syntax.read(bad, "p1", 3)
    with pytest.raises(RecordSyntaxError) as hidden:
        syntax.read("hop:?", "p1", 4)
    assert hidden.value.code == "hidden_move"


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_a_systems_error_lists_exactly_the_forms_of_its_table(name: str) -> None:
    syntax = SYSTEMS[name].SYNTAX
    with pytest.raises(RecordSyntaxError) as error:
        SYSTEMS[name].parse('[System "x"]\n\n1. p1 nonsense:move *\n')
    assert error.value.message == f"cannot read move 'nonsense:move': {syntax.accepted()}"
    assert {form.word for form in syntax.forms} >= {"concede"}


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_every_action_of_bot_games_is_written_and_read_back_by_the_one_table(name: str) -> None:
    system = get_system(name)
    syntax = SYSTEMS[name].SYNTAX
    seen = set()
    for seed in range(4):
        game = play(system, system.sample_setup(seed, seed), tuple(system.bots)[:1] * 2, max_actions=400)
        for step in system.recorded_actions(game.events):
            if type(step.action) not in {form.action for form in syntax.forms}:
                continue  # adjudicate: a header tag, not a move
            token = syntax.write(step.action)
            assert syntax.read(token, step.action.player, 1) == step.action, token
            seen.add(type(step.action))
    assert len(seen) >= 3  # (Lords of War has four actions, the bots concede none)
