// /stats/{system}: one game system's statistics (the core's and its own, GET /stats/{system} as JSON) as charts and
// sortable tables with CSV, under the filters of the statistics API, with the sections' navigation beside them
// (above them on a phone). The filters and each statistic's own parameters live in the URL's query, so a view can be
// shared; a system's own statistics are drawn by its statistics module (WebParts.stats), or shown as tables. /stats
// is the index: one entry per system with its finished games. docs/web.md, "The statistics pages".
import { el, showError } from "./page.js";
import { getJSON, webSystems } from "./api.js";
import * as charts from "./charts.js";
import { dataTable } from "./data-table.js";
import { armyName, endReasonName, labelsOf, systemName } from "./labels.js";

const { barChart, heatMatrix, intervalChart, lineChart, number, percent } = charts;
const main = document.querySelector("main");
// cards by name (issue 32): each loaded result's rows with a `card` and its `name` (a system's cards statistic, named
// by the catalogue filtered by); a statistic of one card (Lords of War's heat map) is titled by it (kit.cardName)
const cardNames = new Map();
function rememberCardNames(result) {
  for (const [, rows] of tablesOf(result)) {
    for (const row of rows) if (typeof row.card === "string" && typeof row.name === "string") cardNames.set(row.card, row.name);
  }
}
/** A card's name from the statistics on the page: its id's, else its copies' (orcs/orc-warhog-1: orcs/orc-warhog). */
function cardName(id) {
  if (typeof id !== "string") return null;
  return cardNames.get(id) ?? cardNames.get(id.replace(/-\d+$/, "")) ?? null;
}
/** Whether a row's card is the one in the URL (`card`: a copy's id matches its card's row). */
function isCard(value, card) {
  return Boolean(card) && (value === card || value === card.replace(/-\d+$/, ""));
}
const kit = { el, dataTable, charts, cardName }; // what a system's statistics module is handed (docs/web.md)

// -- the query: filters and parameters ----------------------------------------------------------------------

function query() { return new URLSearchParams(location.search); }

// the system of the page: /stats/{system} (null on the index, /stats)
const pathSystem = (() => {
  const found = location.pathname.match(/^\/stats\/([^/]+)\/?$/);
  return found ? decodeURIComponent(found[1]) : null;
})();
let labels = null; // the page's system's display labels (labels.js): armies, clans and end reasons by name

/** The filters set in the URL (only those the catalogue names), as query parameters for the API; the system is the
 * page's. */
function filterParams(catalogue) {
  const q = query(), out = new URLSearchParams();
  for (const f of catalogue.filters) {
    if (f.name === "system") out.set("system", pathSystem);
    else if (q.get(f.name)) out.set(f.name, q.get(f.name));
  }
  return out;
}

function filtersActive(catalogue) {
  const params = filterParams(catalogue);
  params.delete("system");
  return [...params.keys()].length > 0;
}

function currentSystem() {
  return pathSystem;
}

function setQuery(changes, { replace = false } = {}) {
  const q = query();
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "" || value === false) q.delete(key);
    else q.set(key, value === true ? "true" : String(value));
  }
  const url = `${location.pathname}${q.toString() ? `?${q}` : ""}${location.hash}`;
  if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
}

// -- the filters form -----------------------------------------------------------------------------------------

function filtersForm(catalogue, tournaments, onApply) {
  const q = query();
  const form = el("form", { class: "filters", role: "search", "aria-label": "Statistics filters" });
  const system = currentSystem();
  const armies = catalogue.systems.find((s) => s.name === system)?.armies ?? [];
  const fields = [];
  for (const f of catalogue.filters) {
    const id = `filter-${f.name}`;
    const value = q.get(f.name) ?? "";
    let control;
    if (f.name === "system") {
      continue; // the page's own (its path): the systems' navigation changes it
    } else if (f.name === "tournament") {
      const options = tournaments.filter((t) => t.system === system);
      if (value && !options.some((t) => t.id === value)) options.push({ id: value, name: value });
      control = el("select", { id, name: f.name },
        el("option", { value: "" }, "any"),
        options.map((t) => el("option", { value: t.id, selected: t.id === value }, t.name === t.id ? t.id : `${t.name} (${t.id})`)));
    } else if (f.choices) {
      control = el("select", { id, name: f.name },
        el("option", { value: "" }, "default"),
        f.choices.map((c) => el("option", { value: c, selected: c === value }, c)));
    } else if (f.type === "date") {
      control = el("input", { id, name: f.name, type: "date", value });
    } else if (f.type === "integer") {
      control = el("input", { id, name: f.name, type: "number", inputmode: "numeric", min: f.minimum, max: f.maximum, value, placeholder: String(f.default ?? ""), size: 6 });
    } else {
      const list = f.name === "army" ? armies : null; // the system's known armies (GET /stats)
      control = el("input", { id, name: f.name, type: "text", value, list: list ? `${id}-list` : null, autocomplete: "off",
        placeholder: f.name === "army" || f.name === "variant" || f.name === "rules_version" ? "any" : null });
      if (list) fields.push(el("datalist", { id: `${id}-list` }, list.map((a) => el("option", { value: a }))));
    }
    const label = { date_from: "From", date_to: "To", min_games: "Min. games", rules_version: "Rules version" }[f.name] ??
      f.name[0].toUpperCase() + f.name.slice(1).replace(/_/g, " ");
    fields.push(el("label", { for: id, title: f.description || null }, label, control));
  }
  const apply = el("button", { type: "submit" }, "Apply");
  const reset = el("button", { type: "button" }, "Reset");
  form.append(...fields, el("div", { class: "filter-buttons" }, apply, reset));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const changes = {};
    for (const f of catalogue.filters) {
      const value = String(data.get(f.name) ?? "").trim();
      changes[f.name] = value === String(f.default ?? "") ? null : value;
    }
    onApply(changes);
  });
  reset.addEventListener("click", () => onApply(Object.fromEntries(catalogue.filters.map((f) => [f.name, null]))));
  return form;
}

// -- one section a statistic ----------------------------------------------------------------------------------

/** The section of one statistic: heading, its own parameters' form, and a body that says what it is doing. */
function sectionOf(statistic, onParams) {
  const id = `stat-${statistic.name}`;
  const body = el("div", { class: "stat-body", "aria-live": "polite", "aria-busy": "true" }, el("p", { class: "muted" }, "Loading…"));
  const section = el("section", { id, class: "statistic", "data-statistic": statistic.name, "aria-labelledby": `${id}-h` },
    el("h2", { id: `${id}-h` }, statistic.summary));
  if (statistic.parameters.length) section.append(paramsForm(statistic, onParams));
  section.append(body);
  return { section, body, statistic };
}

const PARAM_LABELS = { limit: "Rows (the top N)", player: "Player", opponent: "Opponent", card: "Card (its id: every copy, or one copy's)" };

function paramsForm(statistic, onParams) {
  const q = query();
  const form = el("form", { class: "filters params", "aria-label": `${statistic.summary}: options` });
  for (const p of statistic.parameters) {
    const id = `${statistic.name}-${p.name}`;
    const label = PARAM_LABELS[p.name] ?? (p.description ? p.description[0].toUpperCase() + p.description.slice(1) : p.name);
    if (p.type === "boolean") {
      form.append(el("label", { class: "check", for: id },
        el("input", { id, name: p.name, type: "checkbox", checked: q.get(p.name) === "true" }), label));
    } else {
      const list = { player: "players-list", opponent: "players-list", card: "cards-list" }[p.name] ?? null;
      form.append(el("label", { for: id }, label,
        el("input", { id, name: p.name, type: p.type === "integer" ? "number" : "text", min: p.minimum, max: p.maximum,
          value: q.get(p.name) ?? "", placeholder: p.default === null ? (p.in_path ? "choose" : "any") : String(p.default),
          list, autocomplete: "off", size: p.type === "integer" ? 6 : 18 })));
    }
  }
  form.append(el("div", { class: "filter-buttons" }, el("button", { type: "submit" }, "Show")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const changes = {};
    for (const p of statistic.parameters) {
      const input = form.elements.namedItem(p.name);
      changes[p.name] = p.type === "boolean" ? input.checked : input.value.trim();
    }
    onParams(changes);
  });
  form.addEventListener("change", (event) => { if (event.target.type === "checkbox") form.requestSubmit(); });
  return form;
}

/** The URL of a statistic under the filters and its parameters; null when a path parameter is not chosen. */
function urlOf(statistic, catalogue, fallback = {}) {
  const q = query(), params = filterParams(catalogue);
  let path = statistic.path;
  for (const p of statistic.parameters) {
    const value = q.get(p.name) || fallback[p.name] || "";
    if (p.in_path) {
      if (!value) return null;
      path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    } else if (value) params.set(p.name, value);
  }
  return `${path}${params.toString() ? `?${params}` : ""}`;
}

// -- drawing a result -----------------------------------------------------------------------------------------

/** The result's tables: each list of row objects, and each object (first-player's overall) as one row. */
function tablesOf(result) {
  const tables = [];
  for (const [key, value] of Object.entries(result)) {
    if (key === "filters") continue;
    if (Array.isArray(value) && (value.length === 0 || typeof value[0] === "object")) tables.push([key, value]);
    else if (value && typeof value === "object" && !Array.isArray(value)) tables.push([key, [value]]);
  }
  return tables;
}

function scalarsOf(result) {
  return Object.entries(result).filter(([key, value]) => key !== "filters" && (value === null || typeof value !== "object"));
}

const TABLE_NAMES = { rows: "", by_army: "by army", overall: "overall" };
// a column whose field name does not say what it holds, titled per statistic (every column has a title)
const TITLES = {
  "l5r-duels-difference": { key: "stat difference" },
  "l5r-duels-focuses": { key: "focus cards laid" },
  "l5r-challenger": { key: "challenger's clan" },
};
// columns of codes shown by their display names (the system's labels); the CSV keeps the codes
const NAMES = {
  army: (code) => armyName(labels, code), opponent_army: (code) => armyName(labels, code),
  faction: (code) => armyName(labels, code), clan: (code) => armyName(labels, code),
  end_reason: (code) => endReasonName(labels, code),
};
const ROW_LINKS = {
  player: (value) => `?${withQuery({ player: value })}#stat-rating-history`,
  opponent: (value) => `?${withQuery({ player: value })}#stat-rating-history`,
  game_id: (value) => `/replay/${encodeURIComponent(value)}`,
};
function withQuery(changes) {
  const q = query();
  for (const [k, v] of Object.entries(changes)) q.set(k, v);
  return q.toString();
}

function isEmpty(result) {
  if (typeof result.games === "number" && result.games === 0) return true;
  const tables = tablesOf(result);
  return tables.length > 0 && tables.every(([, rows]) => rows.length === 0);
}

function emptyMessage(statistic, catalogue, result) {
  if (statistic.name === "rating-history") return `No rated games yet for ${result.player}.`;
  if (statistic.name === "multiplayer-ratings" && result.games === 0) return "No games yet with more than two seats.";
  return filtersActive(catalogue) ? "No games yet that match these filters." : "No games yet.";
}

/** Charts of the core's statistics: (result) -> [svg, ...] (each with its <title>/<desc>). */
const CORE_CHARTS = {
  armies(result) {
    return [intervalChart(result.rows.map((r) => ({ key: r.army, label: armyName(labels, r.army), value: r.win_rate, low: r.low, high: r.high, note: `${r.wins} wins of ${r.games} games` })), {
      title: "Win rate by army", valueName: "win rate", reference: 0.5,
      description: `Win rate of each army over ${result.games} finished games (mirror matches left out), with 95% Wilson intervals; the dashed line is 50%.`,
    })];
  },
  matchups(result) {
    const cells = new Map(result.rows.map((r) => [`${r.army}\u0000${r.opponent_army}`, r]));
    const armies = result.armies;
    const name = (army) => armyName(labels, army);
    return [heatMatrix(armies, armies, (a, b) => {
      const r = cells.get(`${a}\u0000${b}`);
      if (!r) return null;
      if (a === b) { // a mirror: each game once, no army's edge over itself
        return {
          rate: null, count: r.games, text: "mirror",
          title: `${name(a)} against ${name(a)} (a mirror): ${r.games} ${r.games === 1 ? "game" : "games"}, ${r.draws} drawn`,
          data: { "data-row": a, "data-column": b, "data-count": r.games, "data-mirror": "true" },
        };
      }
      return {
        rate: r.win_rate, count: r.games,
        title: `${name(a)} against ${name(b)}: ${r.wins} wins, ${r.losses} losses, ${r.draws} draws in ${r.games} games, win rate ${percent(r.win_rate)} (95% interval ${percent(r.low)} to ${percent(r.high)})`,
        data: { "data-row": a, "data-column": b, "data-win-rate": r.win_rate, "data-count": r.games },
      };
    }, {
      title: "Matchups: win rate of the row's army against the column's", rowName: "army", columnName: "against", name,
      description: `Each cell: the row army's win rate against the column army and the games played; red below 50%, blue above; a dash: no games; the diagonal: mirror games, each counted once. ${result.games} games.`,
    })];
  },
  "first-player"(result) {
    const items = [result.overall, ...result.by_army].filter((r) => r.games > 0)
      .map((r) => ({ key: r.army ?? "all armies", label: r.army === null ? "all armies" : armyName(labels, r.army), strong: r.army === null, value: r.win_rate, low: r.low, high: r.high, note: `${r.wins} wins of ${r.games} games` }));
    return [intervalChart(items, {
      title: "Win rate of the player who went first", valueName: "first player's win rate", reference: 0.5,
      description: "Overall and by the first player's army, with 95% Wilson intervals; above the dashed 50% line the first player has the advantage.",
    })];
  },
  "game-length"(result) {
    return [barChart(result.rows.map((r) => ({ x: r.turns, count: r.games, label: `${r.turns} turns: ${r.games} ${r.games === 1 ? "game" : "games"} (${percent(r.share)})` })), {
      title: "Game length", xName: "turns", yName: "games",
      description: `Games by number of turns over ${result.games} games: mean ${number(result.mean, 1)}, median ${result.median}, from ${result.min} to ${result.max}.`,
    })];
  },
  "end-reasons"(result) {
    return [intervalChart(result.rows.map((r) => ({ label: `${endReasonName(labels, r.end_reason)}${r.adjudication ? ` (${r.adjudication})` : ""}`, value: r.share, low: r.low, high: r.high, note: `${r.games} of ${result.games} games` })), {
      title: "How games end", valueName: "share of games",
      description: `The share of ${result.games} games ended by each reason, with 95% Wilson intervals.`,
    })];
  },
  "rating-history"(result) {
    if (!result.rows.length) return [];
    const points = [{ y: result.rows[0].before, label: `${result.player} starts at ${number(result.rows[0].before)}` },
      ...result.rows.map((r, i) => ({
        y: r.after, className: r.result,
        label: `game ${i + 1} (${r.ended_at.slice(0, 10)}): ${r.result} against ${r.opponent} (${number(r.opponent_before)}), ${number(r.before)} → ${number(r.after)}`,
      }))];
    return [lineChart(points, {
      title: `Rating history of ${result.player}`, xName: "rated games played", yName: "Elo rating", reference: 1500,
      description: `${result.player}'s Elo rating after each of ${result.rows.length} rated games, now ${number(result.rating)}; the dashed line is the start, 1500.`,
    })];
  },
};

/** A sentence saying the headline number in words, where a statistic has one. */
const SUMMARIES = {
  "first-player"(result) {
    const o = result.overall;
    if (!o.games) return null;
    return `The player who went first won ${o.wins} of ${o.games} games: ${percent(o.win_rate)} (95% interval ${percent(o.low)} to ${percent(o.high)}).`;
  },
  "game-length"(result) {
    return `Games last ${number(result.mean, 1)} turns on average (median ${result.median}; 10% of games end by turn ${result.p10}, 90% by turn ${result.p90}).`;
  },
};

function drawResult(entry, result, catalogue, systemModule) {
  const { statistic, body } = entry;
  const parts = [];
  const scalars = scalarsOf(result);
  if (scalars.length) {
    parts.push(el("dl", { class: "stat-facts" }, scalars.map(([k, v]) => el("div", {}, el("dt", {}, k.replace(/_/g, " ")),
      el("dd", { "data-fact": k }, v === null ? "—" : typeof v === "boolean" ? (v ? "yes" : "no") : typeof v === "number" ? number(v) : String(v))))));
  }
  if (isEmpty(result)) {
    parts.push(el("p", { class: "empty-note", "data-empty": "" }, emptyMessage(statistic, catalogue, result)));
    body.replaceChildren(...parts);
    return;
  }
  let charts = [];
  if (statistic.system && systemModule && typeof systemModule.draw === "function") {
    const host = el("div", { class: "system-chart" });
    const alternative = systemModule.draw(statistic.name, host, result, kit);
    if (alternative !== null && alternative !== undefined) charts = [host, el("p", { class: "visually-hidden" }, alternative)];
  } else if (CORE_CHARTS[statistic.name]) {
    charts = CORE_CHARTS[statistic.name](result).map((svg) => el("div", { class: "chart-wrap" }, svg));
  }
  const words = SUMMARIES[statistic.name]?.(result);
  if (words) parts.push(el("p", { class: "summary-words" }, words));
  parts.push(...charts);
  const tables = [];
  for (const [key, rows] of tablesOf(result)) {
    if (!rows.length) continue;
    const suffix = TABLE_NAMES[key] ?? key.replace(/_/g, " ");
    const caption = `${statistic.summary}${suffix ? ` (${suffix})` : ""}`;
    const filename = `warlog-${statistic.name}${key === "rows" ? "" : `-${key.replace(/_/g, "-")}`}.csv`;
    const titles = { key: "group", ...TITLES[statistic.name] };
    const names = statistic.name === "l5r-challenger" ? { ...NAMES, key: NAMES.clan } : NAMES;
    tables.push(dataTable(rows, { caption, filename, links: ROW_LINKS, titles, names }));
  }
  // a chart's tables are its data (and text alternative), one click away; a statistic without a chart shows them
  if (charts.length && tables.length) {
    parts.push(el("details", { class: "table-details" },
      el("summary", {}, tables.length === 1 ? "The chart's data as a table (CSV)" : `The chart's data as ${tables.length} tables (CSV)`), tables));
  } else parts.push(...tables);
  body.replaceChildren(...parts);
}

// -- the page -------------------------------------------------------------------------------------------------

/** /stats: one entry per game system, its name, its finished games and its own statistics, linking to its page. */
async function startIndex() {
  const catalogue = await getJSON("/stats");
  const entries = await Promise.all(catalogue.systems.map(async ({ name }) => {
    const [named, counted] = await Promise.all([
      labelsOf(name), getJSON(`/stats/end-reasons?system=${encodeURIComponent(name)}`).catch(() => null)]);
    const own = catalogue.statistics.filter((s) => s.system === name).map((s) => s.summary.replace(/^[^:]*: /, ""));
    const games = counted ? counted.games : null;
    return el("li", { class: "system-entry", "data-system": name },
      el("h2", {}, el("a", { href: `/stats/${encodeURIComponent(name)}` }, systemName(named, name))),
      el("p", { class: "muted" }, games === null ? "" : `${number(games)} finished ${games === 1 ? "game" : "games"}`),
      own.length ? el("p", {}, `Its own: ${own.join("; ")}.`) : null);
  }));
  main.append(el("p", {}, "Each game system's statistics on a page of their own: win rates by army, matchups, the first player's edge, game length, how games end, ratings and head-to-head records, and the system's own."),
    el("ul", { class: "system-index" }, entries));
}

/** The systems' navigation of a system's page: a link to each other system's page, the current one marked. */
function systemsNav(catalogue, named) {
  return el("nav", { class: "system-tabs", "aria-label": "Game systems" }, el("ul", {},
    catalogue.systems.map(({ name }) => el("li", {}, el("a", {
      href: `/stats/${encodeURIComponent(name)}`, "aria-current": name === pathSystem ? "page" : null,
    }, named.get(name) ?? name)))));
}

const PLAYER_STATISTICS = new Set(["ratings", "rating-history", "head-to-head", "multiplayer-ratings"]);

/** The sections' navigation, in three groups: the games (the core's), the system's own, the players. */
function sectionsNav(entries, title) {
  const groups = [["Games", (s) => s.system === null && !PLAYER_STATISTICS.has(s.name)], [title, (s) => s.system !== null],
    ["Players", (s) => s.system === null && PLAYER_STATISTICS.has(s.name)]];
  return groups.map(([name, belongs]) => {
    const shown = entries.filter((e) => belongs(e.statistic));
    if (!shown.length) return null;
    return el("div", { class: "toc-group" }, el("p", { class: "toc-title" }, name),
      el("ul", {}, shown.map((e) => el("li", {}, el("a", { href: `#${e.section.id}` }, e.statistic.summary.replace(/^[^:]*: /, ""))))));
  });
}

/** The section in view, marked in the contents with aria-current="location": the last section whose top is in the
 * window's top third; at the page's end, the fragment's section when it is further down and in view (a short last
 * section cannot scroll to the top). Follows scrolling and fragment changes (a link, Back, a shared URL). */
function markSectionInView(toc) {
  cancelAnimationFrame(markSectionInView.frame);
  markSectionInView.frame = requestAnimationFrame(() => {
    const links = [...toc.querySelectorAll("a[href^='#']")];
    const tops = links.map((a) => document.getElementById(a.getAttribute("href").slice(1))?.getBoundingClientRect());
    let at = 0;
    tops.forEach((box, i) => { if (box && box.top <= Math.max(80, innerHeight / 3)) at = i; });
    const hashed = links.findIndex((a) => a.getAttribute("href") === decodeURIComponent(location.hash));
    const end = innerHeight + scrollY >= document.documentElement.scrollHeight - 2;
    if (hashed > at && end && tops[hashed] && tops[hashed].top < innerHeight) at = hashed;
    links.forEach((a, i) => {
      if (i === at) a.setAttribute("aria-current", "location"); else a.removeAttribute("aria-current");
    });
    // on a phone the contents are a strip that scrolls sideways: keep the marked entry in it
    const box = links[at]?.getBoundingClientRect(), strip = toc.getBoundingClientRect();
    if (box && toc.scrollWidth > toc.clientWidth && (box.left < strip.left || box.right > strip.right)) {
      toc.scrollLeft += box.left - strip.left - 16;
    }
  });
}

async function start() {
  const t0 = performance.now();
  if (pathSystem === null) {
    try {
      await startIndex();
    } catch (error) {
      showError(error);
    }
    main.querySelector("[data-loading]")?.remove();
    document.documentElement.dataset.ready = "true";
    return;
  }
  let catalogue, systems, tournaments;
  try {
    [catalogue, systems, tournaments, labels] = await Promise.all([
      getJSON(`/stats/${encodeURIComponent(pathSystem)}`), webSystems(),
      getJSON("/tournaments?limit=1000").then((t) => t.tournaments, () => []), labelsOf(pathSystem),
    ]);
  } catch (error) {
    main.querySelector("[data-loading]")?.remove();
    showError(error);
    document.documentElement.dataset.ready = "error";
    return;
  }
  main.querySelector("[data-loading]")?.remove();
  const all = await getJSON("/stats").catch(() => catalogue); // every system, for the systems' navigation
  const named = new Map(await Promise.all(all.systems.map(async ({ name }) => [name, systemName(await labelsOf(name), name)])));
  const title = named.get(pathSystem) ?? pathSystem;
  main.querySelector("h1").textContent = `Statistics: ${title}`;
  document.title = `${title} · Statistics · warlog`;

  const filterHost = el("div", { class: "filter-host" });
  const sample = el("p", { class: "sample", "aria-live": "polite" });
  const errors = el("div", { class: "page-errors" });
  const toc = el("nav", { class: "toc", "aria-label": "Statistics on this page" });
  const sectionsHost = el("div", { class: "sections" });
  const lists = el("div", { hidden: true }, el("datalist", { id: "players-list" }), el("datalist", { id: "cards-list" }));
  main.append(systemsNav(all, named), filterHost, sample, errors,
    el("div", { class: "stats-layout" }, toc, sectionsHost), lists);

  let entries = [];
  let generation = 0;

  async function loadSection(entry, system, module, fallback) {
    const url = urlOf(entry.statistic, catalogue, fallback);
    entry.body.setAttribute("aria-busy", "true");
    if (url === null) {
      entry.body.replaceChildren(el("p", { class: "empty-note", "data-empty": "" }, "No games yet: choose a player above once games are rated."));
      entry.body.setAttribute("aria-busy", "false");
      return null;
    }
    try {
      const result = await getJSON(url);
      rememberCardNames(result);
      drawResult(entry, result, catalogue, module);
      return result;
    } catch (error) {
      entry.body.replaceChildren();
      showError(error, entry.body);
      return null;
    } finally {
      entry.body.setAttribute("aria-busy", "false");
    }
  }

  const catalogueNames = new Map(); // catalogue id -> its name (GET /catalogues)
  /** The catalogue filter shown in words, "Catalogue: <name>", with a button that clears it (issue 32). */
  async function catalogueChip() {
    const id = query().get("catalogue");
    if (!id) return null;
    if (!catalogueNames.has(id)) {
      const listed = await getJSON(`/catalogues?system=${encodeURIComponent(pathSystem)}`).catch(() => ({ catalogues: [] }));
      for (const c of listed.catalogues || []) catalogueNames.set(c.id, c.name);
    }
    const name = catalogueNames.get(id) ?? id;
    const clear = el("button", { type: "button", "aria-label": `Clear the catalogue filter (${name})` }, "Clear");
    clear.addEventListener("click", () => { setQuery({ catalogue: null }); render(); });
    return el("p", { class: "active-filter", "data-active-filter": "catalogue" },
      "Catalogue: ", el("a", { href: `/catalogues/${encodeURIComponent(id)}` }, name), " ", clear);
  }

  async function render() {
    const mine = ++generation;
    shownQuery = location.search;
    document.documentElement.dataset.ready = "false";
    const system = currentSystem();
    cardNames.clear();
    const chip = await catalogueChip();
    if (mine !== generation) return;
    filterHost.replaceChildren(...[chip].filter(Boolean),
      filtersForm(catalogue, tournaments, (changes) => { setQuery(changes); render(); }));
    errors.replaceChildren();
    const web = systems.find((s) => s.name === system);
    let module = null;
    if (web && web.stats) {
      try { module = await import(web.stats); } catch (error) { showError(new Error(`The drawing of ${system}'s statistics did not load (${error.message}); they are shown as tables.`), errors); }
    }
    const shown = catalogue.statistics.filter((s) => s.system === null || s.system === system);
    entries = shown.map((s) => sectionOf(s, (changes) => {
      setQuery(changes);
      shownQuery = location.search;
      const names = Object.keys(changes);
      const affected = entries.filter((e) => e.statistic.parameters.some((p) => names.includes(p.name)));
      Promise.all(affected.map((e) => loadSection(e, system, module, {}))).then(() => afterLoad());
    }));
    toc.replaceChildren(...sectionsNav(entries, title).filter(Boolean));
    markSectionInView(toc);
    sectionsHost.replaceChildren(...entries.map((e) => e.section));

    // the first statistic checks the filters: a bad filter is one message, not one per statistic
    const [first, ...rest] = entries;
    const firstResult = await loadSection(first, system, module, {});
    if (mine !== generation) return;
    if (firstResult === null && first.body.querySelector(".error")) {
      sample.textContent = "";
      for (const e of rest) e.body.replaceChildren(el("p", { class: "muted" }, "Not shown: the filters were refused (see above)."));
      document.documentElement.dataset.ready = "true";
      return;
    }
    sample.textContent = firstResult ? `${number(firstResult.games)} finished ${firstResult.games === 1 ? "game" : "games"} of ${title} match these filters.` : "";
    // rating history: without a chosen player, the leader of the ratings
    const ratingsEntry = rest.find((e) => e.statistic.name === "ratings");
    const ratingsDone = ratingsEntry ? loadSection(ratingsEntry, system, module, {}) : Promise.resolve(null);
    // a statistic of one card waits for the system's cards statistic: the card's name for its title
    const namer = rest.find((e) => e.statistic.system && /(^|-)cards$/.test(e.statistic.name));
    const namesDone = namer ? loadSection(namer, system, module, {}) : Promise.resolve(null);
    await Promise.all(rest.map((e) => {
      if (e === ratingsEntry) return ratingsDone;
      if (e === namer) return namesDone;
      if (e.statistic.parameters.some((p) => p.name === "card")) return namesDone.then(() => loadSection(e, system, module, {}));
      if (e.statistic.name === "rating-history") {
        return ratingsDone.then((ratings) => {
          const leader = ratings?.rows?.[0]?.player;
          const input = e.section.querySelector('input[name="player"]');
          if (leader && input) input.placeholder = `${leader} (the leader)`;
          return loadSection(e, system, module, { player: leader });
        });
      }
      return loadSection(e, system, module, {});
    }));
    if (mine !== generation) return;
    afterLoad();
    markSectionInView(toc); // the sections have their height now
    const ms = performance.now() - t0;
    document.documentElement.dataset.ready = "true";
    document.documentElement.dataset.loadMs = String(Math.round(ms));
  }

  function afterLoad() {
    // suggestions for the player and card inputs, from the tables on the page
    const players = new Set([...document.querySelectorAll('td[data-column="player"], td[data-column="opponent"]')].map((td) => td.dataset.value));
    lists.querySelector("#players-list").replaceChildren(...[...players].sort().map((p) => el("option", { value: p })));
    const cards = new Set([...document.querySelectorAll('[data-statistic="cards"] td[data-column="card"]')].map((td) => td.dataset.value));
    if (cards.size) lists.querySelector("#cards-list").replaceChildren(...[...cards].sort().map((c) => el("option", { value: c })));
    // the card a link names (a catalogue page's: ?card=...) highlighted in the tables
    const card = query().get("card");
    for (const td of document.querySelectorAll('td[data-column="card"]')) {
      const row = td.closest("tr");
      if (isCard(td.dataset.value, card)) row.dataset.highlighted = "true"; else delete row.dataset.highlighted;
    }
  }

  // Back/Forward between views; a fragment link (the contents) also fires popstate: the query did not change then
  let shownQuery = location.search;
  window.addEventListener("popstate", () => { if (location.search !== shownQuery) render(); });
  for (const moved of ["scroll", "resize", "hashchange"]) window.addEventListener(moved, () => markSectionInView(toc), { passive: true });
  await render();
  if (location.hash) document.querySelector(location.hash)?.scrollIntoView();
}

start();
