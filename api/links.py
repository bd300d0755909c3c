"""OpenAPI 3 links: how the answer of one operation feeds the next (``POST /games`` -> the game's routes with its
id and tokens; ``POST /tournaments`` -> the tournament's routes with the organiser's token; a started round -> the
first table's game). Clients and tools read them: /docs shows them under each response, and schemathesis follows
them in its stateful tests (tests/api/test_schemathesis.py).

Targets are named by ``operationRef`` (a JSON pointer into the document's paths), so the generated operation ids
stay as they are.
"""

from __future__ import annotations

from typing import Any


def ref(path: str, method: str = "get") -> str:
    """The ``operationRef`` of an operation: ``#/paths/<path, with / escaped as ~1>/<method>``."""
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


def link(path: str, description: str, parameters: dict[str, str], method: str = "get",
         body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A link to ``method path``; ``parameters`` map the target's parameters (``header.X`` for a header) to
    runtime expressions (``$response.body#/id``, or embedded in text: ``Bearer {$response.body#/token}``);
    ``body`` is the request body, constants and expressions."""
    out = {"operationRef": ref(path, method), "description": description, "parameters": parameters}
    return out | ({"requestBody": body} if body is not None else {})


def _game(game_id: str, token: str | None, seq: str | None) -> dict[str, dict[str, Any]]:
    """Links to a game's routes from expressions for its id and, when known, its scorekeeper's token and the seq
    of its last event."""
    reads = {"game_id": game_id} | ({"header.Authorization": f"Bearer {{{token}}}"} if token else {})
    links = {
        "GetGame": link("/games/{game_id}", "the game's summary", {"game_id": game_id}),
        "GetEvents": link("/games/{game_id}/events", "its event log", reads),
        "GetState": link("/games/{game_id}/state", "its state after the answer's last event" if seq else "its state",
                         reads | ({"seq": seq} if seq else {})),
        "GetExplanations": link("/games/{game_id}/explanations", "what each event did", reads),
        "FollowLive": link("/games/{game_id}/live", "its events as they are stored (Server-Sent Events)", reads),
    }
    if token:
        links["GetLegalActions"] = link("/games/{game_id}/legal", "the legal actions, with the scorekeeper's token",
                                        reads)
        links["RecordAction"] = link("/games/{game_id}/actions", "record an action with the scorekeeper's token",
                                     reads, method="post")
    return links


_NEW_GAME = {"game_id": "$response.body#/id"}
GAME_CREATED = _game("$response.body#/id", "$response.body#/tokens/scorekeeper", "$response.body#/seq") | {
    "RecordActionAsP1": link("/games/{game_id}/actions", "record an action with p1's own token",
                             _NEW_GAME | {"header.Authorization": "Bearer {$response.body#/tokens/p1}"}, method="post"),
    "Concede": link("/games/{game_id}/actions", "p1 concedes at once (the game is over), with p1's own token",
                    _NEW_GAME | {"header.Authorization": "Bearer {$response.body#/tokens/p1}"}, method="post",
                    body={"action": {"type": "concede", "player": "p1"}, "expected_seq": "$response.body#/seq"}),
}
ACTION_RECORDED = _game("$request.path.game_id", None, "$response.body#/seq")

_TOURNAMENT = {"tournament_id": "$response.body#/id"}
_ORGANISER = _TOURNAMENT | {"header.Authorization": "Bearer {$response.body#/token}"}
TOURNAMENT_CREATED = {
    "GetTournament": link("/tournaments/{tournament_id}", "the tournament", _TOURNAMENT),
    "GetStandings": link("/tournaments/{tournament_id}/standings", "its standings", _TOURNAMENT),
    "RegisterPlayer": link("/tournaments/{tournament_id}/players", "register a player, as the organiser", _ORGANISER,
                           method="post"),
    "StartRound": link("/tournaments/{tournament_id}/rounds", "pair and start the next round, as the organiser",
                       _ORGANISER, method="post"),
    "EnterResult": link("/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/result",
                        "enter a forfeit, as the organiser", _ORGANISER, method="post"),
}
ROUND_STARTED = _game("$response.body#/tables/0/game_id", "$response.body#/tables/0/tokens/scorekeeper", None)
