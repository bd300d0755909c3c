from __future__ import annotations

import io

from engine.lords_of_war import CARDS
from engine.lords_of_war.bots import play_bot_game
from events.lords_of_war import CardDrawn
from replay.cursor import ReplayCursor, StateCache
from replay.games import GameService
from replay.lords_of_war.mat import abbreviation, board_arrows
from replay.record import store_events
from replay.store_memory import MemoryEventStore
from replay.terminal import frame, interact, print_all, run

LOW = "lords-of-war"


def _cursor(seed=5, variant=None) -> tuple[ReplayCursor, list]:
    service = GameService(MemoryEventStore())
    events = play_bot_game(seed, variant=variant or {})
    store_events(service, LOW, events, "g")
    return ReplayCursor(service, "g", cache=StateCache()), events


def test_terminal_frame_draws_the_mat_with_owners_arrows_and_the_explanation():
    cursor, events = _cursor()
    cursor.seek(4)  # p1's challenge card on C3
    text = frame(cursor, "spectator")
    card = events[3].card
    assert f"{abbreviation(card)}^" in text  # p1's card, facing up
    assert "p1 places" in text and "C3" in text
    assert len(text.splitlines()) > 20


def test_terminal_board_arrows_turn_p2_cards_around():
    card = "orcs/orc-ravager-2"
    p1 = board_arrows(card, 0)
    p2 = board_arrows(card, 1)
    flip = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
    assert p1 == dict(CARDS[card].attacks)
    assert p2 == {flip[d]: v for d, v in p1.items()}


def test_terminal_frame_hides_the_opponents_draw():
    cursor, events = _cursor()
    seq = next(i + 1 for i, e in enumerate(events) if isinstance(e, CardDrawn) and e.player == "p1")
    cursor.seek(seq)
    assert "p1 draws a card" in frame(cursor, "p2")
    assert "p1 draws a card" not in frame(cursor, "p1")


def test_terminal_keys_step_go_to_and_quit():
    cursor, events = _cursor()
    out = io.StringIO()
    keys = iter(["right", "right", "l", "left", "g", "end", "home", "g", "q", "right"])
    answers = iter(["50", "oops"])
    assert interact(cursor, "p1", keys, out, lambda prompt: next(answers)) == 0
    # right right l left -> 2; g 50 -> 50; end -> last; home -> 0; g oops -> stays 0; q
    assert cursor.seq == 0
    assert f"seq 50/{len(events)}" in out.getvalue() and f"seq {len(events)}/{len(events)}" in out.getvalue()


def test_terminal_run_over_a_pipe_prints_all_steps():
    cursor, events = _cursor(seed=2, variant={"unbounded": True})
    out = io.StringIO()
    assert run(cursor, "spectator", stdin=io.StringIO(""), out=out) == 0
    text = out.getvalue()
    assert text.count("game g · seq ") == len(events) + 1
    buffer = io.StringIO()
    print_all(cursor, "all", buffer)
    assert "is dealt 6 cards:" in buffer.getvalue()
