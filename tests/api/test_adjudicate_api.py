"""The scorekeeper's ``adjudicate`` over HTTP, for every system (issue 28 items 9, 11, 12, 13): only the scorekeeper's
token may adjudicate, an illegal one is 422 with the rule, the game is over with the result in its state, listing,
explanations and record, and any later action is 409 ``game_over``. A drawn game reads ``"winner": "draw"``."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.systems import get_system, system_names
from tests.api.helpers import bearer

SYSTEMS = [name for name in system_names()]


def _game(client: TestClient, system: str, index: int = 0) -> tuple[str, dict[str, str]]:
    setup = {**get_system(system).sample_setup(index, 5), "insecure_seed": True}  # a known deal (issue 28 item 20)
    response = client.post("/games", json=setup)
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["tokens"]


def _act(client: TestClient, game_id: str, token: str, action: dict[str, Any]) -> Any:
    return client.post(f"/games/{game_id}/actions", json={"action": action}, headers=bearer(token))


def _listed(client: TestClient, game_id: str) -> dict[str, Any]:
    games = client.get("/games", params={"limit": 100}).json()["games"]
    return next(g for g in games if g["id"] == game_id)["metadata"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_adjudicate_by_the_scorekeeper_ends_the_game_with_that_winner(client, system):
    game_id, tokens = _game(client, system)
    response = _act(client, game_id, tokens["scorekeeper"],
                    {"type": "adjudicate", "winner": "p2", "reason": "judge", "note": "p1 left the tournament"})
    assert response.status_code == 201, response.text
    ended = response.json()["events"][-1]
    assert ended["type"] == "game_ended" and ended["reason"] == "adjudicated"
    assert ended["adjudication"] == {"reason": "judge", "placings": [["p2"], ["p1"]], "note": "p1 left the tournament"}
    state = client.get(f"/games/{game_id}/state").json()
    assert state["phase"] == "over" and state["end_reason"] == "adjudicated"
    assert state["winner"] in ("p2",) and state["adjudication"]["reason"] == "judge"
    listed = _listed(client, game_id)
    assert listed["status"] == "over" and listed["winner"] == "p2" and listed["end_reason"] == "adjudicated"
    assert listed["adjudication"] == "judge"
    lines = [e["text"] for e in client.get(f"/games/{game_id}/explanations").json()["explanations"]]
    assert lines[-1] == "the judge rules: p2 wins, as the scorekeeper records it (note: p1 left the tournament)"


@pytest.mark.parametrize("system", SYSTEMS)
def test_adjudicate_with_a_seats_token_is_forbidden_and_changes_nothing(client, system):
    game_id, tokens = _game(client, system)
    seq = client.get(f"/games/{game_id}/state").json()["seq"]
    for seat in ("p1", "p2"):
        response = _act(client, game_id, tokens[seat], {"type": "adjudicate", "winner": seat, "reason": "agreement"})
        assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"
    assert client.get(f"/games/{game_id}/state").json()["seq"] == seq


@pytest.mark.parametrize("action, code", [
    ({"type": "adjudicate", "reason": "judge"}, "no_result"),
    ({"type": "adjudicate", "winner": "p7", "reason": "judge"}, "unknown_winner"),
    ({"type": "adjudicate", "winner": "p1", "reason": "lunch"}, "unknown_reason"),
    ({"type": "adjudicate", "placings": [["p1"]], "reason": "judge"}, "bad_placings"),
])
def test_adjudicate_illegal_is_422_with_the_rule_and_changes_nothing(client, action, code):
    game_id, tokens = _game(client, "lords-of-war")
    seq = client.get(f"/games/{game_id}/state").json()["seq"]
    response = _act(client, game_id, tokens["scorekeeper"], action)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "illegal_action" and error["rule"] == "adjudication" and error["reason"] == code
    assert client.get(f"/games/{game_id}/state").json()["seq"] == seq


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_action_on_a_game_that_is_over_is_409_game_over(client, system):
    game_id, tokens = _game(client, system)
    assert _act(client, game_id, tokens["scorekeeper"],
                {"type": "adjudicate", "winner": "p1", "reason": "agreement"}).status_code == 201
    seq = client.get(f"/games/{game_id}/state").json()["seq"]
    for token, action in ((tokens["p2"], {"type": "concede", "player": "p2"}),
                          (tokens["scorekeeper"], {"type": "adjudicate", "winner": "p2", "reason": "judge"})):
        response = _act(client, game_id, token, action)
        assert response.status_code == 409, response.text
        assert response.json()["error"]["code"] == "game_over"
    assert client.get(f"/games/{game_id}/state").json()["seq"] == seq


@pytest.mark.parametrize("system", SYSTEMS)
def test_adjudicate_time_without_a_winner_applies_the_systems_rule_and_explains_it(client, system):
    game_id, tokens = _game(client, system)
    _, state = client.app.state.service.state(game_id)
    ruling = get_system(system).on_time(state)
    response = _act(client, game_id, tokens["scorekeeper"], {"type": "adjudicate", "reason": "time"})
    assert response.status_code == 201, response.text
    adjudication = response.json()["events"][-1]["adjudication"]
    assert adjudication["placings"] == [list(g) for g in ruling.placings]
    assert adjudication["explanation"] == ruling.explanation
    explained = client.get(f"/games/{game_id}/explanations").json()["explanations"][-1]
    assert explained["text"].startswith("time is called: ") and ruling.explanation in explained["text"]
    assert explained["cause"]["rule"] == "adjudication"


@pytest.mark.parametrize("system", SYSTEMS)
def test_item_9_a_drawn_game_reads_winner_draw_in_state_listing_and_record(client, system):
    game_id, tokens = _game(client, system)
    assert _act(client, game_id, tokens["scorekeeper"],
                {"type": "adjudicate", "winner": "draw", "reason": "agreement"}).status_code == 201
    for view in ("all", "spectator", "p1"):
        assert client.get(f"/games/{game_id}/state", params={"view": view}).json()["winner"] == "draw"
    assert _listed(client, game_id)["winner"] == "draw"
    record = client.get("/games/export", params={"format": "record"}).text
    assert '[Result "1/2-1/2"]' in record and record.rstrip().endswith("1/2-1/2")
    assert '[Termination "adjudicated"]' in record and '[Adjudication "agreement"]' in record


def test_statistics_over_http_and_the_cli_count_adjudicated_games_apart(tmp_path, capsys):
    """One game conceded (decided by the rules), one adjudicated by time: the win rates count the first by default,
    ``ending=adjudicated`` the second; end-reasons shows both, the adjudication by its reason; the CLI agrees."""
    import json

    from api.app import create_app
    from api.cli import main
    from api.settings import Settings
    from replay.store.duckdb_store import DuckDBEventStore

    path = str(tmp_path / "stats.duckdb")
    store = DuckDBEventStore(path)
    with TestClient(create_app(Settings(db=path), store=store)) as http:
        ruled, ruled_tokens = _game(http, "lords-of-war", 0)
        timed, timed_tokens = _game(http, "lords-of-war", 1)
        assert _act(http, ruled, ruled_tokens["p1"], {"type": "concede", "player": "p1"}).status_code == 201
        assert _act(http, timed, timed_tokens["scorekeeper"], {"type": "adjudicate", "reason": "time"}).status_code \
            == 201
        assert http.app.state.stats_projector.wait_idle(10)
        reasons = http.get("/stats/end-reasons").json()
        assert [(r["end_reason"], r["adjudication"], r["games"]) for r in reasons["rows"]] == [
            ("adjudicated", "time", 1), ("concession", None, 1)]
        assert http.get("/stats/armies").json()["games"] == 1
        apart = http.get("/stats/armies", params={"ending": "adjudicated"}).json()
        assert apart["games"] == 1 and apart["filters"]["ending"] == "adjudicated"
        assert http.get("/stats/armies", params={"ending": "all"}).json()["games"] == 2
        refused = http.get("/stats/armies", params={"ending": "sometimes"})
        assert refused.status_code == 422
    store.close()
    assert main(["stats", "end-reasons", "--db", path, "--json", "--ending", "adjudicated"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["end_reason"], r["adjudication"], r["games"]) for r in rows] == [("adjudicated", "time", 1)]
