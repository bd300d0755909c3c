"""Issue 11 item 17: the scorekeeper reissues a seat's token (``POST /games/{id}/tokens/{seat}``); the old token is
refused from then on. Through a running ``warlog serve``, as a scorekeeping app sees it."""

from __future__ import annotations

import hashlib
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import SETUP, bearer, new_game
from tests.serving import free_port, serve, stop


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[httpx.Client, subprocess.Popen[str]]]:
    port = free_port()
    process = serve(tmp_path / "reissue.duckdb", port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            yield http, process
    finally:
        stop(process)


def legal_first(http: httpx.Client, game_id: str, token: str) -> tuple[int, dict]:
    legal = http.get(f"/games/{game_id}/legal", headers=bearer(token)).json()
    return legal["seq"], legal["actions"][0]


def test_reissue_a_seat_token_end_to_end(server: tuple[httpx.Client, subprocess.Popen[str]], tmp_path: Path) -> None:
    http, process = server
    created = http.post("/games", json=SETUP).json()
    game_id, tokens = created["id"], created["tokens"]
    keeper, old_p1 = tokens["scorekeeper"], tokens["p1"]
    assert http.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(old_p1)).status_code == 200

    answer = http.post(f"/games/{game_id}/tokens/p1", headers=bearer(keeper))
    assert answer.status_code == 201, answer.text
    assert answer.json().keys() == {"seat", "token"} and answer.json()["seat"] == "p1"
    new_p1 = answer.json()["token"]
    assert new_p1 not in (old_p1, keeper, tokens["p2"]) and len(new_p1) >= 32

    seq, action = legal_first(http, game_id, keeper)
    refused = http.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                        headers=bearer(old_p1))
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_token"
    assert refused.headers["www-authenticate"] == "Bearer"
    assert http.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(old_p1)).status_code == 401
    assert http.get(f"/games/{game_id}").json()["seq"] == seq  # the refused action stored nothing

    acted = http.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                      headers=bearer(new_p1))
    assert acted.status_code == 201, acted.text
    assert http.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(new_p1)).status_code == 200
    p2 = http.get(f"/games/{game_id}/state", params={"view": "p2"}, headers=bearer(tokens["p2"]))
    assert p2.status_code == 200  # the other seats' tokens are untouched
    stop(process)
    stored = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.is_file())  # the database and its WAL
    assert hashlib.sha256(new_p1.encode()).hexdigest().encode() in stored  # its hash is kept ...
    assert new_p1.encode() not in stored  # ... the token itself nowhere


def test_only_the_scorekeeper_reissues_and_only_tokens_of_this_game(
    server: tuple[httpx.Client, subprocess.Popen[str]],
) -> None:
    http = server[0]
    created = http.post("/games", json=SETUP).json()
    game_id, tokens = created["id"], created["tokens"]
    other = http.post("/games", json=SETUP).json()

    def reissue(seat: str, token: str | None, game: str = game_id) -> httpx.Response:
        return http.post(f"/games/{game}/tokens/{seat}", headers=bearer(token) if token else {})

    for seat in ("p1", "p2", "scorekeeper"):
        assert reissue(seat, tokens["p1"]).json()["error"]["code"] == "forbidden"  # a seat's token: 403
    assert reissue("p2", tokens["p2"]).status_code == 403  # not even its own seat's
    assert reissue("p1", None).json()["error"]["code"] == "unauthorized"  # 401
    assert reissue("p1", other["tokens"]["scorekeeper"]).json()["error"]["code"] == "invalid_token"
    assert reissue("p1", tokens["scorekeeper"], "no-such-game").status_code == 404
    missing = reissue("p3", tokens["scorekeeper"])
    assert missing.status_code == 404 and "p1, p2" in missing.json()["error"]["message"]
    for seat, token in tokens.items():  # nothing refused above changed any token
        assert http.get(f"/games/{game_id}/state", headers=bearer(token)).status_code == 200, seat


def test_the_scorekeeper_reissues_its_own_token(server: tuple[httpx.Client, subprocess.Popen[str]]) -> None:
    http = server[0]
    created = http.post("/games", json=SETUP).json()
    game_id, old = created["id"], created["tokens"]["scorekeeper"]
    answer = http.post(f"/games/{game_id}/tokens/scorekeeper", headers=bearer(old))
    assert answer.status_code == 201 and answer.json()["seat"] == "scorekeeper"
    new = answer.json()["token"]
    assert http.get(f"/games/{game_id}/state", params={"view": "all"}, headers=bearer(old)).status_code == 401
    assert http.post(f"/games/{game_id}/tokens/p1", headers=bearer(old)).status_code == 401
    seq, action = legal_first(http, game_id, new)
    assert http.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                     headers=bearer(new)).status_code == 201
    assert http.post(f"/games/{game_id}/tokens/p2", headers=bearer(new)).status_code == 201


def test_a_finished_game_reissues_nothing(server: tuple[httpx.Client, subprocess.Popen[str]]) -> None:
    http = server[0]
    created = http.post("/games", json=SETUP).json()
    game_id, tokens = created["id"], created["tokens"]
    ended = http.post(f"/games/{game_id}/actions", json={"action": {"type": "concede", "player": "p2"}},
                      headers=bearer(tokens["p2"]))
    assert ended.status_code == 201, ended.text
    refused = http.post(f"/games/{game_id}/tokens/p1", headers=bearer(tokens["scorekeeper"]))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    assert http.get(f"/games/{game_id}/state", params={"view": "all"},
                    headers=bearer(tokens["p1"])).status_code == 200  # the old token still names p1


def _reissue_at_once(port: int | None, game_id: str, scorekeeper: str, seats: tuple[str, ...]) -> dict[str, str]:
    """Reissue the tokens of ``seats``, each from a thread and connection of its own, released together by a barrier;
    {seat: its new token} for the reissues answered 201."""
    barrier = threading.Barrier(len(seats))
    new: dict[str, str] = {}

    def reissue(seat: str) -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as own:
            own.get("/health")
            barrier.wait()
            answer = own.post(f"/games/{game_id}/tokens/{seat}", headers=bearer(scorekeeper))
            assert answer.status_code == 201, answer.text
            new[seat] = answer.json()["token"]

    threads = [threading.Thread(target=reissue, args=(seat,)) for seat in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return new


def test_concurrent_reissues_of_different_seats_keep_both(server: tuple[httpx.Client, subprocess.Popen[str]]) -> None:
    """token_hashes is rewritten whole: two reissues at once must not write back each other's old hash. (Not the
    scorekeeper's own token among them: once it is rotated, a reissue sent with the old one is rightly 401.)"""
    http = server[0]
    for _ in range(5):
        created = http.post("/games", json=SETUP).json()
        game_id, tokens = created["id"], created["tokens"]
        new = _reissue_at_once(http.base_url.port, game_id, tokens["scorekeeper"], ("p1", "p2"))
        assert sorted(new) == ["p1", "p2"]
        for seat in ("p1", "p2"):
            view = seat
            assert http.get(f"/games/{game_id}/state", params={"view": view},
                            headers=bearer(tokens[seat])).status_code == 401, seat
            assert http.get(f"/games/{game_id}/state", params={"view": view},
                            headers=bearer(new[seat])).status_code == 200, seat


def test_a_live_stream_of_a_reissued_token_ends() -> None:
    """A stream opened with p1's token ends with ``event: revoked`` once that token is reissued (it showed p1's
    hidden hand to whoever held the old token)."""
    from api.app import create_app
    from api.settings import Settings
    from replay.store.memory_store import MemoryEventStore

    with TestClient(create_app(Settings(db=":memory:"), store=MemoryEventStore())) as client:
        game_id, tokens = new_game(client)
        reissued = threading.Thread(
            target=lambda: client.post(f"/games/{game_id}/tokens/p1", headers=bearer(tokens["scorekeeper"])))
        text = ""
        with client.stream("GET", f"/games/{game_id}/live", params={"view": "p1", "timeout": 30},
                           headers=bearer(tokens["p1"])) as stream:
            for chunk in stream.iter_text():
                text += chunk
                if '"type":"game_started"' in text and not reissued.is_alive() and reissued.ident is None:
                    reissued.start()  # once the stream has shown the game: the token reissued while it streams
        reissued.join()
        # revoked, not ended by the game or the idle timeout (which ends a stream without a word)
        assert "event: revoked" in text and '"invalid_token"' in text and "event: end" not in text
        assert '"type":"game_started"' in text  # it had streamed the game until then
        keeper = client.get(f"/games/{game_id}/live", params={"view": "all", "timeout": 0},
                            headers=bearer(tokens["scorekeeper"]))
        assert keeper.status_code == 200 and "revoked" not in keeper.text  # other tokens' streams go on


def test_reissue_keeps_only_the_hash_in_the_game_metadata() -> None:
    from api.app import create_app
    from api.settings import Settings
    from replay.store.memory_store import MemoryEventStore

    store = MemoryEventStore()
    with TestClient(create_app(Settings(db=":memory:"), store=store)) as client:
        game_id, tokens = new_game(client)
        before = store.get_game(game_id).metadata["token_hashes"]
        new = client.post(f"/games/{game_id}/tokens/p2", headers=bearer(tokens["scorekeeper"])).json()["token"]
        after = store.get_game(game_id).metadata["token_hashes"]
        assert after == {**before, "p2": hashlib.sha256(new.encode()).hexdigest()}
        assert new not in repr(store.get_game(game_id))
        listed = client.get("/games").json()["games"][0]["metadata"]
        assert "token_hashes" not in listed
