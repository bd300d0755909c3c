// Lords of War's drawing for the replay page (docs/web.md "A system's drawing"): the mat (7x6, or the occupied
// area plus a margin in unbounded games) as SVG, each card with its name, owner colour, defence and arrows with
// their values, a ranged unit's target grid on hover or focus; the step's event marked on the board (the placed
// card, shots as dashed lines, destroyed units and their attackers, a berserker's move, a recall); and per seat
// its hand, deck and kill pile. The card data is the game's catalogue (context.catalogue, issue 30), else the
// engine's built-in one served beside this module (cards.json); each card names its id (data-card-id) for the page's
// card details.
import { boardKey, markAttack, markDestroyed, markLayer, markMove, marksKey, marksWords, stepStrip } from "/static/js/board-kit.js";
import { fromCatalogue } from "/static/js/catalogue-kit.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 120; // a square, in CSS px at zoom 1 (the replay page's frame scrolls a board wider than itself)
const MARGIN = 26; // room for the coordinates
const COLUMNS = 7;
const ROWS = 6;
const LETTERS = "ABCDEFG";
const STEPS = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
// Owner colours: the seats facing as p1 (frame 0: p1, and with §10 its team-mates) in cool colours, those facing as
// p2 in warm ones; the n-th seat of a frame takes the n-th colour of its family, so up to six owners stay apart.
const FAMILIES = [
  [["#1f5fbf", "#dde8f9"], ["#0f7a6b", "#d8f1ec"], ["#5b3fa8", "#e6e0f5"]],
  [["#b3261e", "#f9e0de"], ["#b85c00", "#fbe8d4"], ["#a3206b", "#f6dcea"]],
];

/** seat -> { colour, tint, frame, team } from the state's players (§10 states give each its team and frame). */
function seatStyles(state, context) {
  const players = state.players || context.seats || [{ id: "p1" }, { id: "p2" }];
  const used = [0, 0];
  const out = {};
  players.forEach((p, i) => {
    const frame = p.frame ?? (i % 2);
    const [colour, tint] = FAMILIES[frame][used[frame]++ % FAMILIES[frame].length];
    out[p.id] = { colour, tint, frame, team: p.team || null };
  });
  return out;
}

const BUILTIN = (await (await fetch(new URL("./cards.json", import.meta.url))).json()).cards;
const COMMANDER_RANKS = ["general", "command"]; // engine/lords_of_war/catalogue.py
let CARDS = BUILTIN;
// cards named and drawn from the game's catalogue document (context.catalogue, issue 30: its cards by id, in the
// shape of cards.json), else from the built-in cards
const use = fromCatalogue(BUILTIN, (given) => (Array.isArray(given.cards) ? Object.fromEntries(given.cards.map((c) => [c.id, {
  ...c, ranged: c.ranged && c.ranged.value > 0 && c.ranged.grid?.length ? c.ranged : null,
  commander: COMMANDER_RANKS.includes(c.rank) }])) : null));

function card(id) {
  return CARDS[id] || { name: id || "a hidden card", defence: "?", attacks: {}, ranged: null, commander: false };
}

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

/** A square's name -> [x, y] (A1 = 0,0; row 1 on p1's side), or null. */
function parse(square, unbounded) {
  if (typeof square !== "string") return null;
  if (unbounded) {
    const m = square.match(/^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/);
    return m ? [Number(m[1]), Number(m[2])] : null;
  }
  const m = square.match(/^([A-Ga-g])(\d)$/);
  return m ? [LETTERS.indexOf(m[1].toUpperCase()), Number(m[2]) - 1] : null;
}

function nameOf(x, y, unbounded) {
  return unbounded ? `${x},${y}` : `${LETTERS[x]}${y + 1}`;
}

/** The squares the step's event names (so an unbounded board shows them too). */
function causeSquares(cause) {
  if (!cause) return [];
  switch (cause.type) {
    case "placed": case "recalled": return [cause.square];
    case "shot": return [cause.shooter_square, cause.target_square];
    case "berserker_moved": return [cause.origin, cause.target];
    case "eliminated": return (cause.units || []).flatMap((u) => [u.square, ...(u.attackers || []).map((a) => a.square)]);
    default: return [];
  }
}

/** The squares of the state's units and of the step's event, plus a margin of one square; null when none. */
function around(state, cause) {
  const points = [...(state.board || []).map((u) => u.square), ...causeSquares(cause)]
    .map((s) => parse(s, true)).filter(Boolean);
  if (!points.length) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs) - 1, y0: Math.min(...ys) - 1, x1: Math.max(...xs) + 1, y1: Math.max(...ys) + 1 };
}

function union(a, b) {
  if (!a || !b) return a || b;
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

/** What the board shows: the mat, or in an unbounded game the whole game's extent (extent(), given by the page)
 * grown by this step should it reach beyond, else the occupied area (the challenge squares before any, R1). */
function bounds(state, cause, unbounded, whole) {
  if (!unbounded) return { x0: 0, y0: 0, x1: COLUMNS - 1, y1: ROWS - 1 };
  return union(whole, around(state, cause)) || { x0: 1, y0: 1, x1: 5, y1: 4 };
}

/** The replay page asks once for the extent of every step loaded (docs/web.md): an unbounded game is drawn over
 * every square any step occupies, plus a margin of one, so it keeps one scale for the whole game. */
export function extent(states) {
  let box = null;
  for (const state of states) {
    if (!state || !state.variant || !state.variant.unbounded || !(state.board || []).length) continue;
    box = union(box, around(state, null));
  }
  return box;
}

const NAME_WIDE = 100; // px: a line of a card's name (the card's inner width)
const measure = document.createElement("canvas").getContext("2d");

/** A line's width in the name's font (12px, semi-bold). */
function textWidth(line) {
  measure.font = "600 12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  return measure.measureText(line).width;
}

/** A card's name on at most two lines: the first up to ~15 characters (the card's width), the rest below. */
function nameLines(name) {
  const words = name.split(/\s+/);
  let first = words.shift() || "";
  while (words.length && textWidth(`${first} ${words[0]}`) <= NAME_WIDE) first += ` ${words.shift()}`;
  return words.length ? [first, words.join(" ")] : [first];
}

/** The key under the board. */
function key() {
  return boardKey([
    ['<rect x="3" y="2" width="22" height="16" rx="3" fill="#dde8f9" stroke="#1f5fbf" stroke-width="2"/>', "a card, tinted and bordered in its owner's colour"],
    ['<rect x="3" y="2" width="22" height="16" rx="3" fill="#f9e0de" stroke="#b3261e" stroke-width="2"/><rect x="6" y="5" width="16" height="10" rx="2" fill="none" stroke="#b3261e" stroke-dasharray="2 2"/>', "dashed inner border: a commander"],
    ['<circle cx="14" cy="10" r="8" fill="#fff" stroke="#555"/><text x="14" y="14" font-size="11" font-weight="700" text-anchor="middle">4</text>', "defence"],
    ['<polygon points="14,1 8,9 20,9" fill="#555"/><text x="14" y="19" font-size="10" font-weight="700" text-anchor="middle">3</text>', "an attack: its direction on the board and its value"],
    ['<text x="14" y="15" font-size="12" font-weight="700" text-anchor="middle">◎5</text>', "ranged value (its targets show on hover, focus or tap)"],
    ['<rect x="3" y="2" width="22" height="16" rx="3" fill="#fff" stroke="#000" stroke-width="3"/>', "placed this step"],
    ['<rect x="3" y="2" width="22" height="16" rx="3" fill="#fff" stroke="#a65e00" stroke-width="4"/>', "one of the attackers"],
    ...marksKey(["move", "attack", "shot", "destroyed", "revealed"]),
  ], "Key to the Lords of War board");
}

export function draw(host, state, context = {}) {
  CARDS = use(context.catalogue ?? null);
  const unbounded = Boolean(state.variant && state.variant.unbounded);
  const cause = context.cause || null;
  const styles = seatStyles(state, context);
  const style = (seat) => styles[seat] || { colour: "#555", tint: "#eee", frame: 0, team: null };
  const flip = Boolean(styles[context.view] && styles[context.view].frame === 1); // a seat sees its own edge at the bottom
  const box = bounds(state, cause, unbounded, unbounded ? context.extent || null : null);
  const columns = box.x1 - box.x0 + 1;
  const rows = box.y1 - box.y0 + 1;
  const width = MARGIN + columns * CELL;
  const height = rows * CELL + MARGIN;
  // board [x, y] -> the top-left corner of its cell in the picture
  const at = (x, y) => [MARGIN + (flip ? box.x1 - x : x - box.x0) * CELL, (flip ? y - box.y0 : box.y1 - y) * CELL];
  const centre = (square) => {
    const p = parse(square, unbounded);
    if (!p) return null;
    const [left, top] = at(p[0], p[1]);
    return [left + CELL / 2, top + CELL / 2];
  };
  const seatName = Object.fromEntries((state.players || context.seats || []).map((p) => [p.id, p.name || p.id]));

  const title = node("title", { id: "lw-board-title" }, "Lords of War board");
  const desc = node("desc", { id: "lw-board-desc" });
  const svg = node("svg", {
    class: "lw-board", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": "lw-board-title lw-board-desc", "data-columns": columns, "data-rows": rows,
    "data-unbounded": unbounded ? "true" : "false", "data-min-text": 12,
  }, title, desc);

  // squares and coordinates
  const squares = node("g", { class: "lw-squares" });
  for (let x = box.x0; x <= box.x1; x += 1) {
    for (let y = box.y0; y <= box.y1; y += 1) {
      const [left, top] = at(x, y);
      squares.append(node("rect", { x: left, y: top, width: CELL, height: CELL, class: "lw-square", "data-square": nameOf(x, y, unbounded) }));
    }
  }
  for (let x = box.x0; x <= box.x1; x += 1) {
    const [left] = at(x, box.y0);
    squares.append(node("text", { x: left + CELL / 2, y: rows * CELL + 18, class: "lw-coord", "text-anchor": "middle" }, unbounded ? x : LETTERS[x]));
  }
  for (let y = box.y0; y <= box.y1; y += 1) {
    const [, top] = at(box.x0, y);
    squares.append(node("text", { x: MARGIN / 2, y: top + CELL / 2 + 5, class: "lw-coord", "text-anchor": "middle" }, unbounded ? y : y + 1));
  }
  svg.append(squares);

  // what the step's event marks
  const marks = { placed: null, recalled: null, destroyed: new Map(), attackers: new Set(), lines: [] };
  if (cause) {
    if (cause.type === "placed") marks.placed = cause.square;
    if (cause.type === "recalled") marks.recalled = { square: cause.square, card: cause.card, owner: cause.player };
    if (cause.type === "shot") marks.lines.push({ from: cause.shooter_square, to: cause.target_square, kind: "shot", value: cause.value,
      label: `${card(cause.shooter_card).name} on ${cause.shooter_square} shoots ${card(cause.target_card).name} on ${cause.target_square} for ${cause.value}` });
    if (cause.type === "berserker_moved") marks.lines.push({ from: cause.origin, to: cause.target, kind: "move", value: null,
      label: `${card(cause.card).name} moves from ${cause.origin} to ${cause.target}` });
    if (cause.type === "eliminated") {
      for (const unit of cause.units || []) {
        marks.destroyed.set(unit.square, unit);
        for (const attacker of unit.attackers || []) {
          marks.attackers.add(attacker.square);
          marks.lines.push({ from: attacker.square, to: unit.square, kind: attacker.kind === "shot" ? "shot" : "arrow", value: attacker.value,
            label: `${card(attacker.card).name} on ${attacker.square} ${attacker.kind === "shot" ? "shoots" : "strikes"} ${card(unit.card).name} on ${unit.square} for ${attacker.value}` });
        }
      }
    }
  }

  const grids = node("g", { class: "lw-grids" });
  const units = node("g", { class: "lw-units" });
  const occupied = new Set();
  const drawUnit = (unit, extra = {}) => {
    const p = parse(unit.square, unbounded);
    if (!p) return;
    const [left, top] = at(p[0], p[1]);
    const info = card(unit.card);
    const colour = style(unit.owner).colour;
    const facing = style(unit.owner).frame === 1 ? -1 : 1; // p2's cards (and its team-mates', §10) face the other way (§1)
    const screen = flip ? -1 : 1;
    const classes = ["lw-card", extra.className, marks.attackers.has(unit.square) ? "lw-attacker" : null,
      marks.placed === unit.square ? "lw-placed" : null].filter(Boolean).join(" ");
    const label = `${info.name}, ${unit.owner}${seatName[unit.owner] && seatName[unit.owner] !== unit.owner ? ` (${seatName[unit.owner]})` : ""}, at ${unit.square}, defence ${info.defence}`
      + (extra.what ? `, ${extra.what}` : "") + (marks.attackers.has(unit.square) ? ", attacking" : "");
    const g = node("g", {
      class: classes, tabindex: "0", role: "img", "aria-label": label, "data-square": unit.square,
      "data-card": unit.card, "data-card-id": unit.card, "data-owner": unit.owner, "data-destroyed": extra.destroyed ? "true" : null,
      "data-attacker": marks.attackers.has(unit.square) ? "true" : null,
    });
    g.append(node("title", {}, label));
    g.append(node("rect", { x: left + 5, y: top + 5, width: CELL - 10, height: CELL - 10, rx: 8, fill: style(unit.owner).tint, stroke: colour, class: "lw-card-face" }));
    if (info.commander) g.append(node("rect", { x: left + 9, y: top + 9, width: CELL - 18, height: CELL - 18, rx: 5, fill: "none", stroke: colour, "stroke-dasharray": "3 3", class: "lw-commander" }));
    // the card (CELL 120, centre c): its name on one or two lines above the centre, the defence in a circle below
    // it, a ranged value left of the circle, each attack's arrow on the card's edge with its value inside (W and E
    // a little below their arrows, clear of the name)
    const [cx0, cy0] = [left + CELL / 2, top + CELL / 2];
    nameLines(info.name).forEach((line, i, all) => {
      const text = node("text", { x: cx0, y: cy0 + (all.length === 1 ? -10 : -18 + i * 15), class: "lw-name", "text-anchor": "middle" }, line);
      if (textWidth(line) > NAME_WIDE) text.setAttribute("textLength", NAME_WIDE), text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      g.append(text);
    });
    g.append(node("circle", { cx: cx0, cy: cy0 + 20, r: 12, fill: "#fff", stroke: colour, class: "lw-defence-ring" }));
    g.append(node("text", { x: cx0, y: cy0 + 25, class: "lw-defence", "text-anchor": "middle", "data-defence": info.defence }, info.defence));
    for (const [direction, value] of Object.entries(info.attacks || {})) {
      const step = STEPS[direction];
      if (!step) continue;
      const dx = step[0] * facing * screen;
      const dy = -step[1] * facing * screen; // the picture's y grows downwards
      const cx = cx0 + dx * 46;
      const cy = cy0 + dy * 46;
      const tip = [cx + dx * 7, cy + dy * 7];
      const norm = Math.hypot(dx, dy);
      const [px, py] = [-dy / norm * 6, dx / norm * 6];
      g.append(node("polygon", { points: `${tip[0]},${tip[1]} ${cx + px},${cy + py} ${cx - px},${cy - py}`, fill: colour, class: "lw-arrow", "data-direction": direction, "data-value": value }));
      g.append(node("text", { x: cx0 + dx * 38, y: cy0 + (dy ? dy * 38 + 4 : 13), class: "lw-arrow-value", "text-anchor": "middle", "data-direction": direction }, value));
    }
    if (info.ranged) {
      g.append(node("text", { x: cx0 - 14, y: cy0 + 27, class: "lw-ranged", "text-anchor": "end" }, `◎${info.ranged.value}`));
      const grid = node("g", { class: "lw-grid", "data-for": unit.square });
      for (const [gx, gy] of info.ranged.grid) {
        const tx = p[0] + gx * facing;
        const ty = p[1] + gy * facing;
        if (!unbounded && (tx < 0 || tx >= COLUMNS || ty < 0 || ty >= ROWS)) continue;
        if (tx < box.x0 || tx > box.x1 || ty < box.y0 || ty > box.y1) continue;
        const [gl, gt] = at(tx, ty);
        grid.append(node("rect", { x: gl + 2, y: gt + 2, width: CELL - 4, height: CELL - 4, class: "lw-grid-cell", stroke: colour, "data-square": nameOf(tx, ty, unbounded) }));
      }
      grids.append(grid);
      const show = (on) => grid.classList.toggle("lw-grid-shown", on);
      g.addEventListener("mouseenter", () => show(true));
      g.addEventListener("mouseleave", () => show(false));
      g.addEventListener("focus", () => show(true));
      g.addEventListener("blur", () => show(false));
      g.setAttribute("aria-label", `${label}, shoots ${info.ranged.value}`);
    }
    units.append(g);
    occupied.add(unit.square);
  };
  for (const unit of state.board || []) drawUnit(unit);
  for (const unit of marks.destroyed.values()) {
    if (!occupied.has(unit.square)) drawUnit(unit, { className: "lw-destroyed", destroyed: true, what: `destroyed: ${unit.damage} damage > defence ${unit.defence}` });
  }
  if (marks.recalled && !occupied.has(marks.recalled.square)) drawUnit(marks.recalled, { className: "lw-recalled", what: "recalled to the hand" });
  svg.append(grids, units);

  // the step's marks (board-kit.js): shots, strikes and a berserker's move as lines over the cards, the destroyed
  // units crossed out where they stood
  const layer = markLayer(svg);
  for (const line of marks.lines) {
    const what = { from: line.from, to: line.to, value: line.value, trim: 26, label: line.label };
    if (line.kind === "move") markMove(layer, centre(line.from), centre(line.to), what);
    else markAttack(layer, centre(line.from), centre(line.to), { ...what, kind: line.kind === "shot" ? "shot" : "attack" });
  }
  for (const unit of marks.destroyed.values()) {
    const p = parse(unit.square, unbounded);
    if (!p) continue;
    const [left, top] = at(p[0], p[1]);
    markDestroyed(layer, { x: left + 5, y: top + 5, width: CELL - 10, height: CELL - 10 }, { at: unit.square, card: unit.card,
      label: `${card(unit.card).name} destroyed on ${unit.square}: ${unit.damage} damage against defence ${unit.defence}` });
  }
  const revealed = cause && cause.type === "hand_revealed"
    ? (cause.cards || []).map((id) => ({ card: id, name: card(id).name, who: seatName[cause.player] || cause.player })) : [];

  // the seats: hand, deck, kills, kill pile
  const seats = (state.players || context.seats || []).map((p) => p.id);
  const panel = html("div", { class: "lw-seats" });
  const kills = state.kills || {};
  const target = state.variant ? state.variant.kill_target : null;
  const commandTarget = state.variant ? state.variant.command_target : null;
  const summary = [];
  for (const seat of seats) {
    const hand = (state.hands || {})[seat] || {};
    const shown = hand.cards || hand.known || null;
    const team = style(seat).team; // §10: kills and kill piles are the team's
    const side = team || seat;
    const pile = ((state.kill_piles || {})[side] || []).map((id) => card(id).name);
    const counted = new Map();
    for (const name of pile) counted.set(name, (counted.get(name) || 0) + 1);
    const k = kills[side] || { total: 0, commanders: 0 };
    const deck = (state.deck || {})[seat];
    const name = seatName[seat] && seatName[seat] !== seat ? `${seat} ${seatName[seat]}` : seat;
    const active = state.active === seat && state.phase !== "over";
    panel.append(html("section", { class: "lw-seat", "data-seat": seat, "data-team": team, style: `--seat: ${style(seat).colour}` },
      html("h2", {}, html("span", { class: "lw-swatch", "aria-hidden": "true" }), name, team ? html("span", { class: "lw-team" }, ` team ${team}`) : null,
        active ? html("span", { class: "badge" }, `to ${state.phase}`) : null,
        state.winner && state.winner === side ? html("span", { class: "badge" }, "winner") : null),
      html("dl", { class: "lw-counts" },
        html("dt", {}, "Hand"), html("dd", { "data-hand-count": hand.count ?? 0 }, String(hand.count ?? 0)),
        html("dt", {}, "Deck"), html("dd", { "data-deck": deck ?? "" }, deck ?? "—"),
        html("dt", {}, team ? `Destroyed by team ${team}` : "Destroyed"), html("dd", { "data-kills": k.total }, `${k.total}${target ? ` of ${target}` : ""} (${k.commanders}${commandTarget ? ` of ${commandTarget}` : ""} commanders)`)),
      shown ? html("p", { class: "lw-hand" }, html("strong", {}, hand.known ? "Known in hand: " : "In hand: "),
        shown.length ? shown.map((id, i) => html("span", { class: "lw-hand-card", "data-card": id, "data-card-id": id, tabindex: 0 }, (i ? ", " : "") + card(id).name)) : "none") : null,
      html("p", { class: "lw-pile" }, html("strong", {}, "Kill pile: "),
        pile.length ? [...counted].map(([n, c]) => `${n}${c > 1 ? ` ×${c}` : ""}`).join(", ") : "empty")));
    summary.push(`${name}: ${hand.count ?? 0} in hand, ${deck ?? "?"} in the deck, ${k.total} destroyed${shown ? `; hand: ${shown.map((id) => card(id).name).join(", ") || "empty"}` : ""}`);
  }

  // the text alternative
  const byOwner = new Map();
  for (const unit of state.board || []) {
    if (!byOwner.has(unit.owner)) byOwner.set(unit.owner, []);
    byOwner.get(unit.owner).push(`${card(unit.card).name} at ${unit.square}`);
  }
  const phase = state.phase === "over"
    ? `The game is over${state.winner ? (state.winner === "draw" ? ": a draw" : `: ${state.teams && state.teams[state.winner] ? `team ${state.winner} (${state.teams[state.winner].join(", ")})` : state.winner} wins`) : ""}${state.end_reason ? ` (${state.end_reason})` : ""}.`
    : `Turn ${state.turn}, ${state.active} to ${state.phase}.`;
  const board = seats.map((seat) => `${seat}'s units: ${(byOwner.get(seat) || []).join(", ") || "none"}.`).join(" ");
  // the step's marks in words, as every board lists them (board-kit.js marksWords: each mark's title)
  const words = marksWords(svg);
  const marked = words ? ` This step: ${words}.` : "";
  const alt = `Lords of War${unbounded ? " (unbounded)" : ""}. ${phase} ${board}${marked} ${summary.join(". ")}.`;
  desc.textContent = alt;

  host.replaceChildren(svg, ...[stepStrip({ revealed })].filter(Boolean), key(), panel);
  return alt;
}
