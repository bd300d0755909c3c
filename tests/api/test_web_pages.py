"""Issue 32 item 7 over HTTP: ``/tournaments`` is a page to a browser and JSON to API clients, every page's
navigation links to it, and ``/docs`` has a way back to the site."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}  # what Chromium sends


def test_tournaments_answers_a_page_to_a_browser_and_json_to_api_clients(client: TestClient) -> None:
    page = client.get("/tournaments", headers=HTML)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '/static/js/tournaments-page.js' in page.text and 'href="/tournaments"' in page.text
    assert client.get("/tournaments").json() == {"tournaments": []}
    assert client.get("/tournaments", headers={"Accept": "application/json"}).json() == {"tournaments": []}
    index = client.get("/", headers=HTML).text
    assert 'href="/tournaments"' in index  # the site's navigation links to it


def test_docs_links_back_to_the_site(client: TestClient) -> None:
    docs = client.get("/docs", headers=HTML)
    assert docs.status_code == 200
    assert re.search(r'<a class="warlog-back" href="/"[^>]*>\u2190 warlog</a>', docs.text)
    assert '<html lang="en">' in docs.text
