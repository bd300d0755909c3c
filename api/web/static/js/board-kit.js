// What every system's board drawing may share (docs/web.md "A system's drawing"): the key under a board, and the
// step's marks over it (below). A board module imports it as "/static/js/board-kit.js".
const SVG = "http://www.w3.org/2000/svg";

/** A small picture from SVG markup (in a width x height box), hidden from screen readers (words go beside it). */
function picture(markup, width, height, shown = [width, height]) {
  const made = document.createElementNS(SVG, "svg");
  made.setAttribute("viewBox", `0 0 ${width} ${height}`);
  made.setAttribute("width", String(shown[0]));
  made.setAttribute("height", String(shown[1]));
  made.setAttribute("aria-hidden", "true");
  made.innerHTML = markup;
  return made;
}

/** The key under a board: a list of [swatch, words], the swatch SVG markup drawn in a 28x20 box (the drawing's own
 * marks, so the key looks like the board), the words what it means. */
export function boardKey(entries, label = "Key") {
  const list = document.createElement("ul");
  list.className = "board-key";
  list.setAttribute("aria-label", label);
  for (const [swatch, words] of entries) {
    const item = document.createElement("li");
    item.append(picture(swatch, 28, 20), document.createTextNode(words));
    list.append(item);
  }
  return list;
}

// ---- What changed, drawn (issue 32 item 2; docs/web.md "The step's marks") ----------------------------------------
// One SVG layer over the board (`<g data-layer="marks">`, kept last so it is drawn over everything: the frame puts it
// back on top) holding the step's marks, and a strip under the board for what has no place on it (the dice, cards
// revealed from a hand). A board maps its step's event (context.cause: already what its view may see) to
// coordinates and calls these; the marks' look is the same on every board. Every mark is a `<g data-mark=KIND>`
// with its `<title>` (a tap shows it) and data attributes naming what it marks: move (data-from, data-to), attack
// (data-kind attack|shot|duel|battle, data-from, data-to, data-value), destroyed (data-at, data-card), revealed
// (data-card); the strip's dice are `[data-mark=dice]`, its revealed cards `[data-mark=revealed]` too.

export const MARK = { move: "#1d1f24", attack: "#c45a00", duel: "#8a6d00", destroyed: "#c00000", revealed: "#6a1b9a", halo: "#ffffff" };
const LINE_KINDS = { attack: { colour: MARK.attack, dash: null }, shot: { colour: MARK.attack, dash: "9 6" },
  duel: { colour: MARK.duel, dash: null }, battle: { colour: MARK.attack, dash: "2 5" } };

function svgNode(tag, attributes = {}, ...children) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children) made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return made;
}

/** The marks layer of a board's SVG (made once, last in the SVG, with the arrowheads it uses). */
export function markLayer(svg) {
  let layer = svg.querySelector(":scope > g[data-layer='marks']");
  if (layer) return layer;
  const head = (id, colour) => svgNode("marker", { id, viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "4.5",
    markerHeight: "4.5", orient: "auto-start-reverse", markerUnits: "strokeWidth" }, svgNode("path", { d: "M0 0 L10 5 L0 10 z", fill: colour }));
  layer = svgNode("g", { class: "board-marks", "data-layer": "marks" },
    svgNode("defs", {}, head("mark-head-move", MARK.move), head("mark-head-attack", MARK.attack), head("mark-head-duel", MARK.duel)));
  svg.append(layer);
  return layer;
}

/** [x, y] from a to b, shortened by `start` and `end` (so the arrow starts and stops at a piece's edge), keeping at
 * least 24 of it. */
function trimmed(a, b, start, end = start) {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const factor = start + end > length - 24 ? Math.max(0, length - 24) / (start + end) : 1;
  const [ux, uy] = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
  return [[a[0] + ux * start * factor, a[1] + uy * start * factor], [b[0] - ux * end * factor, b[1] - uy * end * factor]];
}

const words = (text) => (text === undefined || text === null ? null : String(text));

/** A move: an arrow from `from` to `to` ([x, y] in the SVG's units), through `via` points when the path is known.
 * `what`: {from, to (as the steps name them), label (its title), trim (or trimFrom and trimTo: how far from the
 * points it starts and stops)}. */
export function markMove(layer, from, to, what = {}) {
  if (!from || !to) return null;
  const points = [from, ...(what.via || []), to];
  const [start] = trimmed(points[0], points[1], what.trimFrom ?? what.trim ?? 14, points.length > 2 ? 0 : what.trimTo ?? what.trim ?? 14);
  const [, end] = trimmed(points[points.length - 2], points[points.length - 1], points.length > 2 ? 0 : what.trimFrom ?? what.trim ?? 14, what.trimTo ?? what.trim ?? 14);
  const line = [start, ...points.slice(1, -1), end].map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
  const g = svgNode("g", { "data-mark": "move", "data-from": words(what.from), "data-to": words(what.to), class: what.className },
    svgNode("title", {}, what.label || `moved from ${what.from} to ${what.to}`),
    svgNode("polyline", { points: line, fill: "none", stroke: MARK.halo, "stroke-width": 8, "stroke-linejoin": "round", "stroke-linecap": "round", opacity: 0.85 }),
    svgNode("polyline", { points: line, fill: "none", stroke: MARK.move, "stroke-width": 4, "stroke-linejoin": "round", "stroke-dasharray": "10 5", "marker-end": "url(#mark-head-move)" }));
  layer.append(g);
  return g;
}

/** An attack, a shot, a duel or a battle: a line from the attacker to its target with an arrowhead and the value
 * (an attack's strength, a number of dice) in a badge a quarter of the way. `what`: {kind, from, to, value, label, trim}. */
export function markAttack(layer, from, to, what = {}) {
  if (!from || !to) return null;
  const kind = LINE_KINDS[what.kind] ? what.kind : "attack";
  const { colour, dash } = LINE_KINDS[kind];
  // a little to the right of its way, so an attack and its answer between the same two pieces stay apart
  const [a0, b0] = trimmed(from, to, what.trim ?? 16);
  const length = Math.hypot(b0[0] - a0[0], b0[1] - a0[1]) || 1;
  const [nx, ny] = [-(b0[1] - a0[1]) / length * 5, (b0[0] - a0[0]) / length * 5];
  const [a, b] = [[a0[0] + nx, a0[1] + ny], [b0[0] + nx, b0[1] + ny]];
  const g = svgNode("g", { "data-mark": "attack", "data-kind": kind, "data-from": words(what.from), "data-to": words(what.to),
    "data-value": words(what.value), class: what.className },
    svgNode("title", {}, what.label || `${kind}: ${what.from} on ${what.to}${what.value !== undefined && what.value !== null ? ` (${what.value})` : ""}`),
    svgNode("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: MARK.halo, "stroke-width": 9, "stroke-linecap": "round", opacity: 0.85 }),
    svgNode("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: colour, "stroke-width": 5, "stroke-dasharray": dash,
      "marker-end": `url(#mark-head-${kind === "duel" ? "duel" : "attack"})`, class: what.lineClass, "data-from": words(what.from), "data-to": words(what.to) }));
  if (what.value !== undefined && what.value !== null && what.value !== "") {
    // the value nearer the attacker (a quarter of the way): the values of attacks on one target do not pile up on it
    // (on a short line, beside it, so it hides neither the arrowhead nor the pieces)
    const aside = length < 80 ? 16 / 5 : 0;
    const [mx, my] = [a[0] + (b[0] - a[0]) * 0.25 + nx * aside, a[1] + (b[1] - a[1]) * 0.25 + ny * aside];
    const text = String(what.value);
    const w = Math.max(24, 9 * text.length + 10);
    g.append(svgNode("rect", { x: mx - w / 2, y: my - 11, width: w, height: 22, rx: 11, fill: "#fff", stroke: colour, "stroke-width": 2 }),
      svgNode("text", { x: mx, y: my + 5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: colour }, text));
  }
  layer.append(g);
  return g;
}

/** A piece destroyed (or removed) this step, where it stood: a faded ghost of its outline crossed out. `box`:
 * {x, y, width, height} (round: true for a round piece). `what`: {at, card, label}. */
export function markDestroyed(layer, box, what = {}) {
  if (!box) return null;
  const { x, y, width, height } = box;
  const inset = Math.min(width, height) * 0.18;
  const ghost = what.round
    ? svgNode("ellipse", { cx: x + width / 2, cy: y + height / 2, rx: width / 2, ry: height / 2, fill: "#ffffff", "fill-opacity": 0.3, stroke: MARK.destroyed, "stroke-width": 2.5, "stroke-dasharray": "6 4" })
    : svgNode("rect", { x, y, width, height, rx: 6, fill: "#ffffff", "fill-opacity": 0.3, stroke: MARK.destroyed, "stroke-width": 2.5, "stroke-dasharray": "6 4" });
  const cross = `M${x + inset} ${y + inset} L${x + width - inset} ${y + height - inset} M${x + width - inset} ${y + inset} L${x + inset} ${y + height - inset}`;
  const g = svgNode("g", { "data-mark": "destroyed", "data-at": words(what.at), "data-card": words(what.card), class: what.className },
    svgNode("title", {}, what.label || `destroyed at ${what.at}`), ghost,
    svgNode("path", { d: cross, stroke: MARK.halo, "stroke-width": 9, "stroke-linecap": "round", opacity: 0.85 }),
    svgNode("path", { d: cross, stroke: MARK.destroyed, "stroke-width": 5, "stroke-linecap": "round" }));
  layer.querySelector(":scope > defs").after(g); // under the step's lines, which may start or end on it
  return g;
}

/** A card this step turned face up (or showed from a hand): a flag on its top right corner. `box`: the card's
 * {x, y, width, height}. `what`: {card, label}. */
export function markRevealed(layer, box, what = {}) {
  if (!box) return null;
  const px = box.x + box.width - 4; // the pole on the card's right edge, the flag flying inwards, over the card's top
  const py = box.y - 14;
  const g = svgNode("g", { "data-mark": "revealed", "data-card": words(what.card), class: what.className },
    svgNode("title", {}, what.label || `revealed this step: ${what.card}`),
    svgNode("rect", { x: box.x - 2, y: box.y - 2, width: box.width + 4, height: box.height + 4, rx: 7, fill: "none", stroke: MARK.revealed, "stroke-width": 3 }),
    svgNode("path", { d: `M${px} ${py + 22} L${px} ${py} L${px - 18} ${py + 5} L${px} ${py + 10}`, fill: MARK.revealed, stroke: MARK.halo, "stroke-width": 1.5, "stroke-linejoin": "round" }));
  layer.append(g);
  return g;
}

/** A piece's box in a drawn SVG: the first rect (or circle) of the first element `selector` finds, from its
 * attributes (so it works before the SVG is in the page); null when there is none. */
export function boxOf(svg, selector) {
  const found = svg.querySelector(selector);
  if (!found) return null;
  const shape = found.matches("rect, circle") ? found : found.querySelector("rect, circle");
  if (!shape) return null;
  const n = (name) => Number(shape.getAttribute(name) || 0);
  if (shape.tagName === "circle") return { x: n("cx") - n("r"), y: n("cy") - n("r"), width: 2 * n("r"), height: 2 * n("r") };
  return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
}

export const centreOf = (box) => (box ? [box.x + box.width / 2, box.y + box.height / 2] : null);

function htmlNode(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) made.append(child instanceof Node ? child : String(child));
  return made;
}

const FLAG = `<path d="M6 19 L6 2 L20 6 L6 10" fill="${MARK.revealed}"/>`;

/** Under the board: the step's dice and the cards it showed that the board does not draw. `dice`: [{who, what,
 * values: [{value, face}], result}] (face: the word on the die, else its number); `revealed`: [{card, name, who}].
 * Null when there is nothing to show. */
export function stepStrip({ dice = [], revealed = [] } = {}) {
  if (!dice.length && !revealed.length) return null;
  const strip = htmlNode("div", { class: "board-step-marks", role: "group", "aria-label": "What this step rolled and showed" });
  for (const roll of dice) {
    strip.append(htmlNode("p", { class: "board-dice", "data-mark": "dice", "data-who": roll.who, "data-purpose": roll.purpose },
      htmlNode("span", { class: "board-dice-what" }, roll.what),
      ...roll.values.map((die) => htmlNode("span", { class: `board-die${die.face ? " board-die-face" : ""}`, "data-value": die.value,
        "data-face": die.face, title: die.face ? `${die.face} (${die.value})` : String(die.value) }, die.face || String(die.value))),
      roll.result ? htmlNode("span", { class: "board-dice-result" }, roll.result) : null));
  }
  if (revealed.length) {
    const list = htmlNode("p", { class: "board-revealed", "data-mark": "revealed-list" });
    list.append(picture(FLAG, 22, 20, [18, 16]), "Revealed this step: ");
    revealed.forEach((card, i) => list.append(i ? ", " : "", htmlNode("span", { "data-mark": "revealed", "data-card": card.card },
      card.who ? `${card.name} (${card.who})` : card.name)));
    strip.append(list);
  }
  return strip;
}

/** The key's entries for the step's marks a board draws (kinds among move, attack, shot, duel, battle, destroyed,
 * revealed, dice), in the marks' own look: a board appends them to its key. */
export function marksKey(kinds) {
  const line = (colour, dash, head) => `<line x1="3" y1="10" x2="21" y2="10" stroke="#fff" stroke-width="7"/><line x1="3" y1="10" x2="20" y2="10" stroke="${colour}" stroke-width="4"${dash ? ` stroke-dasharray="${dash}"` : ""}/>${head ? `<path d="M19 4 L27 10 L19 16 z" fill="${colour}"/>` : ""}`;
  const entries = {
    move: [line(MARK.move, "6 3", true), "moved this step (from, to)"],
    attack: [line(MARK.attack, null, true) , "an attack this step, attacker to target (its value)"],
    shot: [line(MARK.attack, "6 4", true), "a shot this step (its value)"],
    duel: [line(MARK.duel, null, true), "a duel: challenger to challenged"],
    battle: [line(MARK.attack, "2 4", true), "an attack on a battlefield"],
    destroyed: [`<rect x="3" y="2" width="22" height="16" rx="3" fill="#fff" stroke="${MARK.destroyed}" stroke-dasharray="4 2"/><path d="M7 4 L21 16 M21 4 L7 16" stroke="${MARK.destroyed}" stroke-width="3"/>`, "destroyed this step, where it stood"],
    revealed: [`<rect x="2" y="3" width="18" height="15" rx="3" fill="#fff" stroke="${MARK.revealed}" stroke-width="2"/>${FLAG.replace("M6 19 L6 2 L20 6 L6 10", "M18 17 L18 1 L27 4 L18 7")}`, "revealed this step"],
    dice: ['<rect x="5" y="3" width="14" height="14" rx="3" fill="#fff" stroke="#1d1f24" stroke-width="1.5"/><circle cx="9" cy="7" r="1.6"/><circle cx="15" cy="13" r="1.6"/>', "the step's dice, under the board"],
  };
  return kinds.filter((kind) => entries[kind]).map((kind) => entries[kind]);
}

/** The step's marks in words (their titles), for the board's text alternative. */
export function marksWords(svg) {
  const layer = svg.querySelector(":scope > g[data-layer='marks']");
  if (!layer) return "";
  return [...layer.querySelectorAll(":scope > g[data-mark] > title")].map((t) => t.textContent).join("; ");
}
