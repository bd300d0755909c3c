"""Games on a second catalogue (issue 30: Light Wars' Marsh Frontier, HeroScape's Cliffside Bay) replay as any
game does: every event shown and explained in every view, in the catalogue's names, the state drawn on the
terminal on the catalogue's map, the state naming the catalogue it was played on."""

from __future__ import annotations

from typing import Any

import pytest

from engine.catalogue import catalogue_id
from engine.play import play
from engine.systems import get_system
from events import Recorded
from replay.heroscape import terminal as hs_terminal
from replay.light_wars import terminal as lw_terminal
from replay.log.explain import explain_game
from replay.log.views import events_view, state_view
from tests.engine.catalogue_given import sample_catalogue

GAMES: dict[str, tuple[str, str, dict[str, Any], Any]] = {
    "light-wars": ("light_wars", "marsh-frontier", {"players": [{"id": "p1", "army": "vanguard"},
                                                                {"id": "p2", "army": "garrison"}],
                                                    "variant": {"deployment": "screen", "map": "pass"}},
                   lw_terminal.render),
    "heroscape": ("heroscape", "cliffside-bay", {"players": [{"id": "p1", "army": "tideguard"},
                                                             {"id": "p2", "army": "emberhost"}]},
                  hs_terminal.render),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_catalogue_game_is_shown_and_explained_in_every_view_in_the_catalogues_names(name: str) -> None:
    folder, sample, setup, render = GAMES[name]
    document = sample_catalogue(folder, sample)
    system = get_system(name)
    played = play(system, {"system": name, **setup, "seed": 21, "catalogue": document}, ("greedy", "random"),
                  max_actions=3000)
    events = played.events
    recorded = [Recorded(game_id="g", seq=i + 1, recorded_at="2026-01-01T00:00:00Z", schema_version=1, event=e,
                         hash=None) for i, e in enumerate(events)]
    final = system.fold(events)
    texts = []
    for view in ("all", "spectator", "p1", "p2"):
        assert len(events_view(name, recorded, view)) == len(events)
        explained = explain_game(name, recorded, view)
        assert [x.seq for x in explained] == list(range(1, len(events) + 1))
        texts += [x.text for x in explained]
        shown = state_view(name, final, view)
        assert shown["seq"] == len(events) and shown["catalogue"] == catalogue_id(document)
    words = " ".join(texts)
    names = [u["name"] for u in document.get("units", [])] or [c["name"] for c in document["cards"]]
    assert any(n in words for n in names), "the explanations name the catalogue's units or cards"
    drawn = "\n".join(render(state_view(name, final, "all")))
    assert drawn.strip()
    if name == "light-wars":
        lines = drawn.splitlines()  # the 7 x 12 map: columns A-G, rows 12 down to 1
        assert lines[0].split() == list("ABCDEFG") and lines[1].startswith("12") and lines[12].startswith(" 1")
