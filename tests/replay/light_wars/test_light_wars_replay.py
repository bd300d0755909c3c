"""Light Wars' replay parts: views (the seed and a screened deployment hidden), explanations in sentences, the text
record (export, import, round trip; table dice as moves), the terminal map with facing arrows."""

from __future__ import annotations

import msgspec
import pytest

from engine.light_wars import SYSTEM
from engine.play import play
from events.light_wars import DeploymentScreened, GameStarted, ScreenLifted
from replay.archive.games import RecordError, export_record, import_record
from replay.light_wars import explain, notation, terminal, views
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore
from tests.engine.light_wars.lw_given import Game, position_game


def _screened_game() -> Game:
    game = Game({"system": "light-wars", "seed": 9, "variant": {"deployment": "screen"},
                 "players": [{"id": "p1", "army": "balanced"}, {"id": "p2", "army": "riders"}]})
    game.act(msgspec.to_builtins(SYSTEM.legal_actions(game.state, "p1")[1]))
    return game


def test_views_a_screened_deployment_is_hidden_from_every_other_view_until_the_screen_lifts() -> None:
    game = _screened_game()
    screened = game.events[-1]
    assert isinstance(screened, DeploymentScreened)
    assert views.redacted_event(screened, "p2").placements is None
    assert views.redacted_event(screened, "spectator").placements is None
    assert views.redacted_event(screened, "p1") == screened
    placed = {p.square for p in screened.placements}
    for view in ("p2", "spectator"):
        shown = views.state_view(game.state, view)
        assert all(u["square"] is None and u["status"] == "screened" for u in shown["units"] if u["owner"] == "p1")
        picture = "\n".join(terminal.render(shown, "full"))
        assert "K^" not in picture and "I1^" not in picture and "behind the screen: p1 K" in picture
    assert {u["square"] for u in views.state_view(game.state, "p1")["units"] if u["owner"] == "p1"} == placed
    game.act(msgspec.to_builtins(SYSTEM.legal_actions(game.state, "p2")[0]))
    assert any(isinstance(e, ScreenLifted) for e in game.events)
    assert {u["square"] for u in views.state_view(game.state, "p2")["units"] if u["owner"] == "p1"} == placed


def test_views_the_seed_is_for_all_only() -> None:
    started = SYSTEM.start({"system": "light-wars", "seed": 77, "players": [{"id": "p1", "army": "balanced"},
                                                                             {"id": "p2", "army": "horde"}]})[0]
    assert isinstance(started, GameStarted)
    assert views.redacted_event(started, "spectator").seed is None and views.redacted_event(started, "p1").seed is None
    assert views.redacted_event(started, "all").seed == 77


def test_explanation_of_the_worked_example_reads_as_the_issue_says() -> None:
    game = position_game(["p1 K A1 N", "p2 K I9 S", "p1 C1 D6 S", "p1 I1 E5 W", "p2 A1 D5 W"])
    game.act({"type": "attack", "player": "p1", "target": "D5", "attackers": ["D6", "E5"]})
    game.act({"type": "roll", "player": "p1", "value": 4})
    before = game.state
    produced = game.act({"type": "roll", "player": "p2", "value": 5})
    line, cause = explain.explain(SYSTEM.fold(produced[:1], before), produced[1])
    assert line == ("Cavalry and Infantry attack the Archer from its side and rear: 3+1 + 2+2 + die 4 = 12 against "
                    "1 + die 5 = 6: the Archer is removed")
    assert cause["type"] == "attack_resolved" and cause["rule"] == "§4"


def test_explanation_of_a_first_strike_and_of_a_failed_shot() -> None:
    game = position_game(["p1 K A1 N", "p2 K I9 S", "p1 I1 C4 N", "p2 S1 C5 S"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    game.act({"type": "roll", "player": "p1", "value": 3})
    before = game.state
    produced = game.act({"type": "roll", "player": "p2", "value": 3})
    line, _ = explain.explain(SYSTEM.fold(produced[:1], before), produced[1])
    assert line.endswith("a tie, and the defending Spearman strikes first: the Infantry is removed")


def _table_game(seed: int = 3) -> list:
    setup = SYSTEM.sample_setup(3, seed)  # table mode: every die entered as a move
    assert setup["variant"]["mode"] == "table"
    return play(SYSTEM, setup, ("greedy", "random"), max_actions=3000).events


def test_record_a_table_game_round_trips_with_its_dice_as_moves() -> None:
    events = _table_game()
    service = GameService(MemoryEventStore())
    from replay.archive.games import store_events

    game_id = store_events(service, "light-wars", events, "t")
    text = export_record(service, game_id)
    assert "[Variant \"table small alternate\"]" in text and " d" in text and "[Seed" not in text
    copy = GameService(MemoryEventStore())
    again = import_record(copy, text)
    assert [r.event for r in copy.events(again)] == events
    assert export_record(copy, again) == text


def test_record_of_a_view_without_the_seed_or_a_screened_deployment_is_refused_cleanly() -> None:
    game = _screened_game()
    game.act(msgspec.to_builtins(SYSTEM.legal_actions(game.state, "p2")[0]))
    text = notation.export(game.events, {}, view="spectator")
    assert "screen(?)" in text and '[Seed "?"]' in text
    with pytest.raises(RecordError) as refused:
        import_record(GameService(MemoryEventStore()), text)
    assert refused.value.code in ("hidden_seed", "hidden_move")
    mine = notation.export(game.events, {}, view="p1")
    assert "screen(?)" in mine and "screen(K@" in mine  # p1 sees its own deployment, not p2's


def test_record_moves_parse_to_the_actions() -> None:
    parsed = notation.parse('[System "light-wars"]\n\n1. p1 C2-C4N\n1. p1 C4-C4E\n1. p1 C4+D5xD4\n1. p1 E2=W\n'
                          '1. p1 E3=\n1. p2 d4\n0. p1 K@E1N\n1. p1 tactics:forced-march+battle-cry\n'
                          '0. p2 first:p1\n*\n')
    assert [msgspec.json.decode(msgspec.json.encode(m.action)) for m in parsed.moves] == [
        {"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"},
        {"type": "turn", "player": "p1", "square": "C4", "facing": "E"},  # R6: a move onto its own square is a turn
        {"type": "attack", "player": "p1", "target": "D4", "attackers": ["C4", "D5"]},
        {"type": "wait", "player": "p1", "square": "E2", "facing": "W"},
        {"type": "wait", "player": "p1", "square": "E3", "facing": None},
        {"type": "roll", "player": "p2", "value": 4},
        {"type": "deploy", "player": "p1", "unit": "K", "square": "E1", "facing": "N"},
        {"type": "tactics", "player": "p1", "tiles": ["forced-march", "battle-cry"]},
        {"type": "choose_first", "player": "p2", "first": "p1"},
    ]


def test_terminal_picture_draws_the_map_with_facing_arrows() -> None:
    game = position_game(["p1 K E1 N", "p2 K E9 S", "p1 C1 C4 E", "p2 A1 D5 W"])
    shown = views.state_view(game.state, "spectator")
    lines = terminal.render(shown, "full")
    assert lines[1].split()[:2] == ["9", "."] and "kv" in lines[1]
    row4 = next(line for line in lines if line.startswith(" 4 "))
    row5 = next(line for line in lines if line.startswith(" 5 "))
    assert "C1>" in row4 and "a1<" in row5
    corners = position_game(["p1 K A1 N", "p2 K I9 S"])
    compact = terminal.render(views.state_view(corners.state, "spectator"), "compact")
    assert compact[1].split() == ["9", ".", ".", ".", ".", "#", ".", ".", ".", "kv"]  # p2's Castle E9, its King I9
    assert terminal.headline(shown) == "turn 1 (marker 5) · p1: action phase"
    assert terminal.tally(shown).startswith("scores p1 0 · p2 0")


def test_r6_a_move_then_a_turn_then_an_attack_round_trips_through_the_record() -> None:
    game = position_game(["p1 K A1 N", "p2 K I9 S", "p1 I1 C2 N", "p2 I1 D4 S"])
    game.act({"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"})
    game.act({"type": "turn", "player": "p1", "square": "C4", "facing": "E"})
    game.act({"type": "attack", "player": "p1", "target": "D4", "attackers": ["C4"]})
    game.act({"type": "roll", "player": "p1", "value": 4})
    game.act({"type": "roll", "player": "p2", "value": 2})
    text = notation.export(game.events, {}, view="all", comments=True)
    assert "1. p1 C2-C4N\n1. p1 C4-C4E\n1. p1 C4xD4\n" in text, text
    copy = GameService(MemoryEventStore())
    assert [r.event for r in copy.events(import_record(copy, text))] == game.events
