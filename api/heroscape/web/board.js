// HeroScape's drawing for the replay page (docs/web.md "A system's drawing"): the hex map as SVG, pointy-top hexes
// in axial coordinates, each hex shaded by its level (darker is higher) with the level written in it, water blue,
// roads and sand tinted, rock grey, glyphs lettered, walls drawn on their edges; each figure a disc of its owner's
// colour with its card's initial (a double-space figure a capsule over its two hexes), its wounds as a red number;
// the step's event marked (a move's path, an attack's line from attacker to each target, destroyed figures crossed
// where they stood). Below: per seat, its figures still standing with their wounds, points on the map, and the
// order markers the view may see. Each hex is labelled with its coordinates as the steps name it ([q, r] written
// "q,r" at its top) and its level at its bottom; a key under the board. The map comes with the state (the game
// carries its own map), and so do the figures' names; each figure names its army card (data-card-id) for the
// page's card details from the game's catalogue.
import { boardKey, markAttack, markDestroyed, markLayer, markMove, marksKey, marksWords, stepStrip } from "/static/js/board-kit.js";

const SVG = "http://www.w3.org/2000/svg";
const R = 32; // hex radius, in CSS px at zoom 1: room for the hex's coordinates, its level and a figure
const COLOURS = { p1: "#b3261e", p2: "#1f5fbf" };
const TINTS = { p1: "#f9e0de", p2: "#dde8f9" };
const TERRAIN = { water: "#8fc1e8", road: "#d9c8a0", sand: "#eddca8", rock: "#a7a39a", grass: "#a9cf8e" };

function node(tag, attributes = {}, ...children) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children) made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return made;
}

function html(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children.flat()) if (child !== null && child !== undefined) made.append(child instanceof Node ? child : String(child));
  return made;
}

function shade(hex, level, top) {
  // darker with height: mix the terrain colour towards black by level / (top + 4)
  const n = parseInt(hex.slice(1), 16);
  const k = 1 - 0.45 * (level / Math.max(top + 4, 1));
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v * k));
  return `rgb(${c.join(",")})`;
}

/** HeroScape counts rounds: the step list's heading of one (docs/web.md). */
export function turnName(round) {
  return round ? `Round ${round}` : "Before the first round";
}

/** A figure as a player names it: its card's name, with its number in a squad ("Izumi Samurai 2"; the id is
 * "izumi-samurai/2", a hero's id is its card's). */
function figureName(f) {
  const number = String(f.figure).split("/")[1];
  return number ? `${f.name} ${number}` : f.name;
}

/** A figure named by its id as the events carry it: by its figure in the state ("Izumi Samurai 1"), else by a
 * figure of the same card with this one's number (a destroyed figure left the map), else the id itself. */
function figureNamed(state, id) {
  const figures = state.figures || [];
  const own = figures.find((f) => f.figure === id);
  if (own) return figureName(own);
  const [card, number] = String(id).split("/");
  const kin = figures.find((f) => f.card === card || String(f.figure).split("/")[0] === card);
  return kin ? (number ? `${kin.name} ${number}` : kin.name) : id;
}

/** The key under the board. */
function key() {
  const hex = (fill) => `<polygon points="14,1 22,5.5 22,14.5 14,19 6,14.5 6,5.5" fill="${fill}" stroke="#5d584e"/>`;
  return boardKey([
    ['<text x="14" y="14" font-size="10" text-anchor="middle">4,0</text>', "a hex's coordinates, at its top: [4, 0] in the steps"],
    ['<text x="14" y="15" font-size="11" font-weight="600" text-anchor="middle">3</text>', "its level, at its bottom (darker is higher)"],
    [hex("#a9cf8e"), "grass"], [hex("#8fc1e8"), "water"], [hex("#eddca8"), "sand"], [hex("#d9c8a0"), "road"], [hex("#a7a39a"), "rock"],
    ['<circle cx="14" cy="10" r="8" fill="#f3e27a" stroke="#6b5a00"/><text x="14" y="14" font-size="11" font-weight="700" text-anchor="middle">A</text>', "a glyph (its initial), not yet used"],
    ['<circle cx="14" cy="10" r="9" fill="#f9e0de" stroke="#b3261e" stroke-width="2"/><text x="14" y="14" font-size="11" font-weight="700" fill="#b3261e" text-anchor="middle">G</text>', "a figure (its card's initial), in its owner's colour"],
    ['<line x1="6" y1="10" x2="22" y2="10" stroke="#b3261e" stroke-width="12" stroke-linecap="round"/><line x1="6" y1="10" x2="22" y2="10" stroke="#f9e0de" stroke-width="9" stroke-linecap="round"/>', "a double-space figure"],
    ['<circle cx="14" cy="10" r="8" fill="#c00"/><text x="14" y="14" font-size="11" font-weight="700" fill="#fff" text-anchor="middle">2</text>', "wounds"],
    ['<line x1="14" y1="1" x2="14" y2="19" stroke="#3b2f2f" stroke-width="5"/>', "a wall"],
    ...marksKey(["move", "attack", "shot", "destroyed", "revealed", "dice"]),
  ], "Key to the HeroScape board");
}

const FACES = { 1: "skull", 2: "skull", 3: "skull", 4: "shield", 5: "shield", 6: "blank" }; // a combat die (§1)

/** The step's event on the map (board-kit.js marks): a move's arrow along its path, an attack's line to each target
 * with its dice (dashed beyond an adjacent hex: a ranged attack, its range in the title and data-range), the dice
 * rolled under the map (a combat die's face, skull, shield or blank; a d20's number) with the skulls, shields and
 * wounds an attack came to, a destroyed figure crossed out where it stood, an order marker revealed. */
function marks(svg, cause, centre, state) {
  const layer = markLayer(svg);
  const dice = [];
  const revealed = [];
  if (!cause) return { dice, revealed, words: "" };
  const name = (figure) => figureNamed(state, figure);
  const seat = (id) => (state.seats || []).find((s) => s.id === id)?.name || id;
  if (cause.type === "move_declared" || cause.type === "figure_moved") {
    const via = cause.type === "move_declared" ? (cause.path || []).slice(0, -1).map(centre) : [];
    markMove(layer, centre(cause.origin), centre(cause.to), { from: `${cause.origin}`, to: `${cause.to}`, via, trim: 12,
      label: `${name(cause.figure)} ${cause.type === "move_declared" ? "moves" : "moved"} from [${cause.origin}] to [${cause.to}]${cause.cost !== undefined ? ` for ${cause.cost} of ${cause.allowance}` : ""}` });
  }
  if (cause.type === "attack_declared") {
    for (const t of cause.targets || []) {
      const mark = markAttack(layer, centre(cause.hex), centre(t.hex), { kind: cause.distance > 1 ? "shot" : "attack",
        from: `${cause.hex}`, to: `${t.hex}`, value: cause.dice, trim: 14,
        label: `${name(cause.figure)} attacks ${name(t.figure)}${cause.special ? ` (${cause.special})` : ""}: ${cause.dice} attack dice against ${t.dice} defense dice, range ${cause.distance} of ${cause.range}` });
      mark?.setAttribute("data-range", cause.distance);
    }
  }
  if (cause.type === "dice_rolled") {
    const combat = cause.die === "combat";
    const faces = cause.values.map((value) => ({ value, face: combat ? FACES[value] : null }));
    const count = (face) => faces.filter((f) => f.face === face).length;
    const result = !combat ? null : cause.purpose === "defense" ? `${count("shield")} shields` : `${count("skull")} skulls`;
    dice.push({ who: cause.player, purpose: cause.purpose, values: faces, result,
      what: `${seat(cause.player)}'s ${cause.purpose} roll${cause.figure ? ` (${name(cause.figure)})` : ""}` });
  }
  if (cause.type === "attack_resolved") {
    dice.push({ who: cause.defender, purpose: "result", values: [], what: `Attack ${cause.attack} on ${name(cause.target)}:`,
      result: `${cause.skulls} skulls against ${cause.shields} shields, ${cause.wounds} wounds${cause.destroyed ? ", destroyed" : ""}` });
  }
  if (cause.type === "figure_destroyed") {
    const [x, y] = centre(cause.hex);
    markDestroyed(layer, { x: x - R * 0.6, y: y - R * 0.6, width: R * 1.2, height: R * 1.2 }, { round: true, at: `${cause.hex}`,
      card: cause.figure, label: `${seat(cause.player)}'s ${name(cause.figure)} destroyed on [${cause.hex}]${cause.by ? ` by ${name(cause.by)}` : ""}` });
  }
  if (cause.type === "marker_revealed") {
    const card = (state.figures || []).find((f) => f.figure === cause.card || f.figure.startsWith(`${cause.card}/`))?.name || cause.card;
    revealed.push({ card: cause.card, name: `order marker ${cause.number}: ${card}`, who: seat(cause.player) });
  }
  return { dice, revealed, words: marksWords(svg) };
}

export function draw(host, state, context = {}) {
  const map = state.map;
  if (!map) {
    host.replaceChildren(html("p", {}, "Before the first event."));
    return "HeroScape, before the game";
  }
  const centre = ([q, r]) => [R * Math.sqrt(3) * (q + r / 2), R * 1.5 * r];
  const cells = map.cells;
  const xs = cells.map(([q, r]) => centre([q, r])[0]);
  const ys = cells.map(([q, r]) => centre([q, r])[1]);
  const minX = Math.min(...xs) - R * 1.2, minY = Math.min(...ys) - R * 1.3;
  const width = Math.max(...xs) - minX + R * 1.2, height = Math.max(...ys) - minY + R * 1.3;
  const svg = node("svg", { viewBox: `${minX} ${minY} ${width} ${height}`, role: "img", class: "hs-map", "data-min-text": 10, width: Math.round(width) });
  const top = Math.max(...cells.map((c) => c[2]));
  const used = new Set((map.used_glyphs || []).map((h) => h.join(",")));
  const corners = ([x, y]) => Array.from({ length: 6 }, (_, i) => {
    const a = Math.PI / 180 * (60 * i - 30);
    return `${(x + R * Math.cos(a)).toFixed(1)},${(y + R * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  for (const [q, r, level, terrain, glyph] of cells) {
    const c = centre([q, r]);
    const g = node("g", {}, node("title", {}, `[${q}, ${r}] level ${level}, ${terrain}${glyph ? `, glyph ${glyph}${used.has(`${q},${r}`) ? " (used)" : ""}` : ""}`));
    g.append(node("polygon", { points: corners(c), fill: shade(TERRAIN[terrain] || "#ccc", level, top), stroke: "#5d584e", "stroke-width": 1 }));
    const ink = level / Math.max(top + 4, 1) > 0.3 || terrain === "rock" ? "#fff" : "#1d1f24"; // light on the dark hexes
    g.append(node("text", { x: c[0], y: c[1] - R * 0.6, "text-anchor": "middle", "font-size": 10, fill: ink, class: "hs-coord" }, `${q},${r}`));
    g.append(node("text", { x: c[0], y: c[1] + R * 0.85, "text-anchor": "middle", "font-size": 11, "font-weight": 600, fill: ink, class: "hs-level" }, String(level)));
    if (glyph && !used.has(`${q},${r}`)) {
      g.append(node("circle", { cx: c[0] - R * 0.55, cy: c[1] + R * 0.05, r: 8, fill: "#f3e27a", stroke: "#6b5a00" }));
      g.append(node("text", { x: c[0] - R * 0.55, y: c[1] + R * 0.05 + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#1d1f24" }, glyph[0].toUpperCase()));
    }
    svg.append(g);
  }
  for (const [a, b, h] of map.obstacles || []) {
    const ca = centre(a), cb = centre(b);
    const mx = (ca[0] + cb[0]) / 2, my = (ca[1] + cb[1]) / 2;
    const dx = cb[0] - ca[0], dy = cb[1] - ca[1], len = Math.hypot(dx, dy);
    const ox = -dy / len * R * 0.55, oy = dx / len * R * 0.55;
    svg.append(node("line", { x1: mx + ox, y1: my + oy, x2: mx - ox, y2: my - oy, stroke: "#3b2f2f", "stroke-width": 5 },
      node("title", {}, `wall of height ${h}`)));
  }
  const cause = context.cause || null;
  const figures = (state.figures || []).filter((f) => f.status === "placed" && f.hex);
  const where = new Map(figures.map((f) => [`${f.owner}:${f.figure}`, f]));
  const lines = [];
  const marked = new Set();
  if (cause && cause.type === "attack_declared") marked.add(`${cause.player}:${cause.figure}`);
  if (cause && (cause.type === "move_declared" || cause.type === "figure_moved")) marked.add(`${cause.player}:${cause.figure}`);
  for (const f of figures) {
    const a = centre(f.hex);
    const key = `${f.owner}:${f.figure}`;
    const label = `${f.owner}'s ${figureName(f)} on [${f.hex}]${f.wounds ? `, ${f.wounds} of ${f.life} wounds` : ""}`;
    const g = node("g", { tabindex: 0, "aria-label": label, class: "hs-figure", "data-figure": f.figure, "data-card-id": f.card, "data-owner": f.owner }, node("title", {}, label));
    const stroke = marked.has(key) ? "#000" : COLOURS[f.owner];
    if (f.tail) {
      const b = centre(f.tail);
      g.append(node("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke, "stroke-width": R * 1.0, "stroke-linecap": "round", opacity: 0.9 }));
      g.append(node("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: TINTS[f.owner], "stroke-width": R * 0.85, "stroke-linecap": "round" }));
    } else {
      g.append(node("circle", { cx: a[0], cy: a[1], r: R * 0.5, fill: TINTS[f.owner], stroke, "stroke-width": marked.has(key) ? 3 : 2 }));
    }
    g.append(node("text", { x: a[0], y: a[1] + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: COLOURS[f.owner] }, f.name[0]));
    if (f.wounds) {
      g.append(node("circle", { cx: a[0] + R * 0.5, cy: a[1], r: 8, fill: "#c00" }));
      g.append(node("text", { x: a[0] + R * 0.5, y: a[1] + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#fff", class: "hs-wounds" }, String(f.wounds)));
    }
    svg.append(g);
    lines.push(label);
  }
  const { dice, revealed, words } = marks(svg, cause, centre, state);
  if (words) lines.push(words);
  const desc = [`HeroScape, ${map.name}, round ${state.round}, ${state.phase}`, ...lines].join("; ");
  svg.prepend(node("desc", {}, desc));
  const seats = (state.seats || []).map((s) => {
    const mine = figures.filter((f) => f.owner === s.id).map((f) => figureName(f) + (f.wounds ? ` (${f.wounds}/${f.life})` : ""));
    const markers = state.markers?.[s.id];
    const shown = markers && typeof markers === "object" ? `, markers ${Object.entries(markers).map(([k, v]) => `${k}:${v}`).join(" ")}` : markers === "placed" ? ", markers placed (hidden)" : "";
    return html("li", { style: `color:${COLOURS[s.id]}` },
      `${s.id} ${s.name}: ${state.points?.[s.id] ?? 0} points on the map; ${mine.join(", ") || "no figure"}${shown}`);
  });
  host.replaceChildren(svg, ...[stepStrip({ dice, revealed })].filter(Boolean), key(), html("ul", { class: "hs-seats" }, seats));
  return desc;
}
