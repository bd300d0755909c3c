// The tournament page (/tournaments/{id}): registration (attendance marks, teams), the running round's clock,
// standings with the tournament's tie-breaks in order and a legend saying what each means, every round's pairings
// (table numbers, live status, "(corrected)" with the reason, replay or result links), the cut's bracket, deck
// lists once the tournament has ended (GET .../decks answers 200), and links to the print views and exports.
// ?print=pairings-table|pairings-name|standings (and &round=N) draws a print view instead (tournament-print.js).
// Reads GET /tournaments/{id} and /standings; follows the tournament by polling (tournament-live.js).
import { getJSON } from "./api.js";
import { el, showError } from "./page.js";
import { bracketView } from "./bracket.js";
import { clockText, loadAndFollow } from "./tournament-live.js";
import { printView } from "./tournament-print.js";
import { nameOf, roundTitle, standingsTable, tiebreakLegend } from "./tournament-parts.js";

const main = document.querySelector("main");
const path = location.pathname.replace(/\/+$/, "");
const query = new URLSearchParams(location.search);
const clock = { deadline: null, node: null, timer: null };
let decksShown = false;

function resultText(table, name) {
  if (table.status === "playing") return "playing";
  const seatName = (seat) => name(table.seats[seat] || seat);
  let text;
  if (table.winner === "draw") text = "Draw";
  else if (table.winner) text = `${seatName(table.winner)} wins`;
  else if (table.placings) text = table.placings.map((group, i) => `${i + 1}. ${group.map(seatName).join(" & ")}`).join(", ");
  else text = "finished";
  // a result entered without scores reads 0 at every seat: those zeros are left out (a game's own are shown)
  const scores = Object.keys(table.seats).filter((seat) => seat in (table.scores || {}));
  if (table.status !== "finished" && scores.every((seat) => !table.scores[seat])) scores.length = 0;
  if (scores.length) text += ` · ${scores.map((seat) => `${seatName(seat)} ${table.scores[seat]}`).join(", ")}`;
  return text;
}

// A table's live status: playing, finished, entered (the API's "forfeit": a result the organiser entered for a game
// not played out, a no-show's or one reported on paper), time called
// (its game ended by the round's clock or the organiser), corrected (the organiser corrected its result).
function statusOf(round, table) {
  const timed = round.time_called && (round.time_called.tables || []).includes(table.table);
  if (table.status === "corrected") return ["corrected", "corrected"];
  if (table.status === "forfeit") return ["forfeit", "entered"];
  if (table.status === "playing") return ["playing", "playing"];
  return timed ? ["time", "time called"] : ["finished", "finished"];
}

// A forfeited table's game was not played out: its link is the result (the game's record, with the forfeit's
// adjudication), not a replay of a game nobody played (issue 31 item 8).
function gameLink(round, table) {
  const id = encodeURIComponent(table.game_id);
  const forfeit = table.status === "forfeit" || (table.status === "corrected" && table.original?.status === "forfeit");
  if (forfeit) {
    return el("a", { href: `/games/${id}`, "data-result": true,
      "aria-label": `Result of round ${round.round}, table ${table.table} (entered by the organiser)` }, "result");
  }
  return el("a", { href: `/replay/${id}`, "data-replay": true,
    "aria-label": `Replay of round ${round.round}, table ${table.table}` }, "replay");
}

function resultCell(table, name) {
  if (table.status === "playing") return "—"; // the status says playing
  if (table.status !== "corrected") return resultText(table, name);
  const last = table.corrections[table.corrections.length - 1];
  const was = { ...table, ...table.original, seats: table.seats };
  return [resultText(table, name), " ", el("strong", { "data-corrected": true }, "(corrected)"),
    el("span", { class: "correction", "data-correction": true },
      ` ${last.reason} · was: ${resultText(was, name)}`)];
}

// "Round 3 of 3 in play" while a round's tables play, else "2 of 3 played": rounds played are finished Swiss
// rounds (issue 31 item 8: "3 of 3 played" was shown while round 3 was still being played); the cut's rounds are
// not Swiss rounds.
function roundsText(rounds, total) {
  const swiss = rounds.filter((round) => round.stage !== "cut");
  const inPlay = swiss.filter((round) => round.tables.some((table) => table.status === "playing"));
  const played = swiss.length - inPlay.length;
  if (!inPlay.length) return `${played} of ${total} played`;
  const current = inPlay[inPlay.length - 1].round;
  return `Round ${current} of ${total} in play${played ? ` · ${played} played` : ""}`;
}

function roundSection(round, tournament, name) {
  const section = el("section", { class: "round", "data-round": round.round, "data-stage": round.stage, "aria-labelledby": `round-${round.round}` },
    el("h3", { id: `round-${round.round}` }, roundTitle(round, tournament)));
  if (round.time_called) {
    section.append(el("p", { class: "round-time", "data-time-called": true },
      `Time called ${round.time_called.by === "clock" ? "by the clock" : "by the organiser"} at ${String(round.time_called.at).slice(11, 16)} UTC`,
      round.time_called.tables?.length ? ` (ended tables ${round.time_called.tables.join(", ")})` : ""));
  }
  section.append(el("div", { class: "table-wrap" }, el("table", { class: "pairings stack" },
    el("caption", { class: "visually-hidden" }, `${roundTitle(round, tournament)} pairings`),
    el("thead", {}, el("tr", {}, ["Table", "Players", "Status", "Result", "Game"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, round.tables.map((table) => {
      const [status, label] = statusOf(round, table);
      return el("tr", { "data-table": table.table, "data-status": table.status, "data-live": status },
        el("td", { "data-label": "Table", class: "num" }, table.table),
        el("td", { "data-label": "Players" }, el("ul", { class: "seats" }, Object.entries(table.seats).map(([seat, player]) =>
          el("li", { "data-seat": seat }, el("span", { class: `seat-dot ${seat}`, "aria-hidden": "true" }),
            el("span", { class: "seat-id" }, `${seat} `), name(player))))),
        el("td", { "data-label": "Status", "data-col": "status" },
          el("span", { class: `badge status-${status}${status === "playing" ? " live" : ""}` }, label)),
        el("td", { "data-label": "Result", "data-col": "result" }, resultCell(table, name)),
        el("td", { "data-label": "Game" }, gameLink(round, table)));
    })))));
  if (round.byes && round.byes.length) {
    section.append(el("p", { "data-byes": true }, `Bye${round.byes.length > 1 ? "s" : ""}: `, round.byes.map(name).join(", ")));
  }
  return section;
}

function attendance(p, tournament) {
  const marks = [];
  if (p.dropped_after != null) marks.push(["dropped", `dropped after round ${p.dropped_after}`]);
  if (p.joined > 1) marks.push(["late", `late: from round ${p.joined}${p.missed ? `, missed rounds count as a ${p.missed}` : ""}`]);
  if (tournament.check_in) marks.push(p.checked_in ? ["checked-in", "checked in"] : p.absent ? ["absent", "absent (not checked in)"] : ["not-checked-in", "not checked in"]);
  if (!marks.length) marks.push(["registered", "registered"]);
  return marks.flatMap(([key, text], i) => [i ? " " : null, el("span", { class: `badge mark-${key}`, "data-mark": key }, text)]);
}

function registrationSection(tournament) {
  const section = el("section", { "aria-labelledby": "registration-heading", "data-registration": true },
    el("h2", { id: "registration-heading" }, "Registration"));
  if (tournament.teams.length) {
    section.append(el("div", { class: "table-wrap" }, el("table", { class: "entrants teams stack" },
      el("caption", { class: "visually-hidden" }, "Registered teams and their members"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Team"), el("th", { scope: "col" }, "Members"))),
      el("tbody", {}, tournament.teams.map((team) => el("tr", { "data-entrant": team.id },
        el("th", { scope: "row", "data-label": "Team" }, team.name),
        el("td", { "data-label": "Members" }, team.members.map((m) => `${m.name}${m.army ? ` (${m.army})` : ""}`).join(", "))))))));
  }
  if (tournament.players.length || !tournament.teams.length) {
    const players = [...tournament.players];
    section.append(players.length ? el("div", { class: "table-wrap" }, el("table", { class: "entrants stack" },
      el("caption", { class: "visually-hidden" }, "Registered players and their attendance"),
      el("thead", {}, el("tr", {}, ["Player", "Army", "Attendance"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, players.map((p) => el("tr", { "data-entrant": p.id },
        el("th", { scope: "row", "data-label": "Player" }, p.name),
        el("td", { "data-label": "Army" }, p.army || "—"),
        el("td", { "data-label": "Attendance", "data-col": "attendance" }, attendance(p, tournament)))))))
      : el("p", { class: "muted" }, "No players yet."));
  }
  return section;
}

// The clock of the round being played (the last round, while it has a clock and a table plays or time is called).
function clockPanel(tournament, receivedAt) {
  const round = tournament.played_rounds[tournament.played_rounds.length - 1];
  clock.deadline = null;
  if (!round || round.duration == null) return null;
  const playing = round.tables.some((t) => t.status === "playing");
  if (round.time_called) {
    return el("p", { class: "round-clock called", "data-clock": "called", role: "status" },
      `${roundTitle(round, tournament)}: `, el("strong", {}, "time"), ` (called ${round.time_called.by === "clock" ? "by the clock" : "by the organiser"})`);
  }
  if (!playing) return null;
  clock.deadline = receivedAt + round.time_left * 1000;
  clock.node = el("strong", { "data-time-left": true }, clockText(round.time_left));
  return el("p", { class: "round-clock", "data-clock": "running" },
    `${roundTitle(round, tournament)} of ${round.duration} minutes: `, clock.node, " left",
    el("span", { class: "muted" }, ` (until ${String(round.deadline).slice(11, 16)} UTC)`));
}

function tickClock() {
  if (clock.deadline === null || !clock.node) return;
  const left = (clock.deadline - Date.now()) / 1000;
  clock.node.textContent = left > 0 ? clockText(left) : "time";
}

function linksBar(tournament) {
  const id = encodeURIComponent(tournament.id);
  const printLink = (kind, text) => el("a", { href: `/tournaments/${id}?print=${kind}`, "data-print-link": kind }, text);
  const exportLink = (what) => el("a", { href: `/tournaments/${id}/export?what=${what}&format=csv`, download: `${tournament.id}-${what}.csv` }, what);
  return el("nav", { class: "tournament-links", "aria-label": "Print and export" },
    el("span", {}, "Print: ", printLink("pairings-table", "pairings by table"), " · ", printLink("pairings-name", "pairings by name"),
      " · ", printLink("standings", "standings")),
    el("span", {}, "Export (CSV): ", exportLink("pairings"), " · ", exportLink("results"), " · ", exportLink("standings")),
    tournament.bracket ? el("span", {}, el("a", { href: `/tournaments/${id}/bracket`, "data-bracket-link": true }, "Bracket page")) : null);
}

async function decksSection(tournament, name) {
  // GET .../decks (issue 30, decks at registration): 200 once the tournament has ended
  if (tournament.status !== "finished") return null; // GET .../decks answers 403 decks_hidden before the end
  let body;
  try {
    body = await getJSON(`${path}/decks`);
  } catch (_) {
    return null; // 403 or 404 (a server without deck lists): nothing to show
  }
  if (!body || !Array.isArray(body.decks) || !body.decks.length) return null;
  // one row a player (a team's: one a member, with its team): {player, name, team?, deck, summary}
  const teams = body.decks.some((d) => d.team);
  return el("section", { "aria-labelledby": "decks-heading", "data-decks": true },
    el("h2", { id: "decks-heading" }, "Deck lists"),
    el("div", { class: "table-wrap" }, el("table", { class: "decks stack" },
      el("caption", { class: "visually-hidden" }, "Each player's deck"),
      el("thead", {}, el("tr", {}, ["Player", ...(teams ? ["Team"] : []), "Deck"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, body.decks.map((d) => el("tr", { "data-player": d.player },
        el("th", { scope: "row", "data-label": "Player" }, d.name || name(d.player)),
        teams ? el("td", { "data-label": "Team" }, d.team || "—") : null,
        el("td", { "data-label": "Deck" }, d.summary || (typeof d.deck === "string" ? d.deck : "—"))))))));
}

async function render(tournament, standings, receivedAt) {
  const name = nameOf(tournament);
  document.title = `${tournament.name} · warlog`;
  const rounds = tournament.played_rounds;
  const facts = el("dl", { class: "facts" },
    el("dt", {}, "System"), el("dd", {}, tournament.system),
    el("dt", {}, "Format"), el("dd", {}, tournament.seats === 2 ? `${tournament.format}, two seats a table` : `pods of ${tournament.seats}`),
    el("dt", {}, "Rounds"), el("dd", { "data-rounds": true }, roundsText(rounds, tournament.rounds)),
    el("dt", {}, "Status"), el("dd", { "data-status": true }, tournament.status),
    el("dt", {}, tournament.entrants === "teams" ? "Teams" : "Players"), el("dd", {}, tournament.players.length + tournament.teams.length),
    tournament.bracket ? [el("dt", {}, "Cut"), el("dd", {}, `top ${tournament.bracket.size}`,
      tournament.bracket.champion ? ` · champion: ${name(tournament.bracket.champion)}` : "")] : null);
  const roundsSection = el("section", { "aria-labelledby": "rounds-heading" }, el("h2", { id: "rounds-heading" }, "Rounds"));
  if (!rounds.length) roundsSection.append(el("p", { "data-no-rounds": true }, "No rounds have been played yet."));
  else for (const round of [...rounds].reverse()) roundsSection.append(roundSection(round, tournament, name));
  const standingsSection = el("section", { "aria-labelledby": "standings-heading", "data-standings": true },
    el("h2", { id: "standings-heading" }, "Standings"), standingsTable(standings, tournament.tiebreaks),
    tournament.tiebreaks.length ? tiebreakLegend(tournament.tiebreaks) : null);
  const bracketSection = tournament.bracket ? el("section", { "aria-labelledby": "bracket-heading", "data-bracket-section": true },
    el("h2", { id: "bracket-heading" }, `Cut: top ${tournament.bracket.size}`), bracketView(tournament.bracket, name)) : null;
  const decks = decksShown ? main.querySelector("[data-decks]") : await decksSection(tournament, name);
  decksShown = Boolean(decks);
  // the order follows the day: registration first before round 1; while it runs, the clock and the pairings; once
  // finished, the bracket and the standings
  const registration = registrationSection(tournament);
  const sections = tournament.status === "registration" ? [registration, standingsSection, roundsSection]
    : tournament.status === "running" ? [bracketSection, roundsSection, standingsSection, registration]
      : [bracketSection, standingsSection, roundsSection, decks, registration];
  const content = el("div", { "data-tournament": tournament.id, "data-state": tournament.status },
    el("h1", {}, tournament.name), facts, linksBar(tournament), clockPanel(tournament, receivedAt), sections);
  const old = main.querySelector("[data-tournament]");
  if (old) old.replaceWith(content);
  else main.replaceChildren(content);
  tickClock();
  if (tournament.status === "finished") return "stop";
  const live = rounds.some((round) => round.tables.some((table) => table.status === "playing"));
  return live ? "fast" : "slow";
}

async function load() {
  const [tournament, standings] = await Promise.all([getJSON(path), getJSON(`${path}/standings`)]);
  return render(tournament, standings.standings, Date.now());
}

async function start() {
  const kind = query.get("print");
  if (kind !== null) {
    await printView(main, path, kind, query.get("round"));
    return;
  }
  if (await loadAndFollow(main, load)) clock.timer = setInterval(tickClock, 1000);
}

start().catch((error) => showError(error));
