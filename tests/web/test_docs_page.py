"""/docs works offline: Swagger UI is served from the vendored copy, not a CDN (the machine has no network)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WAIT_MS, Server, screenshot


def test_docs_page_renders_the_operations_without_network(server: Server, page: Any) -> None:
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server.url) else None)
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=WAIT_MS)
    paths = page.locator(".opblock-summary-path").all_text_contents()
    assert any("/games/{game_id}/actions" in p.replace("\u200b", "") for p in paths)
    assert page.locator("button.authorize").count() == 1  # the bearer and admin-key schemes
    assert outside == [] and not page.problems
    screenshot(page, "docs")


def test_redoc_is_not_served(server: Server) -> None:
    assert server.client().get("/redoc").status_code == 404
