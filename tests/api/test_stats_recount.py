"""Issue 32 item 8: the statistics' counts, recounted from the games themselves (bot games of two and four seats,
mirrors, an unbounded game), each defect the issue names checked by its own test:

- head-to-head counts GAMES (it counted pairings: "games: 33" with 9 games),
- the army matrix counts a mirror game once (it counted it from both seats),
- the heat map's percentages are taken over the placements the mat shows (they were over every placement, those of
  unbounded games included),
- card statistics are aggregated over a card's copies (``-1`` ... ``-4``) and named by the catalogue's names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from engine.lords_of_war.bots import play_bot_game
from engine.lords_of_war.catalogue import CARDS
from events.lords_of_war import Placed
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

# (seed, armies, variant): three orcs-dwarves games, three mirrors, an unbounded game, a four-seat team game (§10:
# odd seats against even seats) in which p1 and p2 are both orcs
GAMES: list[tuple[int, tuple[str, ...], dict[str, Any]]] = [
    (1, ("orcs", "dwarves"), {}), (2, ("orcs", "dwarves"), {}), (3, ("dwarves", "orcs"), {}),
    (4, ("orcs", "orcs"), {}), (5, ("orcs", "orcs"), {}), (6, ("dwarves", "dwarves"), {}),
    (7, ("orcs", "elves"), {"unbounded": True}), (8, ("orcs", "orcs", "dwarves", "elves"), {}),
]
GAME_ARMIES = {seed: list(enumerate(armies)) for seed, armies, _ in GAMES}
ON_MAT = re.compile(r"^[A-G][1-6]$")


def opposed(seats: int, a: int, b: int) -> bool:
    """Seats a and b (0-based) play against each other: always in a two-seat game; odd against even seats in a team
    game of four or six (§10)."""
    return a != b and (seats == 2 or a % 2 != b % 2)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, list[Any]], str]]:
    db = str(tmp_path_factory.mktemp("recount") / "recount.duckdb")
    store = DuckDBEventStore(db)
    games = {}
    for seed, armies, variant in GAMES:
        events = play_bot_game(seed, armies, variant)
        game_id = f"g{seed}"
        store_events(GameService(store), "lords-of-war", events, game_id)
        games[game_id] = events
    with TestClient(create_app(Settings(db=db), store=store)) as client:
        assert client.app.state.stats_projector.wait_idle(60)  # type: ignore[attr-defined]
        yield client, games, db
    store.close()


def test_head_to_head_counts_games_not_pairings(played: tuple[TestClient, dict[str, list[Any]], str]) -> None:
    client, games, _ = played
    body = client.get("/stats/head-to-head").json()
    assert body["games"] == len(games)  # 8 games (the four-seat game is one, not its four opposing pairs)
    pairings = sum(r["games"] for r in body["rows"]) // 2
    assert pairings == 7 + 4  # the rows still count each pair's games
    alone = client.get("/stats/head-to-head", params={"player": "bot 3"}).json()
    assert alone["games"] == 1  # bot 3 sat only in the four-seat game (against bot 2 and bot 4)
    assert sorted((r["opponent"], r["games"]) for r in alone["rows"]) == [("bot 2", 1), ("bot 4", 1)]


def test_matchups_count_a_mirror_game_once(played: tuple[TestClient, dict[str, list[Any]], str]) -> None:
    client, games, _ = played
    mirrors: Counter[str] = Counter()  # opposing pairs of one army, each counted once
    for events in games.values():
        armies = [army for _, army in sorted(GAME_ARMIES[events[0].seed])]
        for a in range(len(armies)):
            for b in range(a + 1, len(armies)):
                if opposed(len(armies), a, b) and armies[a] == armies[b]:
                    mirrors[armies[a]] += 1
    assert mirrors == {"orcs": 3, "dwarves": 1}
    cells = {(r["army"], r["opponent_army"]): r for r in client.get("/stats/matchups").json()["rows"]}
    for army, count in mirrors.items():
        cell = cells[(army, army)]
        assert cell["games"] == count, army
        assert cell["wins"] + cell["losses"] + cell["draws"] == count
        assert cell["win_rate"] is None  # an army against itself has no win rate


def test_heatmap_percentages_are_over_the_placements_the_mat_shows(
        played: tuple[TestClient, dict[str, list[Any]], str]) -> None:
    client, games, _ = played
    on_mat: Counter[str] = Counter()
    off_mat = 0
    for events in games.values():
        for event in events:
            if isinstance(event, Placed) and not event.challenge and event.basis != "position":
                if ON_MAT.match(event.square):
                    on_mat[event.square] += 1
                else:
                    off_mat += 1
    assert off_mat > 0  # the unbounded game placed off the 7x6 mat
    heat = client.get("/stats/heatmap").json()
    shown = {r["square"]: r for r in heat["rows"] if ON_MAT.match(r["square"])}
    assert {s: r["placements"] for s, r in shown.items()} == dict(on_mat)
    assert heat["mat_placements"] == sum(on_mat.values())
    for square, row in shown.items():
        assert row["share"] == pytest.approx(on_mat[square] / sum(on_mat.values())), square
    assert sum(r["share"] for r in shown.values()) == pytest.approx(1.0)


def test_cards_are_aggregated_over_copies_and_named(played: tuple[TestClient, dict[str, list[Any]], str]) -> None:
    client, games, _ = played
    placements: Counter[str] = Counter()
    seats: dict[str, set[tuple[str, str]]] = {}
    for game_id, events in games.items():
        for event in events:
            if isinstance(event, Placed):
                card = re.sub(r"-[0-9]+$", "", event.card)
                placements[card] += 1
                seats.setdefault(card, set()).add((game_id, event.player))
    rows = {r["card"]: r for r in client.get("/stats/cards").json()["rows"]}
    assert set(rows) == set(placements)
    assert not [card for card in rows if re.search(r"-[0-9]+$", card)]  # no copy has a row of its own
    for card, row in rows.items():
        assert row["placements"] == placements[card], card
        assert row["games_placed"] == len(seats[card]), card  # a seat that placed two copies counts once
        copy = next(c for c in CARDS.values() if re.sub(r"-[0-9]+$", "", c.id) == card)
        assert row["name"] == copy.name
    assert any(len({c for c in CARDS if c.startswith(card + "-")}) > 1 for card in rows)  # copies were merged


def test_warlog_stats_head_to_head_prints_the_games_not_the_pairings(tmp_path: Any,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main

    path = str(tmp_path / "h2h.duckdb")
    store = DuckDBEventStore(path)
    for seed, armies, variant in (GAMES[0], GAMES[1], GAMES[-1]):  # two games of two seats, one of four
        store_events(GameService(store), "lords-of-war", play_bot_game(seed, armies, variant), f"g{seed}")
    store.close()
    assert main(["reproject", "--db", path]) == 0
    capsys.readouterr()
    assert main(["stats", "head-to-head", "--db", path]) == 0
    assert "games: 3\n" in capsys.readouterr().out  # was "games: 6": 2 + the four-seat game's 4 pairings
