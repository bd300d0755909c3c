from __future__ import annotations

import io

from api.terminal import HELP, Picture, Session, frame, layout, picture, print_all, run
from engine.lords_of_war import CARDS
from engine.lords_of_war.bots import play_bot_game
from events.lords_of_war import CardDrawn
from replay.archive.games import store_events
from replay.log.cursor import ReplayCursor, StateCache
from replay.log.service import GameService
from replay.lords_of_war.terminal import abbreviation, board_arrows
from replay.store.memory_store import MemoryEventStore

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
    assert f"{abbreviation(card, CARDS)}^" in text  # p1's card, facing up
    assert "p1 places" in text and "C3" in text
    assert len(text.splitlines()) > 20


def test_terminal_board_arrows_turn_p2_cards_around():
    card = "orcs/orc-ravager-2"
    p1 = board_arrows(card, 0, CARDS)
    p2 = board_arrows(card, 1, CARDS)
    flip = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
    assert p1 == dict(CARDS[card].attacks)
    assert p2 == {flip[d]: v for d, v in p1.items()}


def test_terminal_frame_hides_the_opponents_draw():
    cursor, events = _cursor()
    seq = next(i + 1 for i, e in enumerate(events) if isinstance(e, CardDrawn) and e.player == "p1")
    cursor.seek(seq)
    assert "p1 draws a card" in frame(cursor, "p2")
    assert "p1 draws a card" not in frame(cursor, "p1")


def test_terminal_session_keys_step_go_to_and_quit():
    cursor, events = _cursor()
    session = Session(cursor, "p1")
    for key in ["right", "right", "l", "left", "pgdn"]:
        assert session.press(key)
    assert cursor.seq == 12
    for key in ["g", "5", "0", "enter"]:
        assert session.press(key)
    assert cursor.seq == 50 and session.status_line() == ""
    assert session.press("end") and cursor.seq == len(events)
    assert session.press("home") and cursor.seq == 0
    assert session.press("q") is False


def test_terminal_session_go_to_a_bad_seq_says_so_and_stays():
    cursor, events = _cursor()
    session = Session(cursor, "spectator")
    cursor.seek(7)
    for key in ["g", "o", "o", "p", "s"]:
        session.press(key)
    assert session.status_line().endswith(": oops")  # the prompt shows what is typed
    session.press("enter")
    assert cursor.seq == 7
    assert session.status_line() == f"'oops' is not a seq: type a number from 0 to {len(events)}"
    for key in ["g", "9", "9", "9", "9", "enter"]:
        session.press(key)
    assert cursor.seq == 7 and "there is no seq 9999" in session.status_line()
    session.press("right")  # the next key clears the message
    assert cursor.seq == 8 and session.status_line() == ""
    for key in ["g", "3", "x", "backspace", "escape"]:
        session.press(key)
    assert cursor.seq == 8 and session.status_line() == ""


def _fits(lines: list[str], width: int, height: int) -> bool:
    return len(lines) == height and all(len(line) <= width for line in lines)


def test_terminal_layout_fits_80x24_with_the_mat_arrows_status_and_explanation():
    cursor, events = _cursor()
    cursor.seek(4)  # p1's challenge card on C3
    lines = layout(picture(cursor, "spectator"), 80, 24)
    assert _fits(lines, 80, 24)
    text = "\n".join(lines)
    assert f"{abbreviation(events[3].card, CARDS)}^" in text  # the card, p1's, with its arrows around it
    assert "  3 |" in text and "  6 |" in text and "  1 |" in text  # every row of the mat
    assert "_G_" in lines[1]  # the column letters
    assert lines[0].startswith(f"game g · seq 4/{len(events)} · view spectator · turn ")
    assert any(line.startswith("kills p1 0") for line in lines)
    assert any(line.startswith("4: p1 places") for line in lines)
    assert lines[-1] == HELP


def test_terminal_layout_keeps_within_any_size_and_shows_the_status_line():
    cursor, _ = _cursor(seed=2, variant={"unbounded": True})
    for seq in (0, 30, cursor.last_seq):
        cursor.seek(seq)
        shown = picture(cursor, "all")
        for width, height in [(80, 24), (120, 50), (200, 60), (60, 20), (40, 10), (20, 5), (10, 2), (1, 1)]:
            lines = layout(shown, width, height, "go to seq (0-9): 12")
            assert _fits(lines, width, height), (seq, width, height)
            assert lines[-1] == "go to seq (0-9): 12"[:width]


def test_terminal_layout_uses_the_full_mat_with_legend_when_there_is_room():
    cursor, _ = _cursor()
    cursor.seek(40)
    shown = picture(cursor, "spectator")
    big = layout(shown, 100, 50)
    assert _fits(big, 100, 50) and any("+---------+" in line for line in big)  # the rules between rows
    assert any(line.startswith("  ^ p1's card, v p2's") for line in big)  # the legend
    small = layout(shown, 80, 24)
    assert not any("+---------+" in line for line in small)
    tiny = layout(shown, 60, 14)
    assert _fits(tiny, 60, 14) and any(line.startswith("  6 |") for line in tiny)


def test_terminal_layout_cuts_a_long_explanation_with_an_ellipsis():
    shown = Picture("game g · seq 1/1", "1: " + "word " * 200, "kills p1 0", {})
    lines = layout(shown, 80, 10)
    assert len(lines) == 10 and lines[-2].endswith("…") and lines[-1] == HELP


def test_terminal_run_over_a_pipe_prints_all_steps():
    cursor, events = _cursor(seed=2, variant={"unbounded": True})
    out = io.StringIO()
    assert run(cursor, "spectator", stdin=io.StringIO(""), out=out) == 0
    text = out.getvalue()
    assert text.count("game g · seq ") == len(events) + 1
    buffer = io.StringIO()
    print_all(cursor, "all", buffer)
    assert "is dealt 6 cards:" in buffer.getvalue()
