"""The HTTP surface as a client sees it through a running ``warlog serve``: 405 answers carry ``Allow`` (RFC 9110
§15.5.6) listing every method of the path (issue 11 item 11), and the served OpenAPI document describes the
error bodies the server really sends (issue 11 item 12)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.api.records_helpers import serving

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
# Routes outside the OpenAPI document: the document itself and its pages (Starlette routes: GET and HEAD)
UNDOCUMENTED = {"/openapi.json": {"GET", "HEAD"}, "/docs": {"GET", "HEAD"}, "/redoc": {"GET", "HEAD"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("openapi") / "o.duckdb") as http:
        yield http


@pytest.fixture(scope="module")
def document(server: httpx.Client) -> dict:
    return server.get("/openapi.json").json()


def concrete(path: str) -> str:
    """A path of the document with its parameters filled (any value reaches the route)."""
    for name, value in (("{game_id}", "g1"), ("{tournament_id}", "t1"), ("{round_number}", "1"),
                        ("{table_number}", "2"), ("{player}", "alice")):
        path = path.replace(name, value)
    assert "{" not in path, path
    return path


def allow(response: httpx.Response) -> set[str]:
    return {m.strip() for m in response.headers["allow"].split(",") if m.strip()}


def test_every_405_says_which_methods_the_path_allows(server: httpx.Client, document: dict) -> None:
    accepted = {path: {m.upper() for m in ops} for path, ops in document["paths"].items()} | UNDOCUMENTED
    answered = 0
    for path, methods in accepted.items():
        for method in sorted(set(METHODS) - methods):
            response = server.request(method, concrete(path))
            where = f"{method} {path}"
            assert response.status_code == 405, f"{where}: {response.status_code}"
            assert "allow" in response.headers, f"{where}: no Allow header"
            assert allow(response) == methods, f"{where}: Allow: {response.headers['allow']}"
            if method != "HEAD":  # a HEAD answer has no body
                assert response.json()["error"]["code"] == "method_not_allowed", where
                assert response.headers["content-type"] == "application/json"
            answered += 1
    assert answered > 100


def test_405_lists_the_methods_of_every_route_of_the_path(server: httpx.Client) -> None:
    # GET /games and POST /games are two routes: both methods are allowed, whichever route the router met first
    response = server.delete("/games")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST"
    assert response.json()["error"]["message"] == "DELETE is not allowed on /games; allowed: GET, POST"
    assert server.get("/games/g1/actions").headers["allow"] == "POST"
