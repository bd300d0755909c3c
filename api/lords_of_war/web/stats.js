// Lords of War's own statistics on the statistics page (WebParts.stats; docs/web.md, "A system's statistics"):
// the placement heat map drawn on the 7x6 mat. Its other statistics (cards) are shown as the page's tables.
//
//   export function draw(name, host, result, kit) -> string | null
// draws statistic `name` into `host` and returns its text alternative, or null for a statistic it does not draw.

const COLUMNS = "ABCDEFG";
const ROWS = 6;
const ON_MAT = /^([A-G])([1-6])$/;

function heatmap(host, result, { el, charts, cardName }) {
  const { svg, chart, countColour, legend, percent } = charts;
  const counts = new Map();
  let on = 0, off = 0;
  for (const row of result.rows) {
    if (ON_MAT.test(row.square)) { counts.set(row.square, row); on += row.placements; } else off += row.placements;
  }
  const max = Math.max(1, ...[...counts.values()].map((r) => r.placements));
  const size = 62, left = 28, top = 22, bottom = 26;
  const width = left + COLUMNS.length * size + 6, height = top + ROWS * size + bottom;
  // the card by its name (the cards statistic's rows on the page, named by the catalogue filtered by), else its id
  const what = result.card ? `placements of ${(cardName && cardName(result.card)) || result.card}` : "placements";
  const view = result.owner_view ? "seen from the placing player's edge (their own side at the bottom)" : "as on the mat (p1's edge, row 1, at the bottom)";
  const root = chart(width, height, `Heat map of ${what} on the mat`,
    `${on} ${what} on the 7 by 6 mat, ${view}; each square shows its count and its share of the placements on the mat. Darker: more.`,
    { className: "chart mat-heat" });
  root.style.maxWidth = `${width + 80}px`;
  for (let c = 0; c < COLUMNS.length; c++) {
    root.append(svg("text", { x: left + c * size + size / 2, y: top - 7, "text-anchor": "middle", class: "label" }, COLUMNS[c]));
  }
  for (let r = ROWS; r >= 1; r--) {
    const y = top + (ROWS - r) * size;
    root.append(svg("text", { x: left - 8, y: y + size / 2 + 4, "text-anchor": "end", class: "label" }, r));
    for (let c = 0; c < COLUMNS.length; c++) {
      const square = `${COLUMNS[c]}${r}`;
      const row = counts.get(square);
      const n = row ? row.placements : 0;
      const { fill, ink } = n ? countColour(n / max) : { fill: "#f4f5f7", ink: "#000000" };
      const x = left + c * size;
      root.append(svg("g", { class: "square", "data-square": square, "data-placements": n },
        svg("title", {}, `${square}: ${n} ${n === 1 ? "placement" : "placements"}${row ? ` (${percent(row.share)} of those on the mat)` : ""}`),
        svg("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, fill, class: "mat-square" }),
        svg("text", { x: x + size / 2, y: y + size / 2 + 1, "text-anchor": "middle", class: "cell-value", style: `fill:${n ? ink : "#4f5561"}` }, n || "·"),
        row ? svg("text", { x: x + size / 2, y: y + size / 2 + 17, "text-anchor": "middle", class: "cell-text", style: `fill:${ink}` }, percent(row.share)) : null));
    }
  }
  root.append(svg("text", { x: left + (COLUMNS.length * size) / 2, y: height - 6, "text-anchor": "middle", class: "axis-title" },
    result.owner_view ? "the placing player's own edge" : "p1's edge"));
  const parts = [el("div", { class: "chart-wrap" }, root),
    legend((v) => countColour(v), max > 2 ? [[1 / max, "1"], [0.5, `${Math.round(max / 2)}`], [1, `${max}`]] : [[1, `${max}`]],
      "placements per square:")];
  if (off) {
    parts.push(el("p", { class: "muted", "data-off-mat": off },
      `The mat shows the ${on} placements of games on the 7x6 mat; the ${off} placements in unbounded games (x,y squares, A1 = 0,0) are in the table only (the variant filter chooses the games).`));
  }
  host.replaceChildren(...parts);
  const top3 = [...counts.values()].sort((a, b) => b.placements - a.placements).slice(0, 3)
    .map((r) => `${r.square} (${r.placements})`).join(", ");
  return `Heat map of ${on} ${what} on the mat${top3 ? `; the most at ${top3}` : ""}. The table below lists every square.`;
}

export function draw(name, host, result, kit) {
  if (name === "heatmap") return heatmap(host, result, kit);
  return null;
}
