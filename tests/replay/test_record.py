from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lords_of_war import fold
from engine.lords_of_war.bots import play_bot_game
from replay.archive.games import (
    DuplicateGame,
    RecordError,
    export_jsonl,
    export_record,
    import_jsonl,
    import_record,
    import_text,
    store_events,
)
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore
from tests.replay.bots import KnownDrawBot

LOW = "lords-of-war"
POSITION = {
    "board": [
        {"square": "C3", "card": "orcs/goblin-shanker-1", "owner": "p1"},
        {"square": "E4", "card": "dwarves/dwarf-slugger-1", "owner": "p2"},
    ],
    "to_move": "p2",
    "kills": {"p1": {"total": 2, "commanders": 1}},
}
VARIANTS = [
    ({}, None),
    ({"mode": "table"}, None),
    ({"intermediate": True}, None),
    ({"unbounded": True}, None),
    ({"mode": "table", "intermediate": True, "unbounded": True}, None),
    ({"kill_target": 12, "command_target": 3}, None),
    ({}, POSITION),
    ({"mode": "table"}, POSITION),
]


def _game(seed: int, variant: dict, position: dict | None) -> list:
    bots = (KnownDrawBot(seed), KnownDrawBot(seed + 1)) if variant.get("mode") == "table" else ("random", "random")
    return play_bot_game(seed, variant=variant, position=position, bots=bots)


def _payloads(service: GameService, game_id: str) -> list[tuple[str, bytes]]:
    return [(e.type, e.payload) for e in service.store.read(game_id)]


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), which=st.integers(0, len(VARIANTS) - 1))
def test_record_export_then_import_is_the_identity(seed, which):
    variant, position = VARIANTS[which]
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, _game(seed, variant, position), "original")
    text = export_record(service, game_id, comments=bool(seed % 2))
    with pytest.raises(DuplicateGame) as refused:  # the same events: the same game, whatever its id
        import_record(service, text)
    assert refused.value.game_ids == [game_id]
    again = import_record(service, text, allow_duplicate=True)
    assert _payloads(service, again) == _payloads(service, game_id)
    assert export_record(service, again, comments=bool(seed % 2)) == text
    from_jsonl = import_jsonl(service, export_jsonl(service, game_id), allow_duplicate=True)
    assert _payloads(service, from_jsonl) == _payloads(service, game_id)


def test_record_recorded_actions_redecide_every_variant():
    from engine.lords_of_war import SYSTEM

    for which, (variant, position) in enumerate(VARIANTS):
        events = _game(which, variant, position)
        state = fold(SYSTEM.start(SYSTEM.recorded_setup(events)))
        for step in SYSTEM.recorded_actions(events):
            produced = SYSTEM.decide(state, step.action)
            assert list(produced) == events[step.start : step.stop]
            state = fold(produced, state)


def test_record_import_reports_line_and_rule_of_the_first_illegal_move():
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, play_bot_game(4), "g")
    lines = export_record(service, game_id).splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("1. p1 "))
    lines[n] = "1. p1 " + lines[n].split()[2].split("@")[0] + "@G6 draw"  # far from every enemy: contact rule
    before = len(service.store.list_games().games)
    with pytest.raises(RecordError) as caught:
        import_record(service, "\n".join(lines))
    assert caught.value.line == n + 1
    assert caught.value.code == "contact" and caught.value.rule == "contact"
    assert len(service.store.list_games().games) == before  # nothing stored


def test_record_import_refuses_a_wrong_result_and_a_hidden_seed():
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, play_bot_game(6), "g")
    text = export_record(service, game_id)
    winner_token = "1-0" if "[Result \"1-0\"]" in text else "0-1"
    other = "0-1" if winner_token == "1-0" else "1-0"
    with pytest.raises(RecordError) as caught:
        import_record(service, text.replace(f'[Result "{winner_token}"]', f'[Result "{other}"]'))
    assert caught.value.code == "result_mismatch"
    with pytest.raises(RecordError) as caught:
        import_record(service, export_record(service, game_id, view="spectator"))
    assert caught.value.code == "hidden_seed"


def test_record_syntax_errors_name_the_line():
    service = GameService(MemoryEventStore())
    text = '[System "lords-of-war"]\n[P1Army "orcs"]\n[P2Army "dwarves"]\n[Seed "1"]\n\n0. p1 ???\n'
    with pytest.raises(RecordError) as caught:
        import_record(service, text)
    assert caught.value.line == 6 and caught.value.code == "syntax"


def test_record_import_of_a_short_hand_written_game():
    service = GameService(MemoryEventStore())
    events = play_bot_game(2)
    game_id = store_events(service, LOW, events, "g")
    text = export_record(service, game_id)
    header, moves = text.split("\n\n", 1)
    first_four = "\n".join(moves.splitlines()[:4]) + "\n*\n"
    unfinished = (header.replace('[Result "1-0"]', '[Result "*"]').replace('[Result "0-1"]', '[Result "*"]')
                  .replace('[Termination', '[X'))
    short = import_text(service, unfinished + "\n\n" + "{ a comment\nover lines }\n" + first_four, name="g.txt")
    assert service.state(short)[1].turn == 3  # turns 0 (both), 1 and 2 played


def test_record_jsonl_refuses_events_the_rules_do_not_give():
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, play_bot_game(3), "g")
    lines = export_jsonl(service, game_id).splitlines()
    n = next(i for i, line in enumerate(lines) if '"type":"eliminated"' in line)
    lines[n] = lines[n].replace('"damage":', '"damage":1', 1)
    with pytest.raises(RecordError) as caught:
        import_jsonl(service, "\n".join(lines))
    assert caught.value.code == "diverges" and caught.value.line == n + 1


def test_record_the_documented_example_imports():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "record-format.md").read_text(encoding="utf-8")
    example = doc.split("```\n", 2)[1]
    service = GameService(MemoryEventStore())
    game_id = import_record(service, example)
    state = service.state(game_id)[1]
    assert state.winner == "p2" and state.end_reason == "commanders"
    assert service.store.get_game(game_id).metadata["record"]["Event"] == "Leeds Winter Open"
    exported = export_record(service, game_id, comments=True)
    assert exported.replace('"bot 1"', '"Alice"').replace('"bot 2"', '"Bob"') == example


def test_record_move_syntax_forced_reveal_shots_and_unbounded_squares():
    from replay.lords_of_war.notation import parse

    text = ('[System "lords-of-war"]\n\n'
            "7. p2 dwarf-slugger-1@D4!(dwarf-slugger-1 dwarves/dwarf-ballista dwarf-ballista)[C2>D5 B3>D5] "
            "draw:dwarf-ballista\n"
            "8. p1 orc-ravager-2@3,-1[2,2>4,3] recall:-1,2 ; a line comment\n"
            "p2 concede 0-1\n")
    record = parse(text)
    placed, drawn, placed2, recalled, conceded = (m.action for m in record.moves)
    assert placed.player == "p2" and placed.card == "dwarves/dwarf-slugger-1" and placed.square == "D4"
    assert placed.reveal == ("dwarves/dwarf-slugger-1", "dwarves/dwarf-ballista", "dwarves/dwarf-ballista")
    assert [(s.shooter, s.target) for s in placed.shots] == [("C2", "D5"), ("B3", "D5")]
    assert drawn.card == "dwarves/dwarf-ballista"
    assert placed2.square == "3,-1" and placed2.shots[0].target == "4,3" and recalled.square == "-1,2"
    assert conceded.player == "p2" and record.result == "0-1"
    assert [m.line for m in record.moves] == [3, 3, 4, 4, 5]


def test_record_import_table_game_without_seed_stores_none_so_a_second_import_is_a_duplicate():
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, _game(5, {"mode": "table"}, None), "t")
    text = "\n".join(line for line in export_record(service, game_id).splitlines() if not line.startswith("[Seed "))
    first = import_record(service, text)
    assert service.events(first)[0].event.seed is None  # nothing invented: the record gives no seed
    with pytest.raises(DuplicateGame) as refused:
        import_record(service, text)
    assert refused.value.game_ids == [first] and refused.value.code == "duplicate"


def test_record_tag_values_escape_quotes_backslashes_and_control_characters():
    from replay.archive.notation import quote, unquote
    from replay.lords_of_war.notation import parse

    for value in ('plain', 'say "hi"', 'back\\slash', 'line\nbreak\ttab\x1b', '\\u0041 literal', 'sep\u2028'):
        quoted = quote(value)
        assert "\n" not in quoted and "\u2028" not in quoted
        assert unquote(quoted) == value
        assert parse(f'[Event "{quoted}"]\n\n*\n').tags["Event"] == value


@pytest.mark.parametrize("name", ["lords-of-war", "light-wars", "l5r", "art-of-war", "heroscape"])
def test_a_record_without_a_required_tag_names_it(name):
    from engine.play import play
    from engine.systems import get_system
    from replay.log.demo import demo_setup, lineups

    system = get_system(name)
    setup = demo_setup(0, 5, name)
    played = play(system, setup, lineups(system, len(system.seats(setup)))[0])
    service = GameService(MemoryEventStore())
    text = export_record(service, store_events(service, name, played.events, "g"))
    for tag in ("P2Army", "Seed"):
        assert f"[{tag} " in text, (name, tag)
        without = "\n".join(line for line in text.splitlines() if not line.startswith(f"[{tag} "))
        with pytest.raises(RecordError) as caught:
            import_record(service, without)
        assert (caught.value.code, caught.value.line) == ("missing_tag", 1)
        assert f"the header has no [{tag} ...] tag" in str(caught.value)
