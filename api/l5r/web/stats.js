// L5R's own statistics on the statistics page (WebParts.stats; docs/web.md, "A system's statistics"): the honour
// curves drawn as one line per clan (mean family honour at the end of each turn of the game, turn 0 the start),
// with the victory (40) and elimination (-20) lines. Its other statistics are shown as the page's tables.
//
//   export function draw(name, host, result, kit) -> string | null

const COLOURS = ["#8c1d18", "#1f4f99", "#2e7d32", "#8e5a00", "#6a1b9a", "#00695c", "#37474f", "#ad1457"];

function honorCurves(host, result, { el, charts }) {
  const { svg, chart, ticks, number, chartWidth } = charts;
  const clans = [...new Set(result.rows.map((r) => r.clan))].sort();
  if (!clans.length) return null;
  const width = chartWidth(), height = 300, left = 52, right = 110, top = 14, bottom = 46;
  const turns = result.rows.map((r) => r.turn);
  const maxTurn = Math.max(1, ...turns);
  const values = result.rows.map((r) => r.mean_honor).concat([-20, 40]);
  const lo = Math.min(...values), hi = Math.max(...values);
  const yTicks = ticks(lo, hi, 6);
  const y0 = Math.min(lo, yTicks[0]), y1 = Math.max(hi, yTicks[yTicks.length - 1]);
  const x = (t) => left + (width - left - right) * (t / maxTurn);
  const y = (v) => top + (height - top - bottom) * (1 - (v - y0) / (y1 - y0));
  const root = chart(width, height, "Honour curves by clan",
    `Mean family honour of each clan's seats at the end of each turn of their games (${clans.length} clans, turns 0 to ${maxTurn}); the lines at 40 and -20 are honour victory and elimination.`);
  const axis = svg("g", { class: "axis" });
  for (const t of yTicks) {
    axis.append(svg("line", { x1: left, x2: width - right, y1: y(t), y2: y(t), class: "gridline" }),
      svg("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end" }, number(t, 0)));
  }
  for (const t of ticks(0, maxTurn, Math.min(10, maxTurn)).filter((t) => Number.isInteger(t))) {
    axis.append(svg("text", { x: x(t), y: height - bottom + 16, "text-anchor": "middle" }, t));
  }
  axis.append(svg("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "axis-line" }),
    svg("text", { x: (left + width - right) / 2, y: height - 8, "text-anchor": "middle", class: "axis-title" }, "turn of the game"),
    svg("text", { x: 12, y: (top + height - bottom) / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 12 ${(top + height - bottom) / 2})` }, "mean family honour"));
  root.append(axis);
  for (const [value, label] of [[40, "victory 40"], [-20, "out at -20"]]) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), class: "reference" }),
      svg("text", { x: width - right + 4, y: y(value) + 4, class: "label" }, label));
  }
  clans.forEach((clan, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = result.rows.filter((r) => r.clan === clan).sort((a, b) => a.turn - b.turn);
    root.append(svg("polyline", { points: points.map((p) => `${x(p.turn)},${y(p.mean_honor)}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 2.5, "data-clan": clan }));
    for (const p of points) {
      root.append(svg("circle", { cx: x(p.turn), cy: y(p.mean_honor), r: 3.5, fill: colour, stroke: "#fff",
        "data-clan": clan, "data-turn": p.turn, "data-y": p.mean_honor },
      svg("title", {}, `${clan}, turn ${p.turn}: mean honour ${number(p.mean_honor, 1)} over ${p.seats} seat${p.seats === 1 ? "" : "s"}`)));
    }
    const last = points[points.length - 1];
    root.append(svg("text", { x: Math.min(x(last.turn) + 6, width - right + 4), y: y(last.mean_honor) + 4,
      fill: colour, class: "label" }, clan));
  });
  host.replaceChildren(el("div", { class: "chart-wrap" }, root));
  const ends = clans.map((clan) => {
    const points = result.rows.filter((r) => r.clan === clan).sort((a, b) => a.turn - b.turn);
    const last = points[points.length - 1];
    return `${clan} ${number(points[0].mean_honor, 1)} at the start, ${number(last.mean_honor, 1)} by turn ${last.turn}`;
  });
  return `Honour curves of ${clans.length} clans: ${ends.join("; ")}. The table below lists every point.`;
}

export function draw(name, host, result, kit) {
  if (name === "l5r-honor") return honorCurves(host, result, kit);
  return null;
}
