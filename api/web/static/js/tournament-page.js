// The tournament page (/tournaments/{id}): name, system, rounds with their tables (seats, players, result or
// "playing", each game's replay), byes, and the standings with the API's tie-breaks. Reads the JSON of the same
// path and its /standings; refreshes while a table is playing.
import { getJSON } from "./api.js";
import { el, showError } from "./page.js";

const REFRESH_MS = 10000;
const main = document.querySelector("main");
const path = location.pathname.replace(/\/+$/, "");

function nameOf(players) {
  const names = new Map(players.map((p) => [p.id, p.name || p.id]));
  return (id) => names.get(id) || id;
}

function resultText(table, name) {
  if (table.status === "playing") return "playing";
  const seatName = (seat) => name(table.seats[seat] || seat);
  let text;
  if (table.winner === "draw") text = "Draw";
  else if (table.winner) text = `${seatName(table.winner)} wins`;
  else if (table.placings) text = table.placings.map((group, i) => `${i + 1}. ${group.map(seatName).join(" & ")}`).join(", ");
  else text = "finished";
  const scores = Object.keys(table.seats).filter((seat) => seat in (table.scores || {}));
  if (scores.length) text += ` · ${scores.map((seat) => `${seatName(seat)} ${table.scores[seat]}`).join(", ")}`;
  return table.status === "forfeit" ? `${text} (forfeit)` : text;
}

// A forfeited table's game was not played out: its link is the result (the game's record, with the forfeit's
// adjudication), not a replay of a game nobody played (issue 31 item 8).
function gameLink(round, table) {
  const id = encodeURIComponent(table.game_id);
  if (table.status === "forfeit") {
    return el("a", { href: `/games/${id}`, "data-result": true,
      "aria-label": `Result of round ${round.round}, table ${table.table} (forfeit)` }, "result");
  }
  return el("a", { href: `/replay/${id}`, "data-replay": true,
    "aria-label": `Replay of round ${round.round}, table ${table.table}` }, "replay");
}

// "Round 3 of 3 in play" while a round's tables play, else "2 of 3 played": rounds played are finished rounds
// (issue 31 item 8: "3 of 3 played" was shown while round 3 was still being played).
function roundsText(rounds, total) {
  const inPlay = rounds.filter((round) => round.tables.some((table) => table.status === "playing"));
  const played = rounds.length - inPlay.length;
  if (!inPlay.length) return `${played} of ${total} played`;
  const current = inPlay[inPlay.length - 1].round;
  return `Round ${current} of ${total} in play${played ? ` · ${played} played` : ""}`;
}

function roundSection(round, name) {
  const section = el("section", { class: "round", "data-round": round.round, "aria-labelledby": `round-${round.round}` },
    el("h3", { id: `round-${round.round}` }, `Round ${round.round}`));
  section.append(el("div", { class: "table-wrap" }, el("table", { class: "pairings stack" },
    el("caption", { class: "visually-hidden" }, `Round ${round.round} pairings`),
    el("thead", {}, el("tr", {}, ["Table", "Players", "Result", "Game"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, round.tables.map((table) => el("tr", { "data-table": table.table, "data-status": table.status },
      el("td", { "data-label": "Table", class: "num" }, table.table),
      el("td", { "data-label": "Players" }, el("ul", { class: "seats" }, Object.entries(table.seats).map(([seat, player]) =>
        el("li", { "data-seat": seat }, el("span", { class: `seat-dot ${seat}`, "aria-hidden": "true" }),
          el("span", { class: "seat-id" }, `${seat} `), name(player))))),
      el("td", { "data-label": "Result", "data-col": "result" },
        table.status === "playing" ? el("span", { class: "badge live" }, "playing") : resultText(table, name)),
      el("td", { "data-label": "Game" }, gameLink(round, table))))))));
  if (round.byes && round.byes.length) {
    section.append(el("p", { "data-byes": true }, `Bye${round.byes.length > 1 ? "s" : ""}: `, round.byes.map(name).join(", ")));
  }
  return section;
}

function percent(value) {
  return `${(value * 100).toFixed(1)}%`;
}

function number(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function standingsTable(standings) {
  if (!standings.length) return el("p", { class: "muted" }, "No players yet.");
  const headers = [["Rank", true], ["Player", false], ["Points", true], ["W–D–L", true], ["Byes", true],
    ["Opp. match-win", true], ["Score diff.", true]];
  return el("div", { class: "table-wrap" }, el("table", { class: "standings stack" },
    el("caption", { class: "visually-hidden" }, "Standings: points, then opponents' match-win percentage, then score difference"),
    el("thead", {}, el("tr", {}, headers.map(([h, num]) => el("th", { scope: "col", class: num ? "num" : null }, h)))),
    el("tbody", {}, standings.map((s) => el("tr", { "data-player": s.player },
      el("td", { "data-label": "Rank", class: "num" }, s.rank),
      el("th", { scope: "row", "data-label": "Player" }, s.name || s.player,
        s.dropped_after == null ? null : [" ", el("span", { class: "badge", "data-dropped": true,
          title: `dropped after round ${s.dropped_after}: paired no more, results kept` }, "dropped")]),
      el("td", { "data-label": "Points", class: "num" }, number(s.match_points)),
      el("td", { "data-label": "W–D–L", class: "num" }, `${s.wins}–${s.draws}–${s.losses}`),
      el("td", { "data-label": "Byes", class: "num" }, s.byes),
      el("td", { "data-label": "Opp. match-win", class: "num" }, percent(s.opponents_match_win)),
      el("td", { "data-label": "Score diff.", class: "num" }, number(s.score_difference)))))));
}

function render(tournament, standings) {
  const name = nameOf(tournament.players);
  document.title = `${tournament.name} · warlog`;
  const rounds = tournament.played_rounds;
  const facts = el("dl", { class: "facts" },
    el("dt", {}, "System"), el("dd", {}, tournament.system),
    el("dt", {}, "Format"), el("dd", {}, tournament.seats === 2 ? `${tournament.format}, two seats a table` : `pods of ${tournament.seats}`),
    el("dt", {}, "Rounds"), el("dd", { "data-rounds": true }, roundsText(rounds, tournament.rounds)),
    el("dt", {}, "Status"), el("dd", {}, tournament.status),
    el("dt", {}, "Players"), el("dd", {}, tournament.players.length));
  const roundsSection = el("section", { "aria-labelledby": "rounds-heading" }, el("h2", { id: "rounds-heading" }, "Rounds"));
  if (!rounds.length) roundsSection.append(el("p", { "data-no-rounds": true }, "No rounds have been played yet."));
  else for (const round of [...rounds].reverse()) roundsSection.append(roundSection(round, name));
  const standingsSection = el("section", { "aria-labelledby": "standings-heading" },
    el("h2", { id: "standings-heading" }, "Standings"), standingsTable(standings));
  const content = el("div", { "data-tournament": tournament.id },
    el("h1", {}, tournament.name), facts, standingsSection, roundsSection);
  const old = main.querySelector("[data-tournament]");
  if (old) old.replaceWith(content);
  else main.replaceChildren(content);
  return rounds.some((round) => round.tables.some((table) => table.status === "playing"));
}

async function load() {
  const [tournament, standings] = await Promise.all([getJSON(path), getJSON(`${path}/standings`)]);
  return render(tournament, standings.standings);
}

async function start() {
  let playing;
  try {
    playing = await load();
  } catch (error) {
    main.querySelector("[data-loading]")?.remove();
    showError(error);
    return;
  }
  if (!playing) return;
  const status = el("p", { class: "muted", "data-refresh": true, "aria-live": "polite" });
  main.append(status);
  const timer = setInterval(async () => {
    if (document.visibilityState !== "visible") return;
    try {
      if (!(await load())) clearInterval(timer);
      status.textContent = "";
    } catch (error) {
      status.textContent = `Could not refresh: ${error.message}`;
    }
  }, REFRESH_MS);
}

start();
