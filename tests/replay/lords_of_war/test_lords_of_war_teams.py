"""Lords of War games of three to six seats (§10) downstream, over bot games of both variants: per-seat views never
show a hand to anyone but its holder (a team-mate included), records round-trip, ``verify`` passes, explanations
and records name the seats and the teams, positions of team games. A fast default and a ``slow`` run."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.lords_of_war import fold, play_bot_game
from engine.lords_of_war.seating import SEAT_NAMES
from events import Recorded
from events.lords_of_war import GameStarted
from replay.archive.games import export_jsonl, export_record, import_jsonl, import_record, store_events
from replay.log.explain import explain
from replay.log.service import GameService
from replay.log.views import event_view, state_view
from replay.store.memory_store import MemoryEventStore

LOW = "lords-of-war"
LINEUPS = {3: ("orcs", "elves", "elves"), 4: ("orcs", "dwarves", "undead", "templars"),
           6: ("orcs", "dwarves", "elves", "undead", "templars", "lizardmen")}


def _game(seats: int, seed: int) -> list[Any]:
    variant = ({}, {"intermediate": True}, {"kill_target": 12, "command_target": 3})[seed % 3]
    if seats == 3 and seed % 2:
        variant = {**variant, "unbounded": True}
    bots = tuple(("random", "greedy")[(seed + i) % 2] for i in range(seats))
    return play_bot_game(seed, LINEUPS[seats], variant, bots)


def _recorded(events: list[Any]) -> list[Recorded]:
    return [Recorded(game_id="g", seq=i + 1, recorded_at="t", schema_version=1, event=e, hash=f"h{i}")
            for i, e in enumerate(events)]


def check_no_leak(events: list[Any]) -> int:
    """Every hand card a view may not see (another seat's hand, a team-mate's too, and every deck) is absent from
    the view's state, its events and their explanations, unless public (on the mat, destroyed, revealed, between
    the team players)."""
    state = fold([])
    checked = 0
    for r in _recorded(events):
        before = state
        state = fold([r.event], state)
        full = state_view(LOW, state, "all")
        seats = SEAT_NAMES[: state.layout.seats]
        public_before = _public(state_view(LOW, before, "all")) if before.phase != "setup" else set()
        for view in ("spectator", *seats):
            public = _public(full) | set(full["hands"][view]["cards"] if view in seats else ())
            secret = {c for p, seat in enumerate(seats) if seat != view for c in state.hands[p]}
            secret |= {c for deck in state.decks for c in deck}
            secret -= public
            state_text = json.dumps(state_view(LOW, state, view))
            assert not {c for c in secret if c in state_text}, view
            if isinstance(r.event, GameStarted):
                continue  # the armies are public and name every card
            event_text = json.dumps(event_view(LOW, r, view))
            told = explain(LOW, before, r, view)
            line = told.text + json.dumps(told.cause)
            for card in secret - public_before:
                assert card not in event_text and card not in line, (r.seq, view, card)
            checked += len(secret)
    return checked


def _public(full: dict[str, Any]) -> set[str]:
    ids = {u["card"] for u in full["board"]}
    for pile in full["kill_piles"].values():
        ids.update(pile)
    for cards in full["revealed"].values():
        ids.update(cards)
    ids.update(full.get("middle", ()))
    return ids


def check_record_round_trip(events: list[Any]) -> None:
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, events, "original")
    text = export_record(service, game_id, comments=True)
    again = import_record(service, text, allow_duplicate=True)  # decided again, move by move, with today's rules
    assert [(e.type, e.payload) for e in service.store.read(again)] == \
        [(e.type, e.payload) for e in service.store.read(game_id)]
    assert export_record(service, again, comments=True) == text
    from_jsonl = import_jsonl(service, export_jsonl(service, game_id), allow_duplicate=True)
    assert [e.payload for e in service.store.read(from_jsonl)] == [e.payload for e in service.store.read(game_id)]


@pytest.mark.parametrize("seats", [3, 4, 6])
@pytest.mark.parametrize("seed", range(3))
def test_teams_views_never_leak_and_records_round_trip(seats, seed):
    events = _game(seats, seed)
    assert check_no_leak(events) > 0
    check_record_round_trip(events)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 6])
@pytest.mark.parametrize("seed", range(100, 115))
def test_teams_slow_many_games(seats, seed):
    events = _game(seats, seed)
    check_no_leak(events)
    check_record_round_trip(events)


def test_teams_record_header_and_moves_name_every_seat():
    service = GameService(MemoryEventStore())
    game_id = store_events(service, LOW, _game(4, 1), "original")
    text = export_record(service, game_id)
    assert '[Variant "sealed teams intermediate"]' in text and '[Teams "odd: p1 p3; even: p2 p4"]' in text
    assert "[P4Army \"templars\"]" in text
    moves = [line.split()[1] for line in text.splitlines() if line[:1].isdigit() and ". " in line]
    assert moves[:4] == ["p1", "p2", "p3", "p4"]  # the challenge, in seat order (R14)
    ended = service.state(game_id)[1]
    assert text.rstrip().endswith({"odd": "1-0", "even": "0-1"}[ended.winner])


def test_teams_a_position_with_team_kills_round_trips():
    position = {"board": [{"square": "0,0", "card": "orcs/goblin-shanker-1", "owner": "p1"},
                          {"square": "3,3", "card": "dwarves/dwarf-slugger-1", "owner": "p2"}],
                "to_move": "p3", "kills": {"even": {"total": 5, "commanders": 1}}}
    events = play_bot_game(4, LINEUPS[4], position=position)
    assert fold(events[:5]).kills == (0, 5) and fold(events[:5]).active == 2
    check_record_round_trip(events)
