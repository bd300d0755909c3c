"""Catalogues (issue 30): a system's game data brought by its users, stored by content and read back.

``POST /catalogues`` (the admin key when the server has one), ``GET /catalogues[?system=]``, ``GET
/catalogues/{id}``, ``GET /schemas/{system}/catalogue``. Each system's built-in data is its default catalogue:
listed with ``"default": true`` and served by its id, computed from the package data rather than stored.
Thin: ``replay.catalogues`` checks (through the system's ``Catalogues``) and stores.
"""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from api import auth
from api.errors import ApiError, error_responses
from api.web import not_found_page, page, wants_html
from engine.catalogue import MAX_CATALOGUE_BYTES
from engine.systems import DEFAULT_SYSTEM, system_names
from replay.catalogues import CatalogueBook, CatalogueNotFound, capability

router = APIRouter(tags=["catalogues"])

CatalogueId = Path(min_length=1, max_length=64, description="the catalogue's id (c- and 32 hex digits)")
BODY_LIMIT = 2 * MAX_CATALOGUE_BYTES  # of the request body (whitespace included); the document's own limit is less
DocumentBody = Body(..., description="the catalogue document, with its system (its fields: GET "
                    "/schemas/{system}/catalogue)", examples=[{
                        "system": DEFAULT_SYSTEM, "name": "My collection", "version": "1"}])


class CatalogueOut(BaseModel):
    id: str = Field(description="the content hash of the document: c- and 32 hex digits", examples=[
        "c-d204091658bf93c052b0eba1d17135f6"])
    system: str
    name: str = Field(description="a label from the document")
    version: str = Field(description="a label from the document")
    default: bool = Field(description="the system's built-in data (not stored: computed from the package)")
    created_at: str | None = Field(None, description="when it was first stored (null for a default)")


class CatalogueList(BaseModel):
    catalogues: list[CatalogueOut]


def _book(request: Request) -> CatalogueBook:
    return CatalogueBook(request.app.state.service.store)


@router.post("/catalogues", status_code=201, response_model=CatalogueOut, responses={
    200: {"model": CatalogueOut, "description": "already stored (or the system's default): nothing changed"},
    **error_responses(401, 403, 413, 422, described={
        401: "the server has an admin key and the request carries none (unauthorized)",
        403: "a wrong admin key (forbidden)",
        413: "the body or the catalogue is over the size limit (payload_too_large, catalogue_too_large)",
        422: "invalid_catalogue (details: every problem, each {path, message, rule})"})})
def add_catalogue(request: Request, document: dict[str, Any] = DocumentBody) -> Any:
    """Store a catalogue: a system's game data as one document (docs/catalogues.md; its JSON Schema is
    ``GET /schemas/{system}/catalogue``). Its id is the hash of its content, so storing it again changes nothing
    (200). A catalogue the rules cannot play is refused, naming each problem by path and the rule it breaks."""
    auth.require_admin(request)
    summary, added = _book(request).add(document)
    return JSONResponse(msgspec.to_builtins(summary), status_code=201 if added else 200)


@router.get("/catalogues", response_model=CatalogueList, responses=error_responses(422))
def list_catalogues(request: Request, system: str | None = Query(None, max_length=64, description=(
        "only this system's catalogues"))) -> Any:
    """Every catalogue: each system's default first, then the stored ones, oldest first."""
    if wants_html(request):  # a browser: the catalogues' page (api/web), which reads this route as JSON
        return page("catalogues")
    return {"catalogues": msgspec.to_builtins(_book(request).list(system))}


@router.get("/catalogues/{catalogue_id}", responses={
    200: {"description": "the catalogue document, as stored (canonical JSON)", "content": {"application/json": {}}},
    **error_responses(404, 422, described={404: "no such catalogue (not_found)"})})
def get_catalogue(request: Request, catalogue_id: str = CatalogueId) -> Response:
    """The catalogue document of that id (a system's default too)."""
    if wants_html(request):  # a browser: the catalogue's page (api/web), which reads this route as JSON
        try:
            _book(request).document(catalogue_id)
        except CatalogueNotFound:
            return not_found_page(f"There is no catalogue {catalogue_id!r}.")
        return page("catalogue")
    return Response(_book(request).document(catalogue_id), media_type="application/json")


@router.get("/schemas/{system}/catalogue", responses=error_responses(404, 422, described={
    404: "no such system, or one that takes no catalogue (not_found)"}))
def catalogue_schema(system: str = Path(min_length=1, max_length=64)) -> dict[str, Any]:
    """The JSON Schema (2020-12) of the system's catalogue document."""
    caps = capability(system)
    if caps is None:
        takers = ", ".join(name for name in system_names() if capability(name) is not None) or "none"
        raise ApiError(404, "not_found", f"{system!r} is not a system that takes a catalogue (those that do: "
                       f"{takers})")
    return caps.schema()
