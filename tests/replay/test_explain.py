from __future__ import annotations

from engine.lords_of_war import fold
from engine.lords_of_war.bots import play_bot_game
from events import Recorded
from events.lords_of_war import Attacker, CardDrawn, DestroyedUnit, Eliminated, GameEnded, Placed
from replay.log.explain import Explanation, explain, explain_actions, explain_game

LOW = "lords-of-war"


def _rec(event, seq=9) -> Recorded:
    return Recorded(game_id="g", seq=seq, recorded_at="t", schema_version=1, event=event)


def _state():
    return fold(play_bot_game(1)[:10])


def test_explain_elimination_reads_like_the_rulebook():
    event = Eliminated(
        round=1,
        units=(
            DestroyedUnit(square="D5", card="dwarves/dwarf-marauder-1", owner="p2", damage=9, defence=4, attackers=(
                Attacker(square="D4", card="orcs/orc-ravager-2", owner="p1", kind="arrow", direction="NE", value=5),
                Attacker(square="C5", card="orcs/goblin-shanker-1", owner="p1", kind="arrow", direction="N", value=4),
            )),
        ),
        kills_to={"p1": 1},
    )
    got = explain(LOW, _state(), _rec(event))
    assert isinstance(got, Explanation) and got.seq == 9
    assert got.text == "Dwarf Marauder at D5 is destroyed: 9 > 4 (Orc Ravager NE 5, Goblin Shanker N 4)"
    assert got.cause["rule"] == "§5.2"
    assert got.cause["units"][0]["attackers"][0]["name"] == "Orc Ravager"


def test_explain_placement_and_shot_name_the_cards():
    placed = Placed(player="p1", card="orcs/orc-ravager-2", square="D4", turn=3)
    assert explain(LOW, _state(), _rec(placed)).text == "p1 places Orc Ravager at D4"
    forced = Placed(player="p2", card="dwarves/dwarf-marauder-1", square="B2", turn=3, forced=True, basis="forced")
    assert "forced placement" in explain(LOW, _state(), _rec(forced)).text


def test_explain_a_draw_to_the_opponent_hides_the_card():
    drawn = CardDrawn(player="p1", card="orcs/orc-ravager-2")
    assert explain(LOW, _state(), _rec(drawn), view="p1").text == "p1 draws Orc Ravager"
    for view in ("p2", "spectator"):
        got = explain(LOW, _state(), _rec(drawn), view=view)
        assert got.text == "p1 draws a card" and got.cause["card"] is None


def test_explain_game_end_reasons():
    state = _state()
    assert explain(LOW, state, _rec(GameEnded(winner="p2", reason="commanders"))).text == (
        "p2 wins: 4 enemy commanders destroyed (§7)"
    )
    assert explain(LOW, state, _rec(GameEnded(winner="p1", reason="concession"))).text == "p1 wins by concession"


def test_explain_game_covers_every_event_of_bot_games():
    for seed in range(6):
        events = play_bot_game(seed, variant={"intermediate": seed % 2 == 0})
        recorded = [_rec(e, i + 1) for i, e in enumerate(events)]
        lines = explain_game(LOW, recorded)
        assert [x.seq for x in lines] == list(range(1, len(events) + 1))
        assert all(x.text and "\n" not in x.text for x in lines)
        assert "wins" in lines[-1].text


def test_explain_actions_joins_an_action_into_one_line():
    from replay.log.explain import explain_actions

    events = play_bot_game(1)
    recorded = [_rec(e, i + 1) for i, e in enumerate(events)]
    lines = explain_actions(LOW, recorded, view="spectator")
    kill = next(x for x in lines if "is destroyed" in x.text and x.text.startswith("p"))
    assert " places " in kill.text.split(";")[0] and "; " in kill.text
    assert len(kill.cause["events"]) >= 2
    assert lines[0].seq == 1 and "Lords of War" in lines[0].text
    assert sum(len(x.cause["events"]) for x in lines) == len(events)


def test_explain_leaves_out_events_a_view_may_not_see_at_all():
    """A system may hide a whole event from a view (``Views.redacted_event`` is None): it is neither streamed nor
    explained to that view, and the action lines skip it. Pebbles hides another seat's bonus_dealt that way."""
    from warlog_pebbles.rules import PEBBLES, BonusDealt

    from engine.play import play
    from replay.log.views import events_view
    from tests.plugins.installed import pebbles_registered

    with pebbles_registered():
        events = play(PEBBLES, PEBBLES.sample_setup(0, 3)).events
        stream = [
            Recorded(game_id="g", seq=i + 1, recorded_at="t", schema_version=1, event=e) for i, e in enumerate(events)
        ]
        assert [e.player for e in events if isinstance(e, BonusDealt)] == ["p1", "p2", "p3"]
        mine = explain_game("pebbles", stream, view="p2")
        assert [x.seq for x in mine] == [e["seq"] for e in events_view("pebbles", stream, "p2")]
        assert len(mine) == len(events) - 2  # p1's and p3's bonus_dealt are not there
        assert [x.text for x in mine if "bonus of" in x.text] == [f"p2 is dealt a bonus of {events[2].bonus}"]
        opening = explain_actions("pebbles", stream, view="spectator")[0]
        assert opening.seq == 1 and len(opening.cause["events"]) == 1  # game_started only
        assert len(explain_game("pebbles", stream, view="all")) == len(events)
