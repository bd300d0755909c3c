// A catalogue's page (/catalogues/{id} to a browser, issue 30): its name, system, version, id and what it says of
// itself, then every list it holds as a table with every field (cards grouped by kind where they have one: L5R's
// kinds, HeroScape's heroes and squads), each card linked to its statistics on the system's statistics page
// (filtered by this catalogue), and its maps drawn by the system's own board drawing (Light Wars, HeroScape).
// Reads the JSON of the same path (GET /catalogues/{id}) and the system's statistics (GET /stats/{system}).
import { getJSON, webSystems } from "./api.js";
import { el, showError } from "./page.js";
import { labelsOf, systemName } from "./labels.js";
import { BoardFrame } from "./board-frame.js";
import { CARD_LISTS, LIST_WORDS, fieldName, lists, valueText } from "./catalogue-kit.js";

const main = document.querySelector("main");
const catalogueId = decodeURIComponent(location.pathname.replace(/^\/catalogues\//, "").replace(/\/$/, ""));
const LONG = 12; // a list field longer than this is counted, not written out (a map's hexes)

/** How the system's cards link to their statistics: {statistic, byCard} (byCard: the statistic takes `card`), or
 * null when the system has no statistics per card. */
function cardStatistic(statistics, system) {
  const own = statistics.filter((s) => s.system === system);
  const byCard = own.find((s) => (s.parameters || []).some((p) => p.name === "card"));
  if (byCard) return { statistic: byCard.name, byCard: true };
  const cards = own.find((s) => /(^|-)cards$/.test(s.name));
  return cards ? { statistic: cards.name, byCard: false } : null;
}

function statsUrl(system, query, statistic) {
  const q = new URLSearchParams({ catalogue: catalogueId, ...query });
  return `/stats/${encodeURIComponent(system)}?${q}${statistic ? `#stat-${statistic}` : ""}`;
}

/** A field's value in a table cell: a long list counted (a map's hexes), else in words. */
function cellText(key, value, document_) {
  if (Array.isArray(value) && value.length > LONG && !value.every((v) => v && typeof v === "object" && "card" in v)) {
    return `${value.length} ${key === "cells" ? "hexes" : "entries"}`;
  }
  if (key === "start_zones" && value && typeof value === "object") {
    return Object.entries(value).map(([seat, hexes]) => `${seat} ${Array.isArray(hexes) ? hexes.length : "?"} hexes`).join(" · ");
  }
  return valueText(value, document_);
}

/** One table of entries: the name as the row's header, then every other field; a statistics column for cards. */
function entriesTable(entries, document_, link) {
  const keys = [];
  for (const entry of entries) for (const key of Object.keys(entry)) if (!["id", "name", "about"].includes(key) && !keys.includes(key)) keys.push(key);
  const head = ["Name", ...keys.map(fieldName), ...(link ? ["Statistics"] : [])];
  const rows = entries.map((entry) => {
    const label = entry.name ?? entry.id ?? "";
    return el("tr", { "data-entry": entry.id ?? entry.name ?? null },
      el("th", { scope: "row", "data-label": "Name" }, el("span", { "data-name": "" }, label),
        entry.id && entry.id !== label ? [" ", el("code", { class: "entry-id", title: "its id in games and statistics" }, entry.id)] : null),
      keys.map((key) => {
        const text = cellText(key, entry[key], document_);
        const kind = typeof entry[key] === "number" ? "num" : text.length > 60 ? "long" : null;
        return el("td", { "data-label": fieldName(key), "data-field": key, class: kind }, text);
      }),
      link ? el("td", { "data-label": "Statistics" }, el("a", { href: link(entry), "data-stats-link": "",
        "aria-label": `Statistics of ${label}` }, "Statistics")) : null);
  });
  return el("div", { class: "table-wrap" }, el("table", { class: "stack catalogue-entries" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows)));
}

/** A map drawn by the system's board (its draw(host, state) with only the map in the state). */
function mapDrawing(board, map, system) {
  const host = el("div", { class: "board-host catalogue-map", "data-map": map.name ?? map.id ?? "" });
  const frame = new BoardFrame(host);
  const wrap = el("figure", { class: "catalogue-map-figure" }, el("figcaption", {}, el("strong", {}, map.name ?? map.id)),
    frame.tools, host);
  try {
    board.draw(host, { map, units: [], figures: [], seats: [], phase: "the map", turn: 0, round: 0 }, { system });
    const desc = host.querySelector("svg desc");
    if (desc) desc.textContent = `The map ${map.name ?? map.id}`;
    // the drawing's name: the replay page names a board by its text beside it; here, by the map (axe: svg-img-alt)
    const image = host.querySelector("svg[role='img']");
    if (image && !image.hasAttribute("aria-labelledby")) image.setAttribute("aria-label", `The map ${map.name ?? map.id}`);
    requestAnimationFrame(() => frame.framed());
  } catch (error) {
    host.replaceChildren(el("p", { class: "error" }, `This map could not be drawn: ${error.message}`));
  }
  return wrap;
}

async function boardOf(system) {
  const entry = (await webSystems()).find((s) => s.name === system);
  if (!entry || !entry.board) return null;
  try {
    return await import(entry.board);
  } catch (error) {
    console.warn(`the ${system} drawing could not be loaded`, error);
    return null;
  }
}

async function start() {
  const document_ = await getJSON(`/catalogues/${encodeURIComponent(catalogueId)}`);
  const system = document_.system;
  const [labels, stats, listed, board] = await Promise.all([labelsOf(system),
    getJSON(`/stats/${encodeURIComponent(system)}`).catch(() => ({ statistics: [] })),
    getJSON(`/catalogues?system=${encodeURIComponent(system)}`).catch(() => ({ catalogues: [] })),
    lists(document_).some(([key]) => key === "maps") ? boardOf(system) : null]);
  const named = systemName(labels, system);
  const isDefault = listed.catalogues.some((c) => c.id === catalogueId && c.default);
  document.title = `${document_.name} · Catalogue · warlog`;
  main.querySelector("h1").textContent = document_.name;
  main.querySelector("[data-loading]")?.remove();
  const perCard = cardStatistic(stats.statistics || [], system);
  main.append(el("dl", { class: "catalogue-facts" },
    el("dt", {}, "System"), el("dd", {}, named),
    el("dt", {}, "Version"), el("dd", {}, document_.version),
    el("dt", {}, "Id"), el("dd", {}, el("code", {}, catalogueId), isDefault ? " (the system's default: its built-in data)" : ""),
    document_.about ? [el("dt", {}, "About"), el("dd", {}, document_.about)] : null));
  main.append(perCard
    ? el("p", { class: "muted", "data-stats-note": "" }, `Each card links to ${named}'s statistics of it in the games played on this catalogue.`)
    : el("p", { class: "catalogue-note", "data-stats-note": "" }, `${named} has no statistics per card yet: see `,
      el("a", { href: statsUrl(system, {}) }, `${named}'s statistics of the games played on this catalogue`), "."));
  const sections = [];
  for (const [key, entries] of lists(document_)) {
    const words = LIST_WORDS[key] ?? fieldName(key);
    const title = words[0].toUpperCase() + words.slice(1);
    const link = perCard && CARD_LISTS.includes(key)
      ? (entry) => statsUrl(system, { card: entry.id }, perCard.statistic) : null; // the card highlighted there
    const section = el("section", { id: `list-${key}`, "data-list": key, "aria-labelledby": `list-${key}-h` },
      el("h2", { id: `list-${key}-h` }, `${title} (${entries.length})`));
    if (key === "maps" && board) for (const map of entries) section.append(mapDrawing(board, map, system));
    const kinds = [...new Set(entries.map((e) => e.kind).filter((k) => typeof k === "string"))];
    if (kinds.length > 1) {
      for (const kind of kinds) {
        const of = entries.filter((e) => e.kind === kind);
        section.append(el("h3", { "data-kind": kind }, `${kind[0].toUpperCase()}${kind.slice(1)} (${of.length})`),
          entriesTable(of, document_, link));
      }
    } else {
      section.append(entriesTable(entries, document_, link));
    }
    sections.push(section);
  }
  if (sections.length > 1) {
    main.append(el("nav", { "aria-label": "In this catalogue", class: "catalogue-nav" }, el("ul", {},
      sections.map((s) => el("li", {}, el("a", { href: `#${s.id}` }, s.querySelector("h2").textContent))))));
  }
  main.append(...sections);
  document.documentElement.dataset.ready = "true";
}

start().catch((error) => {
  main.querySelector("[data-loading]")?.remove();
  showError(error);
});
