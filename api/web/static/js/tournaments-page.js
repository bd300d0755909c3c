// The tournaments page (/tournaments to a browser): every tournament, newest first, each linked to its page.
// Reads the JSON of the same path (GET /tournaments).
import { getJSON } from "./api.js";
import { el, showError } from "./page.js";
import { tournamentsTable } from "./tournaments.js";

const LIMIT = 1000; // the route's most

async function start() {
  const main = document.querySelector("main");
  const body = await getJSON(`/tournaments?limit=${LIMIT}`);
  main.querySelector("[data-loading]")?.remove();
  const count = body.tournaments.length;
  main.append(el("section", { "data-tournaments": true, "aria-label": "Tournaments" },
    el("p", { class: "muted" }, count === 1 ? "One tournament." : `${count} tournaments.`),
    tournamentsTable(body.tournaments)));
}

start().catch((error) => {
  document.querySelector("main [data-loading]")?.remove();
  showError(error);
});
