"""Property-based fuzzing of every operation in the OpenAPI document (schemathesis): never a server error, and the
answers are the documented ones (status codes, content types, bodies: the routes' models and ``ErrorBody``; a 405
with ``Allow``; a route that declares a token refuses a request without one).

- Stateless: every operation, ``MAX_EXAMPLES`` generated requests each. Requests naming a game or a tournament are
  often aimed at a real one (a running game, a finished one, a tournament's table; a tournament with a round under
  way), with its scorekeeper's or organiser's token, so that what lies behind the 404 is exercised too.
- Stateful: schemathesis follows the OpenAPI links (api/links.py) from the answers it gets: ``POST /games`` -> the
  game's routes with its id and tokens, ``POST /tournaments`` -> its routes with the organiser's token, a started
  round -> its first game. The test checks that the game routes answered 2xx for games the scenarios created.

Bounded: ~1 minute together on 2 cores; ``-m slow`` runs a pass several times bigger. Live streams get a zero idle
timeout so that a generated ``timeout=3600`` cannot hang the suite.
"""

from __future__ import annotations

import zlib
from collections import Counter
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402
from schemathesis.specs.openapi import checks as openapi_checks  # noqa: E402

from api.app import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402
from engine.lords_of_war.catalogue import FACTIONS  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402
from tests.api.helpers import SETUP, bearer  # noqa: E402

MAX_EXAMPLES = 25  # per operation
SCENARIOS, STEPS = 60, 8  # stateful: scenarios, and calls per scenario at most
SLOW = 8  # the slow pass: this many times more of both

CHECKS = [
    not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.negative_data_rejection,
    openapi_checks.unsupported_method,
    openapi_checks.ignored_auth,
]

STORE = DuckDBEventStore(":memory:")
# Without rate limits: the ~200 token-less writes of a run from one address would meet the per-address limit and
# be answered 429 before the validation this fuzzes (the limits have their own tests, test_rate_limits.py).
APP = create_app(Settings(db=":memory:", write_rate=0, address_write_rate=0), store=STORE)
with TestClient(APP) as _client:  # the real things generated requests are aimed at; closed before the fuzzing
    _running = _client.post("/games", json=SETUP).json()
    _finished = _client.post("/games", json=SETUP).json()
    assert _client.post(f"/games/{_finished['id']}/actions", json={"action": {"type": "concede", "player": "p2"}},
                        headers=bearer(_finished["tokens"]["scorekeeper"])).status_code == 201
    _cup = _client.post("/tournaments", json={"name": "Fuzz", "system": "lords-of-war", "rounds": 2}).json()
    for _entrant in ("alice", "bob"):
        assert _client.post(f"/tournaments/{_cup['id']}/players", json={"id": _entrant, "army": "orcs"},
                            headers=bearer(_cup["token"])).status_code == 201
    _table = _client.post(f"/tournaments/{_cup['id']}/rounds", headers=bearer(_cup["token"])).json()["tables"][0]
    assert APP.state.stats_projector.wait_idle(10)
GAMES = [  # (game id, the token to send or None)
    (_running["id"], _running["tokens"]["scorekeeper"]),
    (_running["id"], _running["tokens"]["p1"]),
    (_finished["id"], None),
    (_table["game_id"], _table["tokens"]["scorekeeper"]),
]

# A body generated to be refused may also be too large: 413 is a refusal too (schemathesis' list lacks it).
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": [
    "400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]}}})
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)


def aim(case: Any) -> dict[str, str]:
    """Bound live streams, and point a generated valid request at the real game or tournament often (chosen from
    the request's own content, so a shrunk or replayed example is aimed the same way); the headers to send with it
    (a real token, sent as the caller's own so that schemathesis' ignored_auth check also tries it without and with
    a wrong one)."""
    choice = zlib.crc32(repr((case.query, case.body, case.path_parameters)).encode())
    params = case.path_parameters or {}
    token = None
    if case.path.endswith("/live"):
        case.query = {**(case.query or {}), "timeout": 0}
    if case.meta is not None and case.meta.generation.mode.is_negative:
        return {}  # a request meant to be refused stays as generated (a real id or token could make it valid)
    if "game_id" in params and choice % 5:
        params["game_id"], token = GAMES[choice % 5 - 1]
    elif "tournament_id" in params and choice % 3:
        params["tournament_id"], token = _cup["id"], _cup["token"]
    elif "player" in params and choice % 2:
        params["player"] = "alice"
    generated = any(k.lower() == "authorization" for k in case.headers or {})
    return bearer(token) if token is not None and not generated else {}


def check_case(case: Any) -> None:
    headers = aim(case)
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error(case) -> None:  # type: ignore[no-untyped-def]
    check_case(case)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES * SLOW, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error_bigger_pass(case) -> None:  # type: ignore[no-untyped-def]
    check_case(case)


# -- stateful: following the links --------------------------------------------------------------------------

# The link-following runs get their own copy of the schema, whose creation bodies are half of the time valid
# (random armies and names; the server draws the seed): a generated one is almost never accepted (the system and
# the armies are names), and each accepted one starts a chain of links into the new game's or tournament's routes.
links_schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)
ARMY = st.sampled_from(sorted(FACTIONS))
VALID_BODIES = {
    ("POST", "/games"): st.fixed_dictionaries({
        "system": st.just("lords-of-war"),
        "players": st.tuples(ARMY, ARMY).map(lambda armies: [{"id": "p1", "army": armies[0]},
                                                             {"id": "p2", "army": armies[1]}]),
    }),
    ("POST", "/tournaments"): st.fixed_dictionaries({
        "name": st.text(min_size=1, max_size=20), "system": st.just("lords-of-war"), "rounds": st.integers(1, 4),
    }),
    ("POST", "/tournaments/{tournament_id}/players"): st.fixed_dictionaries({
        "id": st.from_regex(r"\A[a-z][a-z0-9-]{0,15}\Z"), "army": ARMY,
    }),
}


@links_schema.hook
def before_generate_body(context: Any, strategy: Any) -> Any:
    operation = context.operation
    valid = VALID_BODIES.get((operation.method.upper(), operation.path)) if operation is not None else None
    return strategy if valid is None else st.one_of(strategy, valid)


GAME_ROUTES = {("GET", "/games/{game_id}"), ("GET", "/games/{game_id}/events"), ("GET", "/games/{game_id}/state"),
               ("GET", "/games/{game_id}/explanations"), ("GET", "/games/{game_id}/legal"),
               ("GET", "/games/{game_id}/live"), ("POST", "/games/{game_id}/actions")}
TOURNAMENT_ROUTES = {("GET", "/tournaments/{tournament_id}"), ("GET", "/tournaments/{tournament_id}/standings"),
                     ("POST", "/tournaments/{tournament_id}/players")}


def run_links(paths: str, scenarios: int, steps: int, derandomize: bool) -> Counter[tuple[str, str]]:
    """Run the link-following state machine over the operations whose path matches ``paths``; the 2xx answers of
    each game and tournament route for the games and tournaments the run created itself."""
    created: set[str] = set()
    reached: Counter[tuple[str, str]] = Counter()

    class Links(links_schema.include(path_regex=paths).as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any) -> None:
            if case.path.endswith("/live"):
                case.query = {**(case.query or {}), "timeout": 0}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            operation = (case.method, case.path)
            if response.status_code == 201 and operation in (("POST", "/games"), ("POST", "/tournaments")):
                created.add(response.json()["id"])
            if response.status_code == 201 and operation == ("POST", "/tournaments/{tournament_id}/rounds"):
                created.update(table["game_id"] for table in response.json()["tables"])
            ids = case.path_parameters or {}
            if 200 <= response.status_code < 300 and {ids.get("game_id"), ids.get("tournament_id")} & created:
                reached[operation] += 1

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Links.run(settings=settings(
        max_examples=scenarios, stateful_step_count=steps, deadline=None, derandomize=derandomize,
        phases=[Phase.generate], suppress_health_check=list(HealthCheck), database=None,
    ))
    return reached


def test_following_the_links_reaches_every_game_route_with_a_real_game() -> None:
    reached = run_links("^/games", SCENARIOS, STEPS, derandomize=True)
    assert GAME_ROUTES <= set(reached), f"not reached: {sorted(GAME_ROUTES - set(reached))}; reached: {reached}"


def test_following_the_links_reaches_the_tournament_routes_with_a_real_tournament() -> None:
    reached = run_links("^/tournaments", SCENARIOS, STEPS, derandomize=True)
    missing = TOURNAMENT_ROUTES - set(reached)
    assert not missing, f"not reached: {sorted(missing)}; reached: {reached}"


@pytest.mark.slow
def test_following_the_links_bigger_pass() -> None:
    reached = run_links("^/", SCENARIOS * SLOW, STEPS + 4, derandomize=False)
    missing = (GAME_ROUTES | TOURNAMENT_ROUTES) - set(reached)
    assert not missing, f"not reached: {sorted(missing)}; reached: {reached}"


def test_the_openapi_document_is_complete() -> None:
    with TestClient(APP) as client:
        doc = client.get("/openapi.json").json()
        assert client.get("/docs").status_code == 200
    paths = doc["paths"]
    for path in (
        "/games", "/games/{game_id}", "/games/{game_id}/actions", "/games/{game_id}/events", "/games/{game_id}/state",
        "/games/{game_id}/explanations", "/games/{game_id}/legal", "/games/{game_id}/live", "/tournaments",
        "/tournaments/{tournament_id}/players", "/tournaments/{tournament_id}/teams",
        "/tournaments/{tournament_id}/rounds",
        "/tournaments/{tournament_id}/standings",
    ):
        assert path in paths, path
    schemas = doc["components"]["schemas"]
    assert schemas["GameIn"].get("examples") and schemas["ActionIn"].get("examples")
    links = paths["/games"]["post"]["responses"]["201"]["links"]
    assert {"GetGame", "GetState", "GetEvents", "GetLegalActions", "RecordAction"} <= set(links)
