"""Pebbles in every registry (engine, replay, API) for the API tests, and a launcher of ``warlog`` with it.

The replay parts of pebbles (views, explanations, record syntax, terminal picture) are another piece of work
(``tests/conformance/pebbles_replay.py``); until it is there, ``MINIMAL`` below is what these tests need of them:
views that hide each seat's bonus (and the seed that deals it) from the other seats and spectators until the end,
one-line explanations, a terminal line. The record syntax only writes (``parse`` and its kin refuse: no test here
imports a pebbles record).

    python -m tests.api.pebbles_parts serve --db FILE --port N   # warlog, with pebbles registered
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import msgspec

from api import systems as api_systems
from engine import systems as engine_systems
from replay import systems as replay_systems
from replay.archive.notation import ParsedRecord, RecordSyntaxError
from replay.plugin import ReplayParts, ReplaySystem
from tests.conformance import pebbles_api
from tests.conformance.pebbles import NAME, PEBBLES, BonusDealt, Conceded, GameEnded, GameStarted, State, Taken

ALL = "all"


class Views:
    def state_view(self, state: State, view: str) -> dict[str, Any]:
        data = PEBBLES.state_to_builtins(state)
        if view != ALL and state.phase != "over":
            data["bonuses"] = {seat: bonus for seat, bonus in data["bonuses"].items() if seat == view}
        return data

    def redacted_event(self, event: Any, view: str) -> Any | None:
        if view == ALL:
            return event
        if isinstance(event, BonusDealt):
            return event if event.player == view else None
        if isinstance(event, GameStarted):
            return msgspec.structs.replace(event, seed=None)  # the seed deals the bonuses
        return event


class Explanations:
    def explain(self, state_before: State, event: Any, view: str = ALL) -> tuple[str, dict[str, Any]]:
        shown = Views().redacted_event(event, view)
        cause = msgspec.to_builtins(shown) if shown is not None else {}
        match event:
            case GameStarted():
                text = f"{len(event.seats)} seats, a heap of {event.heap}"
            case BonusDealt():
                text = f"{event.player} is dealt a secret bonus"
            case Taken():
                text = f"{event.player} takes {event.count} ({state_before.heap - event.count} left)"
                cause["rule"] = "P2"
            case Conceded():
                text = f"{event.player} concedes"
                cause["rule"] = "P4"
            case GameEnded():
                text = f"the game ends ({event.reason})"
            case _:
                text = type(event).tag_name()
        return text, cause


class Records:
    def export(self, events: Sequence[Any], tags: dict[str, str] | None = None, view: str = ALL,
               comments: bool = False) -> str:
        lines = [f'[{k} "{v}"]' for k, v in (tags or {}).items()] + [f'[System "{NAME}"]', ""]
        lines += [f"{e.player} take {e.count}" if isinstance(e, Taken) else f"{e.player} concede"
                  for e in events if isinstance(e, Taken | Conceded)]
        return "\n".join(lines) + "\n"

    def parse(self, text: str) -> ParsedRecord:
        raise RecordSyntaxError(1, "unsupported", "the tests' minimal pebbles parts do not read records")

    def setup_from_tags(self, record: ParsedRecord) -> dict[str, Any]:
        raise RecordSyntaxError(1, "unsupported", "the tests' minimal pebbles parts do not read records")

    def check_result(self, record: ParsedRecord, state: Any) -> None:
        raise RecordSyntaxError(1, "unsupported", "the tests' minimal pebbles parts do not read records")

    def record_tags(self, record: ParsedRecord) -> dict[str, str]:
        return {}


class Terminal:
    STYLES = ("line",)

    def render(self, state_json: dict[str, Any], style: str) -> list[str]:
        return [f"heap {state_json['heap']}"]

    def headline(self, state_json: dict[str, Any]) -> str:
        return f"turn {state_json['turn']}: {state_json['active']} to take" if state_json["active"] else "over"

    def tally(self, state_json: dict[str, Any]) -> str:
        return "  ".join(f"{seat} {n}" for seat, n in state_json["taken"].items())


MINIMAL = ReplayParts(name=NAME, views=Views(), explanations=Explanations(), records=Records(), terminal=Terminal())


def replay_parts() -> ReplaySystem:
    """The full replay parts once they exist (tests/conformance/pebbles_replay.py), else ``MINIMAL``."""
    try:
        from tests.conformance.pebbles_replay import PLUGIN  # type: ignore[import-not-found]
    except ImportError:
        return MINIMAL
    return PLUGIN  # type: ignore[no-any-return]


@contextmanager
def pebbles_registered() -> Iterator[None]:
    """Pebbles in the engine, replay and API registries for a ``with`` block (create the app inside it)."""
    with ExitStack() as stack:
        stack.enter_context(engine_systems.registered(PEBBLES))
        stack.enter_context(replay_systems.registered(replay_parts()))
        stack.enter_context(api_systems.registered(pebbles_api.PLUGIN))
        yield


if __name__ == "__main__":
    from api.cli import main

    with pebbles_registered():
        sys.exit(main(sys.argv[1:]))
