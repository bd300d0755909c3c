"""``warlog replay``: step through a stored game in the terminal.

Interactive when stdin and stdout are both terminals: a full-screen ``curses`` view (standard library) that fits
the terminal (80x24 and up) and redraws when it is resized. Keys: → / l / space steps forward, ← / h back,
PgDn / PgUp ten steps, Home/0 to the start, End/$ to the end, g asks for a seq on the status line (a bad value
is answered there), q quits. Keys typed before the screen is up are kept (curses reads them; nothing is
flushed). Otherwise (a pipe, a file) it prints every step from the start to the end and returns.

The screen is a pure function: ``layout(picture(cursor, view), width, height, status_line)`` -> lines, each at
most ``width`` long, at most ``height`` of them. ``Session`` holds the key logic, so neither needs a terminal.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

from replay.log.cursor import ReplayCursor
from replay.log.explain import explain
from replay.log.views import state_view
from replay.systems import get_plugin

HELP = "←/→ step · g go to seq · q quit"
MIN_INFO_LINES = 3  # a mat is only chosen if it leaves room for the status and the explanation


def frame(cursor: ReplayCursor, view: str) -> str:
    """The full text for the cursor's position (what a pipe gets): header, mat, status and the explanation."""
    shown = picture(cursor, view, styles=("full",))
    lines = [shown.header, *shown.mats.get("full", ())]
    if shown.status:
        lines.append(shown.status)
    lines.append(shown.explanation)
    return "\n".join(lines)


@dataclass(frozen=True)
class Picture:
    """What the screen shows for one position, whatever the terminal's size."""

    header: str  # game · seq · view (· turn · who is to act)
    explanation: str  # the event at this seq, explained
    status: str = ""  # kills, hands, decks, the cards in hand the view may see (parts joined by " · ")
    mats: dict[str, list[str]] = field(default_factory=dict)  # mat style (largest first) -> lines; {} = no mat


def picture(cursor: ReplayCursor, view: str, styles: Iterable[str] | None = None) -> Picture:
    system_name = cursor.system_name
    state_json = state_view(system_name, cursor.state, view)
    header = f"game {cursor.game_id} · seq {cursor.seq}/{cursor.last_seq} · view {view}"
    mats: dict[str, list[str]] = {}
    status = ""
    drawn = get_plugin(system_name).terminal
    mats = {style: drawn.render(state_json, style) for style in (styles or drawn.STYLES)}
    header = f"{header} · {drawn.headline(state_json)}"
    status = drawn.tally(state_json)
    recorded = cursor.event
    if recorded is None:
        explanation = "(before the first event)"
    else:
        before = cursor.service.system_of(cursor.record).initial_state() if cursor.seq == 1 else _state_before(cursor)
        explanation = f"{recorded.seq}: {explain(system_name, before, recorded, view).text}"
    return Picture(header, explanation, status, mats)


def _state_before(cursor: ReplayCursor) -> Any:
    seq = cursor.seq
    state = cursor.seek(seq - 1)
    cursor.seek(seq)
    return state


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""] if text else []


def _wrap_parts(text: str, width: int, sep: str = " · ") -> list[str]:
    """Wrap between the parts of a ``sep``-joined line where possible (a part longer than a line is wrapped)."""
    lines: list[str] = []
    for part in text.split(sep) if text else []:
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.extend(_wrap(part, width))
    return lines


def _fit(lines: list[str], count: int, width: int) -> list[str]:
    """At most ``count`` lines; when some are left out the last one kept ends in '…'."""
    if len(lines) <= count:
        return lines
    if count <= 0:
        return []
    kept = lines[:count]
    kept[-1] = kept[-1][: max(0, width - 1)] + "…"
    return kept


def layout(shown: Picture, width: int, height: int, status_line: str = "") -> list[str]:
    """The screen as ``height`` lines (blank ones between the text and the status line), each at most ``width``.

    Top: the header. Then the largest mat that fits above the status and the explanation (wrapped, '…' when cut),
    the full one (with its legend) only when all of the text fits too. Bottom, the status line: ``status_line``
    (the g prompt, or a message) or else the key help. At 80x24 a 7x6 mat is drawn compact (19 lines), leaving a
    status line and two lines of explanation.
    """
    width, height = max(1, width), max(1, height)
    top = [shown.header]
    below = [status_line or HELP]
    info = _wrap_parts(shown.status, width) + _wrap(shown.explanation, width)
    room = height - len(top) - len(below)
    mat: list[str] = []
    if shown.mats:
        styles = list(shown.mats)
        fitting = [
            s for s in styles
            if max(map(len, shown.mats[s])) <= width and len(shown.mats[s]) + min(len(info), MIN_INFO_LINES) <= room
        ]
        # the full mat (with its legend) only when the whole text fits too; else the next style that fits
        for style in fitting:
            if style != styles[0] or len(shown.mats[style]) + len(info) <= room:
                mat = shown.mats[style]
                break
        else:
            mat = shown.mats[styles[-1]]  # the smallest, cut to the screen below
    middle = mat[: max(0, room)] + _fit(info, room - len(mat), width)
    middle += [""] * (room - len(middle))  # the status line stays on the terminal's last line
    lines = top + middle + below if len(top) + len(middle) + len(below) <= height else below  # height 1
    return [line[:width] for line in lines]


class Session:
    """The replay's key logic: a cursor, the seq being typed after ``g``, and the message for the status line."""

    def __init__(self, cursor: ReplayCursor, view: str) -> None:
        self.cursor = cursor
        self.view = view
        self.typed: str | None = None  # the seq being typed after g (None: not asking)
        self.message = ""

    def status_line(self) -> str:
        if self.typed is not None:
            return f"go to seq (0-{self.cursor.last_seq}, Enter; Esc cancels): {self.typed}"
        return self.message

    def press(self, key: str) -> bool:
        """Apply one key ('right', 'left', 'home', 'end', 'pgup', 'pgdn', 'enter', 'backspace', 'escape',
        'resize' or a character). Returns False when the key quits."""
        if self.typed is not None:
            self._type(key)
            return True
        self.message = ""
        if key in ("q", "Q", "\x04"):
            return False
        if key in ("right", "l", " "):
            self.cursor.step(+1)
        elif key in ("left", "h"):
            self.cursor.step(-1)
        elif key == "pgdn":
            self.cursor.step(+10)
        elif key == "pgup":
            self.cursor.step(-10)
        elif key in ("home", "0"):
            self.cursor.first()
        elif key in ("end", "$"):
            self.cursor.last()
        elif key == "g":
            self.typed = ""
        elif len(key) == 1 and key.isprintable():
            self.message = f"no key {key!r}: {HELP}"
        return True

    def _type(self, key: str) -> None:
        if key in ("enter", "\n", "\r"):
            answer, self.typed = self.typed.strip() if self.typed else "", None
            self._go(answer)
        elif key == "escape":
            self.typed = None
        elif key in ("backspace", "\x7f", "\x08"):
            self.typed = (self.typed or "")[:-1]
        elif len(key) == 1 and key.isprintable() and len(self.typed or "") < 20:
            self.typed = (self.typed or "") + key

    def _go(self, answer: str) -> None:
        last = self.cursor.last_seq
        if not answer:
            return
        if not (answer.isascii() and answer.isdigit()):
            self.message = f"{answer!r} is not a seq: type a number from 0 to {last}"
        elif int(answer) > last:
            self.message = f"there is no seq {int(answer)}: this game's seqs run from 0 to {last}"
        else:
            self.cursor.seek(int(answer))


def print_all(cursor: ReplayCursor, view: str, out: TextIO) -> None:
    """Every step from seq 0 to the end (for pipes)."""
    cursor.first()
    out.write(frame(cursor, view) + "\n\n")
    while cursor.seq < cursor.last_seq:
        cursor.step(+1)
        out.write(frame(cursor, view) + "\n\n")


def run(cursor: ReplayCursor, view: str = "spectator", stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if not (stdin.isatty() and out.isatty()):
        print_all(cursor, view, out)
        return 0
    import curses
    import locale
    import os

    locale.setlocale(locale.LC_ALL, "")  # so curses writes the mat's '·' and arrows as UTF-8
    for name in ("LINES", "COLUMNS"):  # if exported, ncurses would take them as the size and never follow a resize
        os.environ.pop(name, None)
    return curses.wrapper(_screen_loop, Session(cursor, view))


def _key_name(key: int | str) -> str:
    import curses

    if isinstance(key, str):
        return {"\n": "enter", "\r": "enter", "\x1b": "escape", "\x7f": "backspace", "\x08": "backspace"}.get(key, key)
    names = {
        curses.KEY_RIGHT: "right", curses.KEY_LEFT: "left", curses.KEY_HOME: "home", curses.KEY_END: "end",
        curses.KEY_NPAGE: "pgdn", curses.KEY_PPAGE: "pgup", curses.KEY_ENTER: "enter",
        curses.KEY_BACKSPACE: "backspace", curses.KEY_RESIZE: "resize",
    }
    return names.get(key, "")


def _screen_loop(window: Any, session: Session) -> int:
    import curses

    try:
        curses.curs_set(0)
    except curses.error:
        pass  # a terminal that cannot hide the cursor
    curses.set_escdelay(25)  # Esc cancels the prompt without a one-second wait
    shown_at: tuple[int, str] | None = None
    shown: Picture | None = None
    while True:
        if shown is None or shown_at != (session.cursor.seq, session.view):
            shown, shown_at = picture(session.cursor, session.view), (session.cursor.seq, session.view)
        height, width = window.getmaxyx()
        window.erase()
        for y, line in enumerate(layout(shown, width, height, session.status_line())):
            try:
                window.addstr(y, 0, line)
            except curses.error:
                pass  # the bottom-right cell: curses writes it and then reports the cursor cannot move on
        window.refresh()
        try:
            key = window.get_wch()
        except curses.error:
            continue  # interrupted (e.g. by a resize signal): read again
        if key == curses.KEY_RESIZE:
            curses.update_lines_cols()
            continue
        if not session.press(_key_name(key)):
            return 0
