// Hand-written SVG charts for the statistics page (and a system's statistics module): each chart is an <svg
// role="img"> with a <title> and <desc>, axes with labels, a <title> on every mark (its value in words) and data
// attributes carrying the raw values. The data table beside each chart is its text alternative.
import { el } from "./page.js";

const NS = "http://www.w3.org/2000/svg";
let ids = 0;

/** An SVG element: svg("rect", {x: 1}, children...). */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A chart's root: role img, labelled by its <title>, described by its <desc>. */
export function chart(width, height, title, description, { className = "chart" } = {}) {
  const id = `chart-${++ids}`;
  return svg("svg", {
    class: className, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": `${id}-t ${id}-d`,
    preserveAspectRatio: "xMinYMin meet",
  }, svg("title", { id: `${id}-t` }, title), svg("desc", { id: `${id}-d` }, description));
}

export function percent(value, digits = null) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const v = value * 100;
  const d = digits ?? (Math.abs(v) > 0 && Math.abs(v) < 10 ? 1 : 0);
  return `${v.toFixed(d)}%`;
}

export function number(value, digits = 2) {
  if (value === null || value === undefined) return "—";
  if (Number.isInteger(value)) return value.toLocaleString("en");
  return value.toLocaleString("en", { minimumFractionDigits: 0, maximumFractionDigits: digits });
}

/** The drawing width of a chart: the page's width up to 640 (on a phone the chart's text stays legible). */
export function chartWidth() {
  const main = document.querySelector("main");
  const available = main ? main.clientWidth - 20 : 640;
  return Math.round(Math.max(340, Math.min(640, available)));
}

/** "nice" ticks between lo and hi (about `count` of them). */
export function ticks(lo, hi, count = 5) {
  if (hi <= lo) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toFixed(10)));
  return out;
}

// -- colours: text on a fill keeps AA contrast (black or white, whichever is further) --------------------------

function channel(c) {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}
function luminance([r, g, b]) { return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b); }
function mix(a, b, t) { return a.map((x, i) => Math.round(x + (b[i] - x) * t)); }
function hex(rgb) { return `#${rgb.map((x) => x.toString(16).padStart(2, "0")).join("")}`; }

/** The text colour (#000 or #fff) with the higher contrast on `fill` ([r, g, b]). */
export function inkOn(fill) {
  const l = luminance(fill);
  return (1.05) / (l + 0.05) >= (l + 0.05) / 0.05 ? "#ffffff" : "#000000";
}

const RED = [178, 24, 43], WHITE = [247, 247, 247], BLUE = [33, 102, 172], PALE = [239, 243, 255];
/** Diverging scale for a rate: 0 red, 0.5 near white, 1 blue. */
export function rateColour(rate) {
  const rgb = rate < 0.5 ? mix(RED, WHITE, rate / 0.5) : mix(WHITE, BLUE, (rate - 0.5) / 0.5);
  return { fill: hex(rgb), ink: inkOn(rgb) };
}
/** Sequential scale for a share of the maximum: pale to deep blue. */
export function countColour(share) {
  const rgb = mix(PALE, [8, 48, 107], Math.max(0, Math.min(1, share)));
  return { fill: hex(rgb), ink: inkOn(rgb) };
}

/** A legend strip for a colour scale: `stops` are [value, label] pairs. */
export function legend(scale, stops, caption) {
  return el("div", { class: "legend", "aria-hidden": "true" },
    el("span", { class: "legend-caption" }, caption),
    stops.map(([value, label]) => {
      const { fill, ink } = scale(value);
      return el("span", { class: "legend-swatch", style: `background:${fill};color:${ink}` }, label);
    }));
}

// -- charts -------------------------------------------------------------------------------------------------

/**
 * Rates with their intervals: one row per item, a dot at the rate and an error bar from low to high on a 0-100%
 * axis. items: [{label, value, low, high, note}]; reference: a value drawn as a dashed line (0.5 for win rates).
 */
export function intervalChart(items, { title, description, reference = null, valueName = "rate" }) {
  const labelWidth = Math.min(chartWidth() / 3, 16 + 7.5 * Math.max(6, ...items.map((i) => String(i.label).length)));
  const width = chartWidth(), rowHeight = 30, top = 10, bottom = 40, right = 24;
  const height = top + items.length * rowHeight + bottom;
  const x0 = labelWidth, x1 = width - right;
  const x = (v) => x0 + (x1 - x0) * Math.max(0, Math.min(1, v));
  const root = chart(width, height, title, description);
  const axisY = top + items.length * rowHeight;
  const grid = svg("g", { class: "axis" });
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    grid.append(svg("line", { x1: x(t), x2: x(t), y1: top, y2: axisY, class: "gridline" }),
      svg("text", { x: x(t), y: axisY + 16, "text-anchor": "middle" }, percent(t)));
  }
  grid.append(svg("line", { x1: x0, x2: x1, y1: axisY, y2: axisY, class: "axis-line" }),
    svg("text", { x: (x0 + x1) / 2, y: axisY + 34, "text-anchor": "middle", class: "axis-title" },
      `${valueName} (dot) with its 95% Wilson interval (bar)`));
  root.append(grid);
  if (reference !== null) {
    root.append(svg("line", { x1: x(reference), x2: x(reference), y1: top, y2: axisY, class: "reference" }));
  }
  items.forEach((item, i) => {
    const y = top + i * rowHeight + rowHeight / 2;
    const words = `${item.label}: ${valueName} ${percent(item.value)}${item.note ? ` (${item.note})` : ""}, ` +
      `95% interval ${percent(item.low)} to ${percent(item.high)}`;
    const mark = svg("g", {
      class: "mark", "data-label": item.key ?? item.label, "data-value": item.value, "data-low": item.low, "data-high": item.high,
    }, svg("title", {}, words),
    svg("text", { x: x0 - 8, y: y + 4, "text-anchor": "end", class: item.strong ? "label strong" : "label" }, item.label));
    if (item.value !== null && item.value !== undefined) {
      mark.append(
        svg("line", { x1: x(item.low ?? item.value), x2: x(item.high ?? item.value), y1: y, y2: y, class: "whisker" }),
        svg("line", { x1: x(item.low ?? item.value), x2: x(item.low ?? item.value), y1: y - 6, y2: y + 6, class: "whisker" }),
        svg("line", { x1: x(item.high ?? item.value), x2: x(item.high ?? item.value), y1: y - 6, y2: y + 6, class: "whisker" }),
        svg("circle", { cx: x(item.value), cy: y, r: 5.5, class: "dot" }));
    }
    root.append(mark);
  });
  return root;
}

/** Vertical bars over numeric x values (a histogram of counts): bars [{x, count, label}]. */
export function barChart(bars, { title, description, xName, yName }) {
  const width = chartWidth(), height = 260, left = 48, right = 16, top = 12, bottom = 46;
  const xs = bars.map((b) => b.x);
  const lo = Math.min(...xs), hi = Math.max(...xs);
  const span = Math.max(1, hi - lo + 1);
  const step = (width - left - right) / span;
  const maxY = Math.max(1, ...bars.map((b) => b.count));
  const yTicks = ticks(0, maxY, Math.min(4, maxY)).filter((t) => Number.isInteger(t)); // counts: whole numbers
  const top2 = Math.max(maxY, yTicks[yTicks.length - 1]);
  const y = (v) => top + (height - top - bottom) * (1 - v / top2);
  const x = (v) => left + (v - lo) * step;
  const root = chart(width, height, title, description);
  const axis = svg("g", { class: "axis" });
  for (const t of yTicks) {
    axis.append(svg("line", { x1: left, x2: width - right, y1: y(t), y2: y(t), class: "gridline" }),
      svg("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end" }, number(t)));
  }
  for (const t of ticks(lo, hi, Math.min(8, span)).filter((t) => Number.isInteger(t))) {
    axis.append(svg("text", { x: x(t) + step / 2, y: height - bottom + 16, "text-anchor": "middle" }, t));
  }
  axis.append(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis-line" }),
    svg("text", { x: (left + width - right) / 2, y: height - 8, "text-anchor": "middle", class: "axis-title" }, xName),
    svg("text", { x: 12, y: (top + height - bottom) / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 12 ${(top + height - bottom) / 2})` }, yName));
  root.append(axis);
  for (const bar of bars) {
    root.append(svg("rect", {
      class: "bar", x: x(bar.x) + step * 0.1, width: Math.max(1, step * 0.8), y: y(bar.count),
      height: Math.max(0, y(0) - y(bar.count)), "data-x": bar.x, "data-count": bar.count,
    }, svg("title", {}, bar.label)));
  }
  return root;
}

/** A line over points [{x, y, label}] (x: 0, 1, 2 ... in order); yName names the value. */
export function lineChart(points, { title, description, xName, yName, reference = null }) {
  const width = chartWidth(), height = 280, left = 56, right = 16, top = 14, bottom = 46;
  const ys = points.map((p) => p.y).concat(reference === null ? [] : [reference]);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const yTicks = ticks(lo, hi, 5);
  lo = Math.min(lo, yTicks[0]); hi = Math.max(hi, yTicks[yTicks.length - 1]);
  const n = Math.max(1, points.length - 1);
  const x = (i) => left + (width - left - right) * (i / n);
  const y = (v) => top + (height - top - bottom) * (1 - (v - lo) / (hi - lo));
  const root = chart(width, height, title, description);
  const axis = svg("g", { class: "axis" });
  for (const t of yTicks) {
    axis.append(svg("line", { x1: left, x2: width - right, y1: y(t), y2: y(t), class: "gridline" }),
      svg("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end" }, number(t, 0)));
  }
  for (const t of ticks(0, n, Math.min(8, n)).filter((t) => Number.isInteger(t))) {
    axis.append(svg("text", { x: x(t), y: height - bottom + 16, "text-anchor": "middle" }, t));
  }
  axis.append(svg("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "axis-line" }),
    svg("text", { x: (left + width - right) / 2, y: height - 8, "text-anchor": "middle", class: "axis-title" }, xName),
    svg("text", { x: 12, y: (top + height - bottom) / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 12 ${(top + height - bottom) / 2})` }, yName));
  root.append(axis);
  if (reference !== null) root.append(svg("line", { x1: left, x2: width - right, y1: y(reference), y2: y(reference), class: "reference" }));
  root.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.y)}`).join(" ") }));
  points.forEach((p, i) => root.append(svg("circle", { class: `point ${p.className ?? ""}`, cx: x(i), cy: y(p.y), r: 4.5, "data-x": i, "data-y": p.y },
    svg("title", {}, p.label))));
  return root;
}

/**
 * A matrix of cells coloured by a rate, with the value and the count written in each cell (colour is never the
 * only carrier). rows, columns: labels; cell(row, column) -> {rate, count, title, data} or null (no games).
 */
export function heatMatrix(rows, columns, cell, { title, description, rowName, columnName, countName = "games", name = (code) => code }) {
  const size = 64, labelWidth = Math.min(150, 16 + 7.5 * Math.max(4, ...rows.map((r) => String(name(r)).length)));
  const head = 80;
  const width = labelWidth + columns.length * size + 8, height = head + rows.length * size + 8;
  const root = chart(width, height, title, description, { className: "chart matrix" });
  root.style.maxWidth = `${Math.max(width, 320)}px`;
  root.append(svg("text", { x: labelWidth + (columns.length * size) / 2, y: 14, "text-anchor": "middle", class: "axis-title" }, columnName),
    svg("text", { x: 4, y: head - 8, class: "axis-title" }, rowName));
  columns.forEach((c, j) => root.append(svg("text", {
    x: labelWidth + j * size + size / 2, y: head - 10, "text-anchor": "start", class: "label",
    transform: `rotate(-35 ${labelWidth + j * size + size / 2} ${head - 10})`,
  }, name(c))));
  rows.forEach((r, i) => {
    const y = head + i * size;
    root.append(svg("text", { x: labelWidth - 8, y: y + size / 2 + 4, "text-anchor": "end", class: "label" }, name(r)));
    columns.forEach((c, j) => {
      const x = labelWidth + j * size;
      const value = cell(r, c);
      const g = svg("g", { class: "cell", ...(value ? value.data : { "data-row": r, "data-column": c, "data-count": 0 }) });
      if (!value) {
        g.append(svg("title", {}, `${name(r)} against ${name(c)}: no ${countName}`),
          svg("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, class: "empty" }),
          svg("text", { x: x + size / 2, y: y + size / 2 + 4, "text-anchor": "middle", class: "cell-text muted-ink" }, "—"));
      } else {
        const { fill, ink } = value.rate === null ? { fill: "#e3e6ec", ink: "#000000" } : rateColour(value.rate);
        g.append(svg("title", {}, value.title),
          svg("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, fill }),
          svg("text", { x: x + size / 2, y: y + size / 2 - 2, "text-anchor": "middle", class: "cell-value", style: `fill:${ink}` }, value.text ?? percent(value.rate, 0)),
          svg("text", { x: x + size / 2, y: y + size / 2 + 15, "text-anchor": "middle", class: "cell-text", style: `fill:${ink}` }, `${value.count} ${value.count === 1 ? countName.replace(/s$/, "") : countName}`));
      }
      root.append(g);
    });
  });
  return root;
}
