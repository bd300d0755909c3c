"""Property tests over HeroScape bot games: fold equals the evolve loop at every prefix, the record round-trips,
``redecide`` (``warlog verify``) gives the same events, no view but its owner's sees order markers, explanations
and the terminal picture work at every step."""

from __future__ import annotations

import pytest

from engine.heroscape import SYSTEM
from engine.heroscape.bots import GreedyBot, RandomBot
from engine.heroscape.state import evolve, fold, initial_state
from replay.heroscape import explain, notation, terminal, views


def bot_game(index: int, seed: int) -> list:
    events = list(SYSTEM.start(SYSTEM.sample_setup(index, seed)))
    state = SYSTEM.fold(events)
    bots = {"p1": GreedyBot(seed), "p2": RandomBot(seed + 1) if index % 2 else GreedyBot(seed + 1)}
    for _ in range(3000):
        if state.phase == "over":
            break
        seat = SYSTEM.to_act(state)[0]
        new = SYSTEM.decide(state, bots[seat].choose(state, seat))
        events += new
        state = SYSTEM.fold(new, state)
    assert state.phase == "over"
    return events


@pytest.mark.parametrize("index", range(6))
def test_bot_games_fold_verify_record_and_views(index: int) -> None:
    events = bot_game(index, 500 + index)
    state = initial_state()
    for n, event in enumerate(events):
        if n % 17 == 0:
            assert fold(events[:n]) == state
        before = state
        state = evolve(state, event)
        for view in ("spectator", "p1", "p2"):
            explain.explain(before, event, view)
            shown = views.redacted_event(event, view)
            if type(event).tag_name() == "markers_placed" and view != event.player:
                assert shown.markers is None
        data = views.state_view(state, "spectator")
        assert all(m in (None, "placed") for m in data["markers"].values())
        terminal.render(data)
        terminal.headline(data)
    assert fold(events) == state
    generator = SYSTEM.redecide(events)
    try:
        while True:
            next(generator)
    except StopIteration as stop:
        assert stop.value == state
    parsed = notation.parse(notation.export(events, comments=True))
    replayed = list(SYSTEM.start(notation.setup_from_tags(parsed)))
    now = SYSTEM.fold(replayed)
    for move in parsed.moves:
        new = SYSTEM.decide(now, move.action)
        replayed += new
        now = SYSTEM.fold(new, now)
    assert replayed == events
    notation.check_result(parsed, now)
    assert [SYSTEM.codec.decode_json(SYSTEM.codec.encode_json(e)) for e in events] == events
