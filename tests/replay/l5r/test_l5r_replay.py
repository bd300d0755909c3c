"""L5R downstream of its engine: views hide hands, decks, face-down provinces, focus cards and a starting position;
the explanations read as the issue says; the terminal table draws; a record round-trips, and a view's record of a
hidden position is refused cleanly on import."""

from __future__ import annotations

import pytest

from engine.l5r import SYSTEM
from engine.play import play
from replay.archive.games import import_record
from replay.archive.notation import RecordSyntaxError
from replay.l5r import notation, terminal, views
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore
from tests.engine.l5r.l5r_given import setup as position_setup


def test_views_hide_hands_decks_and_face_down_provinces_from_others():
    game = play(SYSTEM, SYSTEM.sample_setup(0, 5), ("greedy", "random"), max_actions=3000)
    state = SYSTEM.fold(game.events[:40])
    spectator, p1, everything = (views.state_view(state, v) for v in ("spectator", "p1", "all"))
    assert all(p["hand"] is None and p["fate"] is None and p["dynasty"] is None for p in spectator["players"])
    assert list(p1["players"][0]["hand"]) == list(state.player("p1").hand) and p1["players"][1]["hand"] is None
    assert [p["hand_count"] for p in spectator["players"]] == [len(p.hand) for p in state.players]
    hidden = [pr for p in spectator["players"] for pr in p["provinces"] if not pr["face_up"] and pr["filled"]]
    assert hidden and all(pr["card"] is None for pr in hidden)
    assert everything["seed"] == 5 and spectator["seed"] is None
    with pytest.raises(Exception, match="unknown view"):
        views.state_view(state, "p9")


def test_a_starting_position_is_hidden_from_every_view_but_all():
    events = list(SYSTEM.start(position_setup(p1={"hand": ["charge"]}, mode="table")))
    assert views.redacted_event(events[0], "p1").position is None
    assert views.redacted_event(events[0], "all").position is not None
    text = notation.export(events, {}, view="spectator")
    assert '[Position "?"]' in text
    with pytest.raises(RecordSyntaxError) as refused:
        notation.setup_from_tags(notation.parse(text))
    assert refused.value.code == "hidden_position"
    again = notation.setup_from_tags(notation.parse(notation.export(events, {}, view="all")))
    assert again["position"]["players"][0]["hand"] == ["charge"]


def test_record_round_trips_a_table_game_with_its_draws_as_moves():
    game = play(SYSTEM, SYSTEM.sample_setup(2, 9), ("greedy",), max_actions=3000)
    text = notation.export(game.events, {}, view="all")
    assert "draw:" in text and '[Variant "table"]' in text
    copy = GameService(MemoryEventStore())
    again = import_record(copy, text)
    assert [r.event for r in copy.events(again)] == game.events
    assert "draw:?" in notation.export(game.events, {}, view="spectator")


def test_terminal_table_draws_provinces_home_and_a_duel():
    events = list(SYSTEM.start(position_setup(
        p1={"home": [{"card": "matsu-tsuko", "attachments": ["ashigaru"]}], "hand": ["charge"]},
        p2={"home": [{"card": "doji-hotaru", "bowed": True}]},
        duel={"challenger": "p1:matsu-tsuko", "challenged": "p2:doji-hotaru",
              "focuses": [{"player": "p2", "card": "ashigaru", "source": "deck"}]})))
    shown = views.state_view(SYSTEM.fold(events), "spectator")
    lines = terminal.render(shown, "full")
    joined = "\n".join(lines)
    assert "Matsu Tsuko 5/3 [Ashigaru]" in joined and "[2] ▒ face down" in joined and "Doji Hotaru 2/5↓" in joined
    assert "duel: Matsu Tsuko vs Doji Hotaru on chi · focuses p2 1" in joined
    assert terminal.headline(shown) == "turn 1 · p1's turn · p1: duel"
    assert all(len(line) <= 80 for line in terminal.render(shown, "compact"))
