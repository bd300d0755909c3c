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
from engine.art_of_war.catalogue import CATALOGUES, DEFAULT, book_of
from events.art_of_war import GameEnded, GameStarted
from replay.archive.notation import (
    RESULTS,
    SEVEN_TAGS,
    MoveForm,
    MoveSyntax,
    ParsedRecord,
    bare,
    catalogue_from_tags,
    catalogue_tags,
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
    out += catalogue_tags(started)  # issue 30: the record carries the catalogue it is played with
    decks = (book_of(started.catalogue) or DEFAULT).decks  # a deck of the game's catalogue, by name
    for seat, deck in zip(started.seats, started.decks, strict=True):
        tag = seat.id.upper()
        out.append((tag, seat.name))
        out.append((f"{tag}Army", deck.name if deck.name in decks else f"{deck.king}:" + "+".join(deck.cards)))
    out.append(("First", started.first))
    shown = redacted_event(started, view)
    if started.variant.mode == "sealed":
        out.append(("Seed", str(shown.seed) if shown.seed is not None else "?"))
    ended = last if isinstance(last, GameEnded) else None
    return closing_tags(out, RESULTS[ended.winner or "draw"] if ended else "*", ended, started.rules_version, tags)


def _read_redraw(rest: str, player: str) -> Redraw | None:
    kind, _, cards = rest.partition("=")
    if kind not in ("keep", "again"):
        return None
    return Redraw(player=player, again=kind == "again", cards=tuple(cards.split("+")) if cards else ())


def _write_redraw(action: Redraw) -> str:
    if not action.again:
        return "redraw:keep"
    return "redraw:again" + (("=" + "+".join(action.cards)) if action.cards else "")


def _read_deploy(rest: str, player: str) -> Deploy | None:
    if "@" not in rest:
        return None
    card, _, tail = rest.partition("@")
    square, standby, *more = tail.split(",")
    kingdom = more[0].partition("=")[2] if more else None
    return Deploy(player=player, card=card, square=square, standby=standby, kingdom=kingdom)


def _pair(rest: str, mark: str) -> tuple[str, str] | None:
    """``a<mark>b`` as (a, b); None without the mark."""
    if mark not in rest:
        return None
    a, _, b = rest.partition(mark)
    return a, b


def _read_support(rest: str, player: str) -> Support | None:
    if "=" not in rest:
        return None
    card, _, tail = rest.partition("=")
    effect, *parts = tail.split(",")
    fields = dict(part.partition("=")[::2] for part in parts)
    return Support(player=player, card=card, effect=effect, target=fields.get("target"), square=fields.get("square"),
                   to=fields.get("to"))


def _write_support(a: Support) -> str:
    extra = "".join(f",{key}={value}" for key, value in (("target", a.target), ("square", a.square), ("to", a.to))
                    if value)
    return f"support:{a.card}={a.effect}{extra}"


def _read_conscript(rest: str, player: str) -> Conscript | None:
    square, _, card = rest.partition("=")
    return Conscript(player=player, square=square, card=card or None) if rest else None


# The notation, one form a row: it reads a token, writes an action and lists the forms in its error.
SYNTAX = MoveSyntax([
    MoveForm(Draw, "draw", "draw:TYPE", lambda rest, p: Draw(player=p, card=rest) if rest else None,
             lambda a: f"draw:{a.card}"),
    MoveForm(Redraw, "redraw", "redraw:keep", _read_redraw, _write_redraw),
    MoveForm(Deploy, "deploy", "deploy:C@A1,C", _read_deploy,
             lambda a: f"deploy:{a.card}@{a.square},{a.standby}" + (f",kingdom={a.kingdom}" if a.kingdom else "")),
    MoveForm(Place, "place", "place:A1", lambda rest, p: Place(player=p, square=rest) if rest else None,
             lambda a: f"place:{a.square}"),
    MoveForm(Rotate, "rotate", "rotate:A1", lambda rest, p: Rotate(player=p, square=rest) if rest else None,
             lambda a: f"rotate:{a.square}"),
    MoveForm(Shift, "shift", "shift:A1>B1",
             lambda rest, p: Shift(player=p, square=ab[0], to=ab[1]) if (ab := _pair(rest, ">")) else None,
             lambda a: f"shift:{a.square}>{a.to}"),
    MoveForm(Play, "play", "play:C@A1",
             lambda rest, p: Play(player=p, card=cs[0], square=cs[1]) if (cs := _pair(rest, "@")) else None,
             lambda a: f"play:{a.card}@{a.square}"),
    bare("battle", Battle),
    MoveForm(Attack, "attack", "attack:A1>B1",
             lambda rest, p: Attack(player=p, square=ab[0], target=ab[1]) if (ab := _pair(rest, ">")) else None,
             lambda a: f"attack:{a.square}>{a.target}"),
    MoveForm(Support, "support", "support:C=EFFECT", _read_support, _write_support),
    bare("pass", Pass),
    MoveForm(Entry, "entry", "entry:C", lambda rest, p: Entry(player=p, card=rest) if rest else None,
             lambda a: f"entry:{a.card}"),
    MoveForm(Conscript, "conscript", "conscript:A1", _read_conscript,
             lambda a: f"conscript:{a.square}" + (f"={a.card}" if a.card else "")),
    bare("end", End),
    bare("concede", Concede),
])


def move_text(action: ArtOfWarAction, first_event: Any, view: str) -> str:
    """The action's token; a card drawn or a redraw this view may not see is ``draw:?`` / ``redraw:?``."""
    shown = redacted_event(first_event, view)
    if isinstance(action, Draw) and not getattr(shown, "card", None):
        return "draw:?"
    if isinstance(action, Redraw) and shown.again is None:
        return "redraw:?"
    return SYNTAX.write(action)


def export(events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all", comments: bool = False) -> str:
    started = events[0]
    assert isinstance(started, GameStarted)
    header_tags = header(started, events[-1], dict(tags or {}), view)
    return export_moves(SYSTEM, events, header_tags, dict(header(started, events[-1], {}, view))["Result"],
                        move_text, explain_text, redacted_event, view, comments)


def move_from_text(token: str, player: str, line: int) -> ArtOfWarAction:
    action: ArtOfWarAction = SYNTAX.read(token, player, line)
    return action


def parse(text: str) -> ParsedRecord:
    return parse_moves(text, move_from_text)


def setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    tags, at = record.tags, record.tag_lines

    mode = tags.get("Variant", "sealed")
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": seat_players(tags, _army_from_text),
                             "variant": {"mode": mode}, "first": tags.get("First", "p1")}
    if mode == "sealed":
        setup["seed"] = sealed_seed(tags, at, "to shuffle the decks")
    document = catalogue_from_tags(tags, at, CATALOGUES)
    if document is not None:
        setup["catalogue"] = document
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
