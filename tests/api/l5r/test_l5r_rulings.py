"""The rulings added after the L5R audit (shared rules/l5r.md §8, R4-R9; docs/l5r.md), each from the user's side:
a game over HTTP (the FastAPI app), with the scorekeeper's token or a seat's own."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from engine.l5r.catalogue import CARDS, DECKS

Json = dict[str, Any]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _seat(seat: str, **spec: Any) -> Json:
    out: Json = {"player": seat, "honor": 10, "home": [], "hand": [],
                 "provinces": [{"card": "rice-paddy", "face_up": True}] * 4,
                 "dynasty": ["market-town"] * 3, "fate": ["ashigaru"] * 3}
    out.update(spec)
    return out


def position_game(client: TestClient, p1: Json | None = None, p2: Json | None = None,
                  armies: tuple[str, str] = ("crab", "crane"), **position: Any) -> tuple[str, Json]:
    """A sealed game started from a position at p1's action phase (docs/l5r.md, "Position format")."""
    body = {"system": "l5r", "seed": 7, "insecure_seed": True, "variant": {"mode": "sealed"},
            "players": [{"id": "p1", "name": "Ann", "army": armies[0]}, {"id": "p2", "name": "Bob", "army": armies[1]}],
            "position": {"turn": 1, "active": "p1", "players": [_seat("p1", **(p1 or {})), _seat("p2", **(p2 or {}))],
                         **position}}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["tokens"]


def act(client: TestClient, game: str, token: str, **action: Any) -> Any:
    return client.post(f"/games/{game}/actions", json={"action": action}, headers=bearer(token))


def acts(client: TestClient, game: str, tokens: Json, *actions: Json) -> list[Json]:
    """Each action with its own seat's token; every one must be accepted. -> the events they caused."""
    events: list[Json] = []
    for action in actions:
        answer = act(client, game, tokens[action["player"]], **action)
        assert answer.status_code == 201, (action, answer.text)
        events += answer.json()["events"]
    return events


def refusal(client: TestClient, game: str, token: str, **action: Any) -> Json:
    before = client.get(f"/games/{game}/state").json()["seq"]
    answer = act(client, game, token, **action)
    assert answer.status_code == 422, answer.text
    assert client.get(f"/games/{game}/state").json()["seq"] == before  # nothing stored
    return dict(answer.json()["error"])


def state(client: TestClient, game: str, tokens: Json, view: str = "all") -> Json:
    token = tokens["scorekeeper"] if view == "all" else tokens.get(view, "")
    answer = client.get(f"/games/{game}/state", params={"view": view}, headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def passes(*seats: str) -> list[Json]:
    return [{"type": "pass", "player": seat} for seat in seats]


def custom_deck(**counts: int) -> Json:
    """The crab sample deck with some cards' copies set (``rice_paddy=4``), still 40/40 or more."""
    crab = DECKS["crab"]
    dynasty, fate = list(crab.dynasty), list(crab.fate)
    for card, n in counts.items():
        card = card.replace("_", "-")
        pile = dynasty if CARDS[card].dynasty else fate
        pile[:] = [c for c in pile if c != card] + [card] * n
    assert len(dynasty) >= 40 and len(fate) >= 40
    return {"stronghold": crab.stronghold, "sensei": crab.sensei, "dynasty": dynasty, "fate": fate}


# -- R4: three copies of a card, one of a Unique card -------------------------------------------------------------


def test_r4_a_deck_with_a_fourth_copy_of_a_card_is_refused_at_setup_naming_the_card(client: TestClient) -> None:
    answer = client.post("/games", json={"system": "l5r", "seed": 1, "insecure_seed": True, "players": [
        {"id": "p1", "army": custom_deck(rice_paddy=4)}, {"id": "p2", "army": "crane"}]})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["reason"], error["rule"]) == ("invalid_setup", "invalid_deck", "R4")
    assert "Rice Paddy" in error["message"] and "4" in error["message"] and "3" in error["message"]
    assert client.get("/games").json()["games"] == []  # nothing stored


def test_r4_a_deck_with_two_copies_of_a_unique_card_is_refused_naming_the_card(client: TestClient) -> None:
    unique = next(c for c in DECKS["crab"].dynasty if CARDS[c].unique)
    answer = client.post("/games", json={"system": "l5r", "seed": 1, "insecure_seed": True, "players": [
        {"id": "p1", "army": "crane"}, {"id": "p2", "army": custom_deck(**{unique: 2})}]})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert (error["reason"], error["rule"]) == ("invalid_deck", "R4")
    assert CARDS[unique].name in error["message"] and "Unique" in error["message"]


def test_r4_three_copies_and_one_unique_copy_are_accepted(client: TestClient) -> None:
    unique = next(c for c in DECKS["crab"].dynasty if CARDS[c].unique)
    answer = client.post("/games", json={"system": "l5r", "seed": 1, "insecure_seed": True, "players": [
        {"id": "p1", "army": custom_deck(rice_paddy=3, **{unique: 1})}, {"id": "p2", "army": "crane"}]})
    assert answer.status_code == 201, answer.text


def test_r4_every_sample_deck_obeys_the_deck_rules(client: TestClient) -> None:
    for name, deck in DECKS.items():
        for pile in (deck.dynasty, deck.fate):
            assert len(pile) >= 40, name
            for card in set(pile):
                assert pile.count(card) <= (1 if CARDS[card].unique else 3), (name, card, pile.count(card))
        answer = client.post("/games", json={"system": "l5r", "seed": 1, "insecure_seed": True, "players": [
            {"id": "p1", "army": name}, {"id": "p2", "army": name}], "first": "p1"})
        assert answer.status_code == 201, (name, answer.text)


# -- R5: a card of no clan pays no surcharge ----------------------------------------------------------------------


def test_r5_a_ronin_is_recruited_without_the_clan_surcharge(client: TestClient) -> None:
    ronin = [c.id for c in CARDS.values() if c.kind == "personality" and c.clan is None]
    assert ronin and all(CARDS[c].clan is None for c in ronin)  # the sample data's ronin have no clan
    game, tokens = position_game(client, p1={"provinces": [{"card": ronin[0], "face_up": True}] + [
        {"card": "rice-paddy", "face_up": True}] * 3})
    acts(client, game, tokens, *passes("p1", "p2", "p1"))  # the action phase, no attack
    assert state(client, game, tokens)["phase"] == "dynasty"
    events = acts(client, game, tokens, {"type": "produce", "player": "p1", "card": "p1.kyuden-hida.1"},
                  {"type": "recruit", "player": "p1", "province": 1})
    recruited = next(e for e in events if e["type"] == "card_recruited")
    assert (recruited["gold"], recruited["surcharge"]) == (CARDS[ronin[0]].cost, 0)


def to_act(client: TestClient, game: str, tokens: Json) -> list[str]:
    return list(state(client, game, tokens)["to_act"])


def pass_until(client: TestClient, game: str, tokens: Json, tag: str, limit: int = 20) -> list[Json]:
    """Whoever the game awaits passes (with its own token) until an event ``tag`` happens. -> every event."""
    events: list[Json] = []
    for _ in range(limit):
        events += acts(client, game, tokens, *passes(to_act(client, game, tokens)[0]))
        if any(e["type"] == tag for e in events):
            return events
    raise AssertionError(f"no {tag} after {limit} passes")


def legal(client: TestClient, game: str, token: str) -> list[Json]:
    answer = client.get(f"/games/{game}/legal", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return list(answer.json()["actions"])


# -- R7: a duel's survivor goes home ------------------------------------------------------------------------------


YAKAMO, KAGE, HOTARU, UJI = "p1.hida-yakamo.1", "p1.hiruma-kage.1", "p2.doji-hotaru.1", "p2.daidoji-uji.1"


def battle_with_a_duel(client: TestClient) -> tuple[str, Json, list[Json]]:
    """p1 attacks battlefield 1 with Hida Yakamo (force 4, chi 3) and Hiruma Kage (2); p2 defends with Doji Hotaru
    (force 2, chi 5) and Daidoji Uji (3); in the engage segment Hotaru challenges Yakamo, and p1 strikes at once."""
    game, tokens = position_game(client, p1={"home": [{"card": "hida-yakamo"}, {"card": "hiruma-kage"}]},
                                 p2={"home": [{"card": "doji-hotaru"}, {"card": "daidoji-uji"}]})
    events = acts(client, game, tokens, *passes("p1", "p2"), {"type": "attack", "player": "p1"},
                  {"type": "army", "player": "p1", "battlefield": 1, "units": [YAKAMO, KAGE]}, *passes("p1"),
                  {"type": "army", "player": "p2", "battlefield": 1, "units": [HOTARU, UJI]}, *passes("p2"))
    assert state(client, game, tokens)["segment"] == "engage" and to_act(client, game, tokens) == ["p2"]
    events += acts(client, game, tokens, {"type": "challenge", "player": "p2", "challenger": HOTARU,
                                          "challenged": YAKAMO}, {"type": "strike", "player": "p1"})
    return game, tokens, events


def test_r7_a_duels_survivor_leaves_its_army_and_adds_no_force_to_the_battle(client: TestClient) -> None:
    game, tokens, events = battle_with_a_duel(client)
    duel = next(e for e in events if e["type"] == "duel_resolved")
    assert (duel["winner"], duel["destroyed"]) == (HOTARU, [YAKAMO])
    assert duel["returned_home"] == [HOTARU]
    explained = client.get(f"/games/{game}/explanations").json()
    texts = [x["text"] for x in (explained if isinstance(explained, list) else explained["explanations"])]
    assert "Doji Hotaru wins the duel 5 to 3 after no focuses; Hida Yakamo is destroyed; Doji Hotaru returns home " \
        "from the battle (R7)" in texts
    armies = state(client, game, tokens)["armies"]
    assert [a["units"] for a in armies if a["side"] == "defender"] == [[UJI]]  # Hotaru went home (R7)
    assert HOTARU in [c["id"] for c in state(client, game, tokens)["players"][1]["cards"]]
    battle = next(e for e in pass_until(client, game, tokens, "battle_resolved") if e["type"] == "battle_resolved")
    assert (battle["attacker_force"], battle["defender_force"], battle["winner"]) == (2, 3, "defender")
    assert battle["destroyed"] == [KAGE]  # Hotaru, at home, is neither counted nor destroyed
    assert HOTARU in [c["id"] for c in state(client, game, tokens)["players"][1]["cards"]]


# -- R8: a bowed personality may duel -----------------------------------------------------------------------------


def test_r8_a_bowed_personality_may_challenge_and_be_challenged(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"home": [{"card": "hida-yakamo", "bowed": True}]},
                                 p2={"home": [{"card": "doji-hotaru", "bowed": True}]})
    offered = [a for a in legal(client, game, tokens["p1"]) if a["type"] == "challenge"]
    assert [(a["challenger"], a["challenged"]) for a in offered] == [(YAKAMO, HOTARU)]
    events = acts(client, game, tokens, {"type": "challenge", "player": "p1", "challenger": YAKAMO,
                                         "challenged": HOTARU})
    assert [e["type"] for e in events] == ["duel_challenged"]
    assert to_act(client, game, tokens) == ["p2"]  # the challenged player focuses first (§5.2)


# -- R6: one action (or pass) at a time, defender first; two passes in a row end the segment ----------------------


def battle_at_one(client: TestClient) -> tuple[str, Json]:
    """p1 attacks battlefield 1 with Hida Yakamo, p2 defends it with Doji Hotaru; both hold strategies."""
    game, tokens = position_game(client, p1={"home": [{"card": "hida-yakamo"}], "hand": ["charge", "ambush"]},
                                 p2={"home": [{"card": "doji-hotaru"}], "hand": ["feign-death", "ambush"]})
    acts(client, game, tokens, *passes("p1", "p2"), {"type": "attack", "player": "p1"},
         {"type": "army", "player": "p1", "battlefield": 1, "units": [YAKAMO]}, *passes("p1"),
         {"type": "army", "player": "p2", "battlefield": 1, "units": [HOTARU]}, *passes("p2"))
    return game, tokens


def test_r6_engage_alternates_one_action_at_a_time_defender_first(client: TestClient) -> None:
    game, tokens = battle_at_one(client)
    shown = state(client, game, tokens)
    assert (shown["phase"], shown["segment"], shown["to_act"]) == ("battle", "engage", ["p2"])  # defender first
    acts(client, game, tokens, {"type": "produce", "player": "p2", "card": "p2.kyuden-doji.1"})
    assert to_act(client, game, tokens) == ["p2"]  # producing gold pays for an action: it is none
    acts(client, game, tokens, {"type": "play_strategy", "player": "p2", "card": "p2.feign-death.1"})
    assert to_act(client, game, tokens) == ["p1"]  # one action, then the other player's turn
    error = refusal(client, game, tokens["p2"], type="play_strategy", player="p2", card="p2.ambush.1")
    assert (error["reason"], error["rule"]) == ("not_your_turn", "R6")
    # the effects of the action just taken are still its own player's to record
    acts(client, game, tokens, {"type": "effect", "player": "p2", "card": "p2.feign-death.1", "kind": "force",
                                "target": HOTARU, "amount": 1, "until": "battle"})
    assert to_act(client, game, tokens) == ["p1"]
    error = refusal(client, game, tokens["p2"], type="effect", player="p2", card="p2.kyuden-doji.1", kind="force",
                    target=HOTARU, amount=1, until="battle")
    assert error["reason"] == "not_your_turn"  # another card's text is another action
    acts(client, game, tokens, *passes("p1"))
    assert to_act(client, game, tokens) == ["p2"]
    acts(client, game, tokens, *passes("p2"))  # two passes in a row: the engage segment ends
    shown = state(client, game, tokens)
    assert (shown["segment"], shown["to_act"]) == ("combat", ["p2"])  # combat: the defender first again


def test_r6_combat_an_action_after_a_pass_reopens_the_alternation(client: TestClient) -> None:
    game, tokens = battle_at_one(client)
    acts(client, game, tokens, *passes("p2", "p1"))
    assert state(client, game, tokens)["segment"] == "combat"
    acts(client, game, tokens, *passes("p2"), {"type": "produce", "player": "p1", "card": "p1.kyuden-hida.1"},
         {"type": "play_strategy", "player": "p1", "card": "p1.charge.1"})
    assert to_act(client, game, tokens) == ["p2"]
    acts(client, game, tokens, *passes("p2"))
    assert state(client, game, tokens)["segment"] == "combat"  # a pass, an action, a pass: not two in a row
    events = acts(client, game, tokens, *passes("p1"))
    assert "battle_resolved" in [e["type"] for e in events]


def test_r6_the_action_phase_alternates_from_the_turn_player(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"home": [{"card": "hida-yakamo"}], "hand": ["ashigaru", "charge"]},
                                 p2={"home": [{"card": "doji-hotaru"}], "hand": ["ambush"]})
    assert to_act(client, game, tokens) == ["p1"]
    acts(client, game, tokens, {"type": "produce", "player": "p1", "card": "p1.kyuden-hida.1"},
         {"type": "attach", "player": "p1", "card": "p1.ashigaru.1", "to": YAKAMO})
    assert to_act(client, game, tokens) == ["p2"]
    acts(client, game, tokens, *passes("p2"), {"type": "play_strategy", "player": "p1", "card": "p1.charge.1"},
         *passes("p2"))
    assert state(client, game, tokens)["phase"] == "action"
    acts(client, game, tokens, *passes("p1"))
    assert state(client, game, tokens)["phase"] == "attack"


def test_r6_the_duels_focus_step_alternates_from_the_challenged_player(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"home": [{"card": "hida-yakamo"}], "hand": ["charge", "ambush"]},
                                 p2={"home": [{"card": "doji-hotaru"}], "hand": ["feign-death", "ambush"]})
    acts(client, game, tokens, {"type": "challenge", "player": "p1", "challenger": YAKAMO, "challenged": HOTARU})
    order = []
    for seat, card in (("p2", "p2.feign-death.1"), ("p1", "p1.charge.1"), ("p2", "p2.ambush.1")):
        order.append(to_act(client, game, tokens)[0])
        acts(client, game, tokens, {"type": "focus", "player": seat, "source": "hand", "card": card})
    assert order == ["p2", "p1", "p2"]
    error = refusal(client, game, tokens["p2"], type="strike", player="p2")
    assert error["reason"] == "not_your_turn"
    events = acts(client, game, tokens, {"type": "strike", "player": "p1"})
    assert "duel_resolved" in [e["type"] for e in events]
    assert to_act(client, game, tokens) == ["p2"]  # the challenge was p1's action: the other player's turn (R6)


# -- R9: card-stated endings, the removed-from-game area, dishonour in the discard pile, empty draws ---------------


def effect(seat: str, card: str, kind: str, target: str, amount: int = 0) -> Json:
    return {"type": "effect", "player": seat, "card": card, "kind": kind, "target": target, "amount": amount}


def test_r9_an_effect_records_that_a_card_eliminates_a_player(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"hand": ["block-supply-lines"]})
    events = acts(client, game, tokens, {"type": "play_strategy", "player": "p1", "card": "p1.block-supply-lines.1"},
                  effect("p1", "p1.block-supply-lines.1", "eliminate", "p2"))
    eliminated = next(e for e in events if e["type"] == "player_eliminated")
    ended = next(e for e in events if e["type"] == "game_ended")
    assert (eliminated["player"], eliminated["reason"], eliminated["card"]) == ("p2", "card",
                                                                               "p1.block-supply-lines.1")
    assert (ended["winner"], ended["reason"]) == ("p1", "military")  # every other player eliminated (§6)
    shown = state(client, game, tokens)
    assert (shown["winner"], shown["end_reason"], shown["players"][1]["eliminated"]) == ("p1", "military", True)
    explained = client.get(f"/games/{game}/explanations").json()
    texts = [x["text"] for x in (explained if isinstance(explained, list) else explained["explanations"])]
    assert "p2 is eliminated by Block Supply Lines (R9)" in texts


def test_r9_an_effect_records_that_a_card_wins_the_game(client: TestClient) -> None:
    game, tokens = position_game(client, p2={"home": [{"card": "doji-hotaru"}]})
    acts(client, game, tokens, *passes("p1"))
    events = acts(client, game, tokens, effect("p2", HOTARU, "win", "p2"))
    ended = next(e for e in events if e["type"] == "game_ended")
    assert (ended["winner"], ended["reason"], ended["card"]) == ("p2", "card", HOTARU)
    shown = state(client, game, tokens, "spectator")
    assert (shown["phase"], shown["winner"], shown["end_reason"]) == ("over", "p2", "card")
    before = client.get(f"/games/{game}/state").json()["seq"]
    answer = act(client, game, tokens["scorekeeper"], type="pass", player="p1")  # any action on a finished game
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "game_over"), answer.text
    assert client.get(f"/games/{game}/state").json()["seq"] == before


def test_r9_an_effect_cannot_eliminate_or_crown_nobody(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"home": [{"card": "hida-yakamo"}]})
    for kind, target, amount in (("eliminate", "p9", 0), ("win", YAKAMO, 0), ("eliminate", "p2", 3)):
        error = refusal(client, game, tokens["p1"], **effect("p1", YAKAMO, kind, target, amount))
        assert error["reason"] in ("no_target", "no_change"), error


def test_r9_a_card_removed_from_the_game_goes_to_its_owners_removed_area(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"hand": ["charge"]},
                                 p2={"home": [{"card": "doji-hotaru", "attachments": ["ashigaru"]}]})
    acts(client, game, tokens, {"type": "produce", "player": "p1", "card": "p1.kyuden-hida.1"},
         {"type": "play_strategy", "player": "p1", "card": "p1.charge.1"},
         effect("p1", "p1.charge.1", "remove", HOTARU))
    p2 = state(client, game, tokens, "spectator")["players"][1]
    assert p2["removed"] == [HOTARU] and HOTARU not in p2["dynasty_discard"]
    assert p2["fate_discard"] == ["p2.ashigaru.1"]  # its follower leaves play with it, to the discard pile
    assert HOTARU not in [c["id"] for c in p2["cards"]]


def test_r9_a_dishonoured_personality_destroyed_stays_dishonoured_in_the_discard_pile(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"hand": ["charge"]},
                                 p2={"home": [{"card": "doji-hotaru", "dishonored": True}, {"card": "daidoji-uji"}]})
    events = acts(client, game, tokens, {"type": "produce", "player": "p1", "card": "p1.kyuden-hida.1"},
                  {"type": "play_strategy", "player": "p1", "card": "p1.charge.1"},
                  effect("p1", "p1.charge.1", "destroy", HOTARU), effect("p1", "p1.charge.1", "destroy", UJI))
    assert [e["total"] for e in events if e["type"] == "honor_changed"] == [10 - 3]  # §4: Hotaru's personal honour
    p2 = state(client, game, tokens, "spectator")["players"][1]
    assert p2["dynasty_discard"] == [HOTARU, UJI]
    assert p2["discard_dishonored"] == [HOTARU]  # it lies dishonoured in the pile; Uji does not


def test_r9_drawing_from_an_empty_fate_deck_draws_nothing_and_is_recorded(client: TestClient) -> None:
    game, tokens = position_game(client, p1={"fate": [], "hand": ["ashigaru"]})
    events = acts(client, game, tokens, *passes("p1", "p2", "p1", "p1"))  # action, attack, dynasty: the end phase
    empty = [e for e in events if e["type"] == "nothing_drawn"]
    assert [(e["player"], e["deck"]) for e in empty] == [("p1", "fate")]
    assert not [e for e in events if e["type"] == "card_drawn"]
    shown = state(client, game, tokens)
    assert (shown["active"], shown["players"][0]["hand"]) == ("p2", ["p1.ashigaru.1"])  # play goes on
