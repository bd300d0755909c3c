from __future__ import annotations

import json

import pytest

from engine.lords_of_war import fold
from engine.lords_of_war.bots import play_bot_game
from events import Recorded
from events.lords_of_war import CardDrawn, GameStarted, HandDealt, HandRevealed
from replay.log.explain import explain
from replay.log.views import event_view, events_view, state_view
from tests.replay.bots import KnownDrawBot

LOW = "lords-of-war"
OTHER = {"p1": "p2", "p2": "p1"}


def _recorded(events: list) -> list[Recorded]:
    return [
        Recorded(game_id="g", seq=i + 1, recorded_at="t", schema_version=1, event=e, hash=f"h{i}")
        for i, e in enumerate(events)
    ]


def _public_ids(full: dict, view: str) -> set[str]:
    """Card ids a view may legitimately name: the board, kill piles, revealed hands, its own hand."""
    ids = {u["card"] for u in full["board"]}
    for pile in full["kill_piles"].values():
        ids.update(pile)
    for cards in full["revealed"].values():
        ids.update(cards)
    if view in ("p1", "p2"):
        hand = full["hands"][view]
        ids.update(hand.get("cards") or hand.get("known") or ())
    return ids


def _secret_ids(state, full: dict, view: str) -> set[str]:
    """Ids of the cards hidden from ``view`` now (other hands, decks) that are not also public."""
    hidden: set[str] = set()
    for p, player in enumerate(("p1", "p2")):
        if player != view:
            hidden.update(state.hands[p])
        hidden.update(state.decks[p])
    return hidden - _public_ids(full, view)


def _play(seed: int, variant: dict) -> list:
    if variant.get("mode") == "table":
        return play_bot_game(seed, variant=variant, bots=(KnownDrawBot(seed), KnownDrawBot(seed + 1)))
    return play_bot_game(seed, variant=variant)


def _game_variants():
    for seed in range(12):
        yield seed, {}
        yield seed, {"intermediate": True}
    for seed in range(4):
        yield seed, {"unbounded": True}
        yield seed, {"mode": "table"}


@pytest.mark.parametrize("seed,variant", list(_game_variants()))
def test_views_never_show_a_hidden_card_to_spectators_or_opponents(seed, variant):
    _check_no_leak(_play(seed, variant))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 300))
def test_views_never_show_a_hidden_card_over_many_more_games(seed):
    variant = [{}, {"intermediate": True}, {"mode": "table"}, {"unbounded": True}][seed % 4]
    _check_no_leak(_play(seed, variant))


def _check_no_leak(events: list) -> None:
    recorded = _recorded(events)
    state = fold([])
    checked = 0
    for i, r in enumerate(recorded):
        before = state
        state = fold([r.event], state)
        full = state_view(LOW, state, "all")
        for view in ("spectator", "p1", "p2"):
            secret = _secret_ids(state, full, view)
            # a recalled card was public on the mat just before: the event may name it
            secret_event = secret - _public_ids(state_view(LOW, before, "all"), view)
            state_text = json.dumps(state_view(LOW, state, view))
            event_json = event_view(LOW, r, view)
            assert event_json is not None and event_json["hash"] is None  # hashes can be inverted by guessing
            if isinstance(r.event, GameStarted):
                assert event_json["seed"] is None  # the seed gives the deck order
                event_text = ""  # army lists are public and name every card id
            else:
                event_text = json.dumps(event_json)
            told = explain(LOW, before, r, view)
            line = told.text + ("" if isinstance(r.event, GameStarted) else json.dumps(told.cause))
            for card in secret:
                assert card not in state_text, (i, view, card)
            for card in secret_event:
                assert card not in event_text, (i, view, card, event_text)
                assert card not in line, (i, view, card, line)
            checked += len(secret)
    assert checked > 0


def test_views_show_own_hand_and_only_counts_of_the_other():
    events = play_bot_game(4)
    state = fold(events[:30])
    p1 = state_view(LOW, state, "p1")
    assert p1["hands"]["p1"]["cards"] == list(state.hands[0])
    assert p1["hands"]["p2"] == {"count": state.hand_counts[1]}
    spectator = state_view(LOW, state, "spectator")
    assert spectator["hands"] == {"p1": {"count": state.hand_counts[0]}, "p2": {"count": state.hand_counts[1]}}
    assert state_view(LOW, state, "all")["hands"]["p2"]["cards"] == list(state.hands[1])


def test_views_redact_draws_and_deals_for_others_only():
    events = play_bot_game(2)
    recorded = _recorded(events)
    dealt = next(r for r in recorded if isinstance(r.event, HandDealt) and r.event.player == "p1")
    drawn = next(r for r in recorded if isinstance(r.event, CardDrawn) and r.event.player == "p2")
    assert event_view(LOW, dealt, "p1")["cards"] == list(dealt.event.cards)
    assert event_view(LOW, dealt, "p2")["cards"] is None
    assert event_view(LOW, dealt, "spectator")["cards"] is None
    assert event_view(LOW, drawn, "p2")["card"] == drawn.event.card
    assert event_view(LOW, drawn, "p1")["card"] is None
    assert event_view(LOW, drawn, "all") == {
        "seq": drawn.seq, "type": "card_drawn", "recorded_at": "t", "hash": drawn.hash, "player": "p2",
        "card": drawn.event.card,
    }
    started = event_view(LOW, recorded[0], "spectator")
    assert started["seed"] is None and len(started["players"][0]["cards"]) == 36
    assert event_view(LOW, recorded[0], "all")["seed"] == 2
    assert len(events_view(LOW, recorded, "p1")) == len(recorded)


def test_views_show_a_forced_placement_reveal_to_everyone():
    revealed = None
    for seed in range(141, 400):  # 141: the first seed whose random-bot game has a forced placement
        events = play_bot_game(seed)
        revealed = next((e for e in events if isinstance(e, HandRevealed)), None)
        if revealed is not None:
            break
    assert revealed is not None, "no forced placement in these bot games"
    i = events.index(revealed)
    r = _recorded(events)[i]
    assert event_view(LOW, r, "spectator")["cards"] == list(revealed.cards)
    assert state_view(LOW, fold(events[: i + 1]), "spectator")["revealed"][revealed.player] == list(revealed.cards)


def test_views_refuse_an_unknown_view():
    with pytest.raises(ValueError, match="unknown view"):
        state_view(LOW, fold(play_bot_game(1)[:5]), "p3")
