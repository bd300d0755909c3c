"""The HTTP surface as a client sees it through a running ``warlog serve``: 405 answers carry ``Allow`` (RFC 9110
§15.5.6) listing every method of the path (issue 11 item 11), and the served OpenAPI document describes the
error bodies the server really sends (issue 11 item 12)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.api.helpers import SETUP
from tests.serving import serving

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
# Routes outside the OpenAPI document: the document itself, /docs and the browser pages (GET and HEAD)
UNDOCUMENTED = {path: {"GET", "HEAD"} for path in ("/openapi.json", "/docs", "/", "/stats", "/replay/{game_id}",
                                                   "/web/systems")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    # The write limits off: the module's checks send many writes without a token from one address, and a 429 there
    # would hide the answer they check (the limits have tests of their own, tests/api/test_rate_limits.py).
    limits_off = {"WARLOG_WRITE_RATE": "0", "WARLOG_ADDRESS_WRITE_RATE": "0"}
    with serving(tmp_path_factory.mktemp("openapi") / "o.duckdb", env=limits_off) as http:
        yield http


@pytest.fixture(scope="module")
def document(server: httpx.Client) -> dict:
    return server.get("/openapi.json").json()


def concrete(path: str) -> str:
    """A path of the document with its parameters filled (any value reaches the route)."""
    for name, value in (("{game_id}", "g1"), ("{tournament_id}", "t1"), ("{round_number}", "1"),
                        ("{table_number}", "2"), ("{player}", "alice"), ("{seat}", "p1"),
                        ("{catalogue_id}", "c-0"), ("{system}", "lords-of-war")):
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


# -- the OpenAPI document: security schemes, error bodies, links (issue 11 items 2 and 12) -----------------------

REQUIRED_TOKEN = {("post", "/games/{game_id}/actions"), ("get", "/games/{game_id}/legal"),
                  ("post", "/tournaments/{tournament_id}/players"), ("post", "/tournaments/{tournament_id}/teams"),
                  ("post", "/tournaments/{tournament_id}/rounds"),
                  ("post", "/games/{game_id}/tokens/{seat}"), ("post", "/games/{game_id}/annotations"),
                  ("post", "/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/result"),
                  # the tournament day (issue 31): the organiser's
                  ("post", "/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/correction"),
                  ("post", "/tournaments/{tournament_id}/rounds/{round_number}/time"),
                  ("post", "/tournaments/{tournament_id}/cut"), ("post", "/tournaments/{tournament_id}/cut/next"),
                  # issue 31: attendance, swaps and re-pairings
                  ("delete", "/tournaments/{tournament_id}/players/{player}"),
                  ("post", "/tournaments/{tournament_id}/players/{player}/check-in"),
                  ("post", "/tournaments/{tournament_id}/players/{player}/drop"),
                  ("post", "/tournaments/{tournament_id}/late"),
                  ("post", "/tournaments/{tournament_id}/rounds/{round_number}/swap"),
                  ("post", "/tournaments/{tournament_id}/rounds/{round_number}/repair")}
OPTIONAL_TOKEN = {("get", "/games/{game_id}"), ("get", "/games/{game_id}/events"), ("get", "/games/{game_id}/state"),
                  ("get", "/games/{game_id}/explanations"), ("get", "/games/{game_id}/steps"),
                  ("get", "/games/{game_id}/live"), ("get", "/games/{game_id}/export")}
ADMIN = {("post", "/games"), ("post", "/tournaments")}
ERROR_BODY = {"$ref": "#/components/schemas/ErrorBody"}


def operations(document: dict) -> Iterator[tuple[str, str, dict]]:
    for path, ops in document["paths"].items():
        for method, op in ops.items():
            yield method, path, op


def validator(document: dict, schema: dict):  # type: ignore[no-untyped-def]
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    return jsonschema_rs.Draft202012Validator({**schema, "components": document["components"]})


def test_the_document_declares_the_bearer_and_admin_key_schemes(document: dict) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerToken"] | {"description": ""} == {"type": "http", "scheme": "bearer", "description": ""}
    assert schemes["adminKey"] | {"description": ""} == {"type": "apiKey", "in": "header", "name": "X-Admin-Key",
                                                         "description": ""}


def test_the_routes_that_take_a_token_reference_the_schemes(document: dict) -> None:
    for method, path, op in operations(document):
        where = (method, path)
        if where in REQUIRED_TOKEN:
            assert op["security"] == [{"bearerToken": []}], where
        elif where in OPTIONAL_TOKEN:  # anonymous callers are served too (the spectator view)
            assert op["security"] == [{"bearerToken": []}, {}], where
        elif where in ADMIN:  # the admin key, as its header or the bearer token, when the server has one
            assert op["security"] == [{"adminKey": []}, {"bearerToken": []}, {}], where
        else:
            assert "security" not in op, where


def test_every_route_documents_its_errors_with_the_error_body(document: dict) -> None:
    for method, path, op in operations(document):
        responses = op["responses"]
        where = f"{method.upper()} {path}"
        errors = {status for status in responses if status[0] in "45"}
        for status in errors:
            content = responses[status]["content"]["application/json"]
            assert content["schema"] == ERROR_BODY, (where, status)
            assert responses[status]["description"], (where, status)
            if "example" in content:
                assert validator(document, ERROR_BODY).is_valid(content["example"]), (where, status)
        expected = set()
        if op.get("parameters") or "requestBody" in op:
            expected.add("422")
        if method == "post":
            expected.add("413")
        if "{game_id}" in path or "{tournament_id}" in path:
            expected.add("404")
        if op.get("security"):
            expected.add("401")
        if (method, path) in REQUIRED_TOKEN | ADMIN:
            expected.add("403")
        assert expected <= errors, f"{where}: documents {sorted(errors)}, misses {sorted(expected - errors)}"


def test_the_document_never_mentions_fastapis_validation_error(server: httpx.Client) -> None:
    text = server.get("/openapi.json").text
    assert "HTTPValidationError" not in text and '"ValidationError"' not in text


def test_error_answers_match_the_documented_error_body(server: httpx.Client, document: dict) -> None:
    created = server.post("/games", json=SETUP).json()
    game, keeper = created["id"], {"Authorization": f"Bearer {created['tokens']['scorekeeper']}"}
    p2 = {"Authorization": f"Bearer {created['tokens']['p2']}"}
    action = f"/games/{game}/actions"
    cases = [  # (the operation, the request, the status it answers)
        (("post", "/games"), server.post("/games", json={**SETUP, "colour": "red"}), 422),
        (("post", "/games"), server.post("/games", content=b"{not json", headers={"Content-Type": "application/json"}),
         422),
        (("post", "/games"), server.post("/games", json={**SETUP, "players": [{"id": "p1", "army": "nope"},
                                                                            {"id": "p2", "army": "orcs"}]}), 422),
        (("post", "/games"), server.post("/games", content=b"x" * 70_000), 413),
        # not UTF-8: FastAPI's own 400 "There was an error parsing the body" (code http_error) before
        (("post", "/tournaments"), server.post("/tournaments", content=b"\xf5\xb9p\x8d\x86/",
                                               headers={"Content-Type": "application/json"}), 422),
        (("get", "/games"), server.get("/games", params={"limit": 0}), 422),
        (("post", "/games/{game_id}/actions"), server.post(action, json={"action": {"type": "concede",
                                                                                    "player": "p1"}}), 401),
        (("post", "/games/{game_id}/actions"), server.post(action, json={"action": {"type": "concede",
                                                                                    "player": "p1"}}, headers=p2), 403),
        (("post", "/games/{game_id}/actions"), server.post("/games/nope/actions", json={"action": {}},
                                                           headers=keeper), 404),
        (("post", "/games/{game_id}/actions"), server.post(action, json={"action": {"type": "concede", "player": "p1"},
                                                                         "expected_seq": 1}, headers=keeper), 409),
        (("post", "/games/{game_id}/actions"), server.post(action, json={"action": {"type": "place", "player": "p1",
                                                                                    "card": "x", "square": "Z9"}},
                                                           headers=keeper), 422),
        (("get", "/games/{game_id}/state"), server.get(f"/games/{game}/state", params={"view": "p1"}, headers=p2), 403),
        (("get", "/games/{game_id}/state"), server.get(f"/games/{game}/state", params={"seq": 99}), 422),
        (("get", "/stats/cards"), server.get("/stats/cards", params={"date_from": "2026-02-01",
                                                                      "date_to": "2026-01-01"}), 422),
        # a day is YYYY-MM-DD, as documented (format: date); pydantic took a number for a Unix time before
        (("get", "/stats/armies"), server.get("/stats/armies", params={"date_to": "0"}), 422),
        (("get", "/stats/ratings"), server.get("/stats/ratings", params={"date_from": "1700000000"}), 422),
        (("get", "/tournaments/{tournament_id}"), server.get("/tournaments/nope"), 404),
    ]
    for (method, path), response, status in cases:
        where = f"{method.upper()} {path} -> {response.status_code} {response.text[:200]}"
        assert response.status_code == status, where
        documented = document["paths"][path][method]["responses"][str(status)]["content"]["application/json"]
        errors = list(validator(document, documented["schema"]).iter_errors(response.json()))
        assert not errors, f"{where}: {[e.message for e in errors]}"
        if response.status_code == 422:
            assert response.json()["error"]["code"] in (
                "invalid_request", "invalid_json", "invalid_setup", "illegal_action", "malformed_action",
                "invalid_seq", "invalid_filters"), where


def _evaluate(expression: object, body: dict) -> object:
    """A link's runtime expression against a response body: ``$response.body#/a/b``, also inside ``{...}`` of a
    text; constants as they are; objects member by member."""
    def pointer(expr: str) -> object:
        assert expr.startswith("$response.body#/"), expr
        value: object = body
        for part in expr.removeprefix("$response.body#/").split("/"):
            value = value[int(part)] if isinstance(value, list) else value[part]  # type: ignore[index]
        return value

    if isinstance(expression, dict):
        return {k: _evaluate(v, body) for k, v in expression.items()}
    if not isinstance(expression, str) or "$" not in expression:
        return expression
    if expression.startswith("$"):
        return pointer(expression)
    head, _, rest = expression.partition("{")
    inner, _, tail = rest.partition("}")
    return head + str(pointer(inner)) + tail


def test_the_links_of_a_new_game_reach_its_routes(server: httpx.Client, document: dict) -> None:
    created = server.post("/games", json=SETUP).json()
    links = document["paths"]["/games"]["post"]["responses"]["201"]["links"]
    reached = set()
    for name, definition in sorted(links.items(), key=lambda item: "requestBody" in item[1]):  # the concession last
        _, _, escaped, method = definition["operationRef"].split("/")
        path = escaped.replace("~1", "/").replace("~0", "~")
        target = document["paths"][path][method]
        declared = {p["name"] for p in target.get("parameters", ())}
        values = {k: str(_evaluate(v, created)) for k, v in definition["parameters"].items()}
        headers = {k.removeprefix("header."): v for k, v in values.items() if k.startswith("header.")}
        params = {k: v for k, v in values.items() if not k.startswith("header.")}
        assert params["game_id"] == created["id"] and set(params) <= declared, (name, params, declared)
        assert headers in ({}, *({"Authorization": f"Bearer {token}"} for token in created["tokens"].values())), name
        url = path.format(game_id=params.pop("game_id"))
        if method == "get":
            no_wait = {"timeout": 0} if path.endswith("/live") else {}
            answer = server.get(url, headers=headers, params=params | no_wait)
            assert answer.status_code == 200, (name, answer.text[:200])
        elif "requestBody" in definition:
            answer = server.post(url, headers=headers, json=_evaluate(definition["requestBody"], created))
            assert answer.status_code == 201, (name, answer.text[:200])
            assert server.get(f"/games/{created['id']}").json()["status"] == "over", name
        else:  # the token is accepted: an empty action is refused for its shape, not for the caller
            answer = server.post(url, headers=headers, json={"action": {}})
            assert answer.status_code == 422 and answer.json()["error"]["code"] == "malformed_action", name
        reached.add((method, path))
    assert reached == {("get", p) for p in ("/games/{game_id}", "/games/{game_id}/events", "/games/{game_id}/state",
                                            "/games/{game_id}/explanations", "/games/{game_id}/legal",
                                            "/games/{game_id}/live")} | {("post", "/games/{game_id}/actions")}
