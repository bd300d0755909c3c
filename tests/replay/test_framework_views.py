"""Issue 29 item 3: the framework owns views' redaction and the view check. A system declares what is secret in each
event (``secrets``) and what its state view hides (``hide``); ``replay.plugin.SystemViews`` redacts the events by
that declaration and refuses a view the game does not have, once for every system (each ``views.py`` carried its own
copy of both)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.play import play
from engine.systems import get_system
from replay.errors import UnknownView
from replay.plugin import ALL, SystemViews
from replay.systems import get_plugin, plugin_names


def test_every_systems_views_are_the_frameworks_from_its_declared_secrets() -> None:
    for name in plugin_names():
        views = get_plugin(name).views
        assert isinstance(views, SystemViews), f"{name}: its views are its own code, not replay.plugin.SystemViews"


def _midgame(name: str) -> Any:
    system = get_system(name)
    game = play(system, system.sample_setup(0, 7), tuple(system.bots)[:1] * 2, max_actions=200)
    return system.fold(game.events[: len(game.events) // 2])


@pytest.mark.parametrize("name", sorted(plugin_names()))
def test_a_view_of_a_seat_the_game_does_not_have_is_refused_naming_the_seats(name: str) -> None:
    views = get_plugin(name).views
    state = _midgame(name)
    seats = [seat for seat in ("p1", "p2", "p3", "p4", "p5", "p6") if seat in str(views.state_view(state, ALL))]
    with pytest.raises(UnknownView, match=r"unknown view 'p9': one of all, spectator, p1, p2"):
        views.state_view(state, "p9")
    for view in ("spectator", *seats[:2]):
        views.state_view(state, view)  # every view the game has is answered


class Dealt(msgspec.Struct, frozen=True, tag="dealt"):
    player: str
    card: str | None
    seed: int | None = None


class Whispered(msgspec.Struct, frozen=True, tag="whispered"):
    player: str
    word: str


def _toy() -> SystemViews:
    return SystemViews(
        secrets=lambda event: {event.player: ("card",), ALL: ("seed",)} if isinstance(event, Dealt) else {},
        state_json=lambda state: dict(state),
        hide=lambda data, state, view: {**data, "hands": {s: h for s, h in data["hands"].items() if s == view}},
        private=lambda event: event.player if isinstance(event, Whispered) else None,
    )


def test_declared_secrets_are_redacted_by_the_framework_for_every_view_but_their_owners() -> None:
    views = _toy()
    dealt = Dealt(player="p1", card="ace", seed=9)
    assert views.redacted_event(dealt, ALL) == dealt
    assert views.redacted_event(dealt, "p1") == Dealt(player="p1", card="ace", seed=None)
    assert views.redacted_event(dealt, "p2") == Dealt(player="p1", card=None, seed=None)
    assert views.redacted_event(dealt, "spectator") == Dealt(player="p1", card=None, seed=None)
    whispered = Whispered(player="p2", word="now")
    assert views.redacted_event(whispered, "p1") is None and views.redacted_event(whispered, "p2") == whispered
    state = {"seats": [{"id": "p1"}, {"id": "p2"}], "hands": {"p1": ["ace"], "p2": ["king"]}}
    assert views.state_view(state, "p2")["hands"] == {"p2": ["king"]}
    assert views.state_view(state, ALL)["hands"] == {"p1": ["ace"], "p2": ["king"]}
    with pytest.raises(UnknownView, match="one of all, spectator, p1, p2"):
        views.state_view(state, "p3")
