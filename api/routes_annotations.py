"""``/games/{id}/annotations``: comments on a game's steps (issue 32 item 6; replay.log.annotations).

The scorekeeper's token of the game, or the organiser's token of its tournament, adds one (``POST``); anyone lists
them (``GET``: they are public, as the spectator's view is). They are kept apart from the game's events: adding one
changes neither the log nor its verification. Append-only: there is no route that changes or deletes one.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api import auth
from api.errors import ApiError, error_responses
from api.routes_games import GameId
from replay.log import annotations as notes
from replay.store.base import Annotation, GameRecord
from replay.tournaments.model import TournamentNotFound

router = APIRouter()

ORGANISER = "organiser"


class AnnotationIn(BaseModel, extra="forbid"):
    step: int = Field(description="the step it is about: an event's seq, 1 to the game's last (the replay page's "
                      "step)", ge=1, le=2**31 - 1)
    text: str = Field(description=f"one line of text, 1 to {notes.MAX_TEXT:,} characters",
                      max_length=notes.MAX_TEXT * 4)
    author: str | None = Field(None, description=f"the author's name (one line, at most {notes.MAX_AUTHOR} "
                               "characters); without it the token's role names the author",
                               max_length=notes.MAX_AUTHOR * 4)


class AnnotationOut(BaseModel):
    n: int = Field(description="its number in the game: 1, 2, ... in the order they were added")
    step: int = Field(description="the seq of the event it is about")
    text: str
    role: str = Field(description="the role of the token that added it: scorekeeper or organiser")
    author: str = Field(description="the name its author gave, else the role")
    created_at: str = Field(description="when the service stored it (ISO-8601 UTC)")


class AnnotationsOut(BaseModel):
    game_id: str
    annotations: list[AnnotationOut]


def _out(note: Annotation) -> AnnotationOut:
    return AnnotationOut(n=note.n, step=note.step, text=note.text, role=note.role, author=note.author,
                         created_at=note.created_at)


def annotator(request: Request, record: GameRecord) -> str:
    """The role of the caller's token that may annotate the game: its scorekeeper, or its tournament's organiser.
    401 without a token or with one that is nobody's here, 403 with a seat's."""
    token = auth.bearer(request)
    if token is None:
        raise ApiError(401, "unauthorized", "annotating a game needs a bearer token (the game's scorekeeper's or its "
                       "tournament's organiser's)")
    role = auth.role_of(token, record.metadata.get("token_hashes") or {})
    if role is None and record.tournament is not None:
        try:
            tournament = request.app.state.tournaments.get(record.tournament)
        except TournamentNotFound:
            tournament = None
        if tournament is not None and auth.role_of(token, {ORGANISER: tournament.organiser_hash}):
            role = ORGANISER
    if role is None:
        raise ApiError(401, "invalid_token", "this token is not valid for this game")
    return auth.require(role, (auth.SCOREKEEPER, ORGANISER), "annotate the game")


@router.post(
    "/games/{game_id}/annotations",
    status_code=201,
    response_model=AnnotationOut,
    tags=["games"],
    summary="Annotate a step",
    responses=error_responses(401, 403, 404, 413, 422, described={
        401: "no token (unauthorized), or one that is neither this game's nor its tournament's (invalid_token)",
        403: "a seat's token (forbidden): the scorekeeper or the tournament's organiser annotates",
        404: "no such game (not_found)",
        422: "invalid_step (not one of the game's steps), invalid_text, invalid_author, too_many_annotations, "
        "invalid_request",
    }),
    **auth.TOKEN,
)
async def annotate(request: Request, body: AnnotationIn, game_id: str = GameId) -> AnnotationOut:
    """Add a comment to one step of the game, stored apart from its events (append-only, with its author's role and
    name and the service's time). The game's events and its verification are unchanged."""
    store = request.app.state.service.store
    record = store.get_game(game_id)
    role = await run_in_threadpool(annotator, request, record)
    try:
        note = await run_in_threadpool(notes.add, store, game_id, body.step, body.text, role, body.author)
    except notes.AnnotationRefused as refused:
        raise ApiError(422, refused.code, refused.message) from None
    return _out(note)


@router.get(
    "/games/{game_id}/annotations",
    response_model=AnnotationsOut,
    tags=["games"],
    summary="A game's annotations",
    responses=error_responses(404, 422, described={404: "no such game (not_found)"}),
)
def list_annotations(request: Request, game_id: str = GameId) -> Any:
    """Every annotation of the game in the order they were added (public, as the spectator's view)."""
    store = request.app.state.service.store
    store.get_game(game_id)  # 404 for an unknown game
    return AnnotationsOut(game_id=game_id, annotations=[_out(n) for n in notes.of_game(store, game_id)])
