"""Issue 30 item 6 over HTTP: ``/catalogues`` and ``/catalogues/{id}`` are pages to a browser (``Accept: text/html``)
and stay JSON to API clients at the same paths; an unknown catalogue is the 404 page; every page's navigation links
to the catalogues."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conformance.catalogues import SECOND_CATALOGUES, document

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}  # what Chromium sends


def test_catalogues_list_is_a_page_to_a_browser_and_json_to_api_clients(client: TestClient) -> None:
    page = client.get("/catalogues", headers=HTML)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/js/catalogues-page.js" in page.text
    assert 'href="/catalogues" aria-current="page"' in page.text  # the navigation marks its section
    for accept in ({}, {"Accept": "application/json"}, {"Accept": "*/*"}):
        listed = client.get("/catalogues", headers=accept)
        assert listed.headers["content-type"].startswith("application/json")
        assert {c["system"] for c in listed.json()["catalogues"] if c["default"]} >= {
            "lords-of-war", "l5r", "art-of-war", "light-wars", "heroscape"}


def test_a_catalogue_is_a_page_to_a_browser_and_its_document_to_api_clients(client: TestClient) -> None:
    _, path = SECOND_CATALOGUES[0]
    stored = client.post("/catalogues", json=document(path))
    assert stored.status_code == 201, stored.text
    identity = stored.json()["id"]
    page = client.get(f"/catalogues/{identity}", headers=HTML)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/js/catalogue-page.js" in page.text
    assert client.get(f"/catalogues/{identity}").json() == document(path)
    assert client.get(f"/catalogues/{identity}", headers={"Accept": "application/json"}).json() == document(path)
    (default,) = [c for c in client.get("/catalogues").json()["catalogues"] if c["system"] == "l5r"]
    assert client.get(f"/catalogues/{default['id']}", headers=HTML).status_code == 200  # a default too


def test_an_unknown_catalogue_is_the_not_found_page_to_a_browser(client: TestClient) -> None:
    missing = "c-" + "0" * 32
    page = client.get(f"/catalogues/{missing}", headers=HTML)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "There is no catalogue" in page.text
    answer = client.get(f"/catalogues/{missing}")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def test_every_page_links_to_the_catalogues(client: TestClient) -> None:
    for path in ("/", "/tournaments", "/stats"):
        assert 'href="/catalogues"' in client.get(path, headers=HTML).text, path
