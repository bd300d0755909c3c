"""The HeroScape text record: header tags and one action a token (docs/heroscape.md, "The record").

A hex is ``q,r``. Moves: ``place:FIG@q,r&FIG@q,r+q,r&...`` (a double-space figure's tail after ``+``),
``markers:1=CARD,2=CARD,3=CARD,X=CARD`` (``markers:?`` hidden), ``roll:v,v,...`` (dice entered at a table),
``move:FIG@q,r`` (``+q,r`` a tail), ``charge`` (``charge:17`` at a table), ``attack:FIG>TARGET`` (``=SPECIAL`` a
special attack, ``!clear`` / ``!blocked`` the referee's call on line of sight), ``effect:card=C&change=wound&
figure=F&owner=p2&amount=1`` (``to=q,r``, ``tail=q,r``, ``text=...`` percent-encoded), ``end``, ``concede``.
The header has the sample army (or ``card+card``), the map, the game, the round limit, the seed and, for a game
from a position, the position as JSON. A game on a catalogue other than the default (issue 30) carries it in
``Catalogue`` and ``CatalogueJSON`` tags (``replay.archive.notation.catalogue_tags``); its armies and map are read
against that catalogue.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote, unquote

from engine.heroscape import SYSTEM
from engine.heroscape.actions import (
    Attack,
    Charge,
    Concede,
    Effect,
    EndTurn,
    HeroScapeAction,
    Markers,
    Move,
    Place,
    Roll,
)
from engine.heroscape.catalogue import CATALOGUES, tables_of
from engine.heroscape.history import recorded_setup
from events.heroscape import GameEnded, GameStarted, Placement
from replay.archive.notation import (
    RESULTS,
    SEVEN_TAGS,
    MoveForm,
    MoveSyntax,
    ParsedRecord,
    RecordSyntaxError,
    bare,
    catalogue_from_tags,
    catalogue_tags,
    check_claimed_result,
    closing_tags,
    export_moves,
    json_position,
    parse_moves,
    people_tags,
    sealed_seed,
    seat_players,
)
from replay.heroscape.explain import text as explain_text
from replay.heroscape.views import redacted_event

SYSTEM_NAME = "heroscape"


def _hex(h: Sequence[int]) -> str:
    return f"{h[0]},{h[1]}"


def _read_hex(text: str) -> tuple[int, int]:
    q, _, r = text.partition(",")
    return (int(q), int(r))


def header(started: GameStarted, last: Any, tags: dict[str, str], view: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [(t, str(tags.get(t, "?"))) for t in SEVEN_TAGS]
    v = started.variant
    out += [("System", SYSTEM_NAME), ("Variant", v.mode), ("Game", v.game), ("Map", v.map),
            ("MaxRounds", str(v.max_rounds))]
    out += catalogue_tags(started)  # issue 30: the record carries the catalogue it is played with
    document = started.catalogue if isinstance(started.catalogue, dict) else None
    armies = tables_of(document, started.catalogue_id if isinstance(started.catalogue_id, str) else None).armies
    for seat, army in zip(started.seats, started.armies, strict=True):
        tag = seat.id.upper()
        out.append((tag, seat.name))
        out.append((f"{tag}Army", army.name if army.name in armies else "+".join(c.key for c in army.cards)))
    shown = redacted_event(started, view)
    if v.mode == "sealed":
        out.append(("Seed", str(shown.seed) if shown.seed is not None else "?"))
    if started.position is not None:
        position = recorded_setup([started])["position"]
        out.append(("Position", json.dumps(position, separators=(",", ":"), sort_keys=True)))
    ended = last if isinstance(last, GameEnded) else None
    return closing_tags(out, RESULTS[ended.winner or "draw"] if ended else "*", ended, started.rules_version, tags)


def _where(figure: str, hex_: Sequence[int], tail: Sequence[int] | None) -> str:
    return f"{figure}@{_hex(hex_)}" + (f"+{_hex(tail)}" if tail else "")


def _read_attack(rest: str, player: str) -> Attack | None:
    if ">" not in rest:
        return None
    figure, _, tail = rest.partition(">")
    referee = None
    if "!" in tail:
        tail, _, call = tail.partition("!")
        if call not in ("clear", "blocked"):
            raise ValueError(call)
        referee = call == "clear"
    target, _, special = tail.partition("=")
    return Attack(player=player, figure=figure, target=target, special=special or None, referee=referee)


def _write_attack(a: Attack) -> str:
    return f"attack:{a.figure}>{a.target}" + (f"={a.special}" if a.special else "") + \
        ("" if a.referee is None else "!clear" if a.referee else "!blocked")


def _read_effect(rest: str, player: str) -> Effect | None:
    if not rest:
        return None
    f = dict(part.split("=", 1) for part in rest.split("&"))
    return Effect(player=player, card=f["card"], change=f["change"], figure=f["figure"],  # type: ignore[arg-type]
                  owner=f.get("owner"), amount=int(f.get("amount", "0")),
                  to=_read_hex(f["to"]) if "to" in f else None,
                  tail=_read_hex(f["tail"]) if "tail" in f else None, text=unquote(f.get("text", "")))


def _write_effect(a: Effect) -> str:
    parts = [f"card={a.card}", f"change={a.change}", f"figure={a.figure}"]
    if a.owner:
        parts.append(f"owner={a.owner}")
    if a.amount:
        parts.append(f"amount={a.amount}")
    if a.to is not None:
        parts.append(f"to={_hex(a.to)}")
    if a.tail is not None:
        parts.append(f"tail={_hex(a.tail)}")
    if a.text:
        parts.append(f"text={quote(a.text, safe='')}")
    return "effect:" + "&".join(parts)


def _read_move(rest: str, player: str) -> Move | None:
    if "@" not in rest:
        return None
    p = _placement(rest)
    return Move(player=player, figure=p.figure, to=p.hex, tail=p.tail)


# The notation, one form a row: it reads a token, writes an action and lists the forms in its error.
SYNTAX = MoveSyntax([
    MoveForm(Place, "place", "place:F@q,r&...",
             lambda rest, p: Place(player=p, placements=tuple(_placement(x) for x in rest.split("&"))) if rest
             else None,
             lambda a: "place:" + "&".join(_where(x.figure, x.hex, x.tail) for x in a.placements)),
    MoveForm(Markers, "markers", "markers:1=C,2=C,3=C,X=C",
             lambda rest, p: Markers(player=p, markers=dict(x.split("=", 1) for x in rest.split(","))) if rest
             else None,
             lambda a: "markers:" + ",".join(f"{k}={v}" for k, v in sorted(a.markers.items()))),
    MoveForm(Roll, "roll", "roll:v,...",
             lambda rest, p: Roll(player=p, values=tuple(int(v) for v in rest.split(","))) if rest else None,
             lambda a: "roll:" + ",".join(str(v) for v in a.values)),
    MoveForm(Move, "move", "move:F@q,r", _read_move, lambda a: "move:" + _where(a.figure, a.to, a.tail)),
    MoveForm(Charge, "charge", "charge",
             lambda rest, p: Charge(player=p, value=int(rest)) if rest else Charge(player=p),
             lambda a: "charge" + (f":{a.value}" if a.value is not None else "")),
    MoveForm(Attack, "attack", "attack:F>T", _read_attack, _write_attack),
    MoveForm(Effect, "effect", "effect:card=C&change=...&figure=F", _read_effect, _write_effect),
    bare("end", EndTurn),
    bare("concede", Concede),
])


def move_text(action: HeroScapeAction, first_event: Any, view: str) -> str:
    """The action's token; markers this view may not see are ``markers:?``."""
    if isinstance(action, Markers) and redacted_event(first_event, view).markers is None:
        return "markers:?"
    return SYNTAX.write(action)


def export(events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all", comments: bool = False) -> str:
    started = events[0]
    assert isinstance(started, GameStarted)
    header_tags = header(started, events[-1], dict(tags or {}), view)
    return export_moves(SYSTEM, events, header_tags, dict(header(started, events[-1], {}, view))["Result"],
                        move_text, explain_text, redacted_event, view, comments)


def _placement(text: str) -> Placement:
    figure, _, where = text.partition("@")
    head, _, tail = where.partition("+")
    return Placement(figure=figure, hex=_read_hex(head), tail=_read_hex(tail) if tail else None)


def move_from_text(token: str, player: str, line: int) -> HeroScapeAction:
    action: HeroScapeAction = SYNTAX.read(token, player, line)
    return action


def parse(text: str) -> ParsedRecord:
    return parse_moves(text, move_from_text)


def setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    tags, at = record.tags, record.tag_lines

    mode = tags.get("Variant", "sealed")
    document = catalogue_from_tags(tags, at, CATALOGUES)
    armies = tables_of(document).armies
    players = seat_players(tags, lambda text, _: text if text in armies else {"cards": text.split("+")})
    variant: dict[str, Any] = {"mode": mode, "game": tags.get("Game", "master"), "map": tags.get("Map", "twin-hill")}
    if "MaxRounds" in tags:
        if not tags["MaxRounds"].isdigit():
            raise RecordSyntaxError(at["MaxRounds"], "syntax", f"MaxRounds is a number, not {tags['MaxRounds']!r}")
        variant["max_rounds"] = int(tags["MaxRounds"])
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": players, "variant": variant}
    if document is not None:
        setup["catalogue"] = document
    if mode == "sealed":
        setup["seed"] = sealed_seed(tags, at, "to roll the dice")
    if "Position" in tags:
        setup["position"] = json_position(tags, at, "docs/heroscape.md")
    return setup


def check_result(record: ParsedRecord, state: Any) -> None:
    check_claimed_result(record, state)


DERIVED = {"System", "Variant", "Catalogue", "CatalogueJSON", "Game", "Map", "MaxRounds", "P1", "P2", "P1Army",
           "P2Army", "Seed", "Position", "Result", "Termination", "RulesVersion"}


def record_tags(record: ParsedRecord) -> dict[str, str]:
    return people_tags(record, DERIVED)


__all__ = ["check_result", "export", "parse", "record_tags", "setup_from_tags"]
