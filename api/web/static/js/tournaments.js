// The tournaments as a table (name linked to its page, system, players, rounds played, created): the games list's
// section (index-page.js) and the tournaments page (tournaments-page.js).
import { el } from "./page.js";
import { startedText } from "./games.js";

export function tournamentsTable(tournaments) {
  if (!tournaments.length) return el("p", { class: "muted", "data-no-tournaments": true }, "No tournaments yet.");
  return el("div", { class: "table-wrap" }, el("table", { class: "tournaments stack" },
    el("caption", { class: "visually-hidden" }, "Tournaments, newest first"),
    el("thead", {}, el("tr", {}, ["Tournament", "System", "Players", "Rounds", "Created"].map((h) => el("th", { scope: "col", class: h === "Players" || h === "Rounds" ? "num" : null }, h)))),
    el("tbody", {}, tournaments.map((t) => el("tr", { "data-tournament-id": t.id },
      el("td", { "data-label": "Tournament" }, el("a", { href: `/tournaments/${encodeURIComponent(t.id)}` }, t.name)),
      el("td", { "data-label": "System" }, t.system),
      el("td", { "data-label": "Players", class: "num" }, t.players),
      el("td", { "data-label": "Rounds", class: "num" }, `${t.played_rounds} of ${t.rounds}`),
      el("td", { "data-label": "Created" }, startedText(t.created_at)))))));
}
