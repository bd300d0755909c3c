"""Property-based fuzzing of every operation in the OpenAPI document (schemathesis): never a server error.

Bounded: ``MAX_EXAMPLES`` per operation. Half of the generated requests are aimed at a real game (its id, and
sometimes its scorekeeper's token) so that validation behind the 404 is exercised too. Live streams get a zero
idle timeout so a generated ``timeout=3600`` cannot hang the suite.
"""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from api.app import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402
from tests.api.helpers import SETUP  # noqa: E402

MAX_EXAMPLES = 25

STORE = DuckDBEventStore(":memory:")
# Without rate limits: the ~200 token-less writes of a run from one address would meet the per-address limit and
# be answered 429 before the validation this fuzzes (the limits have their own tests, test_rate_limits.py).
APP = create_app(Settings(db=":memory:", write_rate=0, address_write_rate=0), store=STORE)
with TestClient(APP) as _client:
    _created = _client.post("/games", json=SETUP).json()
    _tournament = _client.post("/tournaments", json={"name": "Fuzz", "system": "lords-of-war", "rounds": 2}).json()
GAME_ID, TOKENS = _created["id"], _created["tokens"]

# The statistics routes belong to their own suite (tests/api/test_stats*.py); this one covers games,
# tournaments and the service routes.
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path_regex="^/stats")


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error(case) -> None:  # type: ignore[no-untyped-def]
    params = case.path_parameters or {}
    if "game_id" in params and hash(repr(case.query)) % 2 == 0:
        params["game_id"] = GAME_ID
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {TOKENS['scorekeeper']}"}
    if case.path.endswith("/live"):
        case.query = {**(case.query or {}), "timeout": 0}
    response = case.call()
    case.validate_response(response, checks=[not_a_server_error])


def test_the_openapi_document_is_complete() -> None:
    with TestClient(APP) as client:
        doc = client.get("/openapi.json").json()
        assert client.get("/docs").status_code == 200
    paths = doc["paths"]
    for path in (
        "/games", "/games/{game_id}", "/games/{game_id}/actions", "/games/{game_id}/events", "/games/{game_id}/state",
        "/games/{game_id}/explanations", "/games/{game_id}/legal", "/games/{game_id}/live", "/tournaments",
        "/tournaments/{tournament_id}/players", "/tournaments/{tournament_id}/rounds",
        "/tournaments/{tournament_id}/standings",
    ):
        assert path in paths, path
    schemas = doc["components"]["schemas"]
    assert schemas["GameIn"].get("examples") and schemas["ActionIn"].get("examples")
