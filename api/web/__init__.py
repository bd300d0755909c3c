"""The browser pages (issue 13): plain HTML, CSS and ES modules served by the API's own server, no build step.

Each page is a static HTML shell under ``static/pages/`` whose module reads the JSON API; a system draws its state
through its ``WebParts`` (``api.plugin``), served at ``/static/systems/<system>/``; a system without one is shown
as a readable table (``static/js/board-table.js``). docs/web.md describes the pages and the drawing contract.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from api import systems
from api.plugin import LABELS

STATIC = Path(__file__).parent / "static"
PAGES = STATIC / "pages"
SWAGGER_UI = "/static/vendor/swagger-ui-dist-5.35.0"  # npm swagger-ui-dist 5.35.0, Apache-2.0 (LICENSE beside it)


def wants_html(request: Request) -> bool:
    """Whether the client is a browser asking for a page: ``text/html`` named before any JSON in ``Accept``
    (curl's ``*/*`` and API clients' ``application/json`` get JSON)."""
    accept = request.headers.get("accept", "")
    html, json = accept.find("text/html"), accept.find("application/json")
    return html >= 0 and (json < 0 or html < json)


# name -> (title, the nav entry it is under); each page's module is static/js/<name>-page.js
_PAGES = {"index": ("Games", "games"), "replay": ("Replay", "games"), "stats": ("Statistics", "stats"),
          "tournament": ("Tournament", "tournaments"), "tournaments": ("Tournaments", "tournaments"),
          "catalogues": ("Catalogues", "catalogues"), "catalogue": ("Catalogue", "catalogues"),
          "bracket": ("Bracket", "tournaments")}
# pages with a stylesheet of their own beside warlog.css (issue 31: the tournament pages and their print views)
_STYLES = {"tournament": "tournaments.css", "tournaments": "tournaments.css", "bracket": "tournaments.css"}
_SECTIONS = ("games", "stats", "tournaments", "catalogues")
_NO_CACHE = {"Cache-Control": "no-cache"}


@functools.cache
def _shell() -> str:
    return (PAGES / "shell.html").read_text(encoding="utf-8")


def _render(title: str, section: str, script: str, main: str) -> str:
    html = _shell().replace("{{title}}", title).replace("{{script}}", script).replace("{{main}}", main)
    for name in _SECTIONS:
        html = html.replace(f"{{{{current_{name}}}}}", ' aria-current="page"' if section == name else "")
    return html


@functools.cache
def _page_html(name: str) -> str:
    title, section = _PAGES[name]
    script = f'  <script type="module" src="/static/js/{name}-page.js"></script>\n'
    if name in _STYLES:
        script = f'  <link rel="stylesheet" href="/static/css/{_STYLES[name]}">\n' + script
    return _render(title, section, script, f'    <h1>{title}</h1>\n    <p class="muted" data-loading>Loading…</p>\n')


def page(name: str, status_code: int = 200) -> HTMLResponse:
    """A page's shell (static/pages/shell.html): its title, its module, a heading and "Loading…"."""
    return HTMLResponse(_page_html(name), status_code=status_code, headers=_NO_CACHE)


def not_found_page(message: str) -> HTMLResponse:
    main = f'    <h1>Not found</h1>\n    <p>{escape(message)}</p>\n    <p><a href="/">All games</a></p>\n'
    return HTMLResponse(_render("Not found", "", "", main), status_code=404, headers=_NO_CACHE)


def web_systems() -> list[dict[str, Any]]:
    """The registered systems and where their drawing is (``board``: a module URL, or None for the table;
    ``stats``: the module drawing the system's own statistics, or None for tables; ``labels``: its display
    labels (``api.plugin.display_labels``), or None: the pages then show the codes)."""
    out = []
    for plugin in systems.plugins():
        name, web = plugin.name, plugin.web
        out.append({"name": name, "board": f"/static/systems/{name}/{web.board}" if web is not None else None,
                    "stats": f"/static/systems/{name}/{web.stats}" if web is not None and web.stats else None,
                    "labels": f"/static/systems/{name}/{LABELS}" if web is not None and LABELS in web.data else None})
    return out


def build_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.api_route("/", methods=["GET", "HEAD"])
    def index() -> HTMLResponse:
        return page("index")

    @router.api_route("/replay/{game_id}", methods=["GET", "HEAD"])
    def replay(request: Request, game_id: str) -> Any:
        from replay.errors import GameNotFound

        try:
            request.app.state.service.store.get_game(game_id)
        except GameNotFound:
            return not_found_page(f"There is no game {game_id!r}.")
        return page("replay")

    # /stats: the statistics page is answered by GET /stats (api/routes_stats.py) to a browser asking for HTML;
    # other clients get the statistics' catalogue as JSON there

    @router.api_route("/web/systems", methods=["GET", "HEAD"])
    def systems_json() -> list[dict[str, Any]]:
        return web_systems()

    return router


class SystemData:
    """One JSON document of a system's ``WebParts.data``, made once (when first asked) and served with an ETag."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.body: bytes | None = None
        self.etag = ""

    def response(self, request: Request) -> Response:
        if self.body is None:
            self.body = json.dumps(self.make(), separators=(",", ":"), sort_keys=True).encode()
            self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'
        headers = {"ETag": self.etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == self.etag:
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type="application/json", headers=headers)


def data_router() -> APIRouter:
    """Each system's generated JSON documents (``WebParts.data``), at ``/static/systems/<system>/<name>``."""
    router = APIRouter(include_in_schema=False)
    for plugin in systems.plugins():
        system, web = plugin.name, plugin.web
        for name, make in (web.data if web is not None else {}).items():
            document = SystemData(make)
            router.add_api_route(f"/static/systems/{system}/{name}", document.response, methods=["GET", "HEAD"])
    return router


def install(app: FastAPI) -> None:
    """The pages' routes and static files (each system's drawing mounted before the shared ``/static``, its
    generated documents before its folder)."""
    app.include_router(build_router())
    app.include_router(data_router())
    for plugin in systems.plugins():
        name, web = plugin.name, plugin.web
        if web is not None:
            app.mount(f"/static/systems/{name}", StaticFiles(directory=web.folder), name=f"static-{name}")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


# /docs's way back to the site: its own styles (the site's stylesheet would restyle Swagger UI's tables and buttons)
_DOCS_BAR = (
    '<nav aria-label="Site" style="display:flex;gap:1rem;align-items:center;padding:0.5rem 1rem;background:#20242c;'
    'font-family:system-ui,sans-serif">'
    '<a class="warlog-back" href="/" style="color:#fff;font-weight:700;text-decoration:none">← warlog</a>'
    '<a href="/" style="color:#fff">Games</a><a href="/tournaments" style="color:#fff">Tournaments</a>'
    '<a href="/stats" style="color:#fff">Statistics</a><a href="/catalogues" style="color:#fff">Catalogues</a></nav>'
)


def install_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from the vendored copy, so it works offline; it keeps the token across reloads."""

    @app.api_route("/docs", methods=["GET", "HEAD"], include_in_schema=False)
    def docs() -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title=f"{app.title} · API",
            swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle.js", swagger_css_url=f"{SWAGGER_UI}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER_UI}/favicon-32x32.png",
            swagger_ui_parameters={"persistAuthorization": True},
        )
        body = bytes(page.body).decode().replace("<html>", '<html lang="en">', 1)
        body = body.replace("<body>", "<body>" + _DOCS_BAR, 1)
        return HTMLResponse(body, headers=_NO_CACHE)
