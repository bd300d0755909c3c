"""What every system's text record parser gives back, and the error it raises (docs/record-format.md).

The header tags and the result are the same for every system; the moves are each system's own syntax, parsed by
its ``RecordSyntax`` part (``replay.plugin``) into the system's typed actions. What every record shares is here,
for each system's part to use: tag values quoted and read (``quote``, ``unquote``), the header read
(``read_header``), the movetext cut into tokens with their lines, comments dropped (``movetext_tokens``), the
people's tags every record starts with (``SEVEN_TAGS``) and those it ends with (``closing_tags``), and the
header's common parts of a setup: the seats'
names and armies (``seat_players``), a sealed game's seed (``sealed_seed``), a position given as JSON
(``json_position``).

A game ended by the scorekeeper's ``adjudicate`` (engine.adjudication) is written the same way in every system's
record, as PGN writes an adjudicated game: no move, but header tags after ``Termination "adjudicated"``:
``Adjudication`` (its reason), ``AdjudicationResult`` (the placings named: groups in finishing order separated by
``;``, the seats of a group by spaces, e.g. ``p2; p1`` or ``p1 p2`` for a draw; left out where the system's rule for
time called decided) and ``AdjudicationNote``. Import reads them back into the ``adjudicate`` action taken after the
moves (``adjudication_move``), decided through the rules like every move.

A result corrected after the game ended (issue 31: the organiser's ``correction``) is written the same way: the
``Result`` and ``Termination`` are the corrected game's (``adjudicated``), the ``Adjudication`` tags the game's own
end if it was adjudicated, then each correction in order, ``Correction1`` (its placings, as ``AdjudicationResult``)
and ``Correction1Note`` (its reason), ``Correction2``, ... (``corrected_header``). Import takes them, after the
moves and the adjudication, as the corrections they were (``correction_moves``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.adjudication import Adjudicate, adjudication_of, correction
from engine.catalogue import Checking, canonical, catalogue_id, game_catalogue
from engine.errors import SetupError
from events import Adjudication

RESULTS = {"p1": "1-0", "p2": "0-1", "draw": "1/2-1/2"}  # a two-seat game's result token by its winner
RESULT_TOKENS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "Table")  # PGN's idea: the people's tags first, "?" when unknown
TAG_LINE = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
ADJUDICATION_TAGS = ("Adjudication", "AdjudicationResult", "AdjudicationNote")  # a game ended by adjudicate
CORRECTION_TAG = re.compile(r"^Correction([1-9][0-9]*)(Note)?$")  # a corrected result: Correction1, Correction1Note


class RecordSyntaxError(ValueError):
    """A record that cannot be read: ``line`` (1-based), ``code``, ``rule`` (None for syntax), ``message``."""

    def __init__(self, line: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.code = code
        self.rule = rule
        self.message = message


@dataclass
class Move:
    """One move of a record: the line it is on and the typed action it says."""

    line: int
    action: Any


@dataclass
class ParsedRecord:
    tags: dict[str, str]
    tag_lines: dict[str, int]
    moves: list[Move] = field(default_factory=list)
    result: str | None = None
    result_line: int = 0


def quote(value: str) -> str:
    """A tag value: ``\\`` and ``\"`` escaped, and control characters (names stored before they were refused)
    as ``\\uXXXX``, so a tag is always one line."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in value)


def unquote(value: str) -> str:
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", lambda m: chr(int(m[1][1:], 16)) if len(m[1]) == 5 else m[1], value)


def tag_line(tag: str, value: str) -> str:
    return f'[{tag} "{quote(value)}"]'


def read_header(lines: list[str]) -> tuple[dict[str, str], dict[str, int], int]:
    """The tags of a record's header (``[Tag "value"]`` lines; blank and ``;`` lines skipped), the line of each,
    and the index of the first line after the header. RecordSyntaxError for a header line that cannot be read."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    n = 0
    while n < len(lines):
        stripped = lines[n].strip()
        if not stripped or stripped.startswith(";"):
            n += 1
            continue
        if not stripped.startswith("["):
            break
        m = TAG_LINE.match(stripped)
        if m is None:
            raise RecordSyntaxError(n + 1, "syntax", f'cannot read header line {stripped[:60]!r}: write [Tag "value"]')
        tags[m[1]] = unquote(m[2])
        tag_lines[m[1]] = n + 1
        n += 1
    return tags, tag_lines, n


def required_tag(tags: dict[str, str], tag: str) -> str:
    """A tag the record must have; RecordSyntaxError (line 1, ``missing_tag``) naming it if the header lacks it."""
    if tag not in tags:
        raise RecordSyntaxError(1, "missing_tag", f"the header has no [{tag} ...] tag")
    return tags[tag]


def closing_tags(out: list[tuple[str, str]], result: str, ended: Any | None, rules_version: str,
                 tags: dict[str, Any]) -> list[tuple[str, str]]:
    """``out`` (a header's tags so far) with the tags every record ends its header with: ``Result``,
    ``Termination`` (the reason of ``ended``, the game's ``game_ended``, when it is over), ``RulesVersion``, then
    each of ``tags`` (the game's metadata: Event, Round, ...) that is not written yet and is a valid tag name."""
    out.append(("Result", result))
    if ended is not None:
        out.append(("Termination", ended.reason))
        out.extend(adjudication_tags(ended.adjudication))
    out.append(("RulesVersion", rules_version))
    for tag, value in tags.items():
        if tag not in dict(out) and re.fullmatch(r"[A-Za-z0-9_]+", tag):
            out.append((tag, str(value)))
    return out


def placings_text(placings: Sequence[Sequence[str]]) -> str:
    """Placings as a tag value: groups in finishing order separated by ``; ``, a group's seats by spaces."""
    return "; ".join(" ".join(group) for group in placings)


def adjudication_tags(adjudication: Adjudication | None) -> list[tuple[str, str]]:
    """The header tags of a game ended by ``adjudicate`` (none for another game): ``Adjudication`` (the reason),
    ``AdjudicationResult`` (the placings the scorekeeper named; left out where the time rule decided them) and
    ``AdjudicationNote``."""
    if adjudication is None:
        return []
    out = [("Adjudication", adjudication.reason)]
    if adjudication.named:
        out.append(("AdjudicationResult", placings_text(adjudication.placings)))
    if adjudication.note is not None:
        out.append(("AdjudicationNote", adjudication.note))
    return out


def adjudication_move(tags: dict[str, str], at: dict[str, int]) -> Move | None:
    """The ``adjudicate`` a record's header says ended the game (``adjudication_tags``), as the move after the
    others, on the line of its ``Adjudication`` tag; None when the header has none. The rules judge it on import."""
    if "Adjudication" not in tags:
        for tag in ADJUDICATION_TAGS[1:]:
            if tag in tags:
                raise RecordSyntaxError(at[tag], "syntax", f"[{tag} ...] without [Adjudication ...] (its reason)")
        return None
    placings = None
    if "AdjudicationResult" in tags:
        groups = tuple(tuple(part.split()) for part in tags["AdjudicationResult"].split(";"))
        if not groups or any(not group for group in groups):
            raise RecordSyntaxError(at["AdjudicationResult"], "syntax",
                                    "cannot read the AdjudicationResult: the seats in finishing order, groups "
                                    "separated by ';' (e.g. \"p2; p1\", or \"p1 p2\" for a draw)")
        placings = groups
    action = Adjudicate(reason=tags["Adjudication"], placings=placings, note=tags.get("AdjudicationNote"))
    return Move(at["Adjudication"], action)


def corrected_header(header: Sequence[tuple[str, str]], events: Sequence[Any]) -> list[tuple[str, str]]:
    """``header`` (a finished game's tags, ``closing_tags``'s, written from its last ``game_ended``) for a game whose
    result was corrected (the module's docstring): the ``Adjudication`` tags of the game's own end, then each
    correction's; unchanged for another game."""
    run = len(events)
    while run and (found := adjudication_of(events[run - 1])) is not None and found.is_correction:
        run -= 1
    if run == len(events):
        return list(header)
    played = adjudication_of(events[run - 1]) if run else None
    tags = adjudication_tags(played)
    for n, event in enumerate(events[run:], 1):
        corrected = adjudication_of(event)
        assert corrected is not None
        tags += [(f"Correction{n}", placings_text(corrected.placings)), (f"Correction{n}Note", corrected.note or "")]
    out = [(tag, value) for tag, value in header if tag not in ADJUDICATION_TAGS]
    at = next((i + 1 for i, (tag, _) in enumerate(out) if tag == "Termination"), len(out))
    return out[:at] + tags + out[at:]


def correction_moves(tags: dict[str, str], at: dict[str, int]) -> list[Move]:
    """The corrections a record's header lists (``corrected_header``), in order, as the moves after the others."""
    numbers = sorted({int(m[1]) for tag in tags if (m := CORRECTION_TAG.match(tag))})
    moves = []
    for expected, n in enumerate(numbers, 1):
        if n != expected or f"Correction{n}" not in tags or f"Correction{n}Note" not in tags:
            tag = f"Correction{n}" if f"Correction{n}" in tags else f"Correction{n}Note"
            raise RecordSyntaxError(at[tag], "syntax", f"[{tag} ...]: corrections are numbered from 1, each with its "
                                    "result ([CorrectionN \"p2; p1\"]) and its reason ([CorrectionNNote \"...\"])")
        groups = tuple(tuple(part.split()) for part in tags[f"Correction{n}"].split(";"))
        if any(not group for group in groups):
            raise RecordSyntaxError(at[f"Correction{n}"], "syntax", f"cannot read Correction{n}: the seats in "
                                    "finishing order, groups separated by ';' (e.g. \"p2; p1\")")
        moves.append(Move(at[f"Correction{n}"], correction(groups, tags[f"Correction{n}Note"])))
    return moves


def seat_players(tags: dict[str, str], army: Callable[[str, str], Any],
                 seats: Sequence[str] = ("p1", "p2")) -> list[dict[str, Any]]:
    """The setup's ``players`` from the header: ``Pn`` the name (default the seat), ``PnArmy`` required, read by
    ``army(text, tag)`` (``tag``: ``P1``, ``P2``, ... for the system's further tags of that seat)."""
    players = []
    for seat in seats:
        tag = seat.upper()
        players.append({"id": seat, "name": tags.get(tag, seat), "army": army(required_tag(tags, f"{tag}Army"), tag)})
    return players


def catalogue_tags(started: Any) -> list[tuple[str, str]]:
    """The tags carrying the catalogue a game's ``game_started`` plays (issue 30): ``Catalogue`` (its id) and
    ``CatalogueJSON`` (the canonical document, one line); none for a game on its system's default."""
    document = getattr(started, "catalogue", None)
    if not isinstance(document, dict):
        return []
    return [("Catalogue", str(started.catalogue_id)), ("CatalogueJSON", canonical(document).decode())]


def catalogue_from_tags(tags: dict[str, str], at: dict[str, int], catalogues: Checking) -> dict[str, Any] | None:
    """The catalogue document a record's ``CatalogueJSON`` tag carries (issue 30), checked against the id its
    ``Catalogue`` tag names; None for a game on the default catalogue. RecordSyntaxError when the document is not
    JSON, not a playable catalogue of the system (``catalogues``), or not the one the id names (the catalogue under
    the game changed)."""
    if "CatalogueJSON" not in tags:
        if "Catalogue" in tags:
            raise RecordSyntaxError(at["Catalogue"], "missing_catalogue",
                                    "the record names a catalogue but does not carry it (tag CatalogueJSON)")
        return None
    line = at["CatalogueJSON"]
    try:
        document = json.loads(tags["CatalogueJSON"])
    except ValueError as error:
        raise RecordSyntaxError(line, "invalid_catalogue", f"the CatalogueJSON tag is not JSON: {error}") from None
    try:
        found = game_catalogue({"catalogue": document}, catalogues)
    except SetupError as error:
        raise RecordSyntaxError(line, error.code, error.message) from None
    named = tags.get("Catalogue")
    carried = found.id or catalogue_id(catalogues.default())
    if named is not None and named != carried:
        raise RecordSyntaxError(line, "catalogue_changed",
                                f"the catalogue under this game changed: the record names {named}, but the document it "
                                f"carries is {carried}")
    return found.document


def sealed_seed(tags: dict[str, str], at: dict[str, int], what: str) -> int:
    """A sealed game's ``Seed`` tag as a number: ``missing_tag`` without the tag, ``hidden_seed`` when the record
    hides it (``?``, a seat's view) or it is no number; ``what`` says what the seed does (for the message)."""
    seed = required_tag(tags, "Seed")
    if not seed.isdigit():
        raise RecordSyntaxError(at["Seed"], "hidden_seed",
                                f"a sealed game needs its seed {what}; the record has {seed!r}")
    return int(seed)


def json_position(tags: dict[str, str], at: dict[str, int], hint: str) -> Any:
    """The ``Position`` tag's JSON (``bad_position`` when it is not JSON; ``hint`` says where its shape is
    documented)."""
    try:
        return json.loads(tags["Position"])
    except ValueError as error:
        raise RecordSyntaxError(at["Position"], "bad_position", f"the Position tag is the position as JSON ({hint}): "
                                f"{error}") from None


def movetext_tokens(text: str, first_line: int) -> Iterator[tuple[int, str]]:
    """Movetext tokens with their line; ``{...}`` and ``; ...`` comments dropped; () and [] keep spaces."""
    line = first_line
    token: list[str] = []
    token_line = line
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{" and depth == 0:
            if token:
                yield token_line, "".join(token)
                token = []
            end = text.find("}", i)
            if end < 0:
                raise RecordSyntaxError(line, "syntax", "a comment '{' is never closed")
            line += text.count("\n", i, end)
            i = end + 1
            continue
        if ch == ";" and depth == 0:
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if ch.isspace() and depth == 0:
            if token:
                yield token_line, "".join(token)
                token = []
            if ch == "\n":
                line += 1
            i += 1
            continue
        if not token:
            token_line = line
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "\n":
            line += 1
        token.append(ch)
        i += 1
    if depth != 0:
        raise RecordSyntaxError(token_line, "syntax", f"unbalanced brackets in {''.join(token)[:40]!r}")
    if token:
        yield token_line, "".join(token)


class MoveTextError(ValueError):
    """A token of a form that says what is wrong with it (``MoveForm.read``), e.g. a province that is no number;
    ``code`` as ``RecordSyntaxError``'s."""

    def __init__(self, message: str, code: str = "syntax") -> None:
        super().__init__(message)
        self.code = code


class HiddenMoveError(MoveTextError):
    """A token of a form whose move the record hides from its view (``MoveForm.read``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "hidden_move")


@dataclass(frozen=True)
class MoveForm:
    """One form of a system's move notation, stated once: ``action`` the action type it reads and writes, ``word`` the
    token's word (before ``:``; the whole token of a bare one such as ``pass``), ``form`` the form as the error lists
    it (``shift:A1>B1``), ``read(rest, player)`` the action of a token ``word:rest`` (``rest`` empty for a bare
    token), None when the token is not of this form (ValueError or LookupError: of this form but unreadable),
    ``write(action)`` the action's token."""

    action: type
    word: str | None  # None: a form of its own shape (``pattern``), tried on every token after the words
    form: str
    read: Callable[[str, str], Any | None]
    write: Callable[[Any], str]


def bare(word: str, action: type) -> MoveForm:
    """A move that is one word and nothing else (``pass``, ``concede``): the action has only its player."""
    return MoveForm(action, word, word, lambda rest, player: None if rest else action(player=player), lambda _: word)


def pattern(action: type, shape: re.Pattern[str], form: str, build: Callable[[re.Match[str], str], Any | None],
            write: Callable[[Any], str]) -> MoveForm:
    """A form with no word, read by its whole token matching ``shape`` (``build(match, player)``)."""
    return MoveForm(action, None, form, lambda token, player: build(m, player) if (m := shape.fullmatch(token))
                    else None, write)


class MoveSyntax:
    """A system's move notation from one table of ``MoveForm``: it reads a token (``read``), writes an action
    (``write``) and its error lists the accepted forms, in the table's order. ``hidden``: a token ``word:?`` is a
    move the record hides from its view (``hidden_move``)."""

    def __init__(self, forms: Sequence[MoveForm], hidden: bool = True) -> None:
        self.forms = tuple(forms)
        self.hidden = hidden
        self._by_word: dict[str, list[MoveForm]] = {}
        self._by_action: dict[type, MoveForm] = {}
        self._shaped = [form for form in self.forms if form.word is None]
        for form in self.forms:
            if form.word is not None:
                self._by_word.setdefault(form.word, []).append(form)
            self._by_action.setdefault(form.action, form)

    def accepted(self) -> str:
        """The accepted forms as the error lists them: ``a, b, ... or z``."""
        forms = [form.form for form in self.forms]
        return ", ".join(forms[:-1]) + " or " + forms[-1] if len(forms) > 1 else "".join(forms)

    def read(self, token: str, player: str, line: int) -> Any:
        """The typed action of ``token`` (``player``'s move); RecordSyntaxError listing the accepted forms when no
        form reads it."""
        word, _, rest = token.partition(":")
        if self.hidden and rest == "?":
            raise RecordSyntaxError(line, "hidden_move", f"{player}'s {word} is hidden in this record")
        tries = [(form, rest) for form in self._by_word.get(word, ())] + [(form, token) for form in self._shaped]
        for form, text in tries:
            try:
                action = form.read(text, player)
            except MoveTextError as error:
                raise RecordSyntaxError(line, error.code, str(error)) from None
            except (ValueError, LookupError):  # of this form, but not readable (a missing part, not a number)
                break
            if action is not None:
                return action
        raise RecordSyntaxError(line, "syntax", f"cannot read move {token!r}: {self.accepted()}")

    def write(self, action: Any) -> str:
        """The token of ``action``, by the (first) form of its type."""
        return self._by_action[type(action)].write(action)


def parse_moves(text: str, move_from_text: Callable[[str, str, int], Any]) -> ParsedRecord:
    """A two-seat record: its header, then ``N.`` turn numbers (for people), ``p1``/``p2`` naming who moves, each
    move read by the system's ``move_from_text(token, player, line)``, and the result token last."""
    lines = text.splitlines()
    tags, tag_lines, n = read_header(lines)
    record = ParsedRecord(tags, tag_lines)
    player: str | None = None
    for line, token in movetext_tokens("\n".join(lines[n:]), n + 1):
        if token in RESULT_TOKENS:
            record.result, record.result_line = token, line
            continue
        if record.result is not None:
            raise RecordSyntaxError(line, "syntax", f"move {token!r} after the result")
        if re.fullmatch(r"\d+\.", token):
            continue  # turn numbers are for people
        if re.fullmatch(r"p\d+", token):
            player = token
            continue
        if player is None:
            raise RecordSyntaxError(line, "syntax", f"move {token!r} before any player (p1 or p2)")
        record.moves.append(Move(line, move_from_text(token, player, line)))
    adjudication = adjudication_move(tags, tag_lines)
    if adjudication is not None:
        record.moves.append(adjudication)
    record.moves.extend(correction_moves(tags, tag_lines))
    return record


def check_claimed_result(record: ParsedRecord, state: Any) -> None:
    """A two-seat record's Result tag, result token and Termination tag must agree with how its moves end the game
    (``state``: ``phase``, ``winner``, ``end_reason``)."""
    expected = RESULTS[state.winner or "draw"] if state.phase == "over" else "*"
    claims = ((record.tags.get("Result"), record.tag_lines.get("Result", 1)), (record.result, record.result_line))
    for claimed, line in claims:
        if claimed is not None and claimed != expected:
            raise RecordSyntaxError(line, "result_mismatch", f"the record says {claimed}, but its moves give "
                                    f"{expected}")
    if "Termination" in record.tags and state.phase == "over" and record.tags["Termination"] != state.end_reason:
        raise RecordSyntaxError(record.tag_lines["Termination"], "result_mismatch",
                                f"the record says the game ended by {record.tags['Termination']}, its moves by "
                                f"{state.end_reason}")


def comment_text(text: str) -> str:
    """Text made safe inside a ``{...}`` comment (braces become parentheses)."""
    return text.replace("}", ")").replace("{", "(")


def people_tags(record: ParsedRecord, derived: frozenset[str] | set[str]) -> dict[str, str]:
    """The tags worth keeping with the game: the people's, not the ``derived`` ones nor an adjudication's (the events
    hold those)."""
    return {t: v for t, v in record.tags.items()
            if t not in derived and t not in ADJUDICATION_TAGS and not CORRECTION_TAG.match(t) and v != "?"}


def export_moves(system: Any, events: Sequence[Any], header: Sequence[tuple[str, str]], result: str,
                 move_text: Callable[[Any, Any, str], str], explain_text: Callable[[Any, Any], str],
                 redacted_event: Callable[[Any, str], Any], view: str = "all", comments: bool = False) -> str:
    """A record: the header's tags, then one line an action (``turn. seat move``, the turn as ``system.turn`` counts
    it), with each action's consequences explained in ``{...}`` when ``comments``, and the result. An adjudication
    is no move (its header tags say it, ``closing_tags``); with ``comments`` its explanation is a comment line."""
    lines = [tag_line(tag, value) for tag, value in corrected_header(header, events)]
    lines.append("")
    recorded = system.recorded_actions(events)
    state = system.fold(events[: recorded[0].start if recorded else len(events)])
    for step in recorded:
        produced = events[step.start : step.stop]
        if isinstance(step.action, Adjudicate):
            if comments:
                lines.append("{" + comment_text(explain_text(state, redacted_event(produced[-1], view))) + "}")
            state = system.fold(produced, state)
            continue
        line = f"{system.turn(state)}. {step.seat} {move_text(step.action, produced[0], view)}"
        if comments and len(produced) > 1:
            said = []
            inner = system.fold(produced[:1], state)
            for event in produced[1:]:
                said.append(comment_text(explain_text(inner, redacted_event(event, view))))
                inner = system.fold([event], inner)
            line += " {" + "; ".join(said) + "}"
        lines.append(line)
        state = system.fold(produced, state)
    lines.append(result)
    return "\n".join(lines) + "\n"
