// The cut's single-elimination bracket drawn as columns of matches (the tournament page and the bracket page):
// each match's two entrants with their seeds, who went first, the winner going through, each game's replay, the
// final and the champion. Reads GET /tournaments/{id}'s `bracket` (the same as GET .../bracket).
import { el } from "./page.js";

export function roundName(index, count) {
  const fromEnd = count - index;
  if (fromEnd === 1) return "Final";
  if (fromEnd === 2) return "Semi-finals";
  if (fromEnd === 3) return "Quarter-finals";
  return `Bracket round ${index + 1}`;
}

const DECIDED = { game: "won the game", time_rule: "won on the time rule", higher_seed: "higher seed (drawn)" };

// Who sat first (p1) in a match's last game: the higher seed if it chose "first".
function firstOf(match) {
  const last = match.games[match.games.length - 1];
  if (!last || !last.choice) return null;
  return last.choice === "first" ? match.higher : match.lower;
}

function side(match, who, seed, name) {
  if (!who) return el("li", { class: "side waiting" }, el("span", { class: "seed" }, ""), "winner of an earlier match");
  const won = match.winner === who;
  const first = firstOf(match) === who;
  return el("li", { class: `side${won ? " won" : ""}${match.winner && !won ? " lost" : ""}`, "data-entrant": who },
    el("span", { class: "seed", title: `seed ${seed}` }, seed), el("span", { class: "who" }, name(who)),
    first ? el("span", { class: "badge first", title: "sat p1: played first" }, "went first") : null,
    won ? el("span", { class: "visually-hidden" }, " (goes through)") : null,
    won ? el("span", { class: "through", "aria-hidden": "true" }, "✓") : null);
}

function matchBox(match, name) {
  const games = match.games.map((g, i) => el("a", { href: g.status === "forfeit" ? `/games/${encodeURIComponent(g.game_id)}` : `/replay/${encodeURIComponent(g.game_id)}`,
    "data-game": g.game_id }, match.games.length > 1 ? `game ${i + 1}` : g.status === "forfeit" ? "result" : "replay"));
  const note = match.status === "decided" ? DECIDED[match.decided_by] || "decided"
    : match.status === "playing" ? "playing" : match.status === "replay" ? "drawn: replayed" : match.status === "waiting" ? "waiting" : "ready";
  return el("li", { class: "match", "data-match": `${match.bracket_round}-${match.match}`, "data-status": match.status },
    el("ol", { class: "sides" }, side(match, match.higher, match.higher_seed, name), side(match, match.lower, match.lower_seed, name)),
    el("p", { class: "match-note" }, match.status === "playing" ? el("span", { class: "badge live" }, note) : note,
      ...(games.length ? [" · ", ...games.flatMap((a, i) => (i ? [", ", a] : [a]))] : [])));
}

export function bracketView(bracket, name) {
  const count = bracket.rounds.length;
  const columns = bracket.rounds.map((matches, i) => el("section", { class: "bracket-round", "aria-labelledby": `bracket-round-${i + 1}` },
    el("h3", { id: `bracket-round-${i + 1}` }, roundName(i, count)),
    el("ol", { class: "matches" }, matches.map((m) => matchBox(m, name)))));
  const champion = el("section", { class: "bracket-round champion", "aria-labelledby": "bracket-champion" },
    el("h3", { id: "bracket-champion" }, "Champion"),
    el("p", { "data-champion": true }, bracket.champion ? el("strong", {}, name(bracket.champion)) : "to be decided"));
  return el("div", { class: "bracket", "data-bracket": true, "data-size": bracket.size }, columns, champion);
}

export function seedsList(bracket, name) {
  return el("ol", { class: "cut-seeds", "aria-label": "Seeds" },
    bracket.seeds.map((s) => el("li", { value: s.seed }, name(s.entrant))));
}
