"""Pebbles' replay parts: what the test-only system ``pebbles`` (rules.py) adds downstream of its engine, plugged in
through ``replay.plugin`` alone: the ``replay`` part of the plug-in ``warlog_pebbles.PLUGIN``.

- Views: each seat's bonus is its own until ``game_ended`` reveals every bonus: another seat's ``bonus_dealt`` is
  not seen at all (the path Lords of War never takes: an event a view does not get); the seed (it deals the
  bonuses) is for ``all`` only. Before the end a seat's state view holds its own bonus, the spectator's none.
- Explanations: one line per event ("p2 takes 3: 9 left (P2)"), and the cause (the redacted event and its rule).
- The text record: the common header (replay.archive.notation) with ``Variant`` (``heap=N``, ``teams``), ``P1``..
  ``Pn`` (names), ``Seed``, ``Result`` (placings: ``p2>p1=p3``, ``=`` ties, ``*`` unfinished) and ``Termination``;
  the moves ``N. pK 2`` (take two) or ``pK concede``, one action a line, ``N`` the turn (for people)::

      [System "pebbles"]
      [Variant "heap=12"]
      [P1 "Ann"] [P2 "Bob"] [P3 "Cy"]      (one tag a line)
      [Seed "7"]
      [Result "p2>p1=p3"]

      1. p1 3
      2. p2 2
      2. p3 concede
      ...
      p2>p1=p3

- The terminal picture: the heap as rows of ``o``, a line per seat (its takes, its bonus as the view sees it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, assert_never

import msgspec

from engine.adjudication import Adjudicate
from engine.system import Outcome
from replay.adjudication import ADJUDICATION_RULE, adjudication_line
from replay.archive.notation import (
    ADJUDICATION_TAGS,
    SEVEN_TAGS,
    Move,
    ParsedRecord,
    RecordSyntaxError,
    adjudication_move,
    adjudication_tags,
    movetext_tokens,
    read_header,
    tag_line,
)
from replay.plugin import ALL, ReplayParts, SystemViews, sees
from warlog_pebbles.rules import (
    CODEC,
    NAME,
    PEBBLES,
    BonusDealt,
    Concede,
    Conceded,
    GameEnded,
    GameStarted,
    PebblesAction,
    PebblesEvent,
    State,
    Take,
    Taken,
)

# -- views ------------------------------------------------------------------------------------------------------


def secrets(event: PebblesEvent) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed",)}  # it deals every bonus
        case BonusDealt(player=player):
            return {player: ("bonus",)}
        case _:
            return {}


def hide(data: dict[str, Any], state: State, view: str) -> dict[str, Any]:
    if state.phase != "over":  # game_ended reveals every bonus
        data["bonuses"] = {seat: bonus for seat, bonus in data["bonuses"].items() if sees(view, seat)}
    return data


def private(event: PebblesEvent) -> str | None:
    """Another seat's bonus is not seen at all (not streamed, not explained)."""
    return event.player if isinstance(event, BonusDealt) else None


VIEWS = SystemViews(secrets=secrets, state_json=PEBBLES.state_to_builtins, hide=hide, private=private)


# -- explanations -----------------------------------------------------------------------------------------------


def _placings(outcome: Outcome) -> str:
    return ">".join("=".join(group) for group in outcome.placings)


RULES = {"game_started": "setup", "bonus_dealt": "setup", "taken": "P2", "conceded": "P4", "game_ended": "P3"}


class PebblesExplanations:

    def text(self, state: State, event: PebblesEvent) -> str:
        match event:
            case GameStarted(seats=seats, heap=heap, seed=seed):
                people = ", ".join(f"{s.id} {s.name}" + (f" (team {s.team})" if s.team else "") for s in seats)
                return f"Pebbles: {people}; a heap of {heap}" + (f", seed {seed}" if seed is not None else "")
            case BonusDealt(player=player, bonus=bonus):
                return f"{player} is dealt a bonus of {bonus}"
            case Taken(player=player, count=count):
                return f"{player} takes {count}: {state.heap - count} left (P2)"
            case Conceded(player=player):
                team = next((s.team for s in state.seats if s.id == player), None)
                return f"{player} concedes" + (f" for team {team}" if team else "") + " (P4)"
            case GameEnded(reason=reason, bonuses=bonuses):
                why = "the heap is empty" if reason == "heap_empty" else "one side is left"
                if event.adjudication is not None:
                    why = adjudication_line(event.adjudication)
                revealed = ", ".join(f"{seat} {bonus}" for seat, bonus in sorted(bonuses.items()))
                return f"{why}: the game ends; bonuses revealed: {revealed}"
            case _:
                assert_never(event)

    def explain(self, state_before: State, event: PebblesEvent, view: str = ALL) -> tuple[str, dict[str, Any]]:
        shown = VIEWS.redacted_event(event, view)
        if shown is None:  # not asked by explain_game, which leaves out what the view may not see at all
            raise ValueError(f"view {view} may not see this {type(event).tag_name()} event")
        cause: dict[str, Any] = msgspec.json.decode(CODEC.encode_json(shown))
        adjudicated = isinstance(shown, GameEnded) and shown.adjudication is not None
        cause["rule"] = ADJUDICATION_RULE if adjudicated else RULES[type(shown).tag_name()]
        return self.text(state_before, shown), cause


EXPLANATIONS = PebblesExplanations()


# -- the text record --------------------------------------------------------------------------------------------

RESULT = re.compile(r"\*|p\d+(?:[=>]p\d+)*")
DERIVED_TAGS = {"System", "Variant", "Seed", "Result", "Termination", "RulesVersion", *ADJUDICATION_TAGS}


class PebblesRecords:
    def export(self, events: Sequence[PebblesEvent], tags: dict[str, str] | None = None, view: str = ALL,
               comments: bool = False) -> str:
        started = events[0]
        assert isinstance(started, GameStarted)
        state = PEBBLES.fold(events)
        outcome = PEBBLES.outcome(state)
        shown = VIEWS.redacted_event(started, view)
        assert isinstance(shown, GameStarted)  # every view sees game_started
        people = dict(tags or {})
        header = [(tag, people.get(tag, "?")) for tag in SEVEN_TAGS]
        header += [("System", NAME), ("Variant", f"heap={started.heap}" + (" teams" if started.teams else ""))]
        header += [(seat.id.upper(), seat.name) for seat in started.seats]
        header += [("Seed", str(shown.seed) if shown.seed is not None else "?")]
        header += [("Result", _placings(outcome) if outcome else "*")]
        header += [("Termination", outcome.reason)] if outcome else []
        header += adjudication_tags(state.adjudication)
        header += [("RulesVersion", PEBBLES.rules_version)]
        header += [(tag, value) for tag, value in people.items()
                   if tag not in dict(header) and re.fullmatch(r"[A-Za-z0-9_]+", tag)]
        lines = [tag_line(tag, value) for tag, value in header] + [""]
        recorded = PEBBLES.recorded_actions(events)
        state = PEBBLES.fold(events[: recorded[0].start if recorded else len(events)])
        for step in recorded:
            action = step.action
            if isinstance(action, Adjudicate):  # in the header (adjudication_tags), not a move
                state = _fold_on(state, events[step.start : step.stop])
                continue
            move = f"{state.turn}. {action.player} " + ("concede" if isinstance(action, Concede) else str(action.count))
            produced = events[step.start : step.stop]
            if comments:
                said = [EXPLANATIONS.explain(state, e, view)[0] for e in produced if isinstance(e, GameEnded)]
                move += "".join(" {" + line.replace("}", ")") + "}" for line in said)
            lines.append(move)
            state = _fold_on(state, produced)
        lines.append(_placings(outcome) if outcome else "*")
        return "\n".join(lines) + "\n"

    def parse(self, text: str) -> ParsedRecord:
        lines = text.splitlines()
        tags, tag_lines, n = read_header(lines)
        record = ParsedRecord(tags, tag_lines)
        player: str | None = None
        for line, token in movetext_tokens("\n".join(lines[n:]), n + 1):
            if record.result is not None:
                raise RecordSyntaxError(line, "syntax", f"move {token!r} after the result")
            if re.fullmatch(r"\d+\.", token):
                continue  # turn numbers are for people
            if re.fullmatch(r"p\d+", token):
                player = token
                continue
            if RESULT.fullmatch(token):
                record.result, record.result_line = token, line
                continue
            if player is None:
                raise RecordSyntaxError(line, "syntax", f"move {token!r} before any seat (p1, p2, ...)")
            action: PebblesAction
            if token == "concede":
                action = Concede(player=player)
            elif token.isdigit():
                action = Take(player=player, count=int(token))
            else:
                raise RecordSyntaxError(line, "syntax", f"cannot read move {token!r}: a number to take, or concede")
            record.moves.append(Move(line, action))
        adjudication = adjudication_move(tags, tag_lines)
        if adjudication is not None:
            record.moves.append(adjudication)
        return record

    def setup_from_tags(self, record: ParsedRecord) -> dict[str, Any]:
        tags, at = record.tags, record.tag_lines
        variant: dict[str, Any] = {"heap": 21, "teams": False}
        for word in tags.get("Variant", "").split():
            if word == "teams":
                variant["teams"] = True
            elif re.fullmatch(r"heap=\d+", word):
                variant["heap"] = int(word[5:])
            else:
                raise RecordSyntaxError(at.get("Variant", 1), "bad_variant", f"unknown variant word {word!r}")
        players = []
        while f"P{len(players) + 1}" in tags:
            seat = f"p{len(players) + 1}"
            players.append({"id": seat, "name": tags[seat.upper()]})
        seed = tags.get("Seed")
        if seed is None:
            raise RecordSyntaxError(1, "missing_tag", "the header has no [Seed ...] tag (it deals the bonuses)")
        if not seed.isdigit():
            raise RecordSyntaxError(at["Seed"], "hidden_seed", f"the seed deals the bonuses; the record has {seed!r}")
        return {"system": NAME, "players": players, "variant": variant, "seed": int(seed)}

    def check_result(self, record: ParsedRecord, state: State) -> None:
        outcome = PEBBLES.outcome(state)
        expected = _placings(outcome) if outcome else "*"
        for claimed, line in ((record.tags.get("Result"), record.tag_lines.get("Result", 1)),
                              (record.result, record.result_line)):
            if claimed is not None and claimed != expected:
                raise RecordSyntaxError(line, "result_mismatch",
                                        f"the record says {claimed}, its moves give {expected}")
        claimed = record.tags.get("Termination")
        if claimed is not None and outcome is not None and claimed != outcome.reason:
            raise RecordSyntaxError(record.tag_lines["Termination"], "result_mismatch",
                                    f"the record says the game ended by {claimed}, its moves by {outcome.reason}")

    def record_tags(self, record: ParsedRecord) -> dict[str, str]:
        return {tag: value for tag, value in record.tags.items()
                if tag not in DERIVED_TAGS and not re.fullmatch(r"P\d+", tag) and value != "?"}


def _fold_on(state: State, events: Sequence[PebblesEvent]) -> State:
    for event in events:
        state = PEBBLES.evolve(state, event)
    return state


RECORDS = PebblesRecords()


# -- the terminal picture ---------------------------------------------------------------------------------------


class PebblesPicture:
    STYLES = ("full", "tiny")

    def render(self, state_json: dict[str, Any], style: str) -> list[str]:
        heap = int(state_json["heap"])
        if style == "tiny":
            return [f"heap {heap}: " + "o" * heap]
        rows = [" ".join("o" * min(10, heap - start)) for start in range(0, heap, 10)] or ["(empty)"]
        seats = []
        for seat in state_json["seats"]:
            bonus = state_json["bonuses"].get(seat["id"], "?")
            out = " out" if seat["id"] in state_json["out"] else ""
            taken = state_json["taken"][seat["id"]]
            seats.append(f"{seat['id']} {seat['name']:<12} took {taken:>2}  bonus {bonus}{out}")
        return [f"heap {heap}", *rows, "", *seats]

    def headline(self, state_json: dict[str, Any]) -> str:
        if state_json["phase"] == "over":
            winners = state_json.get("winners") or []
            return f"over ({state_json['end_reason']}): " + (f"{'+'.join(winners)} won" if winners else "a draw")
        return f"turn {state_json['turn']} · {state_json['active']} to take"

    def tally(self, state_json: dict[str, Any]) -> str:
        taken = " · ".join(f"{seat} {count}" for seat, count in state_json["taken"].items())
        out = f" · out {', '.join(state_json['out'])}" if state_json["out"] else ""
        return f"taken {taken}{out}"


PICTURE = PebblesPicture()

PEBBLES_REPLAY = ReplayParts(name=NAME, views=VIEWS, explanations=EXPLANATIONS, records=RECORDS, terminal=PICTURE)
PLUGIN = PEBBLES_REPLAY  # the name a system's replay package gives its parts (replay.lords_of_war.PLUGIN)
