"""GameService: the one write path (decide -> hash chain -> append -> evolve) over both store backends."""

from __future__ import annotations

import hashlib
import threading

import pytest

from engine.errors import RuleError, SetupError
from engine.systems import get_system
from replay.errors import Conflict, GameNotFound
from replay.log.chain import chain_hash, genesis_hash
from replay.log.demo import demo_setup, record_bot_game
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore

SETUP = {
    "system": "lords-of-war",
    "players": [{"id": "p1", "name": "Ann", "army": "orcs"}, {"id": "p2", "name": "Bo", "army": "dwarves"}],
    "seed": 7,
}


@pytest.fixture(params=["memory", "duckdb"])
def service(request, tmp_path):
    store = MemoryEventStore() if request.param == "memory" else DuckDBEventStore(str(tmp_path / "g.duckdb"))
    yield GameService(store)
    store.close()


def challenge_card(service: GameService, game_id: str, player: int) -> str:
    _, state = service.state(game_id)
    return state.hands[player][0]


def test_games_create_stores_opening_events(service):
    created = service.create_game(SETUP)
    types = [r.event.tag_name() for r in service.events(created.game_id)]
    assert types == ["game_started", "hand_dealt", "hand_dealt"]
    assert created.seq == 3
    seq, state = service.state(created.game_id)
    assert seq == 3 and state.phase == "deploy"


def test_games_create_rejects_bad_setup_and_stores_nothing(service):
    with pytest.raises(SetupError):
        service.create_game({**SETUP, "players": [SETUP["players"][0]]})
    with pytest.raises(SetupError) as info:
        service.create_game({**SETUP, "system": "chess"})
    assert info.value.code == "unknown_system"
    assert service.store.list_games().games == []


def test_games_create_without_seed_draws_one_and_records_it(service):
    setup = {k: v for k, v in SETUP.items() if k != "seed"}
    first = service.events(service.create_game(setup).game_id)[0].event
    second = service.events(service.create_game(setup).game_id)[0].event
    assert isinstance(first.seed, int) and first.seed != second.seed


def test_games_act_legal_action_appends_its_events(service):
    game = service.create_game(SETUP).game_id
    card = challenge_card(service, game, 0)
    result = service.act(game, {"type": "place", "player": "p1", "card": card, "square": "C3"})
    assert result.seq == 4 and [r.event.tag_name() for r in result.events] == ["placed"]
    result = service.act(game, {"type": "draw", "player": "p1"}, expected_seq=4)
    assert result.seq == 5 and result.events[0].event.tag_name() == "card_drawn"


def test_games_act_illegal_action_raises_and_stores_nothing(service):
    game = service.create_game(SETUP).game_id
    card = challenge_card(service, game, 1)
    with pytest.raises(RuleError):
        service.act(game, {"type": "place", "player": "p2", "card": card, "square": "E4"})
    with pytest.raises(RuleError) as info:
        service.act(game, {"type": "jump", "player": "p1"})
    assert info.value.code == "malformed"
    assert service.store.last_seq(game) == 3


def test_games_act_stale_expected_seq_is_a_conflict(service):
    game = service.create_game(SETUP).game_id
    card = challenge_card(service, game, 0)
    service.act(game, {"type": "place", "player": "p1", "card": card, "square": "C3"}, expected_seq=3)
    with pytest.raises(Conflict):
        service.act(game, {"type": "draw", "player": "p1"}, expected_seq=3)
    assert service.store.last_seq(game) == 4


def test_games_act_unknown_game_is_not_found(service):
    with pytest.raises(GameNotFound):
        service.act("nope", {"type": "draw", "player": "p1"})


def test_games_act_repeated_idempotency_key_returns_first_answer(service):
    game = service.create_game(SETUP).game_id
    action = {"type": "place", "player": "p1", "card": challenge_card(service, game, 0), "square": "C3"}
    first = service.act(game, action, idempotency_key="k1")
    again = service.act(game, action, idempotency_key="k1")
    assert again.replayed and not first.replayed
    assert again.seq == first.seq and [r.event for r in again.events] == [r.event for r in first.events]
    assert service.store.last_seq(game) == 4


class _FirstCopyLandsAfterTheLookup:
    """A store whose first ``find_idempotent`` misses, and the request's first copy is stored right after it: the
    race of issue 11 item 9, made to happen every time."""

    def __init__(self, store, first_copy):
        self._store, self._first_copy = store, first_copy

    def find_idempotent(self, game_id, key):
        found = self._store.find_idempotent(game_id, key)
        if self._first_copy is not None:
            first_copy, self._first_copy = self._first_copy, None
            first_copy()
        return found

    def __getattr__(self, name):
        return getattr(self._store, name)


@pytest.mark.parametrize("with_seq", [True, False], ids=["expected_seq", "key_only"])
def test_games_act_a_copy_racing_its_first_copy_gets_the_first_answer(service, with_seq):
    game = service.create_game(SETUP).game_id
    action = {"type": "place", "player": "p1", "card": challenge_card(service, game, 0), "square": "C3"}
    seq = {"expected_seq": 3} if with_seq else {}
    answers = []
    store = _FirstCopyLandsAfterTheLookup(service.store, None)
    racing = GameService(store)  # one service, as in the server: the first copy's answer updates its cached state
    store._first_copy = lambda: answers.append(racing.act(game, action, idempotency_key="k1", **seq))
    again = racing.act(game, action, idempotency_key="k1", **seq)  # was: Conflict (3 != 4), or RuleError
    first = answers[0]
    assert again.replayed and not first.replayed
    assert (again.seq, [r.event for r in again.events]) == (first.seq, [r.event for r in first.events])
    assert service.store.last_seq(game) == 4


def test_games_act_a_stale_keyed_request_whose_key_is_unknown_is_still_a_conflict(service):
    game = service.create_game(SETUP).game_id
    card = challenge_card(service, game, 0)
    service.act(game, {"type": "place", "player": "p1", "card": card, "square": "C3"}, idempotency_key="k1")
    with pytest.raises(Conflict):
        service.act(game, {"type": "draw", "player": "p1"}, expected_seq=3, idempotency_key="k2")
    with pytest.raises(RuleError):
        service.act(game, {"type": "place", "player": "p1", "card": card, "square": "C3"}, idempotency_key="k3")
    assert service.store.last_seq(game) == 4


def test_games_events_are_hash_chained(service):
    game = service.create_game(SETUP).game_id
    service.act(game, {"type": "place", "player": "p1", "card": challenge_card(service, game, 0), "square": "C3"})
    previous = genesis_hash(game)
    for stored in service.store.read(game):
        previous = chain_hash(previous, stored.type, stored.schema_version, stored.payload)
        assert stored.hash == previous


def test_games_hash_chain_is_the_documented_blake2b_of_each_event():
    # Pinned: stored games depend on these exact bytes (docs/record-format.md); a change here breaks every record.
    payload = b'{"type":"placed","player":"p1","card":"orc-ravager","square":"D4"}'
    first = genesis_hash("game-1")
    assert first == hashlib.blake2b(b"warlog-chain-v1:game-1", digest_size=16).hexdigest()
    assert first == "e44264e0d801d96d80aa44046b70539c"
    assert chain_hash(first, "placed", 1, payload) == "d40455627ae8a1bba237e93792a52560"
    expected = hashlib.blake2b(first.encode() + b"\0placed\x001\0" + payload, digest_size=16).hexdigest()
    assert chain_hash(first, "placed", 1, payload) == expected


def test_games_state_at_seq_equals_fold_of_prefix(service):
    game = record_bot_game(service, demo_setup(3, 11)).game_id
    system = get_system("lords-of-war")
    events = [r.event for r in service.events(game)]
    for seq in (0, 1, 3, len(events) // 2, len(events)):
        assert service.state(game, seq) == (seq, system.fold(events[:seq]))


def test_games_finished_game_metadata_shows_outcome(service):
    played = record_bot_game(service, demo_setup(0, 5))
    meta = service.store.get_game(played.game_id).metadata
    assert meta["status"] == "over" and meta["winner"] == played.winner and meta["end_reason"] == played.end_reason


def test_games_concurrent_writers_without_expected_seq_never_lose_an_action(service):
    game = service.create_game(SETUP).game_id
    card = challenge_card(service, game, 0)
    outcomes: list[str] = []

    def place() -> None:
        try:
            service.act(game, {"type": "place", "player": "p1", "card": card, "square": "C3"})
            outcomes.append("ok")
        except RuleError:
            outcomes.append("illegal")

    threads = [threading.Thread(target=place) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Exactly one placement is stored; the others were re-decided against the new state and refused.
    assert sorted(outcomes) == ["illegal"] * 7 + ["ok"]
    assert service.store.last_seq(game) == 4


def test_games_act_with_a_cache_behind_another_writer_decides_against_the_stored_state(service):
    game = service.create_game(SETUP).game_id
    other = GameService(service.store)  # a second service on the same store: its cache knows nothing of ours
    other.state(game)  # caches seq 3
    card = challenge_card(service, game, 0)
    service.act(game, {"type": "place", "player": "p1", "card": card, "square": "C3"}, expected_seq=3)
    # expected_seq matches the store, not the other service's cached state: accepted, decided on seq 4
    assert other.act(game, {"type": "draw", "player": "p1"}, expected_seq=4).seq == 5
    # without expected_seq a stale cache costs a retry, never a lost or misplaced action
    service_card = challenge_card(other, game, 1)
    assert service.act(game, {"type": "place", "player": "p2", "card": service_card, "square": "E4"}).seq == 6
    with pytest.raises(Conflict):
        other.act(game, {"type": "draw", "player": "p2"}, expected_seq=5)
    assert [r.event.tag_name() for r in service.events(game)][3:] == ["placed", "card_drawn", "placed"]
