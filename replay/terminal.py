"""``warlog replay``: step through a stored game in the terminal.

Interactive when stdin and stdout are both terminals (raw keys through termios): → / l / space steps forward,
← / h back, Home/0 to the start, End/$ to the end, g asks for a seq, q quits. Otherwise (a pipe, a file) it
prints every step from the start to the end and returns.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from replay.cursor import ReplayCursor
from replay.explain import explain
from replay.views import state_view

CLEAR = "\x1b[H\x1b[2J"


def frame(cursor: ReplayCursor, view: str) -> str:
    """The screen for the cursor's position: header, mat, status and the explanation of the event."""
    system_name = cursor.system_name
    state_json = state_view(system_name, cursor.state, view)
    lines = [f"game {cursor.game_id} · seq {cursor.seq}/{cursor.last_seq} · view {view}"]
    if system_name == "lords-of-war":
        from replay.lords_of_war.mat import render, status

        lines.extend(render(state_json, bool(state_json.get("variant", {}).get("unbounded"))))
        lines.append(status(state_json))
    recorded = cursor.event
    if recorded is None:
        lines.append("(before the first event)")
    else:
        before = cursor.service.system_of(cursor.record).initial_state() if cursor.seq == 1 else _state_before(cursor)
        lines.append(f"{recorded.seq}: {explain(system_name, before, recorded, view).text}")
    return "\n".join(lines)


def _state_before(cursor: ReplayCursor) -> Any:
    seq = cursor.seq
    state = cursor.seek(seq - 1)
    cursor.seek(seq)
    return state


def print_all(cursor: ReplayCursor, view: str, out: TextIO) -> None:
    """Every step from seq 0 to the end (for pipes)."""
    cursor.first()
    out.write(frame(cursor, view) + "\n\n")
    while cursor.seq < cursor.last_seq:
        cursor.step(+1)
        out.write(frame(cursor, view) + "\n\n")


def keys_from_tty(fd: int) -> Iterator[str]:
    """Key names read from a raw terminal: 'right', 'left', 'home', 'end', or the character."""
    sequences = {b"\x1b[C": "right", b"\x1b[D": "left", b"\x1b[H": "home", b"\x1b[F": "end",
                 b"\x1bOC": "right", b"\x1bOD": "left", b"\x1b[1~": "home", b"\x1b[4~": "end"}
    while True:
        data = os.read(fd, 8)
        if not data:
            return
        yield sequences.get(data, data[:1].decode(errors="replace"))


def interact(cursor: ReplayCursor, view: str, keys: Iterator[str], out: TextIO,
             read_line: Callable[[str], str]) -> int:
    """The key loop, separated from the terminal so it can be tested with a list of keys."""
    while True:
        out.write(CLEAR + frame(cursor, view) + "\n←/→ step · g go to seq · q quit\n")
        out.flush()
        key = next(keys, "q")
        if key in ("q", "\x03", "\x04"):
            return 0
        if key in ("right", "l", " "):
            cursor.step(+1)
        elif key in ("left", "h"):
            cursor.step(-1)
        elif key in ("home", "0"):
            cursor.first()
        elif key in ("end", "$"):
            cursor.last()
        elif key == "g":
            answer = read_line(f"go to seq (0-{cursor.last_seq}): ").strip()
            if answer.isdigit():
                cursor.seek(int(answer))


def run(cursor: ReplayCursor, view: str = "spectator", stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if not (stdin.isatty() and out.isatty()):
        print_all(cursor, view, out)
        return 0
    import termios
    import tty

    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)

    def read_line(prompt: str) -> str:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        try:
            return input(prompt)
        except EOFError:
            return ""
        finally:
            tty.setraw(fd)

    try:
        tty.setraw(fd)
        return interact(cursor, view, keys_from_tty(fd), _CrLf(out), read_line)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\n")


class _CrLf:
    """In raw mode a newline does not return the carriage: write \\r\\n."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, text: str) -> None:
        self.out.write(text.replace("\n", "\r\n"))

    def flush(self) -> None:
        self.out.flush()
