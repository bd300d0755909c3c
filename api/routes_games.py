"""Games: list, health. Thin: parse, call the service, shape the answer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel

router = APIRouter()


class Health(BaseModel):
    status: str


class GameSummary(BaseModel):
    id: str
    system: str
    created_at: str
    players: list[str]
    tournament: str | None
    seq: int
    metadata: dict[str, Any]


class GamePage(BaseModel):
    games: list[GameSummary]
    next_cursor: str | None


@router.get("/health", response_model=Health, tags=["service"])
def health() -> Health:
    return Health(status="ok")


@router.get("/games", response_model=GamePage, tags=["games"])
def list_games(
    request: Request,
    system: str | None = Query(None, max_length=64),
    player: str | None = Query(None, max_length=128),
    tournament: str | None = Query(None, max_length=128),
    limit: int = Query(50, ge=1, le=500),
    cursor: str | None = Query(None, max_length=512),
) -> GamePage:
    page = request.app.state.service.store.list_games(
        system=system, player=player, tournament=tournament, limit=limit, cursor=cursor
    )
    return GamePage(
        games=[
            GameSummary(
                id=g.game_id,
                system=g.system,
                created_at=g.created_at,
                players=g.players,
                tournament=g.tournament,
                seq=g.last_seq,
                metadata={k: v for k, v in g.metadata.items() if k != "token_hashes"},
            )
            for g in page.games
        ],
        next_cursor=page.next_cursor,
    )
