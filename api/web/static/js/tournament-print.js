// The tournament's print views (/tournaments/{id}?print=KIND[&round=N]): what organisers pin on the wall.
// pairings-table: a round's tables in order with each seat's player; pairings-name: every player of the round in
// alphabetical order with their table, seat and opponents; standings: the standings with the tie-break legend.
// The page is in its print state (body[data-print]): a toolbar (print, back) shown on screen and hidden on paper;
// warlog.css's @media print and tournaments.css print black on white without the site's navigation.
import { getJSON } from "./api.js";
import { el, showError } from "./page.js";
import { nameOf, roundTitle, standingsTable, tiebreakLegend } from "./tournament-parts.js";

export const PRINTS = { "pairings-table": "Pairings by table", "pairings-name": "Pairings by name", standings: "Standings" };

function roundOf(tournament, wanted) {
  const rounds = tournament.played_rounds;
  if (wanted === null) return rounds[rounds.length - 1] || null;
  return rounds.find((r) => String(r.round) === wanted) || null;
}

function byTable(round, tournament, name) {
  const seats = Math.max(...round.tables.map((t) => Object.keys(t.seats).length));
  const heads = Array.from({ length: seats }, (_, i) => `p${i + 1}`);
  const table = el("table", { class: "print-pairings", "data-print-table": "pairings-table" },
    el("caption", { class: "visually-hidden" }, `${roundTitle(round, tournament)}: pairings by table`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, "Table"),
      heads.map((seat, i) => el("th", { scope: "col" }, seats === 2 ? (i ? "Player (p2)" : "Player (p1, first)") : `Seat ${seat}`)))),
    el("tbody", {}, round.tables.map((t) => el("tr", { "data-table": t.table },
      el("td", { class: "num" }, t.table), heads.map((seat) => el("td", {}, t.seats[seat] ? name(t.seats[seat]) : "—"))))));
  return [table, round.byes.length ? el("p", { "data-byes": true }, `Bye: ${round.byes.map(name).join(", ")}`) : null];
}

function byName(round, tournament, name) {
  const rows = [];
  for (const t of round.tables) {
    for (const [seat, who] of Object.entries(t.seats)) {
      const others = Object.entries(t.seats).filter(([s]) => s !== seat).map(([, o]) => name(o));
      rows.push({ who, player: name(who), table: String(t.table), seat, opponents: others.join(", ") });
    }
  }
  for (const who of round.byes) rows.push({ who, player: name(who), table: "bye", seat: "—", opponents: "—" });
  rows.sort((a, b) => a.player.localeCompare(b.player, undefined, { sensitivity: "base" }) || a.who.localeCompare(b.who));
  return el("table", { class: "print-pairings by-name", "data-print-table": "pairings-name" },
    el("caption", { class: "visually-hidden" }, `${roundTitle(round, tournament)}: pairings by player name`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col", class: "num" }, "Table"),
      el("th", { scope: "col" }, "Seat"), el("th", { scope: "col" }, round.tables.some((t) => Object.keys(t.seats).length > 2) ? "Opponents" : "Opponent"))),
    el("tbody", {}, rows.map((r) => el("tr", { "data-player": r.who },
      el("th", { scope: "row" }, r.player), el("td", { class: "num" }, r.table), el("td", {}, r.seat), el("td", {}, r.opponents)))));
}

export async function printView(main, path, kind, wanted) {
  const title = PRINTS[kind];
  const back = el("a", { href: path }, "Back to the tournament");
  if (!title) {
    main.replaceChildren(el("h1", {}, "Print"), el("p", { class: "error", role: "alert" },
      `There is no print view ${JSON.stringify(kind)}: print is one of ${Object.keys(PRINTS).join(", ")}.`), el("p", {}, back));
    return;
  }
  document.body.dataset.print = kind;
  let tournament;
  let standings;
  try {
    [tournament, standings] = await Promise.all([getJSON(path), getJSON(`${path}/standings`)]);
  } catch (error) {
    main.querySelector("[data-loading]")?.remove();
    showError(error);
    return;
  }
  const name = nameOf(tournament);
  document.title = `${tournament.name} · ${title} · warlog`;
  const tools = el("div", { class: "print-tools no-print", "data-print-tools": true },
    el("button", { type: "button", onclick: () => window.print() }, "Print"), back,
    Object.entries(PRINTS).filter(([k]) => k !== kind).map(([k, text]) => el("a", { href: `${path}?print=${k}` }, text)));
  const body = [];
  if (kind === "standings") {
    const swiss = tournament.played_rounds.filter((r) => r.stage !== "cut").length;
    body.push(el("h2", {}, `Standings after ${swiss} of ${tournament.rounds} rounds`),
      standingsTable(standings.standings, tournament.tiebreaks), tiebreakLegend(tournament.tiebreaks));
  } else {
    const round = roundOf(tournament, wanted);
    if (!round) body.push(el("p", { "data-no-rounds": true }, wanted === null ? "No round has been paired yet." : `There is no round ${wanted}.`));
    else body.push(el("h2", {}, `${roundTitle(round, tournament)}: ${title.toLowerCase()}`),
      ...(kind === "pairings-table" ? byTable(round, tournament, name) : [byName(round, tournament, name)]));
  }
  main.replaceChildren(el("div", { class: "print-view", "data-print-view": kind },
    tools, el("h1", {}, tournament.name), el("p", { class: "print-facts" },
      `${tournament.system} · ${tournament.players.length + tournament.teams.length} ${tournament.entrants === "teams" ? "teams" : "players"} · printed ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`),
    body));
}
