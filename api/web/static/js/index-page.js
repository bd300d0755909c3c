// The games page (/): recent and live games, newest first, paged with the API's cursor; filters kept in the URL;
// live rows refresh themselves; the tournaments with links to their pages.
import { getJSON, webSystems } from "./api.js";
import { el, showError } from "./page.js";
import { isLive, resultText, seatsOf, startedText } from "./games.js";
import { tournamentsTable } from "./tournaments.js";
import { armyName, labelsOf, seatColour } from "./labels.js";

const PAGE_SIZE = 25;
const REFRESH_MS = 5000; // a poll, not a stream per row: see docs/web.md "Games list"
const FILTERS = ["system", "tournament", "player", "army"];

const main = document.querySelector("main");
const state = {
  generation: 0, // bumped when the filters change: answers for older filters are dropped
  cursor: null,
  rows: new Map(), // game id -> {game, row, turn}
  tournaments: new Map(), // id -> name
  labels: new Map(), // system -> its display labels (labels.js)
  armies: new Set(),
  timer: null,
  refreshing: false,
};

function filtersFromUrl() {
  const query = new URLSearchParams(location.search);
  return Object.fromEntries(FILTERS.map((name) => [name, (query.get(name) || "").trim()]));
}

function listPath(filters, extra = {}) {
  const query = new URLSearchParams({ order: "newest", limit: String(PAGE_SIZE) });
  for (const name of FILTERS) if (filters[name]) query.set(name, filters[name]);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return `/games?${query}`;
}

// -- the filter form ------------------------------------------------------------------------------------------

function buildForm(systems) {
  const systemSelect = el("select", { id: "f-system", name: "system" }, el("option", { value: "" }, "All systems"),
    systems.map((s) => el("option", { value: s.name }, s.name)));
  const tournamentSelect = el("select", { id: "f-tournament", name: "tournament" },
    el("option", { value: "" }, "Any tournament"));
  const form = el("form", { class: "filters", role: "search", "aria-label": "Filter games", "data-filters": true },
    el("label", { for: "f-system" }, "System", systemSelect),
    el("label", { for: "f-tournament" }, "Tournament", tournamentSelect),
    el("label", { for: "f-player" }, "Player",
      el("input", { id: "f-player", name: "player", type: "search", maxlength: 128, autocomplete: "off",
        placeholder: "a player's name" })),
    el("label", { for: "f-army" }, "Army",
      el("input", { id: "f-army", name: "army", type: "search", maxlength: 128, autocomplete: "off",
        list: "known-armies", placeholder: "e.g. orcs" })),
    el("datalist", { id: "known-armies" }),
    el("div", { class: "filter-buttons" },
      el("button", { type: "submit" }, "Filter"),
      el("button", { type: "button", "data-clear": true, onclick: () => applyFilters({}) }, "Clear")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    applyFilters(Object.fromEntries(FILTERS.map((name) => [name, String(data.get(name) || "").trim()])));
  });
  return form;
}

function fillForm(filters) {
  for (const name of FILTERS) {
    const control = document.getElementById(`f-${name}`);
    if (name === "tournament" && filters.tournament && !control.querySelector(`option[value="${CSS.escape(filters.tournament)}"]`)) {
      control.append(el("option", { value: filters.tournament }, filters.tournament)); // not (yet) listed
    }
    control.value = filters[name] || "";
  }
}

function applyFilters(filters) {
  const query = new URLSearchParams();
  for (const name of FILTERS) if (filters[name]) query.set(name, filters[name]);
  const url = query.toString() ? `/?${query}` : "/";
  if (url !== location.pathname + location.search) history.pushState(null, "", url);
  fillForm(filters);
  loadFirstPage(filters);
}

// -- the list -------------------------------------------------------------------------------------------------

function seatCell(game) {
  const labels = state.labels.get(game.system);
  return el("ul", { class: "seats" }, seatsOf(game).map((seat) => el("li", { "data-seat": seat.id },
    el("span", { class: `seat-dot ${seat.id}`, "aria-hidden": "true", style: seatColour(labels, seat.id) ? `background: ${seatColour(labels, seat.id)}` : null }),
    seat.name, seat.army ? el("span", { class: "army" }, ` (${armyName(labels, seat.army)})`) : null)));
}

function lengthText(entry) {
  const { game, turn } = entry;
  const meta = game.metadata || {};
  const events = `${game.seq} events`;
  if (meta.status === "over" && meta.turns !== undefined) return `${meta.turns} turns · ${events}`;
  if (isLive(game) && typeof turn === "number") return `turn ${turn} · ${events}`;
  return events;
}

function tournamentCell(game) {
  if (!game.tournament) return "—";
  const meta = game.metadata || {};
  const where = [meta.round ? `round ${meta.round}` : null, meta.table ? `table ${meta.table}` : null].filter(Boolean);
  return [el("a", { href: `/tournaments/${encodeURIComponent(game.tournament)}` },
    state.tournaments.get(game.tournament) || game.tournament),
  where.length ? el("span", { class: "muted" }, ` · ${where.join(", ")}`) : null];
}

function statusCell(game) {
  if (isLive(game)) return el("span", { class: "badge live" }, "live");
  if ((game.metadata || {}).status === "over") return el("span", { class: "badge" }, "finished");
  return el("span", { class: "badge" }, "—");
}

function renderRow(entry) {
  const { game } = entry;
  const cells = [
    el("td", { "data-label": "Game", "data-col": "game" }, el("a", { href: `/replay/${encodeURIComponent(game.id)}`, "data-replay": true,
      "aria-label": `Replay game ${game.id}` }, game.id)),
    el("td", { "data-label": "System", "data-col": "system" }, game.system),
    el("td", { "data-label": "Players", "data-col": "players" }, seatCell(game)),
    el("td", { "data-label": "Status", "data-col": "status" }, statusCell(game)),
    el("td", { "data-label": "Length", "data-col": "length" }, lengthText(entry)),
    el("td", { "data-label": "Result", "data-col": "result" }, resultText(game, state.labels.get(game.system))),
    el("td", { "data-label": "Started", "data-col": "started" }, el("time", { datetime: game.created_at }, startedText(game.created_at))),
    el("td", { "data-label": "Tournament", "data-col": "tournament" }, tournamentCell(game)),
  ];
  const row = el("tr", { "data-game-id": game.id, "data-status": isLive(game) ? "live" : (game.metadata || {}).status || "unknown" }, cells);
  const focused = entry.row && entry.row.contains(document.activeElement) ? document.activeElement : null;
  if (entry.row) entry.row.replaceWith(row);
  if (focused && focused.matches("a[data-replay]")) row.querySelector("a[data-replay]").focus(); // keep the keyboard's place
  entry.row = row;
  for (const seat of seatsOf(game)) if (seat.army) state.armies.add(seat.army);
  return row;
}

function refreshArmyList() {
  const list = document.getElementById("known-armies");
  list.replaceChildren(...[...state.armies].sort().map((army) => el("option", { value: army })));
}

function summary() {
  const live = [...state.rows.values()].filter((entry) => isLive(entry.game)).length;
  const shown = state.rows.size;
  const text = shown === 0 ? "No games match these filters."
    : `${shown} game${shown === 1 ? "" : "s"} shown${live ? `, ${live} live` : ""}${state.cursor ? "; more below" : ""}.`;
  document.querySelector("[data-summary]").textContent = text;
  document.querySelector("[data-more]").hidden = !state.cursor;
}

async function loadFirstPage(filters) {
  const generation = ++state.generation;
  const body = document.querySelector("tbody[data-games]");
  document.querySelector("[data-summary]").textContent = "Loading games…";
  main.querySelectorAll(".error").forEach((box) => box.remove());
  try {
    const page = await getJSON(listPath(filters));
    if (generation !== state.generation) return;
    state.rows.clear();
    body.replaceChildren();
    appendPage(page);
  } catch (error) {
    if (generation !== state.generation) return;
    state.rows.clear();
    body.replaceChildren();
    state.cursor = null;
    summary();
    showError(error);
  }
}

function appendPage(page) {
  const body = document.querySelector("tbody[data-games]");
  for (const game of page.games) {
    if (state.rows.has(game.id)) continue;
    const entry = { game, row: null, turn: null };
    state.rows.set(game.id, entry);
    body.append(renderRow(entry));
  }
  state.cursor = page.next_cursor;
  refreshArmyList();
  summary();
}

async function loadMore(button) {
  const generation = state.generation;
  button.disabled = true;
  try {
    const page = await getJSON(listPath(filtersFromUrl(), { cursor: state.cursor }));
    if (generation === state.generation) appendPage(page);
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

// -- live rows ------------------------------------------------------------------------------------------------

async function refreshLive() {
  if (document.visibilityState !== "visible" || state.refreshing) return;
  state.refreshing = true;
  try {
    await refreshRows();
  } finally {
    state.refreshing = false;
  }
}

async function refreshRows() {
  const generation = state.generation;
  const filters = filtersFromUrl();
  try {
    // One request brings the newest games (new ones go on top) and the state of the live ones among them.
    const page = await getJSON(listPath(filters));
    if (generation !== state.generation) return;
    const body = document.querySelector("tbody[data-games]");
    const fresh = [];
    const seen = new Set();
    for (const game of page.games) {
      seen.add(game.id);
      const entry = state.rows.get(game.id);
      if (entry) await update(entry, game);
      else if (!state.rows.size || game.created_at >= [...state.rows.values()][0].game.created_at) fresh.push(game);
    }
    for (const game of fresh.reverse()) {
      const entry = { game, row: null, turn: null };
      state.rows = new Map([[game.id, entry], ...state.rows]);
      body.prepend(renderRow(entry));
      await update(entry, game, true);
    }
    // Live rows further down: each its own summary.
    for (const entry of [...state.rows.values()]) {
      if (seen.has(entry.game.id) || !isLive(entry.game)) continue;
      const one = await getJSON(`/games/${encodeURIComponent(entry.game.id)}`);
      if (generation !== state.generation) return;
      const metadata = { ...entry.game.metadata, status: one.status, winner: one.winner, end_reason: one.end_reason,
        placings: one.placings };
      await update(entry, { ...entry.game, seq: one.seq, metadata });
    }
    refreshArmyList();
    summary();
    document.querySelector("[data-refresh]").textContent = "";
  } catch (error) {
    document.querySelector("[data-refresh]").textContent = `Live rows could not refresh: ${error.message}`;
  }
}

async function update(entry, game, force = false) {
  const changed = force || game.seq !== entry.game.seq || JSON.stringify(game.metadata) !== JSON.stringify(entry.game.metadata);
  if (!changed && (entry.turn !== null || !isLive(game))) return;
  entry.game = game;
  if (isLive(game)) {
    // The turn of a running game is in its state (a spectator's view, public).
    try {
      const view = await getJSON(`/games/${encodeURIComponent(game.id)}/state?view=spectator`);
      entry.turn = typeof view.turn === "number" ? view.turn : null;
    } catch (_) {
      entry.turn = null;
    }
  }
  renderRow(entry);
}

// -- tournaments ----------------------------------------------------------------------------------------------

function renderTournaments(section, tournaments) {
  section.append(tournamentsTable(tournaments),
    el("p", {}, el("a", { href: "/tournaments", "data-all-tournaments": true }, "All tournaments")));
}

// -- the page -------------------------------------------------------------------------------------------------

async function start() {
  main.querySelector("[data-loading]")?.remove();
  const [systems, tournaments] = await Promise.all([
    webSystems().catch((error) => { showError(error); return []; }),
    getJSON("/tournaments?order=newest").then((body) => body.tournaments).catch((error) => { showError(error); return []; }),
  ]);
  for (const t of tournaments) state.tournaments.set(t.id, t.name);
  const labels = await Promise.all(systems.map((s) => labelsOf(s.name)));
  systems.forEach((s, i) => state.labels.set(s.name, labels[i]));
  const form = buildForm(systems);
  const tournamentSelect = form.querySelector("#f-tournament");
  for (const t of tournaments) tournamentSelect.append(el("option", { value: t.id }, t.name));
  const more = el("button", { type: "button", "data-more": true, hidden: true, onclick: (e) => loadMore(e.currentTarget) },
    "More games");
  const tournamentsSection = el("section", { "aria-labelledby": "tournaments-heading" },
    el("h2", { id: "tournaments-heading" }, "Tournaments"));
  main.append(
    form,
    el("p", { class: "muted", "data-summary": true, "aria-live": "polite" }),
    el("div", { class: "table-wrap" }, el("table", { class: "games stack" },
      el("caption", { class: "visually-hidden" }, "Games, newest first"),
      el("thead", {}, el("tr", {}, ["Game", "System", "Players", "Status", "Length", "Result", "Started", "Tournament"]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", { "data-games": true }))),
    el("p", { class: "more" }, more),
    el("p", { class: "muted", "data-refresh": true, "aria-live": "polite" }),
    tournamentsSection,
  );
  renderTournaments(tournamentsSection, tournaments);
  const filters = filtersFromUrl();
  fillForm(filters);
  await loadFirstPage(filters);
  window.addEventListener("popstate", () => {
    const now = filtersFromUrl();
    fillForm(now);
    loadFirstPage(now);
  });
  state.timer = setInterval(refreshLive, REFRESH_MS);
  document.addEventListener("visibilitychange", refreshLive);
}

start().catch((error) => showError(error));
