// Light Wars' drawing for the replay page (docs/web.md "A system's drawing"): the map (the state's: 9x9 on the
// built-in catalogue, any size a game's catalogue gives) as SVG (row 1 at the
// bottom; a p2 view turns it round so p2's side is at the bottom), the territories tinted, the Castles marked,
// each unit a square of its owner's colour with its id and an arrow for its facing; the step's event marked (a
// move's path, an attack's participants with lines to the target and the dice, the removed units crossed out
// where they stood); below, per seat: score, bases in stock, tactics in effect. Units behind the screen are listed
// without a square (the view does not know it). A key under the map names the letters and marks. The unit data is
// the game's catalogue (context.catalogue, issue 30), else the engine's built-in one served beside this module
// (catalogue.json); each unit names its type (data-card-id) for the page's card details.
import { boardKey, markAttack, markDestroyed, markLayer, markMove, markRevealed, marksKey, marksWords, stepStrip } from "/static/js/board-kit.js";
import { fromCatalogue } from "/static/js/catalogue-kit.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 64;
const MARGIN = 22;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const COLOURS = { p1: "#b3261e", p2: "#1f5fbf" }; // red and blue armies (§2.1)
const TINTS = { p1: "#f9e0de", p2: "#dde8f9" };
const ANGLES = { N: 0, E: 90, S: 180, W: 270 };

const builtin = await (await fetch(new URL("./catalogue.json", import.meta.url))).json();
let catalogue = builtin;
const byId = (list) => Object.fromEntries((Array.isArray(list) ? list : []).map((entry) => [entry.id, entry]));
// units and tiles named from the game's catalogue document (its units and tactics by id), else the built-in data
const use = fromCatalogue(builtin, (given) => (Array.isArray(given.units)
  ? { ...builtin, units: byId(given.units), tactics: byId(given.tactics) } : null));

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

function parse(square) {
  const m = typeof square === "string" ? square.match(/^([A-Z])([1-9][0-9]?)$/) : null;
  return m ? [LETTERS.indexOf(m[1]), Number(m[2]) - 1] : null;
}

function unitName(type) {
  return (catalogue.units[type] || { name: type }).name;
}

/** The key under the map: the units' letters (from the catalogue) and the marks. */
function key() {
  const letters = Object.values(catalogue.units).map((u) => `${u.letter} ${u.name}`).join(", ");
  return boardKey([
    ['<rect x="5" y="1" width="18" height="18" rx="3" fill="#f9e0de" stroke="#b3261e" stroke-width="2"/><text x="14" y="14" font-size="10" font-weight="700" fill="#b3261e" text-anchor="middle">I2</text>',
      `a unit: its type's letter and number (${letters}), in its army's colour`],
    ['<path d="M8 12 L14 4 L20 12 Z" fill="#1f5fbf"/>', "the way it faces"],
    ['<rect x="4" y="1" width="20" height="18" fill="none" stroke="#b3261e" stroke-width="2" stroke-dasharray="4 3"/>', "a Castle (dashed square)"],
    ['<rect x="2" y="2" width="11" height="16" fill="#f9e0de"/><rect x="15" y="2" width="11" height="16" fill="#dde8f9"/>', "each army's territory (tinted rows)"],
    ['<rect x="5" y="1" width="18" height="18" rx="3" fill="#fff" stroke="#000" stroke-width="3"/>', "the unit of this step"],
    ...marksKey(["move", "attack", "shot", "destroyed", "revealed", "dice"]),
  ], "Key to the Light Wars map");
}

/** The step's event on the map (board-kit.js marks): a move's arrow, an attack's lines from each participant to the
 * target (a shot dashed; the side it strikes, front, flank or rear, in its title and data-side), the dice of an
 * attack under the map, the removed units crossed out where they stood, the units a lifted screen reveals flagged. */
function marks(svg, cause, at, centre, unitName, seats) {
  const layer = markLayer(svg);
  const seat = (id) => (seats || []).find((s) => s.id === id)?.name || id;
  const dice = [];
  if (!cause) return { dice, words: "" };
  const box = (square) => { const p = at(square); return p ? { x: p[0] + 6, y: p[1] + 6, width: CELL - 12, height: CELL - 12 } : null; };
  if (cause.type === "unit_moved") {
    markMove(layer, centre(cause.origin), centre(cause.square), { from: cause.origin, to: cause.square, trim: 20,
      label: `${seat(cause.player)}'s ${cause.unit} moved from ${cause.origin} to ${cause.square}, facing ${cause.facing}` });
  }
  if (cause.type === "attack_declared") {
    for (const part of cause.participants || []) {
      const value = part.attack + (part.bonus || 0);
      const mark = markAttack(layer, centre(part.square), centre(cause.target), { kind: part.shooting ? "shot" : "attack",
        from: part.square, to: cause.target, value, trim: 20,
        label: `${part.unit} (${unitName(part.type)}) ${part.shooting ? "shoots" : "attacks"} ${cause.target_unit} on ${cause.target} from the ${part.side}: ${part.attack}${part.bonus ? ` + ${part.bonus}` : ""}` });
      mark?.setAttribute("data-side", part.side);
    }
  }
  if (cause.type === "attack_resolved") {
    dice.push({ who: "attack", purpose: "attack", what: `Attack ${cause.attack}: attacker's die`, values: [{ value: cause.attack_die }], result: `total ${cause.attack_total}` });
    dice.push({ who: "defence", purpose: "defence", what: "defender's die", values: [{ value: cause.defence_die }],
      result: `total ${cause.defence_total}: the ${cause.winner === "attack" ? "attacker" : "defender"} wins${cause.tie ? ` (tie: ${cause.tie.replaceAll("_", " ")})` : ""}` });
    for (const r of cause.removed || []) {
      markDestroyed(layer, box(r.square), { at: r.square, card: r.unit, label: `${seat(r.player)}'s ${unitName(r.type)} ${r.unit} removed from ${r.square}` });
    }
  }
  if (cause.type === "die_rolled") {
    dice.push({ who: cause.player, purpose: cause.purpose, what: `${seat(cause.player)}'s ${cause.purpose} die`, values: [{ value: cause.value }] });
  }
  if (cause.type === "screen_lifted") {
    for (const placements of Object.values(cause.placements || {})) {
      for (const p of placements || []) markRevealed(layer, box(p.square), { card: p.unit, label: `${p.unit} revealed on ${p.square}` });
    }
  }
  return { dice, words: marksWords(svg) };
}

export function draw(host, state, context = {}) {
  catalogue = use(context.catalogue ?? null);
  const flipped = context.view === "p2";
  const map = state.map || catalogue;
  const W = map.width || 9, H = map.height || 9;
  const at = (square) => {
    const xy = parse(square);
    if (!xy) return null;
    const [x, y] = xy;
    const col = flipped ? W - 1 - x : x;
    const row = flipped ? y : H - 1 - y;
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  };
  const centre = (square) => {
    const p = at(square);
    return p ? [p[0] + CELL / 2, p[1] + CELL / 2] : null;
  };
  const width = MARGIN * 2 + W * CELL, height = MARGIN * 2 + H * CELL;
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "lw-map", "data-min-text": 12, width });
  const lines = [];
  const territory = map.territory || map.territories || catalogue.territory; // a catalogue's map: territories
  const castles = map.castles || catalogue.castles;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const square = `${LETTERS[x]}${y + 1}`;
      const [px, py] = at(square);
      const owner = Object.keys(territory).find((p) => territory[p].includes(y + 1));
      svg.append(node("rect", { x: px, y: py, width: CELL, height: CELL, fill: owner ? TINTS[owner] : "#fbfaf7",
        stroke: "#9a9486", "stroke-width": 1 }));
      const castleOf = Object.keys(castles).find((p) => castles[p] === square);
      if (castleOf) {
        svg.append(node("rect", { x: px + 6, y: py + 6, width: CELL - 12, height: CELL - 12, fill: "none",
          stroke: COLOURS[castleOf], "stroke-width": 3, "stroke-dasharray": "6 4" },
        node("title", {}, `${castleOf}'s Castle`)));
      }
    }
  }
  for (let i = 0; i < W; i++) {
    const col = flipped ? W - 1 - i : i;
    svg.append(node("text", { x: MARGIN + col * CELL + CELL / 2, y: MARGIN - 6, "text-anchor": "middle",
      "font-size": 12 }, LETTERS[i]));
  }
  for (let i = 0; i < H; i++) {
    const row = flipped ? i : H - 1 - i;
    svg.append(node("text", { x: 4, y: MARGIN + row * CELL + CELL / 2 + 4, "font-size": 12 }, String(i + 1)));
  }
  const cause = context.cause || null;
  const marked = new Set();
  if (cause && cause.type === "attack_declared") for (const p of cause.participants || []) marked.add(p.square);
  if (cause && (cause.type === "unit_moved" || cause.type === "unit_turned")) marked.add(cause.square);
  const units = state.units || [];
  for (const u of units) {
    if (!u.square) continue;
    const p = at(u.square);
    if (!p) continue;
    const [px, py] = p;
    const group = node("g", { tabindex: 0, class: "lw-unit", "data-unit": u.unit, "data-card-id": u.type, "data-owner": u.owner, "aria-label": `${u.owner}'s ${unitName(u.type)} ${u.unit} on ${u.square} facing ${u.facing}` });
    group.append(node("rect", { x: px + 8, y: py + 8, width: CELL - 16, height: CELL - 16, rx: 6,
      fill: TINTS[u.owner], stroke: marked.has(u.square) ? "#000" : COLOURS[u.owner],
      "stroke-width": marked.has(u.square) ? 4 : 2, opacity: u.status === "done" ? 0.75 : 1 }));
    group.append(node("text", { x: px + CELL / 2, y: py + CELL / 2 + 5, "text-anchor": "middle", "font-size": 16,
      "font-weight": 600, fill: COLOURS[u.owner] }, u.unit));
    const angle = (ANGLES[u.facing] ?? 0) + (flipped ? 180 : 0);
    group.append(node("path", { d: `M ${px + CELL / 2 - 7} ${py + 18} L ${px + CELL / 2} ${py + 9} L ${px + CELL / 2 + 7} ${py + 18} Z`,
      fill: COLOURS[u.owner], transform: `rotate(${angle} ${px + CELL / 2} ${py + CELL / 2})` }));
    group.append(node("title", {}, `${unitName(u.type)} ${u.unit} (${u.owner}), facing ${u.facing}, ${u.status}`));
    svg.append(group);
    lines.push(`${u.owner} ${unitName(u.type)} ${u.unit} ${u.square} facing ${u.facing}`);
  }
  const { dice, words } = marks(svg, cause, at, centre, unitName, state.seats || context.seats);
  if (words) lines.push(words);
  const desc = [`Light Wars, ${state.phase}, turn ${state.turn}`, ...lines].join("; ");
  svg.prepend(node("desc", {}, desc));
  const seats = (state.seats || []).map((s) => {
    const hidden = units.filter((u) => u.owner === s.id && !u.square);
    const removed = (state.removed || []).filter((r) => r.player === s.id).map((r) => r.unit);
    return html("li", { style: `color:${COLOURS[s.id]}` },
      `${s.id} ${s.name}: score ${state.scores?.[s.id] ?? 0}, bases in stock ${state.stock?.[s.id] ?? 0}`,
      hidden.length ? `, not on the map: ${hidden.map((u) => u.unit + (u.status === "screened" ? " (screened)" : "")).join(" ")}` : "",
      removed.length ? `, removed: ${removed.join(" ")}` : "");
  });
  const tiles = (state.tactics_in_effect || []).map((t) => (catalogue.tactics[t] || { name: t }).name);
  host.replaceChildren(svg, ...[stepStrip({ dice })].filter(Boolean), key(), html("ul", { class: "lw-seats" }, seats),
    tiles.length ? html("p", {}, `Tactics this turn: ${tiles.join(", ")}`) : "");
  return desc;
}
