"""``warlog replay`` on a real terminal: the CLI as a subprocess inside a tmux pane (80x24, then resized)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.lords_of_war.bots import play_bot_game
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

ROOT = Path(__file__).parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Pane:
    """One tmux server of our own (its own socket), one window; stopped by ``close``."""

    def __init__(self, command: str, width: int, height: int) -> None:
        self.tmux = ["tmux", "-L", f"warlog-test-{os.getpid()}-{time.monotonic_ns()}"]
        self._run("new-session", "-d", "-s", "replay", "-x", str(width), "-y", str(height), command)

    def _run(self, *args: str) -> str:
        return subprocess.run([*self.tmux, *args], capture_output=True, text=True, timeout=10, check=True).stdout

    def keys(self, *keys: str) -> None:
        self._run("send-keys", "-t", "replay", *keys)

    def resize(self, width: int, height: int) -> None:
        self._run("resize-window", "-t", "replay", "-x", str(width), "-y", str(height))

    def screen(self) -> list[str]:
        return self._run("capture-pane", "-p", "-t", "replay").splitlines()

    def wait_for(self, text: str, timeout: float = 15) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            lines = self.screen()
            if any(text in line for line in lines):
                return lines
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on the screen:\n" + "\n".join(lines))
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=10)


def test_cli_replay_on_a_terminal_fits_80x24_follows_a_resize_and_answers_a_bad_seq(tmp_path):
    db = str(tmp_path / "w.duckdb")
    store = DuckDBEventStore(db)
    store_events(GameService(store), "lords-of-war", play_bot_game(5), "g")
    last = store.last_seq("g")
    store.close()
    command = (f"cd {ROOT} && LANG=C.UTF-8 {sys.executable} -m api.cli replay g --db {db}; "
               "echo EXITED $?; sleep 30")
    pane = Pane(command, 80, 24)
    try:
        pane.keys("l", "l", "l")  # typed while the program is still starting: none may be lost
        screen = pane.wait_for(f"seq 3/{last}")
        assert len(screen) <= 24 and all(len(line) <= 80 for line in screen)
        assert screen[0].startswith(f"game g · seq 3/{last} · view spectator")
        assert any(line.startswith("  6 |") for line in screen) and any(line.startswith("  1 |") for line in screen)
        assert "3: p2 is dealt 6 cards" in screen
        assert screen[-1].startswith("←/→ step · g go to seq · q quit")

        pane.keys("g", "o", "o", "p", "s", "Enter")  # a bad seq: said on the status line, nothing moves
        screen = pane.wait_for("is not a seq")
        assert screen[-1] == f"'oops' is not a seq: type a number from 0 to {last}" and screen[0].count("seq 3/")
        pane.keys("g", "9", "9", "9", "9", "Enter")
        assert pane.wait_for("there is no seq 9999")[0].count("seq 3/")
        pane.keys("g", "4", "0", "Enter")
        pane.wait_for(f"seq 40/{last}")

        pane.resize(110, 45)  # larger: the full mat, rules between the rows and the legend
        screen = pane.wait_for("^ p1's card")  # the legend is drawn last: the whole larger screen is there
        assert any(line.startswith("  ^ p1's card") for line in screen) and f"seq 40/{last}" in screen[0]
        assert any("+---------+" in line for line in screen)
        pane.resize(80, 24)
        screen = pane.wait_for("____A____")
        assert not any("+---------+" in line for line in screen) and all(len(line) <= 80 for line in screen)

        pane.keys("q")
        pane.wait_for("EXITED 0")
    finally:
        pane.close()
