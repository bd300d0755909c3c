"""The L5R table drawn in a terminal for ``warlog replay``, from a state view's JSON: for each player (the one to
move last, at the bottom) its provinces, its home (personalities with force/chi, bowed ``↓``, dishonoured ``!``,
their attachments), then the battle or duel under way."""

from __future__ import annotations

from typing import Any

from engine.l5r.catalogue import BOOKS, CardBook

STYLES = ("full", "compact")
PHASES = {"start": "start of turn", "action": "action phase", "attack": "attack phase", "maneuvers": "maneuvers",
          "battle": "battle", "dynasty": "dynasty phase", "end": "end phase"}


def _name(book: CardBook, instance: str | None, compact: bool) -> str:
    if instance is None:
        return "▒ face down"
    card = book.card(instance)
    if not compact:
        return card.name
    return card.name if len(card.name) <= 12 else card.name[:11] + "…"


def _unit(book: CardBook, player: dict[str, Any], card: dict[str, Any], compact: bool) -> str:
    c = book.card(card["id"])
    marks = ("↓" if card["bowed"] else "") + ("!" if card["dishonored"] else "")
    text = _name(book, card["id"], compact)
    if c.kind == "personality":
        text += f" {c.force}/{c.chi}"
        attached = [_name(book, a["id"], True) for a in player["cards"] if a.get("on") == card["id"]]
        if attached and not compact:
            text += " [" + ", ".join(attached) + "]"
        elif attached:
            text += f" +{len(attached)}"
    return text + marks


def _player_lines(book: CardBook, player: dict[str, Any], compact: bool) -> list[str]:
    pid = player["id"]
    hand = player["hand_count"] if "hand_count" in player else len(player["hand"] or ())
    head = f"{pid} {player['clan'].capitalize()} · honour {player['honor']} · gold {player['gold']} · hand {hand}"
    if not compact:
        head += f" · dynasty {player['dynasty_count']} · fate {player['fate_count']}"
        if player.get("removed"):
            head += f" · removed {len(player['removed'])}"
        if player.get("eliminated"):
            head += " · ELIMINATED"
    provinces = []
    for pr in player["provinces"]:
        if not pr.get("filled", pr["card"] is not None):
            shown = "empty"
        elif not pr["face_up"]:
            shown = "▒" if compact else "▒ face down"
        else:
            shown = _name(book, pr["card"], compact)
        provinces.append(f"[{pr['number']}] {shown}")
    stronghold = _name(book, player["stronghold"], compact) + ("↓" if player["stronghold_bowed"] else "")
    home = [_unit(book, player, c, compact) for c in player["cards"] if c.get("on") is None]
    lines = [head, "  provinces " + "  ".join(provinces) if provinces else "  no province left",
             "  home " + stronghold + (", " + ", ".join(home) if home else "")]
    return lines


def render(state_json: dict[str, Any], style: str = "full") -> list[str]:
    compact = style == "compact"
    players = state_json["players"]
    if not players:
        return ["(before the first event)"]
    book = BOOKS.known(state_json.get("catalogue"))  # the game's cards (its state names its catalogue)
    active = state_json.get("active")
    ordered = [p for p in players if p["id"] != active] + [p for p in players if p["id"] == active]
    lines: list[str] = []
    for p in ordered:
        lines += _player_lines(book, p, compact)
    if state_json.get("battlefields"):
        for army in state_json.get("armies", []):
            names = ", ".join(_name(book, u, True) for u in army["units"])
            lines.append(f"  battlefield {army['battlefield']}: {army['player']} ({army['side']}) {names}")
    duel = state_json.get("duel")
    if duel:
        counts: dict[str, int] = {}
        for f in duel["focuses"]:
            counts[f["player"]] = counts.get(f["player"], 0) + 1
        focus = ", ".join(f"{p} {n}" for p, n in sorted(counts.items())) or "none yet"
        lines.append(f"  duel: {_name(book, duel['challenger'], compact)} vs "
                     f"{_name(book, duel['challenged'], compact)} on {duel['stat']} · focuses {focus}")
    return lines


def headline(state_json: dict[str, Any]) -> str:
    if state_json["phase"] == "over":
        winner = state_json.get("winner")
        return f"over ({state_json['end_reason']}): " + ("a draw" if winner in (None, "draw") else f"{winner} won")
    who = " and ".join(state_json["to_act"]) or "nobody"
    if state_json["phase"] == "setup":
        return "before the game"
    phase = PHASES.get(state_json["phase"], state_json["phase"])
    if state_json.get("duel"):
        phase = "duel"
    elif state_json["phase"] == "battle" and state_json.get("battlefields"):
        phase = f"battle at province {state_json['battlefields'][state_json['battle']]} ({state_json['segment']})"
    return f"turn {state_json['turn']} · {state_json['active']}'s turn · {who}: {phase}"


def tally(state_json: dict[str, Any]) -> str:
    return " | ".join(f"{p['id']} honour {p['honor']}, provinces {len(p['provinces'])}, hand "
                      f"{p.get('hand_count', len(p['hand'] or ()))}" for p in state_json["players"])


__all__ = ["STYLES", "headline", "render", "tally"]
