"""The Lords of War text game record: header tags and compact moves (docs/record-format.md).

    [System "lords-of-war"]
    [Variant "sealed intermediate"]
    [P1 "Alice"]
    [P1Army "orcs"]
    ...
    0. p1 goblin-shanker-1@C3 draw
    0. p2 dwarf-slugger-2@E4 draw
    1. p1 orc-catapult@D3[D3>E4] draw {Dwarf Slugger at E4 is destroyed: 4 > 3 (Orc Catapult shot 4)}
    2. p2 dwarf-marauder-1@D4 recall:E5
    0-1

Moves: ``card@square`` (a placement), with ``!`` for a forced placement and ``(card card ...)`` the revealed hand
(table mode), then ``[shooter>target ...]`` its shots; ``draw`` or ``draw:card`` (table mode, when known);
``recall:square``; ``concede``. A player token (``p1`` ... ``p6``) says who acts from there on. A card is written by
its id without the faction when that short name is unique in the catalogue.

Three to six players (§10): ``P3``...``P6`` and their ``PnArmy`` tags follow, ``Teams`` names the two sides
(``odd: p1 p3; even: p2 p4``; three players ``solo: p1; allies: p2 p3``), ``Variant`` says ``teams`` for 4 or 6, and
the result is the side's: ``1-0`` the first team (``odd``, ``solo``) wins, ``0-1`` the second.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from engine.adjudication import Adjudicate
from engine.lords_of_war import SYSTEM, Concede, Draw, Place, Recall, Shoot, fold
from engine.lords_of_war.actions import LordsOfWarAction
from engine.lords_of_war.armies import army_setup
from engine.lords_of_war.catalogue import CATALOGUES, DEFAULT_TABLE, CardTable, table_for
from engine.lords_of_war.seating import VICTORY, layout_of
from engine.lords_of_war.state import started_cards
from events.lords_of_war import (
    BerserkerMoved,
    CardDrawn,
    Eliminated,
    ExtraTurnGranted,
    GameEnded,
    GameStarted,
    Placed,
)
from replay.archive.notation import (
    ADJUDICATION_TAGS,
    SEVEN_TAGS,
    Move,
    MoveForm,
    MoveSyntax,
    MoveTextError,
    ParsedRecord,
    RecordSyntaxError,
    adjudication_move,
    bare,
    catalogue_tags,
    closing_tags,
    comment_text,
    corrected_header,
    correction_moves,
    movetext_tokens,
    pattern,
    read_header,
    required_tag,
    tag_line,
)
from replay.archive.notation import catalogue_from_tags as shared_catalogue_from_tags
from replay.lords_of_war.explain import text as explain_text
from replay.lords_of_war.views import redacted_event

SYSTEM_NAME = "lords-of-war"
RESULTS = {"p1": "1-0", "p2": "0-1", "draw": "1/2-1/2", "odd": "1-0", "even": "0-1", "solo": "1-0", "allies": "0-1"}
RESULT_TOKENS = {"1-0": "p1", "0-1": "p2", "1/2-1/2": "draw", "*": None}  # two players; §10: the teams, in order
SEATS = ("p1", "p2", "p3", "p4", "p5", "p6")


# -- card names ------------------------------------------------------------------------------------------
#
# A card is written by its id without the faction when that short name is unique in the game's catalogue (issue 30:
# the catalogue a record's ``Catalogue`` tags carry, else the default): ``export`` and ``parse`` set ``_TABLE`` for
# the record they write or read, so the move forms below read and write the game's cards.

_TABLE: ContextVar[CardTable] = ContextVar("lords_of_war_record_cards", default=DEFAULT_TABLE)
_NAMES: dict[str, tuple[dict[str, str], dict[str, str]]] = {}  # catalogue id -> (short names, their cards)


def _short_names(table: CardTable) -> tuple[dict[str, str], dict[str, str]]:
    names = _NAMES.get(table.id)
    if names is None:
        by_slug: dict[str, list[str]] = {}
        for card_id in table.cards:
            by_slug.setdefault(card_id.split("/", 1)[-1], []).append(card_id)
        short = {ids[0]: slug for slug, ids in by_slug.items() if len(ids) == 1 and slug not in table.cards}
        names = _NAMES[table.id] = (short, {slug: card for card, slug in short.items()})
    return names


def card_token(card_id: str) -> str:
    return _short_names(_TABLE.get())[0].get(card_id, card_id)


def card_from_token(token: str, line: int) -> str:
    try:
        return _card(token)
    except MoveTextError as error:
        raise RecordSyntaxError(line, error.code, str(error)) from None


def _card(token: str) -> str:
    table = _TABLE.get()
    if token in table.cards:
        return token
    found = _short_names(table)[1].get(token)
    if found is None:
        raise MoveTextError(f"unknown card {token!r} (a card id, or its name after the faction)", "unknown_card")
    return found


def _army_text(cards: Sequence[str], army_name: str, table: CardTable) -> str:
    army = army_setup(cards, army_name, table)
    if isinstance(army, str):
        return army
    runs: list[list[Any]] = []
    for card in army:
        if runs and runs[-1][0] == card:
            runs[-1][1] += 1
        else:
            runs.append([card, 1])
    return " ".join(card_token(c) + (f"*{n}" if n > 1 else "") for c, n in runs)


def _army_from_text(text: str, line: int) -> str | list[str]:
    text = text.strip()
    if text in _TABLE.get().armies:
        return text
    cards: list[str] = []
    for token in text.split():
        name, _, count = token.partition("*")
        if count and not count.isdigit():
            raise RecordSyntaxError(line, "bad_army", f"bad card count in {token!r}")
        cards.extend([card_from_token(name, line)] * (int(count) if count else 1))
    return cards


# -- export ----------------------------------------------------------------------------------------------


def _variant_text(started: GameStarted) -> str:
    v = started.variant
    words: list[str] = [v.mode]
    if len(started.players) in (4, 6):
        words.append("teams")  # §10
    if v.intermediate:
        words.append("intermediate")
    if v.unbounded and len(started.players) not in (4, 6):  # team games are always unbounded
        words.append("unbounded")
    kills, commanders = VICTORY[len(started.players)]
    if v.kill_target != kills:
        words.append(f"kills={v.kill_target}")
    if v.command_target != commanders:
        words.append(f"commanders={v.command_target}")
    return " ".join(words)


def header(started: GameStarted, last: Any, tags: dict[str, str], view: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [(t, str(tags.get(t, "?"))) for t in SEVEN_TAGS]
    out.append(("System", SYSTEM_NAME))
    out.append(("Variant", _variant_text(started)))
    table = started_cards(started) or DEFAULT_TABLE
    out += catalogue_tags(started)  # issue 30: the record carries the catalogue it is played with
    for p in started.players:
        tag = p.id.upper()
        out.append((tag, p.name))
        out.append((f"{tag}Army", _army_text(p.cards, p.army_name, table)))
    if len(started.players) > 2:
        layout = layout_of(len(started.players))
        out.append(("Teams", "; ".join(f"{layout.side_name(side)}: {' '.join(layout.members(side))}"
                                       for side in (0, 1))))
    shown = redacted_event(started, view)  # the views' rule: the seed is for ``all`` only
    if shown.seed is not None:
        out.append(("Seed", str(shown.seed)))
    elif started.variant.mode == "sealed":  # it deals every card: a record without it cannot be replayed
        out.append(("Seed", "?"))
    # a table game's seed deals nothing: written where the view may see it, else left out like an unknown one
    if started.position is not None:
        pos = started.position
        out.append(("Position", "; ".join(f"{u.square} {u.owner} {card_token(u.card)}" for u in pos.board)))
        out.append(("ToMove", pos.to_move))
        if pos.kills:
            out.append(("Kills", "; ".join(f"{p} {k.total}/{k.commanders}" for p, k in sorted(pos.kills.items()))))
    ended = last if isinstance(last, GameEnded) else None
    return closing_tags(out, RESULTS.get(ended.winner or "draw", "*") if ended else "*", ended, started.rules_version,
                        tags)


PLACE = re.compile(
    r"^(?P<card>[^@\s]+)@(?P<square>[^!\(\[\s]+)(?P<forced>!)?(?:\((?P<reveal>[^)]*)\))?(?:\[(?P<shots>[^\]]*)\])?$"
)


def _read_place(m: re.Match[str], player: str) -> Place:
    shots = []
    for shot in (m["shots"] or "").split():
        shooter, sep, target = shot.partition(">")
        if not sep or not shooter or not target:
            raise MoveTextError(f"cannot read shot {shot!r}: write shooter>target, e.g. C2>D5")
        shots.append(Shoot(shooter=shooter, target=target))
    reveal = None
    if m["reveal"] is not None:
        reveal = tuple(_card(c) for c in m["reveal"].split())
    return Place(player=player, card=_card(m["card"]), square=m["square"], shots=tuple(shots), reveal=reveal)


def _write_place(action: Place, forced: bool = False) -> str:
    """``card@square``, ``!`` when the placement was forced (with the hand it revealed), then the shots."""
    text = f"{card_token(action.card)}@{action.square}"
    if forced:
        text += "!"
        if action.reveal is not None:
            text += "(" + " ".join(card_token(c) for c in action.reveal) + ")"
    if action.shots:
        text += "[" + " ".join(f"{s.shooter}>{s.target}" for s in action.shots) + "]"
    return text


# The notation, one form a row: it reads a token, writes an action and lists the forms in its error.
SYNTAX = MoveSyntax([
    pattern(Place, PLACE, "card@square[shots]", _read_place, _write_place),
    MoveForm(Draw, "draw", "draw", lambda rest, p: Draw(player=p, card=_card(rest) if rest else None),
             lambda a: f"draw:{card_token(a.card)}" if a.card is not None else "draw"),
    MoveForm(Recall, "recall", "recall:square", lambda rest, p: Recall(player=p, square=rest) if rest else None,
             lambda a: f"recall:{a.square}"),
    bare("concede", Concede),
], hidden=False)


def _move_text(action: LordsOfWarAction, events: Sequence[Any], view: str) -> str:
    if isinstance(action, Place):
        return _write_place(action, forced=next(e for e in events if isinstance(e, Placed)).forced)
    if isinstance(action, Draw):
        drawn = next(e for e in events if isinstance(e, CardDrawn))
        if redacted_event(drawn, view).card is None:  # the views' rule decides
            return "draw"
    return SYNTAX.write(action)


def export(events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all", comments: bool = False) -> str:
    """The record of a stream of typed events (``game_started`` first)."""
    started = events[0]
    assert isinstance(started, GameStarted)
    with _cards(started_cards(started) or DEFAULT_TABLE):
        return _export(started, events, tags, view, comments)


@contextmanager
def _cards(table: CardTable) -> Iterator[None]:
    """Card names read and written with ``table``'s cards for the block's record."""
    token = _TABLE.set(table)
    try:
        yield
    finally:
        _TABLE.reset(token)


def _export(started: GameStarted, events: Sequence[Any], tags: dict[str, str] | None, view: str,
            comments: bool) -> str:
    lines = [tag_line(tag, value) for tag, value in corrected_header(header(started, events[-1], dict(tags or {}),
                                                                             view), events)]
    lines.append("")
    recorded = SYSTEM.recorded_actions(events)  # the players' actions, each with the events it produced
    state = fold(events[: recorded[0].start if recorded else len(events)])
    current: list[str] = []
    who: str | None = None
    for step in recorded:
        action = step.action
        produced = events[step.start : step.stop]
        if isinstance(action, Adjudicate):  # in the header (closing_tags), not a move
            if current:
                lines.append(" ".join(current))
                current, who = [], None
            if comments:
                lines.append("{" + comment_text(explain_text(state, produced[-1])) + "}")
            state = fold(produced, state)
            continue
        token = _move_text(action, produced, view)
        if isinstance(action, Place):
            if current:
                lines.append(" ".join(current))
            current = [f"{state.turn}.", action.player]
            who = action.player
        elif action.player != who:
            if current:
                lines.append(" ".join(current))
            current = [action.player]
            who = action.player
        current.append(token)
        if comments:
            said = [
                explain_text(state, e)
                for e in produced
                if isinstance(e, (Eliminated, BerserkerMoved, ExtraTurnGranted))
            ]
            if said:
                current.append("{" + "; ".join(s.replace("}", ")") for s in said) + "}")
        state = fold(produced, state)
    if current:
        lines.append(" ".join(current))
    result = dict(header(started, events[-1], {}, view))["Result"]
    lines.append(result)
    return "\n".join(lines) + "\n"


# -- import ----------------------------------------------------------------------------------------------

def _move(token: str, player: str, line: int) -> LordsOfWarAction:
    action: LordsOfWarAction = SYNTAX.read(token, player, line)
    return action


def catalogue_from_tags(tags: dict[str, str], at: dict[str, int]) -> dict[str, Any] | None:
    """The catalogue document a record's tags carry (``replay.archive.notation.catalogue_from_tags``)."""
    return shared_catalogue_from_tags(tags, at, CATALOGUES)


def parse(text: str) -> ParsedRecord:
    lines = text.splitlines()
    tags, tag_lines, n = read_header(lines)
    document = catalogue_from_tags(tags, tag_lines)
    with _cards(DEFAULT_TABLE if document is None else table_for(document)):
        return _parse(lines, tags, tag_lines, n)


def _parse(lines: list[str], tags: dict[str, str], tag_lines: dict[str, int], n: int) -> ParsedRecord:
    record = ParsedRecord(tags, tag_lines)
    player: str | None = None
    for line, token in movetext_tokens("\n".join(lines[n:]), n + 1):
        if token in RESULT_TOKENS:
            record.result, record.result_line = token, line
            continue
        if record.result is not None:
            raise RecordSyntaxError(line, "syntax", f"move {token!r} after the result")
        if re.fullmatch(r"\d+\.", token):
            continue  # turn numbers are for people; the rules keep their own count
        if token in SEATS:
            player = token
            continue
        if player is None:
            raise RecordSyntaxError(line, "syntax", f"move {token!r} before any player (p1, p2, ...)")
        record.moves.append(Move(line, _move(token, player, line)))
    adjudication = adjudication_move(tags, tag_lines)
    if adjudication is not None:
        record.moves.append(adjudication)
    record.moves.extend(correction_moves(tags, tag_lines))
    return record


def setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    document = catalogue_from_tags(record.tags, record.tag_lines)
    with _cards(DEFAULT_TABLE if document is None else table_for(document)):
        setup = _setup_from_tags(record)
    if document is not None:
        setup["catalogue"] = document
    return setup


def _setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    tags, at = record.tags, record.tag_lines

    system = tags.get("System", SYSTEM_NAME)
    variant: dict[str, Any] = {}
    for word in tags.get("Variant", "sealed").split():
        if word in ("sealed", "table"):
            variant["mode"] = word
        elif word in ("intermediate", "unbounded", "teams"):
            variant[word] = True
        elif word.startswith("kills=") and word[6:].isdigit():
            variant["kill_target"] = int(word[6:])
        elif word.startswith("commanders=") and word[11:].isdigit():
            variant["command_target"] = int(word[11:])
        else:
            raise RecordSyntaxError(at.get("Variant", 1), "bad_variant", f"unknown variant word {word!r}")
    players = []
    for i, pid in enumerate(SEATS):
        tag = pid.upper()
        if i >= 2 and f"{tag}Army" not in tags:
            break  # §10: P3...P6 in three to six player games
        army = _army_from_text(required_tag(tags, f"{tag}Army"), at[f"{tag}Army"])
        players.append({"id": pid, "name": tags.get(tag, pid), "army": army})
    setup: dict[str, Any] = {"system": system, "players": players, "variant": variant}
    sealed = variant.get("mode", "sealed") == "sealed"
    seed = required_tag(tags, "Seed") if sealed else tags.get("Seed", "?")
    if re.fullmatch(r"-?\d+", seed):
        setup["seed"] = int(seed)
    elif sealed:
        raise RecordSyntaxError(at["Seed"], "hidden_seed",
                                f"a sealed game needs its seed to deal the cards; the record has {seed!r}")
    if "Position" in tags:
        board = []
        for part in filter(None, (p.strip() for p in tags["Position"].split(";"))):
            bits = part.split()
            if len(bits) != 3:
                raise RecordSyntaxError(at["Position"], "bad_position",
                                        f"cannot read {part!r}: write square owner card")
            board.append({"square": bits[0], "owner": bits[1], "card": card_from_token(bits[2], at["Position"])})
        position: dict[str, Any] = {"board": board, "to_move": required_tag(tags, "ToMove")}
        if "Kills" in tags:
            kills = {}
            for part in filter(None, (p.strip() for p in tags["Kills"].split(";"))):
                m = re.fullmatch(r"(p[12]|odd|even|solo|allies)\s+(\d+)/(\d+)", part)  # §10: a team's kills
                if m is None:
                    raise RecordSyntaxError(at["Kills"], "bad_position", f"cannot read {part!r}: write p1 3/1")
                kills[m[1]] = {"total": int(m[2]), "commanders": int(m[3])}
            position["kills"] = kills
        setup["position"] = position
    return setup


def check_result(record: ParsedRecord, state: Any) -> None:
    """The Result tag and token must agree with how the moves end the game."""
    expected = RESULTS.get(state.winner or "draw", "*") if state.phase == "over" else "*"
    claims = ((record.tags.get("Result"), record.tag_lines.get("Result", 1)), (record.result, record.result_line))
    for claimed, line in claims:
        if claimed is not None and claimed != expected:
            raise RecordSyntaxError(line, "result_mismatch",
                                    f"the record says {claimed}, but its moves give {expected}")
    if "Termination" in record.tags and state.phase == "over" and record.tags["Termination"] != state.end_reason:
        raise RecordSyntaxError(record.tag_lines["Termination"], "result_mismatch",
                                f"the record says the game ended by {record.tags['Termination']}, "
                                f"its moves by {state.end_reason}")


def record_tags(record: ParsedRecord) -> dict[str, str]:
    """Tags worth keeping with the game (the people's tags; the rest is in the events)."""
    derived = {"System", "Variant", "Seed", "Catalogue", "CatalogueJSON", "Position", "ToMove", "Kills", "Result",
               "Termination", "RulesVersion",
               "Teams", *ADJUDICATION_TAGS, *(p.upper() for p in SEATS), *(f"{p.upper()}Army" for p in SEATS)}
    return {t: v for t, v in record.tags.items() if t not in derived and v != "?"}


__all__ = ["CardDrawn", "RecordSyntaxError", "check_result", "export", "parse", "record_tags", "setup_from_tags"]
