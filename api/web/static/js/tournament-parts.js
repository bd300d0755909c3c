// What the tournament page and its print views share (tournament-page.js, tournament-print.js): entrants' names,
// the standings with the tournament's tie-breaks in order and their legend, a round's title.
import { el } from "./page.js";

export function nameOf(tournament) {
  const names = new Map([...tournament.players, ...tournament.teams].map((p) => [p.id, p.name || p.id]));
  return (id) => names.get(id) || id;
}

// Each tie-break's column heading and full title (the legend gives the API's explanation).
export const TIEBREAK_HEADS = {
  match_points: ["Points", "Points"],
  opponents_match_win: ["Opp. MW%", "Opponents' match-win %"],
  game_win: ["GW%", "Game-win %"],
  opponents_game_win: ["Opp. GW%", "Opponents' game-win %"],
  score_difference: ["Score diff.", "Score difference"],
  strength_of_schedule: ["SoS", "Strength of schedule"],
  head_to_head: ["H2H", "Head to head"],
};
const SHARES = new Set(["opponents_match_win", "game_win", "opponents_game_win"]);

export function tiebreakValue(name, value) {
  if (value === null || value === undefined) return "—";
  if (SHARES.has(name)) return `${(value * 100).toFixed(1)}%`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function roundTitle(round, tournament) {
  if (round.stage !== "cut") return `Round ${round.round}`;
  const count = Math.log2(tournament.bracket?.size || 2);
  const left = count - round.bracket_round;
  return `Round ${round.round}: ${left === 0 ? "final" : left === 1 ? "semi-finals" : left === 2 ? "quarter-finals" : `cut round ${round.bracket_round}`}`;
}

export function standingsTable(standings, tiebreaks) {
  if (!standings.length) return el("p", { class: "muted" }, "No players yet.");
  const names = tiebreaks.map((t) => t.name);
  const points = names.includes("match_points") ? [] : ["match_points"];
  const columns = [...points, ...names];
  const order = tiebreaks.map((t) => (TIEBREAK_HEADS[t.name] || [t.name, t.name])[1]).join(", then ");
  return el("div", { class: "table-wrap" }, el("table", { class: "standings stack" },
    el("caption", { class: "visually-hidden" }, `Standings, ranked by ${order}`),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", class: "num" }, "Rank"), el("th", { scope: "col" }, "Player"),
      el("th", { scope: "col", class: "num" }, "W–D–L"), el("th", { scope: "col", class: "num" }, "Byes"),
      columns.map((c) => el("th", { scope: "col", class: "num", "data-tiebreak": c },
        el("abbr", { title: (TIEBREAK_HEADS[c] || [c, c])[1] }, (TIEBREAK_HEADS[c] || [c])[0]))))),
    el("tbody", {}, standings.map((s) => {
      const values = Object.fromEntries((s.tiebreaks || []).map((t) => [t.name, t.value]));
      values.match_points ??= s.match_points;
      return el("tr", { "data-player": s.player, "data-dropped-row": s.dropped_after == null ? null : true },
        el("td", { "data-label": "Rank", class: "num" }, s.rank),
        el("th", { scope: "row", "data-label": "Player" }, s.name || s.player,
          s.dropped_after == null ? null : [" ", el("span", { class: "badge", "data-dropped": true,
            title: `dropped after round ${s.dropped_after}: paired no more, results kept` }, "dropped")]),
        el("td", { "data-label": "W–D–L", class: "num" }, `${s.wins}–${s.draws}–${s.losses}`),
        el("td", { "data-label": "Byes", class: "num" }, s.byes),
        columns.map((c) => el("td", { "data-label": (TIEBREAK_HEADS[c] || [c])[0], class: "num", "data-tiebreak": c },
          tiebreakValue(c, values[c]))));
    }))));
}

export function tiebreakLegend(tiebreaks) {
  return el("div", { class: "tiebreak-legend", "data-tiebreak-legend": true },
    el("p", {}, "Ranked by, in order (the player id settles what is still tied):"),
    el("ol", {}, tiebreaks.map((t) => el("li", { "data-tiebreak": t.name },
      el("strong", {}, (TIEBREAK_HEADS[t.name] || [t.name, t.name])[1]),
      TIEBREAK_HEADS[t.name] && TIEBREAK_HEADS[t.name][0] !== TIEBREAK_HEADS[t.name][1] ? ` (${TIEBREAK_HEADS[t.name][0]})` : "",
      `: ${t.explanation.replace(/^[^:]{1,40}:\s*/, "")}`)))); // the explanation without its own "name: "
}
