"""The Light Wars text record: header tags and one action a line (docs/light-wars.md, "The record").

    [System "light-wars"]
    [Variant "sealed small alternate"]
    [P1 "Ann"]
    [P1Army "balanced"]
    [P2 "Bob"]
    [P2Army "king cavalry*3 infantry*2 +forced-march"]
    [Seed "42"]
    [Result "1-0"]
    [Termination "king"]

    0. p1 K@E1N
    0. p2 K@E9S
    ...
    0. p1 first:p1
    1. p1 tactics:-
    1. p1 C2-C4N
    1. p1 C4+D5xD4 {Cavalry and Infantry attack ...}
    1. p1 E2=W
    1-0

Moves: ``d4`` a die entered at the table (a roll-off, or the awaited side's die of an attack); ``K@E1N`` a unit
deployed on a square facing N; ``screen(K@E1N,I1@D2N,...)`` a whole screened deployment (``screen(?)`` where the
view may not see it); ``first:p2`` the first player chosen; ``tactics:-`` or ``tactics:forced-march+battle-cry``;
``C2-C4N`` a move ending facing N; ``C4-C4E`` a turn (R6: at any point of the unit's action, no move; a record
written under ``light-wars/1`` meant the same by it); ``C2=`` a wait (``C2=W``: waiting, turned W, R3);
``C4+D5xD4`` an attack on D4 by the units on C4 and D5; ``concede``. Sealed dice are not moves: the seed rolls them.

A game on a catalogue other than the default (issue 30) carries it in ``Catalogue`` and ``CatalogueJSON`` tags
(``replay.archive.notation.catalogue_tags``) and names its map in a ``Map`` tag when it is not the catalogue's first;
its armies are read against that catalogue's army names and unit types.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.light_wars import SYSTEM
from engine.light_wars.actions import (
    Attack,
    ChooseFirst,
    Concede,
    Deploy,
    DeployAll,
    LightWarsAction,
    Move,
    Roll,
    Tactics,
    Turn,
    Wait,
)
from engine.light_wars.catalogue import CATALOGUES, Tables, tables_of
from events.light_wars import GameEnded, GameStarted, Placement
from replay.archive.notation import (
    RESULTS,
    SEVEN_TAGS,
    HiddenMoveError,
    MoveSyntax,
    MoveTextError,
    ParsedRecord,
    RecordSyntaxError,
    bare,
    catalogue_from_tags,
    catalogue_tags,
    check_claimed_result,
    closing_tags,
    export_moves,
    parse_moves,
    pattern,
    people_tags,
    required_tag,
    sealed_seed,
    seat_players,
)
from replay.light_wars.explain import text as explain_text
from replay.light_wars.views import redacted_event

SYSTEM_NAME = "light-wars"
SQ = r"[A-Z][0-9]+"
ROLL = re.compile(r"d(-?[0-9]+)")
DEPLOY = re.compile(rf"([A-Z][0-9]*)@({SQ})([A-Z])")
SCREEN = re.compile(r"screen\((.*)\)")
FIRST = re.compile(r"first:(p[0-9]+)")
TACTICS = re.compile(r"tactics:(-|[a-z-]+(?:\+[a-z-]+)*)")
MOVE = re.compile(rf"({SQ})-({SQ})([A-Z])")
WAIT = re.compile(rf"({SQ})=([A-Z])?")
ATTACK = re.compile(rf"({SQ}(?:\+{SQ})*)x({SQ})")


# -- armies and variants ---------------------------------------------------------------------------------


def tables_of_game(started: GameStarted) -> Tables:
    """The tables of the catalogue the game plays (the default's when it names none)."""
    document = started.catalogue if isinstance(started.catalogue, dict) else None
    return tables_of(document, None, started.catalogue_id if isinstance(started.catalogue_id, str) else None)


def army_text(started: GameStarted, index: int, tables: Tables) -> str:
    army = started.armies[index]
    if army.name in tables.armies:
        return army.name
    runs: list[list[Any]] = []
    for unit in army.units:
        if runs and runs[-1][0] == unit.type:
            runs[-1][1] += 1
        else:
            runs.append([unit.type, 1])
    words = [t + (f"*{n}" if n > 1 else "") for t, n in runs] + [f"+{t}" for t in army.tactics]
    return " ".join(words)


def army_from_text(text: str, line: int, tables: Tables) -> str | dict[str, list[str]]:
    """An army of the game's catalogue (``tables``): a named army, or its unit types and tactic tiles."""
    text = text.strip()
    if text in tables.armies:
        return text
    units: list[str] = []
    tactics: list[str] = []
    for word in text.split():
        if word.startswith("+"):
            tactics.append(word[1:])
            continue
        kind, _, count = word.partition("*")
        if count and not count.isdigit() or kind not in tables.units:
            raise RecordSyntaxError(line, "bad_army", f"cannot read {word!r}: a unit type ({', '.join(tables.units)}), "
                                    "optionally *count, or +tactic-tile")
        units.extend([kind] * (int(count) if count else 1))
    return {"units": units, "tactics": tactics}


def variant_text(started: GameStarted) -> str:
    v = started.variant
    size = f"custom cost={v.total_cost} turns={v.max_turns}" if v.size == "custom" else v.size
    return f"{v.mode} {size} {v.deployment}"


def variant_from_text(text: str, line: int) -> dict[str, Any]:
    variant: dict[str, Any] = {}
    for word in text.split():
        if word in ("sealed", "table"):
            variant["mode"] = word
        elif word in ("small", "medium", "large", "custom"):
            variant["size"] = word
        elif word in ("alternate", "screen"):
            variant["deployment"] = word
        elif re.fullmatch(r"cost=\d+", word):
            variant["total_cost"] = int(word[5:])
        elif re.fullmatch(r"turns=\d+", word):
            variant["max_turns"] = int(word[6:])
        else:
            raise RecordSyntaxError(line, "bad_variant", f"unknown variant word {word!r}")
    return variant


# -- export ----------------------------------------------------------------------------------------------


def header(started: GameStarted, last: Any, tags: dict[str, str], view: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [(t, str(tags.get(t, "?"))) for t in SEVEN_TAGS]
    out.append(("System", SYSTEM_NAME))
    out.append(("Variant", variant_text(started)))
    out += catalogue_tags(started)  # issue 30: the record carries the catalogue it is played with
    if isinstance(started.map, str):  # the catalogue's map played, when it is not its first
        out.append(("Map", started.map))
    tables = tables_of_game(started)
    for i, seat in enumerate(started.seats):
        tag = seat.id.upper()
        out.append((tag, seat.name))
        out.append((f"{tag}Army", army_text(started, i, tables)))
    shown = redacted_event(started, view)
    if started.variant.mode == "sealed":  # the seed rolls every die: a record without it cannot be replayed
        out.append(("Seed", str(shown.seed) if shown.seed is not None else "?"))
    if started.position is not None:
        p = started.position
        out.append(("Position", "; ".join(f"{u.owner} {u.unit} {u.square} {u.facing}" for u in p.units)))
        out.append(("ToMove", p.to_move))
        out.append(("First", p.first))
        out.append(("Turn", str(p.turn)))
        out.append(("Stock", "; ".join(f"{k} {v}" for k, v in p.stock.items())))
        out.append(("Scores", "; ".join(f"{k} {v}" for k, v in p.scores.items())))
    ended = last if isinstance(last, GameEnded) else None
    return closing_tags(out, RESULTS[ended.winner or "draw"] if ended else "*", ended, started.rules_version, tags)


def _placements(placements: Sequence[Placement]) -> str:
    return ",".join(f"{p.unit}@{p.square}{p.facing}" for p in placements)


def _placement(text: str) -> Placement:
    m = DEPLOY.fullmatch(text.strip())
    if m is None:
        raise MoveTextError(f"cannot read placement {text!r}: write unit@square facing, K@E1N")
    return Placement(unit=m[1], square=m[2], facing=m[3])


def _read_screen(m: re.Match[str], player: str) -> DeployAll:
    if m[1].strip() == "?":
        raise HiddenMoveError(f"{player}'s screened deployment is hidden in this record")
    return DeployAll(player=player, placements=tuple(_placement(p) for p in m[1].split(",")))


# The notation, one form a row: it reads a token, writes an action and lists the forms in its error.
SYNTAX = MoveSyntax([
    pattern(Roll, ROLL, "d4", lambda m, p: Roll(player=p, value=int(m[1])), lambda a: f"d{a.value}"),
    pattern(Deploy, DEPLOY, "K@E1N", lambda m, p: Deploy(player=p, unit=m[1], square=m[2], facing=m[3]),
            lambda a: f"{a.unit}@{a.square}{a.facing}"),
    pattern(DeployAll, SCREEN, "screen(...)", _read_screen, lambda a: f"screen({_placements(a.placements)})"),
    pattern(ChooseFirst, FIRST, "first:p1", lambda m, p: ChooseFirst(player=p, first=m[1]),
            lambda a: f"first:{a.first}"),
    pattern(Tactics, TACTICS, "tactics:-",
            lambda m, p: Tactics(player=p, tiles=() if m[1] == "-" else tuple(m[1].split("+"))),
            lambda a: "tactics:" + ("+".join(a.tiles) if a.tiles else "-")),
    pattern(Move, MOVE, "C2-C4N",
            lambda m, p: Move(player=p, square=m[1], to=m[2], facing=m[3]) if m[1] != m[2] else None,
            lambda a: f"{a.square}-{a.to}{a.facing}"),
    pattern(Turn, MOVE, "C4-C4E",  # R6: a turn, onto its own square
            lambda m, p: Turn(player=p, square=m[1], facing=m[3]) if m[1] == m[2] else None,
            lambda a: f"{a.square}-{a.square}{a.facing}"),
    pattern(Wait, WAIT, "C2=", lambda m, p: Wait(player=p, square=m[1], facing=m[2] or None),
            lambda a: f"{a.square}={a.facing or ''}"),
    pattern(Attack, ATTACK, "C4+D5xD4", lambda m, p: Attack(player=p, target=m[2], attackers=tuple(m[1].split("+"))),
            lambda a: f"{'+'.join(a.attackers)}x{a.target}"),
    bare("concede", Concede),
], hidden=False)


def move_text(action: LightWarsAction, first_event: Any, view: str) -> str:
    """The action's token; a screened deployment this view may not see is ``screen(?)``."""
    if isinstance(action, DeployAll) and redacted_event(first_event, view).placements is None:
        return "screen(?)"
    return SYNTAX.write(action)


def export(events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all", comments: bool = False) -> str:
    started = events[0]
    assert isinstance(started, GameStarted)
    header_tags = header(started, events[-1], dict(tags or {}), view)
    return export_moves(SYSTEM, events, header_tags, dict(header(started, events[-1], {}, view))["Result"],
                        move_text, explain_text, redacted_event, view, comments)


# -- import ----------------------------------------------------------------------------------------------


def move_from_text(token: str, player: str, line: int) -> LightWarsAction:
    action: LightWarsAction = SYNTAX.read(token, player, line)
    return action


def parse(text: str) -> ParsedRecord:
    return parse_moves(text, move_from_text)


def _pairs(text: str, line: int, what: str) -> dict[str, int]:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        m = re.fullmatch(r"(p\d+)\s+(\d+)", part)
        if m is None:
            raise RecordSyntaxError(line, "bad_position", f"cannot read {what} {part!r}: write p1 3; p2 5")
        out[m[1]] = int(m[2])
    return out


def setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    tags, at = record.tags, record.tag_lines

    variant = variant_from_text(tags.get("Variant", ""), at.get("Variant", 1))
    if "Map" in tags:
        variant["map"] = tags["Map"]
    document = catalogue_from_tags(tags, at, CATALOGUES)
    tables = tables_of(document)
    players = seat_players(tags, lambda text, tag: army_from_text(text, at[f"{tag}Army"], tables))
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": players, "variant": variant}
    if document is not None:
        setup["catalogue"] = document
    if variant.get("mode", "sealed") == "sealed":
        setup["seed"] = sealed_seed(tags, at, "to roll the dice")
    if "Position" in tags:
        units = []
        for part in filter(None, (p.strip() for p in tags["Position"].split(";"))):
            bits = part.split()
            if len(bits) != 4:
                raise RecordSyntaxError(at["Position"], "bad_position",
                                        f"cannot read {part!r}: write owner unit square facing, p1 K E1 N")
            units.append(dict(zip(("owner", "unit", "square", "facing"), bits, strict=True)))
        position: dict[str, Any] = {"units": units, "to_move": required_tag(tags, "ToMove")}
        if "First" in tags:
            position["first"] = tags["First"]
        if "Turn" in tags:
            if not tags["Turn"].isdigit():
                raise RecordSyntaxError(at["Turn"], "bad_position", f"the turn is a number, not {tags['Turn']!r}")
            position["turn"] = int(tags["Turn"])
        if "Stock" in tags:
            position["stock"] = _pairs(tags["Stock"], at["Stock"], "stock")
        if "Scores" in tags:
            position["scores"] = _pairs(tags["Scores"], at["Scores"], "scores")
        setup["position"] = position
    return setup


def check_result(record: ParsedRecord, state: Any) -> None:
    check_claimed_result(record, state)


DERIVED = {"System", "Variant", "Catalogue", "CatalogueJSON", "Map", "P1", "P2", "P1Army", "P2Army", "Seed",
           "Position", "ToMove", "First", "Turn", "Stock", "Scores", "Result", "Termination", "RulesVersion"}


def record_tags(record: ParsedRecord) -> dict[str, str]:
    return people_tags(record, DERIVED)


__all__ = ["check_result", "export", "parse", "record_tags", "setup_from_tags"]
