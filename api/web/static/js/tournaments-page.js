// The tournaments page (/tournaments to a browser): running tournaments first, then the rest newest first, each
// linked to its page; filters by system and by the day it was created (from, to), kept in the URL's query.
// Reads GET /tournaments (the same path as JSON) with the filters, order=newest.
import { getJSON, webSystems } from "./api.js";
import { el, showError } from "./page.js";
import { tournamentsTable } from "./tournaments.js";

const LIMIT = 1000; // the route's most
const FILTERS = ["system", "from", "to"];
const main = document.querySelector("main");
let list = null;

function filtersOf(search) {
  const query = new URLSearchParams(search);
  return Object.fromEntries(FILTERS.map((name) => [name, query.get(name) || ""]));
}

function buildForm(systems) {
  const form = el("form", { class: "filters", role: "search", "aria-label": "Filter tournaments", "data-filters": true },
    el("label", { for: "f-system" }, "System", el("select", { id: "f-system", name: "system" },
      el("option", { value: "" }, "All systems"), systems.map((s) => el("option", { value: s.name }, s.name)))),
    el("label", { for: "f-from" }, "From", el("input", { id: "f-from", name: "from", type: "date" })),
    el("label", { for: "f-to" }, "To", el("input", { id: "f-to", name: "to", type: "date" })),
    el("div", { class: "filter-buttons" },
      el("button", { type: "submit" }, "Filter"),
      el("button", { type: "button", "data-clear": true, onclick: () => apply({ system: "", from: "", to: "" }) }, "Clear")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    apply(Object.fromEntries(FILTERS.map((name) => [name, String(data.get(name) || "").trim()])));
  });
  return form;
}

function fill(filters) {
  for (const name of FILTERS) document.getElementById(`f-${name}`).value = filters[name];
}

function apply(filters) {
  const query = new URLSearchParams();
  for (const name of FILTERS) if (filters[name]) query.set(name, filters[name]);
  const url = query.toString() ? `/tournaments?${query}` : "/tournaments";
  if (url !== location.pathname + location.search) history.pushState(null, "", url);
  show(filters);
}

async function show(filters) {
  fill(filters);
  const query = new URLSearchParams({ order: "newest", limit: String(LIMIT) });
  for (const name of FILTERS) if (filters[name]) query.set(name, filters[name]);
  main.querySelector(".error")?.remove();
  let body;
  try {
    body = await getJSON(`/tournaments?${query}`);
  } catch (error) {
    showError(error);
    return;
  }
  // running first, then the rest newest first (the route's order; sort is stable)
  const rows = [...body.tournaments].sort((a, b) => (b.status === "running") - (a.status === "running"));
  const count = rows.length;
  const filtered = FILTERS.some((name) => filters[name]);
  list.replaceChildren(
    el("p", { class: "muted", "data-count": true },
      `${count === 1 ? "One tournament" : `${count} tournaments`}${filtered ? " match the filters" : ""}.`),
    tournamentsTable(rows, "Tournaments: running first, then newest first"));
}

async function start() {
  const systems = await webSystems();
  main.querySelector("[data-loading]")?.remove();
  list = el("section", { "data-tournaments": true, "aria-label": "Tournaments" });
  main.append(buildForm(systems), list);
  window.addEventListener("popstate", () => show(filtersOf(location.search)));
  await show(filtersOf(location.search));
}

start().catch((error) => {
  main.querySelector("[data-loading]")?.remove();
  showError(error);
});
