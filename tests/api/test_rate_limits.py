"""Issue 11 item 17: the write routes are rate-limited per token (per client address without one): 429
``rate_limited`` with ``Retry-After``, nothing stored, and the writes pass again after the wait. Reads are not
limited. Through a running ``warlog serve`` with low limits; the bucket arithmetic with a fake clock."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.app import create_app
from api.limits import MAX_BUCKETS, TokenBuckets, WriteLimit, retry_after
from api.settings import Settings
from replay.store.memory_store import MemoryEventStore
from tests.api.helpers import SETUP, bearer, new_game
from tests.serving import free_port, serve, stop

LONGEST_BOT_GAME = 265  # actions: the longest game of bench/live.py's corpus (2,000 bot games)


def events_stored(http: httpx.Client, game_id: str, token: str) -> int:
    return len(http.get(f"/games/{game_id}/events", headers=bearer(token)).text.splitlines())


def refused(response: httpx.Response) -> int:
    """The Retry-After of a 429 ``rate_limited`` answer (checked to be whole seconds, at least 1)."""
    assert response.status_code == 429, response.text
    body = response.json()["error"]
    assert body["code"] == "rate_limited" and "retry after" in body["message"]
    seconds = int(response.headers["retry-after"])
    assert seconds >= 1 and body["retry_after"] == seconds
    return seconds


def test_writes_over_the_limit_get_429_store_nothing_and_pass_after_the_wait(tmp_path: Path) -> None:
    port = free_port()
    # one write every 10 s per token, 3 at once; one every 10 s per address without a token, 2 at once (the writes
    # that must be refused come well within 10 s of the burst, on a loaded machine too)
    server = serve(tmp_path / "limits.duckdb", port, env={"WARLOG_WRITE_RATE": "0.1", "WARLOG_WRITE_BURST": "3",
                                                          "WARLOG_ADDRESS_WRITE_RATE": "0.1",
                                                          "WARLOG_ADDRESS_WRITE_BURST": "2"})
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:  # one kept-alive connection
            # without a token: per address
            created = [http.post("/games", json={**SETUP, "seed": i}) for i in range(2)]
            assert [r.status_code for r in created] == [201, 201]
            wait_create = refused(http.post("/games", json={**SETUP, "seed": 9}))
            assert len(http.get("/games").json()["games"]) == 2  # the refused creation stored nothing

            # with a token: per token
            game_id, tokens = created[0].json()["id"], created[0].json()["tokens"]
            keeper = bearer(tokens["scorekeeper"])
            for _ in range(3):
                legal = http.get(f"/games/{game_id}/legal", headers=keeper).json()
                answer = http.post(f"/games/{game_id}/actions", headers=keeper,
                                   json={"action": legal["actions"][0], "expected_seq": legal["seq"]})
                assert answer.status_code == 201, answer.text
            before = events_stored(http, game_id, tokens["scorekeeper"])
            legal = http.get(f"/games/{game_id}/legal", headers=keeper).json()
            body = {"action": legal["actions"][0], "expected_seq": legal["seq"]}
            wait = refused(http.post(f"/games/{game_id}/actions", json=body, headers=keeper))
            assert refused(http.post(f"/games/{game_id}/tokens/p1", headers=keeper)) >= 1  # every write route
            assert events_stored(http, game_id, tokens["scorekeeper"]) == before  # nothing stored
            assert http.post(f"/games/{game_id}/tokens/p1", headers=bearer(tokens["p2"])).status_code == 403
            # ^ another token of the same game has its own bucket; and reads are not limited:
            for _ in range(20):
                assert http.get(f"/games/{game_id}/state", headers=keeper).status_code == 200

            time.sleep(max(wait, wait_create))
            again = http.post(f"/games/{game_id}/actions", json=body, headers=keeper)
            assert again.status_code == 201, again.text
            assert events_stored(http, game_id, tokens["scorekeeper"]) == before + len(again.json()["events"])
            assert http.post("/games", json={**SETUP, "seed": 9}).status_code == 201
    finally:
        stop(server)


def test_the_limits_are_settings_with_warlog_names(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = Settings()
    assert (defaults.write_rate, defaults.write_burst) == (20.0, 300)
    assert (defaults.address_write_rate, defaults.address_write_burst) == (10.0, 200)
    monkeypatch.setenv("WARLOG_WRITE_RATE", "5")
    monkeypatch.setenv("WARLOG_ADDRESS_WRITE_BURST", "7")
    from_env = Settings.from_env()
    assert (from_env.write_rate, from_env.address_write_burst) == (5.0, 7)
    for bad in ({"write_rate": -1}, {"write_burst": 0}, {"address_write_rate": "fast"}):
        with pytest.raises(ValidationError):
            Settings(**bad)


def test_the_default_limits_let_one_token_play_the_longest_game_at_any_speed() -> None:
    """bench/live.py's single client plays each game with its scorekeeper token as fast as the server answers
    (~250 actions/s); the 128 clients each one game at a time. Neither may ever see a 429 with the defaults."""
    settings = Settings()
    now = [0.0]
    buckets = TokenBuckets(settings.write_rate, settings.write_burst, clock=lambda: now[0])
    assert all(buckets.take("keeper") == 0.0 for _ in range(LONGEST_BOT_GAME))  # all at the same instant
    addresses = TokenBuckets(settings.address_write_rate, settings.address_write_burst, clock=lambda: now[0])
    assert all(addresses.take("127.0.0.1") == 0.0 for _ in range(100))  # test_bad_database: 100 games at once


def test_a_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    now = [100.0]
    buckets = TokenBuckets(rate=2.0, burst=3, clock=lambda: now[0])
    assert [buckets.take("k") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("k") == pytest.approx(0.5)  # one token comes every 0.5 s
    assert buckets.take("other") == 0.0  # each key has its own bucket
    now[0] += 0.25
    assert buckets.take("k") == pytest.approx(0.25)  # a refused take takes nothing
    now[0] += 0.25
    assert buckets.take("k") == 0.0 and buckets.take("k") == pytest.approx(0.5)
    now[0] += 60
    assert [buckets.take("k") for _ in range(4)][-1] > 0  # refilled to the burst, not beyond
    assert retry_after(0.01) == 1 and retry_after(1.0) == 1 and retry_after(1.2) == 2


def test_buckets_are_bounded_refilled_ones_dropped() -> None:
    now = [0.0]
    buckets = TokenBuckets(rate=1.0, burst=2, clock=lambda: now[0], max_buckets=1000)
    for i in range(500):
        buckets.take(f"t{i}")
    assert len(buckets) == 500
    now[0] += 0.5  # half refilled: kept (forgetting them would give each a fresh burst)
    buckets.take("new")
    assert len(buckets) == 501
    now[0] += 1.0  # every bucket but the one taken now is full again, the same as none
    buckets.take("newer")
    assert len(buckets) == 1
    for i in range(5000):  # never more than max_buckets, however many keys come at once
        buckets.take(f"flood{i}")
    assert len(buckets) == 1000
    assert MAX_BUCKETS >= 10_000


async def _asgi_status(limit: WriteLimit, method: str, path: str, headers: list[tuple[bytes, bytes]]) -> int:
    """The status ``limit`` answers one request with (from 10.0.0.1)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": headers, "client": ("10.0.0.1", 1)}
    await limit(scope, receive, send)
    return sent[0]["status"]


def _asgi_answers(limit: WriteLimit, requests: list[tuple[str, str, list[tuple[bytes, bytes]]]]) -> list[int]:
    async def run() -> list[int]:
        return [await _asgi_status(limit, method, path, headers) for method, path, headers in requests]

    return asyncio.run(run())


def test_whose_bucket_a_request_takes_from() -> None:
    async def ok(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def check(scope: Any, credential: bytes) -> bool:  # "abc" and "k" are valid, nothing else
        return credential in (b"abc", b"k")

    def limit() -> WriteLimit:
        return WriteLimit(ok, rate=1.0, burst=1, address_rate=1.0, address_burst=1, clock=lambda: 0.0, check=check)

    token, admin = [(b"authorization", b"Bearer abc")], [(b"x-admin-key", b"k")]
    assert _asgi_answers(limit(), [
        ("POST", "/games", []), ("POST", "/games", []),  # the address's one write, then 429
        ("POST", "/games", token), ("PUT", "/x", token), ("DELETE", "/x", token), ("PATCH", "/x", token),
        ("POST", "/games", admin), ("POST", "/games", admin),  # the admin key is a token of its own
        ("GET", "/games", token), ("HEAD", "/games", []), ("OPTIONS", "/games", []),  # reads: never limited
        ("POST", "/local/games/g/events", token), ("POST", "/local/games/g/events", []),  # this machine's CLI
    ]) == [200, 429, 200, 429, 429, 429, 200, 429, 200, 200, 200, 200, 200]
    made_up = [[(b"authorization", b"Bearer x%d" % i)] for i in range(3)] + [[(b"x-admin-key", b"y")]]
    assert _asgi_answers(limit(), [("POST", "/games", headers) for headers in made_up]) == [200, 429, 429, 429]
    both = [(b"authorization", b"Bearer made-up"), (b"x-admin-key", b"k")]  # the checked one chooses
    assert _asgi_answers(limit(), [("POST", "/games", both), ("POST", "/games", [])]) == [200, 200]
    assert _asgi_answers(WriteLimit(ok, 0, 1, 0, 1), [("POST", "/games", [])] * 50) == [200] * 50  # 0: off
    no_token_limit = WriteLimit(ok, rate=0, burst=1, address_rate=1.0, address_burst=1, clock=lambda: 0.0,
                                check=check)  # a checked token is not limited; anything else is the address's
    assert _asgi_answers(no_token_limit, [("POST", "/games", token)] * 5 + [("POST", "/games", made_up[0])] * 2) \
        == [200] * 5 + [200, 429]


def test_the_openapi_document_names_the_429_of_every_write_route_only() -> None:
    with TestClient(create_app(Settings(db=":memory:"), store=MemoryEventStore())) as client:
        paths = client.get("/openapi.json").json()["paths"]
    writes = [(p, m) for p, ops in paths.items() for m in ops if m in ("post", "put", "patch", "delete")]
    assert ("/games/{game_id}/tokens/{seat}", "post") in writes and ("/tournaments", "post") in writes
    for path, method in writes:
        assert "Retry-After" in paths[path][method]["responses"]["429"]["headers"], (path, method)
    assert all("429" not in ops["get"]["responses"] for ops in paths.values() if "get" in ops)


def _limited_client(admin_key: str | None = None) -> TestClient:
    """An app whose writes without a checked credential share a bucket of 3 per address (refilled far slower than
    any test runs); a checked token has 300."""
    settings = Settings(db=":memory:", admin_key=admin_key, address_write_rate=0.001, address_write_burst=3)
    return TestClient(create_app(settings, store=MemoryEventStore()))


def test_made_up_credentials_on_post_games_take_from_the_address_bucket_not_a_fresh_one() -> None:
    """Issue 28 item 15: without an admin key nothing checks a credential sent to ``POST /games``, so it must not
    choose the bucket: each made-up ``Authorization: Bearer`` or ``X-Admin-Key`` value took a fresh bucket of
    its own and the address limit was never met."""
    with _limited_client() as client:
        answers = [client.post("/games", json=SETUP, headers=bearer(secrets.token_urlsafe(24))).status_code
                   for _ in range(3)]
        assert answers == [201, 201, 201]  # the address's three
        assert client.post("/games", json=SETUP, headers=bearer(secrets.token_urlsafe(24))).status_code == 429
        assert client.post("/games", json=SETUP, headers={"X-Admin-Key": secrets.token_urlsafe(24)}).status_code == 429
        assert client.post("/games", json=SETUP).status_code == 429
        assert len(client.get("/games").json()["games"]) == 3  # nothing more stored


def test_a_token_valid_for_its_game_keeps_its_own_bucket_a_made_up_one_takes_the_address_s() -> None:
    with _limited_client() as client:
        game_id, tokens = new_game(client)
        for _ in range(2):  # the address's other two writes: refused game ids, wrong tokens
            assert client.post(f"/games/{game_id}/tokens/p1", headers=bearer("made-up")).status_code == 401
        assert client.post(f"/games/{game_id}/tokens/p1", headers=bearer("made-up")).status_code == 429
        assert client.post("/games/nope/tokens/p1", headers=bearer(tokens["scorekeeper"])).status_code == 429
        keeper = bearer(tokens["scorekeeper"])
        for _ in range(5):  # checked: the token's own bucket
            assert client.post(f"/games/{game_id}/tokens/p1", headers=keeper).status_code == 201
        organiser = client.post("/tournaments", json={"name": "Cup", "system": "lords-of-war", "rounds": 1},
                                headers=keeper)  # a game's token is not checked on /tournaments: the address's
        assert organiser.status_code == 429


def test_the_admin_key_takes_its_own_bucket_only_when_it_is_the_server_s() -> None:
    with _limited_client(admin_key="let-me-in") as client:
        wrong = [client.post("/games", json=SETUP, headers={"X-Admin-Key": f"guess-{i}"}).status_code
                 for i in range(4)]
        assert wrong == [403, 403, 403, 429]  # guesses share the address's bucket
        assert client.post("/games", json=SETUP, headers=bearer("guess")).status_code == 429
        for headers in ({"X-Admin-Key": "let-me-in"}, bearer("let-me-in")) * 3:
            assert client.post("/games", json=SETUP, headers=headers).status_code == 201
        # a made-up bearer beside the right key: the key is what was checked
        both = {"X-Admin-Key": "let-me-in", **bearer("made-up")}
        assert client.post("/games", json=SETUP, headers=both).status_code == 201
        created = client.post("/tournaments", json={"name": "Cup", "system": "lords-of-war", "rounds": 1},
                              headers={"X-Admin-Key": "let-me-in"})
        assert created.status_code == 201
        path = f"/tournaments/{created.json()['id']}/players"
        player = {"id": "ann", "name": "Ann", "army": "orcs"}
        assert client.post(path, json=player, headers=bearer(created.json()["token"])).status_code == 201
        assert client.post(path, json={**player, "id": "bo"}, headers=bearer("made-up")).status_code == 429
