"""The L5R text record: header tags and one action a token (docs/l5r.md, "The record").

    [System "l5r"]
    [Variant "sealed"]
    [P1 "Ann"]
    [P1Army "crab"]
    [P2 "Bob"]
    [P2Army "crane"]
    [Seed "42"]
    [Result "0-1"]
    [Termination "military"]

    1. p2 gold:p2.kyuden-doji.1 recruit:2! pass
    ...

Moves (cards by instance, ``p1.hida-yakamo.2``): ``draw:hida-yakamo`` a card entered at the table: drawn, or
(table mode) an unseen face-down card as it turns face up (``draw:?`` where the view may not see it); ``pass``;
``gold:CARD`` bow for gold; ``recruit:N`` (``recruit:N!`` proclaimed); ``attach:CARD>PERSONALITY``; ``ring:CARD``;
``strategy:CARD``; ``effect:CARD,KIND,TARGET,AMOUNT,UNTIL``; ``attack``; ``army:N=A+B`` an army to battlefield N;
``challenge:A>B,STAT,CARD|-,kill|spare``; ``focus:CARD`` from hand, ``focus:deck`` from the top of the deck
(``focus:deck=ashigaru`` entered as laid, rules l5r/1), ``focus:?`` hidden;
``strike``; ``discard-dynasty:N``; ``discard:CARD``; ``concede``. A custom deck is written in the tags
``P1Stronghold``, ``P1Sensei``, ``P1Dynasty``, ``P1Fate`` (cards as ``id*copies``); a position as JSON in
``Position``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.l5r import SYSTEM
from engine.l5r.actions import (
    Army,
    Attach,
    Attack,
    Challenge,
    Concede,
    Discard,
    DiscardDynasty,
    Draw,
    Effect,
    Focus,
    L5RAction,
    Pass,
    PlayRing,
    PlayStrategy,
    Produce,
    Recruit,
    Strike,
)
from engine.l5r.catalogue import CATALOGUES, DEFAULT, book_of
from events.l5r import CardsRevealed, GameEnded, GameStarted
from replay.archive.notation import (
    RESULTS,
    SEVEN_TAGS,
    MoveForm,
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
    json_position,
    parse_moves,
    people_tags,
    required_tag,
    sealed_seed,
    seat_players,
)
from replay.l5r.explain import text as explain_text
from replay.l5r.views import redacted_event

SYSTEM_NAME = "l5r"
CARD = r"p[0-9]+\.[a-z0-9-]+\.[0-9]+"


def _counted(cards: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return " ".join(c + (f"*{n}" if n > 1 else "") for c, n in counts.items())


def _uncounted(text: str, line: int) -> list[str]:
    out: list[str] = []
    for word in text.split():
        m = re.fullmatch(r"([a-z0-9-]+)(?:\*([0-9]+))?", word)
        if m is None:
            raise RecordSyntaxError(line, "syntax", f"cannot read card {word!r}: write id or id*copies")
        out += [m[1]] * int(m[2] or 1)
    return out


def header(started: GameStarted, last: Any, tags: dict[str, str], view: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [(t, str(tags.get(t, "?"))) for t in SEVEN_TAGS]
    out.append(("System", SYSTEM_NAME))
    out.append(("Variant", started.variant.mode))
    out += catalogue_tags(started)  # issue 30: the record carries the catalogue it is played with
    decks = (book_of(started.catalogue) or DEFAULT).decks  # a deck of the game's catalogue, by name
    for seat, deck in zip(started.seats, started.decks, strict=True):
        tag = seat.id.upper()
        out.append((tag, seat.name))
        if deck.name in decks:
            out.append((f"{tag}Army", deck.name))
        else:
            out.append((f"{tag}Army", "custom"))
            out.append((f"{tag}Stronghold", deck.stronghold))
            out.append((f"{tag}Sensei", deck.sensei or "-"))
            out.append((f"{tag}Dynasty", _counted(deck.dynasty)))
            out.append((f"{tag}Fate", _counted(deck.fate)))
    best = max(d.honor for d in started.decks)
    if sum(1 for d in started.decks if d.honor == best) > 1:
        out.append(("First", started.order[0]))
    shown = redacted_event(started, view)
    if started.variant.mode == "sealed":
        out.append(("Seed", str(shown.seed) if shown.seed is not None else "?"))
    if started.position is not None:
        shown_position = shown.position
        out.append(("Position", "?" if shown_position is None else
                    json.dumps(msgspec.to_builtins(shown_position), separators=(",", ":"))))
    ended = last if isinstance(last, GameEnded) else None
    return closing_tags(out, RESULTS[ended.winner or "draw"] if ended else "*", ended, started.rules_version, tags)


def _entered(event: Any) -> str | None:
    """The card a table entry names, as a view sees it: a draw, a face-down card placed (rules l5r/1), an unseen
    card as it turns face up (public)."""
    if isinstance(event, CardsRevealed):
        return event.cards[0].card
    return getattr(event, "card", None)


def _int(text: str, what: str) -> int:
    if not re.fullmatch(r"-?[0-9]+", text):
        raise MoveTextError(f"{what} is a number, not {text!r}")
    return int(text)


def _read_effect(rest: str, player: str) -> Effect | None:
    if rest.count(",") != 4:
        return None
    card, kind, target, amount, until = rest.split(",")
    return Effect(player=player, card=card, kind=kind, target=target,  # type: ignore[arg-type]
                  amount=_int(amount, "an effect's amount"), until=until)  # type: ignore[arg-type]


def _read_army(rest: str, player: str) -> Army | None:
    if "=" not in rest:
        return None
    field, _, units = rest.partition("=")
    return Army(player=player, battlefield=_int(field, "a battlefield"), units=tuple(units.split("+")))


def _read_challenge(rest: str, player: str) -> Challenge | None:
    if rest.count(",") != 3 or ">" not in rest:
        return None
    pair, stat, card, fate = rest.split(",")
    a, _, d = pair.partition(">")
    return Challenge(player=player, challenger=a, challenged=d, stat=stat,  # type: ignore[arg-type]
                     card=None if card == "-" else card, destroy_loser=fate != "spare")


def _read_focus(rest: str, player: str) -> Focus | None:
    if not rest:
        return None
    if rest == "deck":
        return Focus(player=player, source="deck")
    if rest.startswith("deck="):
        return Focus(player=player, source="deck", card=rest[5:])
    return Focus(player=player, source="hand", card=rest)


def _write_focus(a: Focus) -> str:
    if a.source == "hand":
        return f"focus:{a.card}"
    return f"focus:deck={a.card}" if a.card else "focus:deck"


def _card(word: str, action: type) -> MoveForm:
    """``word:CARD``: an action naming one card."""
    return MoveForm(action, word, f"{word}:CARD", lambda rest, p: action(player=p, card=rest) if rest else None,
                    lambda a: f"{word}:{a.card}")


# The notation, one form a row: it reads a token, writes an action and lists the forms in its error.
SYNTAX = MoveSyntax([
    bare("pass", Pass),
    _card("gold", Produce),
    MoveForm(Recruit, "recruit", "recruit:N",
             lambda rest, p: Recruit(player=p, province=_int(rest.rstrip("!"), "a province"),
                                     proclaim=rest.endswith("!")) if rest else None,
             lambda a: f"recruit:{a.province}" + ("!" if a.proclaim else "")),
    MoveForm(Attach, "attach", "attach:A>B",
             lambda rest, p: Attach(player=p, card=rest.partition(">")[0], to=rest.partition(">")[2])
             if ">" in rest else None,
             lambda a: f"attach:{a.card}>{a.to}"),
    _card("ring", PlayRing),
    _card("strategy", PlayStrategy),
    MoveForm(Effect, "effect", "effect:...", _read_effect,
             lambda a: f"effect:{a.card},{a.kind},{a.target},{a.amount},{a.until}"),
    bare("attack", Attack),
    MoveForm(Army, "army", "army:N=A+B", _read_army, lambda a: f"army:{a.battlefield}=" + "+".join(a.units)),
    MoveForm(Challenge, "challenge", "challenge:A>B,chi,-,kill", _read_challenge,
             lambda a: f"challenge:{a.challenger}>{a.challenged},{a.stat},{a.card or '-'},"
                       f"{'kill' if a.destroy_loser else 'spare'}"),
    MoveForm(Focus, "focus", "focus:CARD, focus:deck", _read_focus, _write_focus),
    bare("strike", Strike),
    MoveForm(DiscardDynasty, "discard-dynasty", "discard-dynasty:N",
             lambda rest, p: DiscardDynasty(player=p, province=_int(rest, "a province")) if rest else None,
             lambda a: f"discard-dynasty:{a.province}"),
    _card("discard", Discard),
    MoveForm(Draw, "draw", "draw:ID", lambda rest, p: Draw(player=p, card=rest) if rest else None,
             lambda a: f"draw:{a.card}"),
    bare("concede", Concede),
])


def move_text(action: L5RAction, first_event: Any, view: str) -> str:
    """The action's token; what this view may not see is ``?`` (a focus laid unseen names no card)."""
    if isinstance(action, Draw) and not _entered(redacted_event(first_event, view)):
        return "draw:?"
    if isinstance(action, Focus):
        if getattr(first_event, "unseen", False):  # laid unseen: no view knows it, the move names none
            return "focus:deck"
        if redacted_event(first_event, view).card is None:
            return "focus:?"
    return SYNTAX.write(action)


def export(events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all", comments: bool = False) -> str:
    started = events[0]
    assert isinstance(started, GameStarted)
    header_tags = header(started, events[-1], dict(tags or {}), view)
    return export_moves(SYSTEM, events, header_tags, dict(header(started, events[-1], {}, view))["Result"],
                        move_text, explain_text, redacted_event, view, comments)


# -- import ----------------------------------------------------------------------------------------------


def move_from_text(token: str, player: str, line: int) -> L5RAction:
    action: L5RAction = SYNTAX.read(token, player, line)
    return action


def parse(text: str) -> ParsedRecord:
    return parse_moves(text, move_from_text)


def setup_from_tags(record: ParsedRecord) -> dict[str, Any]:
    tags, at = record.tags, record.tag_lines

    mode = tags.get("Variant", "sealed")

    def deck(text: str, tag: str) -> Any:  # a sample deck's name, or "custom" with the deck in the seat's tags
        if text != "custom":
            return text
        sensei = required_tag(tags, f"{tag}Sensei")
        return {"stronghold": required_tag(tags, f"{tag}Stronghold"), "sensei": None if sensei == "-" else sensei,
                "dynasty": _uncounted(required_tag(tags, f"{tag}Dynasty"), at[f"{tag}Dynasty"]),
                "fate": _uncounted(required_tag(tags, f"{tag}Fate"), at[f"{tag}Fate"])}

    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": seat_players(tags, deck), "variant": {"mode": mode}}
    if mode == "sealed":
        setup["seed"] = sealed_seed(tags, at, "to deal its decks")
    if "First" in tags:
        setup["first"] = tags["First"]
    if "Position" in tags:
        if tags["Position"] == "?":
            raise RecordSyntaxError(at["Position"], "hidden_position", "the starting position is hidden in this "
                                    "record (every hand and deck is in it): export the record as all")
        setup["position"] = json_position(tags, at, "docs/l5r.md")
    document = catalogue_from_tags(tags, at, CATALOGUES)
    if document is not None:
        setup["catalogue"] = document
    return setup


def check_result(record: ParsedRecord, state: Any) -> None:
    check_claimed_result(record, state)


DERIVED = {"System", "Variant", "P1", "P2", "P1Army", "P2Army", "P1Stronghold", "P2Stronghold", "P1Sensei",
           "P2Sensei", "P1Dynasty", "P2Dynasty", "P1Fate", "P2Fate", "First", "Seed", "Position", "Result",
           "Termination", "RulesVersion"}


def record_tags(record: ParsedRecord) -> dict[str, str]:
    return people_tags(record, DERIVED)


__all__ = ["check_result", "export", "parse", "record_tags", "setup_from_tags"]
