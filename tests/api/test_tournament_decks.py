"""Issue 30 item 5, decks at registration: a tournament's format is a catalogue (a pinned one, else the system's
default) and the system's deck rules; registering judges each player's deck or army by them (a refusal names the
rule and the card, and changes nothing); the deck lists are the organiser's until the tournament ends, then
everyone's. Over HTTP and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.cli import main
from engine.l5r.catalogue import CATALOGUES as L5R
from tests.api.helpers import bearer
from tests.engine.catalogue_given import FIXTURES, sample_catalogue
from tests.serving import served, warlog


def l5r_list(document: dict[str, Any], name: str) -> dict[str, Any]:
    """Deck ``name`` of an L5R catalogue document as the list a player brings: each card id as many times as the
    deck counts it."""
    deck = next(d for d in document["decks"] if d["name"] == name)
    return {"stronghold": deck["stronghold"], "sensei": deck.get("sensei"),
            "dynasty": [e["card"] for e in deck["dynasty"] for _ in range(e["count"])],
            "fate": [e["card"] for e in deck["fate"] for _ in range(e["count"])]}


def four_of_a_card(document: dict[str, Any], name: str) -> tuple[dict[str, Any], str]:
    """Deck ``name``'s list with a fourth copy of a (non-Unique) card it holds three of: (the list, the card's
    name)."""
    cards = {c["id"]: c for c in document["cards"]}
    deck = l5r_list(document, name)
    card = next(c for c in deck["fate"] if deck["fate"].count(c) == 3 and not cards[c].get("unique"))
    deck["fate"].append(card)
    return deck, cards[card]["name"]


def create(client: TestClient, system: str, **fields: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/tournaments", json={"name": "Decks Open", "system": system, "rounds": 1, **fields})
    assert created.status_code == 201, created.text
    return created.json()["id"], bearer(created.json()["token"])


def register(client: TestClient, tid: str, organiser: dict[str, str], player: str, army: Any) -> Any:
    return client.post(f"/tournaments/{tid}/players", json={"id": player, "name": player.title(),
                                                            **({"army": army} if army is not None else {})},
                       headers=organiser)


def refused(response: Any, code: str, rule: str | None, *words: str) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code and error.get("rule") == rule, error
    for word in words:
        assert word in error["message"], (word, error["message"])
    return error


def test_a_tournament_refuses_a_deck_that_breaks_r4(client: TestClient) -> None:
    tid, organiser = create(client, "l5r")
    default = L5R.default()
    assert register(client, tid, organiser, "ann", l5r_list(default, "crab")).status_code == 201
    before = client.get(f"/tournaments/{tid}").json()
    deck, card = four_of_a_card(default, "crane")
    error = refused(register(client, tid, organiser, "bob", deck), "invalid_deck", "R4", card, "at most 3 copies")
    assert "4" in error["message"]
    after = client.get(f"/tournaments/{tid}").json()
    assert after == before and [p["id"] for p in after["players"]] == ["ann"], "a refused deck registers nobody"
    log = [e.type for e in client.app.state.tournaments.log.read(tid)]  # type: ignore[attr-defined]
    assert log == ["tournament_created", "player_registered"]


def test_a_tournament_refuses_a_second_copy_of_a_unique_card(client: TestClient) -> None:
    tid, organiser = create(client, "l5r")
    default = L5R.default()
    cards = {c["id"]: c for c in default["cards"]}
    deck = l5r_list(default, "lion")
    unique = next(c for c in deck["dynasty"] if cards[c].get("unique"))
    deck["dynasty"].append(unique)
    refused(register(client, tid, organiser, "cat", deck), "invalid_deck", "R4", cards[unique]["name"], "Unique")


def test_a_tournament_refuses_an_art_of_war_deck_that_is_not_a_king_and_twenty_basic_units(
        client: TestClient) -> None:
    tid, organiser = create(client, "art-of-war")
    nineteen = {"king": "iron-king", "cards": ["soldier"] * 6 + ["archer"] * 4 + ["priest"] * 3 + ["guardian"] * 3
                + ["wizard"] * 3}
    refused(register(client, tid, organiser, "ann", nineteen), "invalid_deck", "§1", "20 cards")
    assert register(client, tid, organiser, "ann", {**nineteen, "cards": [*nineteen["cards"], "guardian"]}
                    ).status_code == 201
    assert [p["id"] for p in client.get(f"/tournaments/{tid}").json()["players"]] == ["ann"]


def test_a_tournament_refuses_a_light_wars_army_over_the_cost_of_its_battle_size(client: TestClient) -> None:
    tid, organiser = create(client, "light-wars", variant={"size": "small"})
    dear = {"units": ["king", "cavalry", "cavalry", "cavalry", "cavalry", "cavalry"], "tactics": ["battle-cry"]}
    refused(register(client, tid, organiser, "ann", dear), "invalid_army", "§2.2", "costs 22", "20")
    assert register(client, tid, organiser, "ann", "balanced").status_code == 201


def test_a_tournament_refuses_a_heroscape_army_over_its_points_limit(client: TestClient) -> None:
    tid, organiser = create(client, "heroscape", points_limit=200)
    assert client.get(f"/tournaments/{tid}").json()["points_limit"] == 200
    refused(register(client, tid, organiser, "ann", "utgar"), "invalid_army", "points_limit", "220 points",
            "at most 200")
    assert register(client, tid, organiser, "ann", {"cards": ["grimnak", "raelin"]}).status_code == 201  # 200: at it
    refused(register(client, tid, organiser, "bob", {"cards": ["grimnak", "raelin", "dwarf-scout"]}), "invalid_army",
            "points_limit", "260 points")
    assert [p["id"] for p in client.get(f"/tournaments/{tid}").json()["players"]] == ["ann"]


def test_a_points_limit_is_for_a_system_whose_armies_have_points(client: TestClient) -> None:
    created = client.post("/tournaments", json={"name": "No points", "system": "lords-of-war", "rounds": 1,
                                                "points_limit": 100})
    assert created.status_code == 422 and created.json()["error"]["code"] == "invalid_points_limit"


def test_a_tournament_on_an_uploaded_catalogue_takes_its_decks_and_refuses_a_card_not_in_it(
        client: TestClient) -> None:
    document = sample_catalogue("l5r", "phoenix-scorpion")
    identity = client.post("/catalogues", json=document).json()["id"]
    tid, organiser = create(client, "l5r", catalogue=identity)
    assert client.get(f"/tournaments/{tid}").json()["catalogue"] == identity
    assert register(client, tid, organiser, "ann", "phoenix").status_code == 201  # the catalogue's deck, by name
    assert register(client, tid, organiser, "bob", l5r_list(document, "scorpion")).status_code == 201
    refused(register(client, tid, organiser, "cat", "crab"), "invalid_deck", "§1", "'crab'")
    stranger = l5r_list(document, "scorpion")
    crab = l5r_list(L5R.default(), "crab")
    foreign = next(c for c in crab["dynasty"] if c not in {x["id"] for x in document["cards"]})
    stranger["dynasty"][0] = foreign
    refused(register(client, tid, organiser, "cat", stranger), "invalid_deck", "§1", foreign)
    assert [p["id"] for p in client.get(f"/tournaments/{tid}").json()["players"]] == ["ann", "bob"]
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    assert started.status_code == 201, started.text
    game_id = started.json()["tables"][0]["game_id"]
    assert client.get(f"/games/{game_id}").json()["catalogue"] == identity, "the table plays the tournament's format"
    opening = client.get(f"/games/{game_id}/events", params={"view": "all"},
                         headers=bearer(started.json()["tables"][0]["tokens"]["scorekeeper"]))
    assert opening.status_code == 200, opening.text
    decks = {d["player"]: d for d in json.loads(opening.text.splitlines()[0])["decks"]}
    seats = started.json()["tables"][0]["seats"]
    bob = next(seat for seat, who in seats.items() if who == "bob")
    assert list(decks[bob]["dynasty"]) == l5r_list(document, "scorpion")["dynasty"]
    assert {d["name"] for d in decks.values()} == {"phoenix", "custom"}, "each seat plays its registered deck"


def test_a_tournament_catalogue_is_a_stored_one_of_its_system(client: TestClient) -> None:
    missing = client.post("/tournaments", json={"name": "X", "system": "l5r", "rounds": 1,
                                                "catalogue": "c-" + "0" * 32})
    assert missing.status_code == 404, missing.text
    other = client.post("/catalogues", json=sample_catalogue("art_of_war", "northern-realms")).json()["id"]
    wrong = client.post("/tournaments", json={"name": "X", "system": "l5r", "rounds": 1, "catalogue": other})
    assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "unknown_catalogue"
    assert client.get("/tournaments").json()["tournaments"] == [], "a refused format creates nothing"
    default = next(c["id"] for c in client.get("/catalogues", params={"system": "l5r"}).json()["catalogues"]
                   if c["default"])
    tid, _ = create(client, "l5r")
    assert client.get(f"/tournaments/{tid}").json()["catalogue"] == default, "no catalogue: the system's default"
    tid, _ = create(client, "l5r", catalogue=default)
    assert client.get(f"/tournaments/{tid}").json()["catalogue"] == default


def test_a_tournament_that_requires_decks_refuses_a_player_without_one(client: TestClient) -> None:
    tid, organiser = create(client, "l5r", decks_required=True)
    assert client.get(f"/tournaments/{tid}").json()["decks_required"] is True
    refused(register(client, tid, organiser, "ann", None), "deck_required", None, "deck")
    assert register(client, tid, organiser, "ann", "crab").status_code == 201


def test_late_registration_judges_the_deck_too(client: TestClient) -> None:
    tid, organiser = create(client, "l5r", rounds=2)
    for player, deck in (("ann", "crab"), ("bob", "lion")):
        assert register(client, tid, organiser, player, deck).status_code == 201
    assert client.post(f"/tournaments/{tid}/rounds", headers=organiser).status_code == 201
    deck, card = four_of_a_card(L5R.default(), "crab")
    late = client.post(f"/tournaments/{tid}/late", json={"id": "cat", "army": deck, "missed": "loss"},
                       headers=organiser)
    refused(late, "invalid_deck", "R4", card)
    assert [p["id"] for p in client.get(f"/tournaments/{tid}").json()["players"]] == ["ann", "bob"]


def test_deck_lists_are_the_organisers_until_the_tournament_ends_then_public(client: TestClient) -> None:
    tid, organiser = create(client, "l5r")
    own = l5r_list(L5R.default(), "crane")
    assert register(client, tid, organiser, "ann", "crab").status_code == 201
    assert register(client, tid, organiser, "bob", own).status_code == 201
    hidden = client.get(f"/tournaments/{tid}/decks")
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "decks_hidden"
    assert "public once the tournament ends" in hidden.json()["error"]["message"]
    history = client.get(f"/tournaments/{tid}/history").json()["events"]
    assert "dynasty" not in json.dumps(history), "the history does not show a list while the lists are hidden"
    seen = client.get(f"/tournaments/{tid}/decks", headers=organiser)
    assert seen.status_code == 200
    rows = seen.json()["decks"]
    assert [(r["player"], r["name"], r["deck"]) for r in rows] == [("ann", "Ann", "crab"), ("bob", "Bob", own)]
    assert rows[0]["summary"] == "crab (a deck of the catalogue)"
    assert rows[1]["summary"].startswith("own list: stronghold ") and "40 dynasty" in rows[1]["summary"]
    assert client.get(f"/tournaments/{tid}/decks", headers=bearer("not-a-token")).status_code == 401
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert client.get(f"/tournaments/{tid}/decks").status_code == 403, "hidden while the tournament runs"
    table = started["tables"][0]
    assert client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p1"},
                       headers=organiser).status_code == 201, table
    assert client.get(f"/tournaments/{tid}").json()["status"] == "finished"
    public = client.get(f"/tournaments/{tid}/decks")
    assert public.status_code == 200 and public.json() == seen.json()
    assert "dynasty" in json.dumps(client.get(f"/tournaments/{tid}/history").json())


def test_deck_lists_of_a_team_tournament_list_each_member(client: TestClient) -> None:
    created = client.post("/tournaments", json={"name": "Pairs", "system": "lords-of-war", "rounds": 1, "seats": 4,
                                                "entrants": "teams", "variant": {"teams": True}})
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    team = {"id": "hammers", "name": "The Hammers", "members": [{"name": "Ana", "army": "orcs"},
                                                                 {"name": "Ben", "army": "dwarves"}]}
    assert client.post(f"/tournaments/{tid}/teams", json=team, headers=organiser).status_code == 201
    rows = client.get(f"/tournaments/{tid}/decks", headers=organiser).json()["decks"]
    assert [(r["player"], r["name"], r["team"], r["deck"]) for r in rows] == [
        ("hammers", "Ana", "The Hammers", "orcs"), ("hammers", "Ben", "The Hammers", "dwarves")]


# -- the CLI ----------------------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_pins_a_catalogue_refuses_a_deck_that_breaks_r4_and_lists_the_decks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "decks.duckdb")
    sample = FIXTURES / "l5r" / "catalogues" / "phoenix-scorpion.json"
    code, out, _ = run(capsys, "catalogue", "import", str(sample), "--db", db)
    assert code == 0
    identity = next(word for word in out.split() if word.startswith("c-"))
    code, out, err = run(capsys, "tournament", "create", "--db", db, "--name", "Open", "--rounds", "1", "--system",
                         "l5r", "--catalogue", identity, "--decks-required")
    assert code == 0, err
    tid = out.split()[1]
    code, _, err = run(capsys, "tournament", "register", tid, "ann", "--db", db)
    assert code == 1 and "deck_required" in err
    document = sample_catalogue("l5r", "phoenix-scorpion")
    deck, card = four_of_a_card(document, "phoenix")
    code, _, err = run(capsys, "tournament", "register", tid, "ann", "--l5r-army", json.dumps(deck), "--db", db)
    assert code == 1 and "invalid_deck" in err and card in err, err
    assert run(capsys, "tournament", "register", tid, "ann", "--l5r-army", "phoenix", "--db", db)[0] == 0
    own = l5r_list(document, "scorpion")
    assert run(capsys, "tournament", "register", tid, "bob", "--l5r-army", json.dumps(own), "--db", db)[0] == 0
    code, out, _ = run(capsys, "tournament", "decks", tid, "--db", db)
    assert code == 0 and out.splitlines()[0] == "ann  ann: phoenix (a deck of the catalogue)"
    assert out.splitlines()[1].startswith("bob  bob: own list: stronghold ")
    code, out, _ = run(capsys, "tournament", "decks", tid, "--json", "--db", db)
    assert [r["deck"] for r in json.loads(out)["decks"]] == ["phoenix", own]


def test_the_cli_judges_decks_on_the_pinned_catalogue_through_a_running_server(tmp_path: Path) -> None:
    db = tmp_path / "served.duckdb"
    sample = FIXTURES / "l5r" / "catalogues" / "phoenix-scorpion.json"
    imported = warlog("catalogue", "import", str(sample), "--db", str(db))
    assert imported.returncode == 0, imported.stderr
    identity = next(word for word in imported.stdout.split() if word.startswith("c-"))
    with served(db) as port:
        created = warlog("tournament", "create", "--db", str(db), "--name", "Served", "--rounds", "1", "--system",
                         "l5r", "--catalogue", identity)
        assert created.returncode == 0, created.stderr
        tid = created.stdout.split()[1]
        crab = warlog("tournament", "register", tid, "ann", "--l5r-army", "crab", "--db", str(db))
        assert crab.returncode == 1 and "invalid_deck" in crab.stderr and "'crab'" in crab.stderr
        assert warlog("tournament", "register", tid, "ann", "--l5r-army", "phoenix", "--db", str(db)).returncode == 0
        seen = httpx.get(f"http://127.0.0.1:{port}/tournaments/{tid}", timeout=30).json()
        assert seen["catalogue"] == identity and [p["id"] for p in seen["players"]] == ["ann"]
        hidden = httpx.get(f"http://127.0.0.1:{port}/tournaments/{tid}/decks", timeout=30)
        assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "decks_hidden"
        listed = warlog("tournament", "decks", tid, "--db", str(db))
        assert listed.returncode == 0 and listed.stdout.strip() == "ann  ann: phoenix (a deck of the catalogue)"
