"""The Art of War text record: header tags and one action a token (docs/art-of-war.md, "The record").

Moves: ``draw:archer`` a card entered at a table (``draw:?`` hidden), ``redraw:keep`` / ``redraw:again`` /
``redraw:again=archer+soldier+wizard`` (a table) / ``redraw:?``, ``deploy:CARD@A1,CARD`` (+``,kingdom=type`` at a
table), ``place:A1``, ``rotate:B1``, ``shift:A1>C2``, ``play:CARD@B1``, ``battle``, ``attack:B1>A1``,
``support:CARD=archer,target=B1`` / ``support:CARD=priest,square=A1,to=B1`` / ``support:CARD=guardian``, ``pass``,
``entry:CARD``, ``conscript:A1`` (``conscript:A1=CARD`` from the kingdom), ``end``, ``concede``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.art_of_war import SYSTEM
from engine.art_of_war.actions import (
    ArtOfWarAction,
    Attack,
    Battle,
    Concede,
    Conscript,
    Deploy,
    Draw,
    End,
    Entry,
    Pass,
    Place,
    Play,
    Redraw,
    Rotate,
    Shift,
    Support,
)
from engine.art_of_war.catalog import DECKS
from events.art_of_war import GameEnded, GameStarted
from replay.archive.notation import (
    RESULTS,
    SEVEN_TAGS,
    ParsedRecord,
    RecordSyntaxError,
    check_claimed_result,
    closing_tags,
    export_moves,
    parse_moves,
    people_tags,
    sealed_seed,
    seat_players,
)
from replay.art_of_war.explain import text as explain_text
from replay.art_of_war.views import redacted_event

SYSTEM_NAME = "art-of-war"


def header(started: GameStarted, last: Any, tags: dict[str, str], view: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [(t, str(tags.get(t, "?"))) for t in SEVEN_TAGS]
    out += [("System", SYSTEM_NAME), ("Variant", started.variant.mode)]
    for seat, deck in zip(started.seats, started.decks, strict=True):
        tag = seat.id.upper()
        out.append((tag, seat.name))
        out.append((f"{tag}Army", deck.name if deck.name in DECKS else f"{deck.king}:" + "+".join(deck.cards)))
    out.append(("First", started.first))
    shown = redacted_event(started, view)
    if started.variant.mode == "sealed":
        out.append(("Seed", str(shown.seed) if shown.seed is not None else "?"))
    ended = last if isinstance(last, GameEnded) else None
    return closing_tags(out, RESULTS[ended.winner or "draw"] if ended else "*", ended, started.rules_version, tags)


def move_text(action: ArtOfWarAction, first_event: Any, view: str) -> str:  # noqa: C901 - one token per action
    shown = redacted_event(first_event, view)
    match action:
        case Draw(card=card):
            return f"draw:{card}" if getattr(shown, "card", None) else "draw:?"
        case Redraw(again=again, cards=cards):
            if shown.again is None:
                return "redraw:?"
            if not again:
                return "redraw:keep"
            return "redraw:again" + (("=" + "+".join(cards)) if cards else "")
        case Deploy(card=card, square=square, standby=standby, kingdom=kingdom):
            return f"deploy:{card}@{square},{standby}" + (f",kingdom={kingdom}" if kingdom else "")
        case Place(square=square):
            return f"place:{square}"
        case Rotate(square=square):
            return f"rotate:{square}"
        case Shift(square=square, to=to):
            return f"shift:{square}>{to}"
        case Play(card=card, square=square):
            return f"play:{card}@{square}"
        case Battle():
            return "battle"
        case Attack(square=square, target=target):
            return f"attack:{square}>{target}"
        case Support(card=card, effect=effect, target=target, square=square, to=to):
            extra = (f",target={target}" if target else "") + (f",square={square}" if square else "") + \
                (f",to={to}" if to else "")
            return f"support:{card}={effect}{extra}"
        case Pass():
            return "pass"
        case Entry(card=card):
            return f"entry:{card}"
        case Conscript(square=square, card=card):
            return f"conscript:{square}" + (f"={card}" if card else "")
        case End():
            return "end"
        case Concede():
            return "concede"
        case _:
            raise AssertionError(action)


def export(events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all", comments: bool = False) -> str:
    started = events[0]
    assert isinstance(started, GameStarted)
    header_tags = header(started, events[-1], dict(tags or {}), view)
    return export_moves(SYSTEM, events, header_tags, dict(header(started, events[-1], {}, view))["Result"],
                        move_text, explain_text, redacted_event, view, comments)


def _fields(rest: str) -> dict[str, str]:
    out = {}
    for part in rest.split(","):
        key, _, value = part.partition("=")
        out[key] = value
    return out


def move_from_text(token: str, player: str, line: int) -> ArtOfWarAction:  # noqa: C901 - one syntax per action
    word, _, rest = token.partition(":")
    if rest == "?":
        raise RecordSyntaxError(line, "hidden_move", f"{player}'s {word} is hidden in this record")
    if token == "battle":
        return Battle(player=player)
    if token == "pass":
        return Pass(player=player)
    if token == "end":
        return End(player=player)
    if token == "concede":
        return Concede(player=player)
    try:
        if word == "draw" and rest:
            return Draw(player=player, card=rest)
        if word == "redraw":
            kind, _, cards = rest.partition("=")
            if kind in ("keep", "again"):
                return Redraw(player=player, again=kind == "again", cards=tuple(cards.split("+")) if cards else ())
        if word == "deploy" and "@" in rest:
            card, _, tail = rest.partition("@")
            square, standby, *more = tail.split(",")
            kingdom = more[0].partition("=")[2] if more else None
            return Deploy(player=player, card=card, square=square, standby=standby, kingdom=kingdom)
        if word in ("place", "rotate") and rest:
            return Place(player=player, square=rest) if word == "place" else Rotate(player=player, square=rest)
        if word == "shift" and ">" in rest:
            a, _, b = rest.partition(">")
            return Shift(player=player, square=a, to=b)
        if word == "play" and "@" in rest:
            card, _, square = rest.partition("@")
            return Play(player=player, card=card, square=square)
        if word == "attack" and ">" in rest:
            a, _, b = rest.partition(">")
            return Attack(player=player, square=a, target=b)
        if word == "support" and "=" in rest:
            card, _, tail = rest.partition("=")
            effect, *parts = tail.split(",")
            f = _fields(",".join(parts)) if parts else {}
            return Support(player=player, card=card, effect=effect, target=f.get("target"), square=f.get("square"),
                           to=f.get("to"))
        if word == "entry" and rest:
            return Entry(player=player, card=rest)
        if word == "conscript" and rest:
            square, _, card = rest.partition("=")
            return Conscript(player=player, square=square, card=card or None)
    except ValueError:
        pass
    raise RecordSyntaxError(line, "syntax", f"cannot read move {token!r}: draw:TYPE, redraw:keep, deploy:C@A1,C, "
                            "place:A1, rotate:A1, shift:A1>B1, play:C@A1, battle, attack:A1>B1, support:C=EFFECT, "
                            "pass, entry:C, conscript:A1, end or concede")


def parse(text: str) -> ParsedRecord:
    return parse_moves(text, move_from_text)


def setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    tags, at = record.tags, record.tag_lines

    mode = tags.get("Variant", "sealed")
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": seat_players(tags, _army_from_text),
                             "variant": {"mode": mode}, "first": tags.get("First", "p1")}
    if mode == "sealed":
        setup["seed"] = sealed_seed(tags, at, "to shuffle the decks")
    return setup


def _army_from_text(text: str, tag: str) -> Any:
    """A deck's name, or ``KING:card+card+...`` for a custom deck."""
    if ":" not in text:
        return text
    king, _, cards = text.partition(":")
    return {"king": king, "cards": cards.split("+")}


def check_result(record: ParsedRecord, state: Any) -> None:
    check_claimed_result(record, state)


DERIVED = {"System", "Variant", "P1", "P2", "P1Army", "P2Army", "First", "Seed", "Result", "Termination",
           "RulesVersion"}


def record_tags(record: ParsedRecord) -> dict[str, str]:
    return people_tags(record, DERIVED)


__all__ = ["check_result", "export", "parse", "record_tags", "setup_from_tags"]
