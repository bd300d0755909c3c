// The drawing of a system that has none of its own: its state view as readable nested tables (never a blank page).
import { el } from "./page.js";

function cell(value) {
  if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
  if (Array.isArray(value)) {
    if (value.length === 0) return el("span", { class: "muted" }, "none");
    if (value.every((v) => v === null || typeof v !== "object")) return value.join(", ");
    return el("ol", {}, value.map((v) => el("li", {}, cell(v))));
  }
  if (typeof value === "object") return table(value);
  return String(value);
}

function table(object) {
  return el("table", { class: "state-table" },
    el("tbody", {}, Object.entries(object).map(([key, value]) => el("tr", {}, el("th", { scope: "row" }, key), el("td", {}, cell(value))))));
}

/** The board contract (docs/web.md): draw the state into `host`; returns a text alternative. */
export function draw(host, state) {
  host.replaceChildren(el("div", { class: "table-wrap" }, table(state)));
  return "The game's state, as a table (this system has no drawing yet).";
}
