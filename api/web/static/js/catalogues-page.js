// The catalogues page (/catalogues to a browser, issue 30): each system's default catalogue and the stored ones
// (GET /catalogues, the JSON of the same path), each with its system, name, version, id and how many cards it
// holds, linked to its page. The counts come from each document (GET /catalogues/{id}), read a few at a time
// after the table is shown: the list's JSON has no counts, and the documents are small (2 MB at most).
import { getJSON } from "./api.js";
import { el, showError } from "./page.js";
import { labelsOf, systemName } from "./labels.js";
import { cardCount, holdings } from "./catalogue-kit.js";

const AT_ONCE = 4; // documents read at the same time

async function start() {
  const main = document.querySelector("main");
  const { catalogues } = await getJSON("/catalogues");
  const names = new Map(await Promise.all([...new Set(catalogues.map((c) => c.system))]
    .map(async (system) => [system, systemName(await labelsOf(system), system)])));
  main.querySelector("[data-loading]")?.remove();
  const counts = new Map();
  const rows = catalogues.map((c) => {
    const cards = el("td", { "data-label": "Cards", "data-col": "cards", class: "num" }, "…");
    const holds = el("td", { "data-label": "Holds", "data-col": "holds" }, "…");
    counts.set(c.id, { cards, holds });
    return el("tr", { "data-catalogue": c.id, "data-system": c.system },
      el("td", { "data-label": "System", "data-col": "system" }, names.get(c.system)),
      el("th", { scope: "row", "data-label": "Name", "data-col": "name" },
        el("a", { href: `/catalogues/${encodeURIComponent(c.id)}` }, c.name),
        c.default ? [" ", el("span", { class: "badge", title: "the system's built-in data" }, "default")] : null),
      el("td", { "data-label": "Version", "data-col": "version" }, c.version),
      el("td", { "data-label": "Id", "data-col": "id" }, el("code", {}, c.id)),
      cards, holds);
  });
  const count = catalogues.length;
  main.append(el("section", { "data-catalogues": true, "aria-label": "Catalogues" },
    el("p", { class: "muted" }, `${count === 1 ? "One catalogue" : `${count} catalogues`}: each system's built-in data `
      + "(its default catalogue) and the catalogues brought by users (POST /catalogues, warlog catalogue import)."),
    el("div", { class: "table-wrap" }, el("table", { class: "stack catalogues" },
      el("thead", {}, el("tr", {}, ["System", "Name", "Version", "Id", "Cards", "Holds"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows)))));
  const queue = [...catalogues];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const cells = counts.get(c.id);
      try {
        const document_ = await getJSON(`/catalogues/${encodeURIComponent(c.id)}`);
        cells.cards.textContent = String(cardCount(document_));
        cells.holds.textContent = holdings(document_);
      } catch (error) {
        cells.cards.textContent = "?";
        cells.holds.textContent = `could not be read: ${error.message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  document.documentElement.dataset.ready = "true";
}

start().catch((error) => {
  document.querySelector("main [data-loading]")?.remove();
  showError(error);
});
