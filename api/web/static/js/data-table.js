// The statistics page's tables: every column of a result's rows, rates with their intervals folded into one
// readable cell, sortable headers (a button in each <th>: click, Enter or Space; aria-sort says the order) and a
// CSV download of the rows as the JSON API gave them (every column, full precision, a header row).
import { el } from "./page.js";
import { number, percent } from "./charts.js";

export const SHOWN_ROWS = 500; // the table shows this many rows; sorting and the CSV take them all

const words = (name) => name.replace(/_/g, " ");
const isRate = (name) => /(^|_)(rate|share|score)(_|$)|win_rate|difference/.test(name);

/**
 * The columns as shown: [{key, label, low?, high?, rate}] where an interval's bounds (`low`/`high`, `x_low`/
 * `x_high`) are folded into the value column they belong to (the nearest one before them whose name is the
 * bound's stem, the stem with `_rate`, or ends with the stem; a bare `low` belongs to the rate before it).
 */
export function columnsOf(keys, titles = {}) {
  const columns = [];
  for (const key of keys) {
    const bound = key.match(/^(.*?)_?(low|high)$/);
    if (bound) {
      const stem = bound[1];
      const owner = [...columns].reverse().find((c) => stem === "" ? isRate(c.key)
        : c.key === stem || c.key === `${stem}_rate` || c.key.endsWith(`_${stem}`));
      if (owner && owner[bound[2]] === undefined) { owner[bound[2]] = key; owner.rate = true; continue; }
    }
    columns.push({ key, label: titles[key] ?? words(key), rate: isRate(key) });
  }
  return columns;
}

export function formatValue(column, value, row) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "string") return /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 16).replace("T", " ") : value;
  if (column.rate) {
    const signed = /difference/.test(column.key) && value > 0 ? "+" : "";
    const text = signed + percent(value);
    if (column.low && row[column.low] !== null && row[column.low] !== undefined) {
      return `${text} (${percent(row[column.low])}–${percent(row[column.high])})`;
    }
    return text;
  }
  return number(value);
}

function compare(a, b) {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

// -- CSV ----------------------------------------------------------------------------------------------------

function csvField(value) {
  if (value === null || value === undefined) return "";
  const text = typeof value === "boolean" ? (value ? "true" : "false") : Array.isArray(value) ? value.join(",") : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as CSV text: a header row of every column, then one line a row (as `warlog stats --csv` writes). */
export function toCSV(rows) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [keys.map(csvField).join(","), ...rows.map((r) => keys.map((k) => csvField(r[k])).join(","))].join("\n") + "\n";
}

export function download(filename, text, type = "text/csv") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A sortable table of `rows` with a caption and a CSV button. options: {caption, filename, links: {column:
 * (value, row) => href}, sort: {key, descending}}. Returns the element (a <figure class="data-table">).
 */
export function dataTable(rows, { caption, filename, links = {}, sort = null, titles = {}, names = {} } = {}) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const columns = columnsOf(keys, titles); // titles: {key: the column's title} where its name would not say it
  let order = sort ? { ...sort } : null;
  const body = el("tbody");
  const note = el("p", { class: "muted table-note" });
  const headers = columns.map((column) => {
    const numeric = rows.some((r) => typeof r[column.key] === "number");
    const button = el("button", { type: "button", class: "sort", "data-column": column.key }, column.label,
      el("span", { class: "sort-arrow", "aria-hidden": "true" }));
    const th = el("th", { scope: "col", class: numeric ? "num" : null, "data-column": column.key }, button);
    button.addEventListener("click", () => {
      const descending = order && order.key === column.key ? !order.descending : numeric;
      order = { key: column.key, descending };
      render();
      button.focus();
    });
    return th;
  });
  const table = el("table", { class: "stats-table" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, headers)),
    body);

  function render() {
    let sorted = rows;
    if (order) { // missing values last in both directions
      const has = (r) => r[order.key] !== null && r[order.key] !== undefined;
      const sign = order.descending ? -1 : 1;
      sorted = [...rows.filter(has).sort((a, b) => sign * compare(a[order.key], b[order.key])), ...rows.filter((r) => !has(r))];
    }
    headers.forEach((th, i) => {
      const key = columns[i].key;
      const state = order && order.key === key ? (order.descending ? "descending" : "ascending") : null;
      if (state) th.setAttribute("aria-sort", state); else th.removeAttribute("aria-sort");
      th.querySelector(".sort-arrow").textContent = state === "ascending" ? " ▲" : state === "descending" ? " ▼" : "";
    });
    body.replaceChildren(...sorted.slice(0, SHOWN_ROWS).map((row) => el("tr", {}, columns.map((column) => {
      const value = row[column.key];
      const named = typeof value === "string" && names[column.key] ? names[column.key](value) : null; // a code's name
      const text = named ?? formatValue(column, value, row);
      const link = links[column.key] && value !== null && value !== undefined ? links[column.key](value, row) : null;
      return el("td", {
        class: typeof value === "number" ? "num" : null, "data-column": column.key,
        "data-value": value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : value,
      }, link ? el("a", { href: link }, text) : text);
    }))));
    note.textContent = rows.length > SHOWN_ROWS ? `Showing ${SHOWN_ROWS} of ${rows.length} rows; sort to see others, the CSV has them all.` : "";
  }
  render();

  const csv = el("button", { type: "button", class: "csv", "aria-label": `Download ${caption} as CSV` }, "Download CSV");
  csv.addEventListener("click", () => download(filename, toCSV(rows)));
  return el("figure", { class: "data-table" },
    el("div", { class: "table-tools" }, csv, el("span", { class: "muted" }, `${rows.length} ${rows.length === 1 ? "row" : "rows"}`)),
    el("div", { class: "table-wrap" }, table), note);
}
