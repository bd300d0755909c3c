"""Views of one log: ``all``, ``spectator`` and each seat's (``p1``, ``p2``, ...).

A view sees exactly what that seat may see at that moment: its own hand, the other hands only by size, never the
deck order or anything that reveals it (the seed, event hashes), a hand revealed for a forced placement yes.
Redaction applies to states and to the event stream alike; what is hidden is each system's ``Views`` part
(``replay.plugin``), held once as ``redacted_event``: the event stream, explanations and records all use it. Who
may ask for which view is the API's business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from engine.systems import get_system
from events import Recorded
from replay.errors import UnknownView
from replay.systems import get_plugin

ALL = "all"
SPECTATOR = "spectator"
_SEAT = re.compile(r"p[1-9]")


def views_of(seats: Iterable[str]) -> tuple[str, ...]:
    """Every view of a game with these seats: ``all``, ``spectator``, then each seat's."""
    return (ALL, SPECTATOR, *seats)


def check_view(view: str, seats: Sequence[str] | None = None) -> str:
    """``view`` if it names a view (of a game with ``seats``, when given); UnknownView if not."""
    known = views_of(seats) if seats is not None else None
    if (known is not None and view not in known) or (view not in (ALL, SPECTATOR) and not _SEAT.fullmatch(view)):
        shown = ", ".join(known) if known else "all, spectator, p1, p2, ..."
        raise UnknownView(f"unknown view {view!r}: one of {shown}")
    return view


def state_view(system_name: str, state: Any, view: str) -> dict[str, Any]:
    """The state as contract JSON for ``view`` (hidden cards absent)."""
    return get_plugin(system_name).views.state_view(state, check_view(view))


def redacted_event(system_name: str, event: Any, view: str) -> Any | None:
    """The typed event as ``view`` may see it (hidden fields None), or None when it may not see it at all."""
    return get_plugin(system_name).views.redacted_event(event, check_view(view))


def event_view(system_name: str, recorded: Recorded[Any], view: str) -> dict[str, Any] | None:
    """The event as JSON (``seq``, ``type``, ``recorded_at``, ``hash``, payload) redacted for ``view``;
    None when the view may not see the event at all. The integrity hash is shown to ``all`` only: it commits to
    the hidden payload, and a hidden card among a few dozen candidates is easy to find from it."""
    shown = redacted_event(system_name, recorded.event, view)
    if shown is None:
        return None
    payload: dict[str, Any] = msgspec.json.decode(get_system(system_name).codec.encode_json(shown))
    out: dict[str, Any] = {
        "seq": recorded.seq,
        "type": payload.pop("type"),
        "recorded_at": recorded.recorded_at,
        "hash": recorded.hash if view == ALL else None,
    }
    out.update(payload)
    return out


def events_view(system_name: str, recorded: Iterable[Recorded[Any]], view: str) -> list[dict[str, Any]]:
    """Every event ``view`` may see, redacted, in order."""
    return [e for e in (event_view(system_name, r, view) for r in recorded) if e is not None]
