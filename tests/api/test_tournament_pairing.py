"""Swiss pairing rules and standings tiebreaks (pure functions of replay/tournaments*.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.tournaments.model import Entrant, Round, Table, TableResult, Tournament, placings_of_winner, standings
from replay.tournaments.swiss import swiss_pairing


def _perfect(players: list[str], played: set[frozenset[str]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, o)) not in played and _perfect(rest[:i] + rest[i + 1 :], played) for i, o in enumerate(rest)
    )


def _rematch_free_possible(players: list[str], played: set[frozenset[str]], byes: set[str]) -> tuple[bool, bool]:
    """(possible with a bye to someone without one, possible at all)."""
    if len(players) % 2 == 0:
        ok = _perfect(players, played)
        return ok, ok
    fresh = [p for p in players if p not in byes] or players
    with_fresh = any(_perfect([q for q in players if q != c], played) for c in fresh)
    return with_fresh, with_fresh or any(_perfect([q for q in players if q != c], played) for c in players)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 9),
    rounds=st.integers(1, 8),
    data=st.data(),
)
def test_swiss_rounds_pair_everyone_once_without_avoidable_rematches(n: int, rounds: int, data: st.DataObject) -> None:
    players = [f"e{i}" for i in range(n)]
    played: set[frozenset[str]] = set()
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    seats: dict[str, list[str]] = {}
    for _ in range(rounds):
        ranked = data.draw(st.permutations(players))
        fresh_ok, any_ok = _rematch_free_possible(list(ranked), played, set(byes))
        pairing = swiss_pairing(ranked, pairs, byes, seats)
        seated = [p for table in pairing.tables for p in table] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seated) == sorted(players), "each player plays once per round (or has the bye)"
        assert (pairing.bye is not None) == (n % 2 == 1)
        if any_ok:
            assert pairing.rematches == 0, "a rematch although a rematch-free pairing exists"
        if fresh_ok:
            assert pairing.bye not in byes, "a second bye although avoidable"
        if pairing.bye is not None and pairing.bye not in byes:
            # the bye goes to the lowest-ranked fresh player whose removal still pairs without rematches
            lower = list(ranked)[list(ranked).index(pairing.bye) + 1 :]
            for other in lower:
                if other not in byes and fresh_ok:
                    assert not _perfect([q for q in ranked if q != other], played)
        for p1, p2 in pairing.tables:
            balance = {p: seats.get(p, []).count("p1") - seats.get(p, []).count("p2") for p in (p1, p2)}
            assert balance[p1] <= balance[p2], "the player who sat p1 less often takes p1"
            seats.setdefault(p1, []).append("p1")
            seats.setdefault(p2, []).append("p2")
            played.add(frozenset((p1, p2)))
            pairs.append((p1, p2))
        if pairing.bye:
            byes.append(pairing.bye)


def test_first_round_pairs_in_registration_order_and_byes_the_last() -> None:
    pairing = swiss_pairing(["a", "b", "c", "d", "e"], [], [])
    assert pairing.tables == (("a", "b"), ("c", "d")) and pairing.bye == "e"


def test_the_bye_skips_players_who_had_one() -> None:
    pairing = swiss_pairing(["a", "b", "c", "d", "e"], [("a", "b"), ("c", "d")], ["e"])
    assert pairing.bye == "d"
    assert pairing.rematches == 0


def test_a_rematch_is_avoided_by_pairing_down() -> None:
    pairing = swiss_pairing(["a", "b", "c", "d"], [("a", "b")], [])
    assert {frozenset(t) for t in pairing.tables} == {frozenset(("a", "c")), frozenset(("b", "d"))}


def test_when_every_pairing_is_a_rematch_one_is_allowed() -> None:
    pairing = swiss_pairing(["a", "b"], [("a", "b")], [])
    assert pairing.rematches == 1 and len(pairing.tables) == 1


def test_seats_alternate() -> None:
    pairing = swiss_pairing(["a", "b"], [], [], {"a": ["p1"], "b": ["p1", "p2", "p1"]})
    assert pairing.tables == (("a", "b"),)
    pairing = swiss_pairing(["a", "b"], [], [], {"a": ["p1", "p1"], "b": ["p2", "p1"]})
    assert pairing.tables == (("b", "a"),)


def _table(number: int, p1: str, p2: str, game_id: str) -> Table:
    return Table(number, {"p1": p1, "p2": p2}, game_id)


def _round(number: int, tables: list[Table], bye: str | None) -> Round:
    return Round(number, tables, [bye] if bye else [])


def _result(rnd: int, table: int, p1: str, p2: str, game_id: str, status: str, winner: str | None,
            kills: dict[str, int]) -> TableResult:
    placings = placings_of_winner(winner, ["p1", "p2"]) if winner is not None else None
    return TableResult(rnd, table, {"p1": p1, "p2": p2}, game_id, status, placings, kills)


def _tournament(players: list[str], rounds: list[Round]) -> Tournament:
    t = Tournament("t", "T", "lords-of-war", "swiss", 3, {}, "", "2026-01-01T00:00:00.000000Z")
    t.entrants = {p: Entrant(p, p.upper(), "orcs") for p in players}
    t.played = rounds
    return t


def test_standings_match_points_then_opponents_match_win_then_kill_difference() -> None:
    # Round 1: a beats b (20-5), c draws d (8-8), e has the bye. Round 2: a beats e (20-0), c beats b (20-19),
    # d has the bye.
    r1 = _round(1, [_table(1, "a", "b", "g1"), _table(2, "c", "d", "g2")], "e")
    r2 = _round(2, [_table(1, "a", "e", "g3"), _table(2, "c", "b", "g4")], "d")
    results = [
        _result(1, 1, "a", "b", "g1", "finished", "p1", {"p1": 20, "p2": 5}),
        _result(1, 2, "c", "d", "g2", "finished", "draw", {"p1": 8, "p2": 8}),
        _result(2, 1, "a", "e", "g3", "forfeit", "p1", {"p1": 20, "p2": 0}),
        _result(2, 2, "c", "b", "g4", "finished", "p1", {"p1": 20, "p2": 19}),
    ]
    rows = {s.player: s for s in standings(_tournament(list("abcde"), [r1, r2]), results)}
    assert [rows[p].match_points for p in "abcde"] == [6, 0, 4, 4, 3]
    # opponents' match-win %: b 0/6 -> floor 1/3; e 3/6 (bye counts as a played win); d 4/6; c 4/6; a 6/6
    assert rows["a"].opponents_match_win == round((1 / 3 + 1 / 2) / 2, 4)
    assert rows["c"].opponents_match_win == round((4 / 6 + 1 / 3) / 2, 4)
    assert rows["d"].opponents_match_win == round(4 / 6, 4)
    assert rows["b"].kill_difference == (5 - 20) + (19 - 20)
    order = [s.player for s in standings(_tournament(list("abcde"), [r1, r2]), results)]
    assert order == ["a", "d", "c", "e", "b"]  # d and c tie on points; d's opponents won more


def test_unfinished_games_do_not_count() -> None:
    r1 = _round(1, [_table(1, "a", "b", "g1")], None)
    results = [_result(1, 1, "a", "b", "g1", "playing", None, {"p1": 3, "p2": 0})]
    rows = standings(_tournament(["a", "b"], [r1]), results)
    assert all(r.match_points == 0 and r.kill_difference == 0 for r in rows)
