"""Decks at registration (issue 30): what an entrant brings, as the tournament's format judges and lists it.

A tournament's format is a catalogue (``Tournament.catalogue``: a stored catalogue's id pinned at creation; None:
the system's built-in data, its default catalogue) and the system's deck rules. An entrant's deck or army is what
the system's game setup takes as a player's ``army`` (a deck or army of the catalogue by name, or the full list the
player brings, in the system's own shape: docs/api.md, "Decks at registration"); the service judges it by starting
a throwaway game on the tournament's catalogue with it, so the rules that refuse it are the ones a game would run
(each system's setup checks, docs/api.md lists them), one rule in one place. A tournament may add a points limit
for a system whose armies have points (``army_points``: the points its game records for each army).

This module holds what needs no store: an army's points as its game records them, the one-line summary of a deck,
and the deck lists (``GET /tournaments/{id}/decks``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from replay.tournaments.model import Tournament

POINTS_RULE = "points_limit"  # the rule a refusal names for an army over the tournament's points limit
SHOWN_ENTRIES = 6  # a list of more distinct entries is summed up by its count


def army_points(opening: Sequence[Any]) -> int | None:
    """The points of the first seat's army as a game's opening event records them (``game_started.armies[0]
    .points``: the army's cards' points summed, as the system records them); None for a system whose armies
    have no points."""
    armies = getattr(opening[0], "armies", None) if opening else None
    points = getattr(armies[0], "points", None) if armies else None
    return points if isinstance(points, int) and not isinstance(points, bool) else None


def army_label(army: Any) -> str | None:
    """How a player's army is listed: its name, or the size of an explicit list."""
    if army is None:
        return None
    return army if isinstance(army, str) else f"custom ({len(army)} cards)"


def without_lists(data: dict[str, Any]) -> dict[str, Any]:
    """A registration event's data with each deck or army as its label (``army_label``), as the tournament's
    history shows it while the deck lists are hidden: ``player_registered``'s and ``player_registered_late``'s
    ``army``, ``team_registered``'s members'."""
    shown = dict(data)
    if "army" in shown:
        shown["army"] = army_label(shown["army"])
    if isinstance(shown.get("members"), list):
        shown["members"] = [{**m, "army": army_label(m["army"])} if isinstance(m, dict) and "army" in m else m
                            for m in shown["members"]]
    return shown


def _listed(name: str, items: list[Any]) -> str:
    if not all(isinstance(item, str) for item in items):
        return f"{name}: {len(items)} entries"
    counts = Counter(items)
    if len(counts) > SHOWN_ENTRIES:
        return f"{len(items)} {name}"
    return f"{name}: " + ", ".join(item if n == 1 else f"{item} x{n}" for item, n in counts.items())


def summary(deck: Any) -> str:
    """One line a person reads: ``crab (a deck of the catalogue)``; an own list field by field, a short list item by
    item (``units: king, cavalry x2``), a long one by its count (``40 dynasty``)."""
    if deck is None:
        return "no deck registered"
    if isinstance(deck, str):
        return f"{deck} (a deck of the catalogue)"
    if isinstance(deck, list):
        return _listed("cards", deck)
    if not isinstance(deck, dict):
        return str(deck)
    parts = []
    for key, value in deck.items():
        if value is None:
            parts.append(f"no {key}")
        elif isinstance(value, list):
            parts.append(_listed(key, value))
        elif isinstance(value, dict):
            parts.append(f"{key}: " + ", ".join(f"{k} x{v}" for k, v in value.items()))
        else:
            parts.append(f"{key} {value}")
    return "own list: " + "; ".join(parts)


def deck_lists(t: Tournament) -> list[dict[str, Any]]:
    """The registered decks, in registration order: ``{"player", "name", "deck", "summary"}`` for each player (a
    team's: one row per member, ``player`` the team's id, ``name`` the member's, ``team`` the team's name)."""
    rows: list[dict[str, Any]] = []
    for entrant in t.entrants.values():
        if entrant.members:
            rows.extend({"player": entrant.id, "name": m.name, "team": entrant.name, "deck": m.army,
                         "summary": summary(m.army)} for m in entrant.members)
        else:
            rows.append({"player": entrant.id, "name": entrant.name, "deck": entrant.army,
                         "summary": summary(entrant.army)})
    return rows


__all__ = ["POINTS_RULE", "army_label", "army_points", "deck_lists", "summary", "without_lists"]
