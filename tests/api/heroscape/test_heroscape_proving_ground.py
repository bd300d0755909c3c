"""Every movement and engagement rule of the digest (§3, §4), and the source's edge inlet, played over HTTP on the
sample map made for them: Proving Ground (``proving-ground``, docs/heroscape.md "Proving Ground" says which rule is
where). Each test starts a table-mode game from a position (``POST /games``), plays order markers and initiative
with the seats' tokens, then moves and attacks: the events answered, or the refusal (422 with its rule, nothing
stored). Dice are entered at the table, so a test chooses them: 1-3 is a skull, 4-5 a shield, 6 a blank (§1).

The map's places (axial ``q,r``; ground level 1): the bluff (0,-3) (1,-3) level 5 and the crag (1,-4) level 6; the
spire (3,-1) level 16 with its ledge (4,-2) level 11 beside it and the river below it; the river (level 0) along
r=0 (one hex wide east of q=2) and r=1 west of q=2 (two wide), crossed by the road (q=-1) on a one-hex bridge
(-1,0) (-1,1); walls of height 6 on (-3,-2)|(-2,-2) and 4 on (-3,-1)|(-2,-1); the glyphs Astrid (3,2), Kelda
(0,3), Gerda (5,-4); the edge inlet, three hexes cut in from the west edge along r=3.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.engine.heroscape.hs_given import markers, position_setup

MAP = "proving-ground"


class Table:
    """A table-mode game on Proving Ground from ``figures`` (``"p1 agent-carr 1,-2"``, ``"+q,r"`` a tail, ``w2`` two
    wounds), at p1's first turn: every order marker of p1 on ``p1``, of p2 on ``p2``; initiative 20 to 1."""

    def __init__(self, client: TestClient, figures: list[str], p1: str, p2: str) -> None:
        self.client = client
        created = client.post("/games", json={**position_setup(figures, board=MAP), "insecure_seed": True})
        assert created.status_code == 201, created.text
        self.id, self.tokens = created.json()["id"], created.json()["tokens"]
        self.ok(markers("p1", p1))
        self.ok(markers("p2", p2))
        self.roll("p1", 20)
        events = self.roll("p2", 1)
        assert {"type": "marker_revealed", "player": "p1"}.items() <= events[-1].items(), events

    def post(self, action: dict[str, Any]) -> Any:
        return self.client.post(f"/games/{self.id}/actions", json={"action": action},
                                headers={"Authorization": f"Bearer {self.tokens[action['player']]}"})

    def ok(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        answer = self.post(action)
        assert answer.status_code == 201, answer.text
        events: list[dict[str, Any]] = answer.json()["events"]
        return events

    def refused(self, action: dict[str, Any], rule: str, code: str) -> str:
        seq = self.state()["seq"]
        answer = self.post(action)
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert (error["code"], error["rule"], error["reason"]) == ("illegal_action", rule, code), error
        assert self.state()["seq"] == seq  # nothing stored
        message: str = error["message"]
        return message

    def roll(self, player: str, *values: int) -> list[dict[str, Any]]:
        return self.ok({"type": "roll", "player": player, "values": list(values)})

    def move(self, figure: str, to: tuple[int, int], tail: tuple[int, int] | None = None,
             player: str = "p1") -> dict[str, Any]:
        action: dict[str, Any] = {"type": "move", "player": player, "figure": figure, "to": list(to)}
        if tail is not None:
            action["tail"] = list(tail)
        return action

    def attack(self, figure: str, target: str, player: str = "p1") -> dict[str, Any]:
        return {"type": "attack", "player": player, "figure": figure, "target": target}

    def state(self) -> dict[str, Any]:
        answer = self.client.get(f"/games/{self.id}/state", params={"view": "all"},
                                 headers={"Authorization": f"Bearer {self.tokens['scorekeeper']}"})
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    def figure(self, owner: str, figure: str) -> dict[str, Any]:
        found: dict[str, Any] = next(f for f in self.state()["figures"] if (f["owner"], f["figure"]) == (owner, figure))
        return found


def declared(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in events if e["type"] == kind)
    return found


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


FAR = "p2 izumi-samurai/1 3,-5"  # an enemy far from every place used


# -- §3 movement ---------------------------------------------------------------------------------------------


def test_s3_each_hex_entered_costs_one_on_level_ground(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr -5,5", FAR], p1="agent-carr", p2="izumi-samurai")
    table.refused(table.move("agent-carr", (1, 5)), "§3", "too_far")  # six hexes along r=5, move 5
    move = declared(table.ok(table.move("agent-carr", (0, 5))), "move_declared")
    assert (move["cost"], move["allowance"], len(move["path"])) == (5, 5, 5)


def test_s3_climbing_costs_one_extra_per_level_climbed(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 1,-2", FAR], p1="agent-carr", p2="izumi-samurai")
    # onto the bluff's far hex: 1 + 4 up, then 1 along it = 6 (or 1 along the ground, then 5 up): move 5 is short
    table.refused(table.move("agent-carr", (0, -3)), "§3", "too_far")
    move = declared(table.ok(table.move("agent-carr", (1, -3))), "move_declared")  # 4 levels up: 1 + 4
    assert (move["path"], move["cost"]) == ([[1, -3]], 5)
    assert table.figure("p1", "agent-carr")["hex"] == [1, -3]


def test_s3_a_figure_cannot_climb_a_step_as_high_as_itself_at_once(client: TestClient) -> None:
    # Marro Warriors: height 5, move 6; the crag is 5 levels above the ground beside it (it would cost 6)
    table = Table(client, ["p1 marro-warriors/1 2,-4", FAR], p1="marro-warriors", p2="izumi-samurai")
    message = table.refused(table.move("marro-warriors/1", (1, -4)), "§3", "too_high")
    assert "height 5" in message
    move = declared(table.ok(table.move("marro-warriors/1", (1, -3))), "move_declared")  # the bluff: 4 levels
    assert move["cost"] == 5
    # the dwarf scout (height 3) cannot climb the bluff's 4 levels that a height-5 figure climbs
    small = Table(client, ["p1 dwarf-scout 0,-2", FAR], p1="dwarf-scout", p2="izumi-samurai")
    small.refused(small.move("dwarf-scout", (0, -3)), "§3", "too_high")


def test_s3_descending_costs_nothing_extra(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 0,-3", FAR], p1="agent-carr", p2="izumi-samurai")
    events = table.ok(table.move("agent-carr", (0, -2)))  # 4 levels down from the bluff, below its height 5
    move = declared(events, "move_declared")
    assert (move["cost"], move["fall_dice"]) == (1, 0)
    assert not of_type(events, "dice_rolled") and table.state()["due"] == []


def test_s3_unengaged_friends_may_be_passed_through_but_never_enemies(client: TestClient) -> None:
    # the bridge is the only dry way over the river: a friend on it is passed through
    table = Table(client, ["p1 agent-carr -1,-1", "p1 izumi-samurai/1 -1,0", "p2 marro-warriors/1 3,-5"],
                  p1="agent-carr", p2="marro-warriors")
    move = declared(table.ok(table.move("agent-carr", (-1, 2))), "move_declared")
    assert move["path"] == [[-1, 0], [-1, 1], [-1, 2]]
    # an enemy on it is not
    enemy = Table(client, ["p1 agent-carr -1,-1", "p2 izumi-samurai/1 -1,1"], p1="agent-carr", p2="izumi-samurai")
    enemy.refused(enemy.move("agent-carr", (-1, 2)), "§3", "blocked")


def test_s3_an_engaged_friend_cannot_be_passed_through(client: TestClient) -> None:
    # decision (docs/heroscape.md): only unengaged friends are passed; the marro in the river engages the samurai
    table = Table(client, ["p1 agent-carr -1,-1", "p1 izumi-samurai/1 -1,0", "p2 marro-warriors/1 0,0"],
                  p1="agent-carr", p2="marro-warriors")
    table.refused(table.move("agent-carr", (-1, 2)), "§3", "blocked")


def test_s3_no_move_ends_on_an_occupied_hex(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 0,4", "p1 izumi-samurai/1 1,4", "p2 marro-warriors/1 1,5"],
                  p1="agent-carr", p2="marro-warriors")
    table.refused(table.move("agent-carr", (1, 4)), "§3", "occupied")  # a friend
    table.refused(table.move("agent-carr", (1, 5)), "§3", "occupied")  # an enemy


def test_s3_entering_water_stops_a_single_space_figure(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 5,-1", FAR], p1="agent-carr", p2="izumi-samurai")
    table.refused(table.move("agent-carr", (5, 1)), "§3", "stopped")  # across the one-hex river: it stops in it
    move = declared(table.ok(table.move("agent-carr", (5, 0))), "move_declared")
    assert (move["path"], move["cost"]) == ([[5, 0]], 1)


def test_s3_a_double_space_figure_crosses_one_water_hex_without_stopping(client: TestClient) -> None:
    table = Table(client, ["p1 grimnak 5,-1+6,-1", FAR], p1="grimnak", p2="izumi-samurai")
    move = declared(table.ok(table.move("grimnak", (5, 1), tail=(4, 1))), "move_declared")
    assert (move["path"], move["cost"]) == ([[5, 0], [5, 1]], 3)  # down into the water 1, up out of it 1 + 1


def test_s3_a_double_space_figure_stops_when_both_its_hexes_are_in_water(client: TestClient) -> None:
    # the river is two hexes wide west of the bridge: Grimnak may wade into the second hex, and stops there
    table = Table(client, ["p1 grimnak -4,-1+-5,-1", FAR], p1="grimnak", p2="izumi-samurai")
    table.refused(table.move("grimnak", (-4, 2), tail=(-5, 2)), "§3", "stopped")
    move = declared(table.ok(table.move("grimnak", (-4, 1), tail=(-4, 0))), "move_declared")
    assert (move["path"], move["cost"]) == ([[-4, 0], [-4, 1]], 2)
    # a single-space figure stops in the first water hex already
    single = Table(client, ["p1 agent-carr -4,-1", FAR], p1="agent-carr", p2="izumi-samurai")
    single.refused(single.move("agent-carr", (-4, 1)), "§3", "stopped")


def test_s3_falling_into_water_does_no_damage(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 3,-1", FAR], p1="agent-carr", p2="izumi-samurai")
    events = table.ok(table.move("agent-carr", (3, 0)))  # 16 levels down from the spire, into the river
    assert declared(events, "move_declared")["fall_dice"] == 0
    assert not of_type(events, "dice_rolled") and not of_type(events, "figure_wounded")
    assert table.figure("p1", "agent-carr")["hex"] == [3, 0] and table.state()["due"] == []


def test_s3_entering_a_glyph_stops_the_figure_and_it_acts_at_once(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 2,2", FAR], p1="agent-carr", p2="izumi-samurai")
    move = declared(table.ok(table.move("agent-carr", (4, 2))), "move_declared")
    assert [3, 2] not in move["path"] and move["cost"] == 3  # not over Astrid (2): round it
    on = Table(client, ["p1 agent-carr 2,2", "p2 izumi-samurai/1 4,2"], p1="agent-carr", p2="izumi-samurai")
    assert declared(on.ok(on.move("agent-carr", (3, 2))), "move_declared")["path"] == [[3, 2]]
    attack = declared(on.ok(on.attack("agent-carr", "izumi-samurai/1")), "attack_declared")
    assert (attack["glyph_bonus"], attack["dice"]) == (1, 4)  # Astrid: attack +1 from the moment it stops on it


def test_s3_a_figure_with_life_1_cannot_enter_a_healing_glyph(client: TestClient) -> None:
    squad = Table(client, ["p1 izumi-samurai/1 0,4", "p2 marro-warriors/1 3,-5"], p1="izumi-samurai",
                  p2="marro-warriors")
    squad.refused(squad.move("izumi-samurai/1", (0, 3)), "§3", "healing_glyph")  # Kelda
    hero = Table(client, ["p1 agent-carr 0,4 w3", FAR], p1="agent-carr", p2="izumi-samurai")
    taken = declared(hero.ok(hero.move("agent-carr", (0, 3))), "glyph_taken")
    assert (taken["glyph"], taken["healed"]) == ("kelda", 3)
    assert hero.figure("p1", "agent-carr")["wounds"] == 0


def test_s3_falling_one_die_from_a_drop_as_high_as_the_figure(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 3,-1", FAR], p1="agent-carr", p2="izumi-samurai")
    move = declared(table.ok(table.move("agent-carr", (4, -2))), "move_declared")  # spire 16 to ledge 11: 5 down
    assert move["fall_dice"] == 1
    assert [(d["purpose"], d["player"], d["count"]) for d in table.state()["due"]] == [("falling", "p1", 1)]
    events = table.roll("p1", 2)  # a skull: one wound
    wounded = declared(events, "figure_wounded")
    assert (wounded["figure"], wounded["wounds"], wounded["cause"]) == ("agent-carr", 1, "falling")
    assert table.figure("p1", "agent-carr")["wounds"] == 1
    # the same 4-level drop off the bluff that costs Agent Carr (height 5) nothing is a fall for the dwarf (height 3)
    small = Table(client, ["p1 dwarf-scout 0,-3", FAR], p1="dwarf-scout", p2="izumi-samurai")
    assert declared(small.ok(small.move("dwarf-scout", (0, -2))), "move_declared")["fall_dice"] == 1
    assert not of_type(small.roll("p1", 6), "figure_wounded")  # a blank: no wound


def test_s3_falling_two_dice_from_a_drop_of_height_plus_ten(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr 3,-1", FAR], p1="agent-carr", p2="izumi-samurai")
    move = declared(table.ok(table.move("agent-carr", (2, -1))), "move_declared")  # spire 16 to ground 1: 15 down
    assert move["fall_dice"] == 2
    events = table.roll("p1", 1, 3)  # two skulls
    assert declared(events, "figure_wounded")["wounds"] == 2
    assert table.figure("p1", "agent-carr")["wounds"] == 2


def test_s3_moving_only_along_the_road_gives_three_extra_spaces(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr -1,-5", FAR], p1="agent-carr", p2="izumi-samurai")
    table.refused(table.move("agent-carr", (-1, 4)), "§3", "too_far")  # 9 along the road: 5 + 3 is 8
    table.refused(table.move("agent-carr", (1, -1)), "§3", "too_far")  # 6 away, off the road
    move = declared(table.ok(table.move("agent-carr", (-1, 3))), "move_declared")  # 8 along it, over the bridge
    assert (move["cost"], move["allowance"], move["road"]) == (8, 8, True)


def test_s3_a_double_space_figure_ends_its_move_on_one_level(client: TestClient) -> None:
    table = Table(client, ["p1 grimnak 1,-1+2,-1", FAR], p1="grimnak", p2="izumi-samurai")
    table.refused(table.move("grimnak", (0, -2), tail=(0, -3)), "§3", "double_space")  # the tail on the bluff
    move = declared(table.ok(table.move("grimnak", (0, -2), tail=(1, -2))), "move_declared")
    assert (move["to"], move["tail"]) == ([0, -2], [1, -2])


# -- §4 engagement -------------------------------------------------------------------------------------------


def test_s4_adjacent_enemy_figures_are_engaged(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr -3,5", "p2 izumi-samurai/1 -2,5"], p1="agent-carr", p2="izumi-samurai")
    attack = declared(table.ok(table.attack("agent-carr", "izumi-samurai/1")), "attack_declared")
    assert attack["engaged"] is True and attack["sight"] is None  # engaged: no line of sight needed
    apart = Table(client, ["p1 agent-carr -3,5", "p2 izumi-samurai/1 -1,5"], p1="agent-carr", p2="izumi-samurai")
    apart.refused(apart.attack("agent-carr", "izumi-samurai/1"), "§5", "out_of_range")


def engagement(client: TestClient, figures: list[str], attacker: str, target: str, engaged: bool) -> None:
    """p1's ``attacker`` (range 1) attacks p2's ``target``: declared as engaged, or refused as not engaged (§5)."""
    table = Table(client, figures, p1=attacker.split("/")[0], p2=target.split("/")[0])
    if engaged:
        assert declared(table.ok(table.attack(attacker, target)), "attack_declared")["engaged"] is True
    else:
        table.refused(table.attack(attacker, target), "§5", "not_engaged")


@pytest.mark.parametrize(
    ("figures", "attacker", "target", "engaged"),
    [
        # the bluff (level 5) over the ground (level 1): a gap of 4
        (["p1 dwarf-scout 0,-2", "p2 agent-carr 0,-3"], "dwarf-scout", "agent-carr", False),  # 4 > 3, the dwarf's
        (["p1 agent-carr 0,-2", "p2 dwarf-scout 0,-3"], "agent-carr", "dwarf-scout", True),  # 4 ≤ 5, Carr's
        (["p1 dwarf-scout 0,-3", "p2 agent-carr 0,-2"], "dwarf-scout", "agent-carr", True),  # the lower one counts
        # the spire (16) over its ledge (11): 5, as high as the lower figure; the ledge over the ground: 10
        (["p1 agent-carr 3,-1", "p2 izumi-samurai/1 4,-2"], "agent-carr", "izumi-samurai/1", True),
        (["p1 agent-carr 4,-2", "p2 izumi-samurai/1 4,-1"], "agent-carr", "izumi-samurai/1", False),
    ],
    ids=["dwarf-below", "carr-below", "dwarf-above", "gap-equal-to-height", "gap-10"],
)
def test_s4_a_level_gap_greater_than_the_lower_figures_height_separates_engagement(
        client: TestClient, figures: list[str], attacker: str, target: str, engaged: bool) -> None:
    engagement(client, figures, attacker, target, engaged)


@pytest.mark.parametrize(
    ("figures", "attacker", "target", "engaged"),
    [
        # the wall of height 6 between (-3,-2) and (-2,-2)
        (["p1 agent-carr -3,-2", "p2 izumi-samurai/1 -2,-2"], "agent-carr", "izumi-samurai/1", False),  # 6 > 5, 5
        (["p1 grimnak -2,-2+-1,-2", "p2 agent-carr -3,-2"], "grimnak", "agent-carr", True),  # Grimnak's 7 reaches over
        # the wall of height 4 between (-3,-1) and (-2,-1): taller than the dwarf (3), not than Agent Carr (5)
        (["p1 dwarf-scout -3,-1", "p2 agent-carr -2,-1"], "dwarf-scout", "agent-carr", True),
    ],
    ids=["wall-6-two-height-5", "wall-6-grimnak", "wall-4-dwarf-and-carr"],
)
def test_s4_an_obstacle_taller_than_either_figure_separates_engagement(
        client: TestClient, figures: list[str], attacker: str, target: str, engaged: bool) -> None:
    engagement(client, figures, attacker, target, engaged)


def test_s4_leaving_engagement_each_enemy_rolls_one_die_a_skull_a_wound_no_defence(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr -3,5", "p2 izumi-samurai/1 -2,5", "p2 izumi-samurai/2 -3,4"],
                  p1="agent-carr", p2="izumi-samurai")
    move = declared(table.ok(table.move("agent-carr", (-5, 5))), "move_declared")
    assert sorted(move["strikers"]) == ["izumi-samurai/1", "izumi-samurai/2"]
    due = [(d["purpose"], d["player"], d["count"], d["figure"]) for d in table.state()["due"]]
    assert sorted(due) == [("leaving", "p2", 1, "izumi-samurai/1"), ("leaving", "p2", 1, "izumi-samurai/2")]
    first = table.roll("p2", 1)  # a skull: a wound, no defence roll
    assert (declared(first, "figure_wounded")["wounds"], declared(first, "figure_wounded")["cause"]) == (1, "leaving")
    second = table.roll("p2", 4)  # a shield is no skull: nothing
    assert not of_type(second, "figure_wounded")
    assert declared(second, "figure_moved")["to"] == [-5, 5]
    rolled = of_type(first + second, "dice_rolled")
    assert [(d["purpose"], d["player"]) for d in rolled] == [("leaving", "p2"), ("leaving", "p2")]
    assert table.state()["due"] == []  # Agent Carr rolls no defence
    carr = table.figure("p1", "agent-carr")
    assert (carr["hex"], carr["wounds"]) == ([-5, 5], 1)


def test_s4_an_engaged_figure_attacks_only_figures_it_is_engaged_with(client: TestClient) -> None:
    # Marro Warriors shoot 6 hexes; engaged with the samurai beside it, it may not shoot the one 4 hexes away
    table = Table(client, ["p1 marro-warriors/1 -2,4", "p2 izumi-samurai/1 -2,5", "p2 izumi-samurai/2 2,3"],
                  p1="marro-warriors", p2="izumi-samurai")
    table.refused(table.attack("marro-warriors/1", "izumi-samurai/2"), "§4", "engaged")
    attack = declared(table.ok(table.attack("marro-warriors/1", "izumi-samurai/1")), "attack_declared")
    assert attack["engaged"] is True and attack["sight"] is None


# -- the edge inlet (the source: range across a part with no hexes is counted round it, along the map) --------


def test_edge_inlet_range_is_counted_round_it_along_the_map(client: TestClient) -> None:
    # (-6,4) and (-6,2) are 2 hexes apart across the inlet, 7 round it; (-5,2) is 2 across and 6 round
    table = Table(client, ["p1 marro-warriors/1 -6,4", "p2 izumi-samurai/1 -6,2", "p2 izumi-samurai/2 -5,2"],
                  p1="marro-warriors", p2="izumi-samurai")
    message = table.refused(table.attack("marro-warriors/1", "izumi-samurai/1"), "§5", "out_of_range")
    assert "7" in message
    attack = declared(table.ok(table.attack("marro-warriors/1", "izumi-samurai/2")), "attack_declared")
    assert (attack["distance"], attack["range"], attack["sight"]) == (6, 6, True)  # the gap hides nothing


def test_edge_inlet_a_figure_walks_round_it(client: TestClient) -> None:
    table = Table(client, ["p1 agent-carr -6,4", FAR], p1="agent-carr", p2="izumi-samurai")
    table.refused(table.move("agent-carr", (-6, 2)), "§3", "too_far")  # 2 hexes across, 7 round
    move = declared(table.ok(table.move("agent-carr", (-4, 2))), "move_declared")
    assert move["path"] == [[-5, 4], [-4, 4], [-3, 3], [-3, 2], [-4, 2]] and move["cost"] == 5
