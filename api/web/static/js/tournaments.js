// The tournaments as a table (name linked to its page, system, status, players, rounds, created): the games list's
// section (index-page.js) and the tournaments page (tournaments-page.js).
import { el } from "./page.js";
import { startedText } from "./games.js";

// What a tournament is doing, from GET /tournaments' status, stage, round, in_play and cut (issue 31 item 7).
export function statusText(t) {
  if (t.status === "registration" || t.status === undefined) return "Registration";
  if (t.status === "finished") return "Finished";
  if (t.stage === "cut") return `Top ${t.cut} cut${t.in_play ? " · playing" : ""}`;
  return `Round ${t.round} of ${t.rounds}${t.in_play ? " · playing" : " · done"}`;
}

export function tournamentsTable(tournaments, caption = "Tournaments, newest first") {
  if (!tournaments.length) return el("p", { class: "muted", "data-no-tournaments": true }, "No tournaments yet.");
  const headers = [["Tournament"], ["System"], ["Status"], ["Players", "num"], ["Rounds", "num"], ["Created"]];
  return el("div", { class: "table-wrap" }, el("table", { class: "tournaments stack" },
    el("caption", { class: "visually-hidden" }, caption),
    el("thead", {}, el("tr", {}, headers.map(([h, cls]) => el("th", { scope: "col", class: cls }, h)))),
    el("tbody", {}, tournaments.map((t) => el("tr", { "data-tournament-id": t.id, "data-status": t.status },
      el("td", { "data-label": "Tournament" }, el("a", { href: `/tournaments/${encodeURIComponent(t.id)}` }, t.name)),
      el("td", { "data-label": "System" }, t.system),
      el("td", { "data-label": "Status", "data-col": "status" },
        t.status === "running" ? el("span", { class: "badge live" }, statusText(t)) : statusText(t)),
      el("td", { "data-label": "Players", class: "num" }, t.players),
      el("td", { "data-label": "Rounds", class: "num" }, `${t.round ?? t.played_rounds} of ${t.rounds}`),
      el("td", { "data-label": "Created" }, startedText(t.created_at)))))));
}
