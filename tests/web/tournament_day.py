"""A tournament day built over a running server's HTTP API for the browser tests of the tournament pages (issue 31
item 7): 16 players in Swiss pairs (14 registered, 2 late), a corrected result, a round whose time the organiser
calls, 2 drops, results entered from paper slips, and a top-4 cut to a champion."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.day_helpers import end_at_table

# (id, name): names not in id order, so "by name" is not "by registration"
REGISTERED = [("p01", "Wren Ashby"), ("p02", "Bram Okafor"), ("p03", "Ines Calder"), ("p04", "Dara Voss"),
              ("p05", "Hugo Lind"), ("p06", "Alma Reyes"), ("p07", "Kofi Mensah"), ("p08", "Zoe Park"),
              ("p09", "Lena Brandt"), ("p10", "Omar Haddad"), ("p11", "Greta Solberg"), ("p12", "Nils Berg"),
              ("p13", "Maya Chen"), ("p14", "Piet de Vries")]
LATE = [("late1", "Cora Quinn", "loss"), ("late2", "Elif Demir", "bye")]
ARMIES = ["orcs", "dwarves", "elves", "undead", "templars"]
TIEBREAKS = ["match_points", "opponents_match_win", "game_win", "score_difference"]
REASON = "the players reported the wrong seat"


def ok(response: httpx.Response, status: int = 201) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def create(client: httpx.Client, name: str, players: list[tuple[str, str]], rounds: int = 3,
           **extra: Any) -> tuple[str, dict[str, str]]:
    body = {"name": name, "system": "lords-of-war", "rounds": rounds, "seeding": "registration", **extra}
    created = ok(client.post("/tournaments", json=body))
    tid, organiser = created["id"], {"Authorization": f"Bearer {created['token']}"}
    for i, (pid, pname) in enumerate(players):
        ok(client.post(f"/tournaments/{tid}/players", json={"id": pid, "name": pname, "army": ARMIES[i % 5]},
                       headers=organiser))
    return tid, organiser


def build_day(client: httpx.Client, name: str = "Harvest Open") -> dict[str, Any]:
    tid, organiser = create(client, name, REGISTERED, tiebreaks=TIEBREAKS)
    post = lambda path, body=None: ok(client.post(f"/tournaments/{tid}{path}", json=body, headers=organiser))  # noqa: E731
    one = post("/rounds", {"duration": 60})["tables"]
    for i, table in enumerate(one):
        end_at_table(client, table, "draw" if i == 6 else "p1")  # type: ignore[arg-type]
    post("/rounds/1/tables/1/correction", {"winner": "p2", "reason": REASON})
    for pid, pname, missed in LATE:
        post("/late", {"id": pid, "name": pname, "army": "orcs", "missed": missed})
    two = post("/rounds", {"duration": 50})["tables"]
    for table in two[:6]:
        end_at_table(client, table, "p2")  # type: ignore[arg-type]
    called = post("/rounds/2/time")
    dropped = [two[6]["p1"], two[7]["p2"]]
    for pid in dropped:
        ok(client.post(f"/tournaments/{tid}/players/{pid}/drop", json={"reason": "went home"}, headers=organiser), 200)
    three = post("/rounds")["tables"]
    for table in three:
        post(f"/rounds/3/tables/{table['table']}/result", {"winner": "p1", "scores": {"p1": 3, "p2": 1}})
    semis = post("/cut", {"size": 4})["tables"]
    for table in semis:
        end_at_table(client, table, "p1")  # type: ignore[arg-type]
    final = post("/cut/next")["tables"]
    end_at_table(client, final[0], "p2")  # type: ignore[arg-type]
    return {"id": tid, "organiser": organiser, "rounds": [one, two, three], "time_called": called["tables"],
            "dropped": dropped, "semis": semis, "final": final}
