"""Integrity: check every stored game's hash chain and re-decide it with today's rules.

``verify_game`` reports, per game, each ``Divergence`` (seq, kind, what differs):

- ``chain``: an event's stored hash is not BLAKE2b(previous stored hash, type, version, payload) (the first
  event chains to ``genesis_hash(game_id)``): the row was changed after it was written. The next event is checked
  against the stored hash, so one tampered row is reported once, at its seq.
- ``corrupt``: a row that cannot be read or decoded, or a stream that no actions could have produced.
- ``rules``: the events today's ``decide`` gives for the recorded action differ from the stored ones, or the action
  is illegal today (a rules change since, or events written around the rules).
- ``catalogue`` (issue 30): the catalogue document a ``game_started`` carries no longer hashes to the id it
  records (``catalogue_id``): the game's cards were changed under it.

Verification never changes history: the stored events are folded with ``evolve`` as recorded, whatever today's
rules say, so a game recorded under older rules still replays exactly; after a divergence the check goes on from
the stored events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from engine.catalogue import catalogue_id
from engine.errors import RuleError, StreamError
from engine.system import AnySystem
from replay.errors import CorruptRecord
from replay.log.chain import chain_hash, genesis_hash
from replay.log.service import GameService


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seq: int
    kind: str  # chain | corrupt | rules | catalogue
    message: str

    def __str__(self) -> str:
        return f"{self.game_id} seq {self.seq}: {self.kind}: {self.message}"


def verify_chain(game_id: str, stored: list[Any]) -> list[Divergence]:
    out = []
    previous = genesis_hash(game_id)
    for event in stored:
        expected = chain_hash(previous, event.type, event.schema_version, event.payload)
        if event.hash != expected:
            out.append(Divergence(game_id=game_id, seq=event.seq, kind="chain",
                                  message=f"stored hash {event.hash or '(none)'} != {expected} "
                                          "recomputed from the row"))
        previous = event.hash
    return out


def _short(system: AnySystem, event: Any) -> str:
    text = system.codec.encode_json(event).decode()
    return text if len(text) <= 300 else text[:297] + "..."


def verify_game(service: GameService, game_id: str) -> list[Divergence]:
    """Every divergence of one stored game (empty: the chain holds and today's rules give the same events)."""
    record = service.store.get_game(game_id)
    try:
        stored = service.store.read(game_id)
    except CorruptRecord as error:
        return [Divergence(game_id=game_id, seq=error.seq, kind="corrupt", message=error.reason)]
    out = verify_chain(game_id, stored)
    system = service.system_of(record)
    events = []
    for row in stored:
        try:
            events.append(service.decode(system, row).event)
        except CorruptRecord as error:
            return out + [Divergence(game_id=game_id, seq=error.seq, kind="corrupt", message=error.reason)]
    if not events:
        return out
    return out + catalogue_changed(game_id, events[0]) + _redecide(system, game_id, events)


def catalogue_changed(game_id: str, started: Any) -> list[Divergence]:
    """The ``catalogue`` divergence of a ``game_started`` whose embedded catalogue (``catalogue``, issue 30) is not
    the one its ``catalogue_id`` names; none for a game on its system's default catalogue."""
    document, named = getattr(started, "catalogue", None), getattr(started, "catalogue_id", None)
    if not isinstance(document, dict) or not isinstance(named, str):
        return []
    actual = catalogue_id(document)
    if actual == named:
        return []
    return [Divergence(game_id=game_id, seq=1, kind="catalogue",
                       message=f"the catalogue under this game changed: game_started names catalogue {named}, but "
                               f"the document it carries is {actual}, so its cards are not the ones the game was "
                               "played with")]


def _redecide(system: AnySystem, game_id: str, events: list[Any]) -> list[Divergence]:
    """Today's rules against the stored stream, through the system's ``Records``: the opening from the recorded
    setup, then every recorded action decided again against the state as recorded before it (``redecide``
    recovers the actions once)."""
    if type(events[0]).tag_name() != "game_started":  # every system's first event (engine.system)
        return [
            Divergence(game_id=game_id, seq=1, kind="corrupt", message="the stream does not start with game_started")
        ]
    steps: list[Any] = []
    broken: Divergence | None = None
    try:
        setup = system.recorded_setup(events)
        for step in system.redecide(events):
            steps.append(step)
    except StreamError as error:
        return [Divergence(game_id=game_id, seq=error.index + 1, kind="corrupt", message=error.message)]
    except Exception as error:  # noqa: BLE001 - evolve trusts its input; a forged stream can break it
        at = steps[-1].start if steps else 0  # the action whose recorded events were being replayed
        broken = Divergence(game_id=game_id, seq=at + 1, kind="corrupt",
                            message=f"the stored events cannot be replayed: {type(error).__name__}: {error}")
    out: list[Divergence] = []
    n = steps[0].start if steps else len(events)
    try:
        opening = list(system.start(setup))
    except RuleError as error:
        out.append(Divergence(game_id=game_id, seq=1, kind="rules",
                              message=f"today's rules refuse the setup: {error.message} [{error.rule}]"))
    else:
        out.extend(_compare(system, game_id, 1, opening, events[:n]))
    for step in steps:
        if isinstance(step.outcome, RuleError):
            refusal = step.outcome
            out.append(Divergence(game_id=game_id, seq=step.start + 1, kind="rules",
                                  message=f"illegal under today's rules: {refusal.message} "
                                          f"({refusal.code}, {refusal.rule})"))
        else:
            out.extend(_compare(system, game_id, step.start + 1, list(step.outcome), events[step.start : step.stop]))
    return out + ([broken] if broken is not None else [])


def _compare(
    system: AnySystem, game_id: str, first_seq: int, decided: list[Any], recorded: list[Any]
) -> list[Divergence]:
    for i in range(max(len(decided), len(recorded))):
        mine = decided[i] if i < len(decided) else None
        theirs = recorded[i] if i < len(recorded) else None
        if mine != theirs:
            stored_text = _short(system, theirs) if theirs is not None else "(nothing)"
            decided_text = _short(system, mine) if mine is not None else "(nothing)"
            return [Divergence(game_id=game_id, seq=first_seq + i, kind="rules",
                               message=f"stored {stored_text}; today's rules give {decided_text}")]
    return []


def game_ids(service: GameService) -> Iterator[str]:
    cursor = None
    while True:
        page = service.store.list_games(limit=1000, cursor=cursor)
        yield from (g.game_id for g in page.games)
        cursor = page.next_cursor
        if cursor is None:
            return


def verify_all(service: GameService) -> Iterator[tuple[str, list[Divergence]]]:
    """(game id, its divergences) for every stored game, in the store's order."""
    for game_id in game_ids(service):
        yield game_id, verify_game(service, game_id)
