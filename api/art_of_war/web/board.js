// Art of War's drawing for the replay page (docs/web.md "A system's drawing"): both 3x2 battlefields facing each
// other (the viewer's, or p1's, at the bottom, the front rows in the middle, columns shared: p2's A faces p1's A),
// each unit a card with its name, its defence as it stands, its attack and this turn's damage; a sideways unit is
// turned 90° (landscape, its text kept upright), a king crowned. Beside each battlefield: its standby queue (oldest
// first, numbered), its kingdom by type and its graveyard, hand and deck counts; above it the player's name and
// deck. The step's attack or damage is marked: the attacker outlined, a line to its target, the target crossed
// out when captured or destroyed. Every text stays at 11 px or more at zoom 1; a key under the board. Card data:
// the game's catalogue (context.catalogue, issue 30), else the engine's catalog served beside this module; a KING
// names its id (data-card-id) for the page's card details.
import { boardKey, markAttack, markDestroyed, markLayer, markMove, markRevealed, marksKey, marksWords, stepStrip } from "/static/js/board-kit.js";
import { fromCatalogue } from "/static/js/catalogue-kit.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 860;
const CW = 88; // a unit upright (portrait); sideways it is CH x CW
const CH = 112;
const SLOT = 116; // a square of the battlefield
const GAP = 8;
const COLOURS = { p1: "#8c1d18", p2: "#1f4f99" };
const TINTS = { p1: "#f8e4e1", p2: "#e1e9f7" };
const TYPES = ["soldier", "archer", "priest", "guardian", "wizard"];
const FIELD_X = 12;
const STANDBY_X = FIELD_X + 3 * SLOT + 2 * GAP + 24;
const KINGDOM_X = STANDBY_X + 170;
const COUNTS_X = KINGDOM_X + 170;

const BUILTIN = await (await fetch(new URL("./catalog.json", import.meta.url))).json();
let catalog = BUILTIN;
// KINGs named from the game's catalogue document (context.catalogue, issue 30: its kings by id), else the built-in
// ones; the five basic units are the rules' own (the built-in data's non-king cards)
const use = fromCatalogue(BUILTIN, (given) => (Array.isArray(given.kings) ? Object.fromEntries([
  ...Object.entries(BUILTIN).filter(([, card]) => !card.king), ...given.kings.map((k) => [k.id, { ...k, king: true }])]) : null));

function node(tag, attributes = {}, ...children) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children) made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return made;
}

const kindOf = (instance) => (instance || "").split(".")[1];
const cardOf = (instance) => catalog[kindOf(instance)] || { name: kindOf(instance) || "a hidden card", defence: [0, 0], attack: null };
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

/** The key under the board. */
function key() {
  return boardKey([
    ['<rect x="9" y="1" width="11" height="18" rx="2" fill="#fffdf8" stroke="#666"/>', "a unit upright"],
    ['<rect x="4" y="4" width="20" height="12" rx="2" fill="#fffdf8" stroke="#666"/>', "sideways: turned 90° (its second defence)"],
    ['<text x="14" y="15" font-size="13" text-anchor="middle">♔</text>', "a king"],
    ['<rect x="9" y="1" width="11" height="18" rx="2" fill="none" stroke="#999" stroke-dasharray="3 2"/>', "an empty square"],
    ['<rect x="4" y="3" width="20" height="14" rx="2" fill="#fffdf8" stroke="#e0a000" stroke-width="3"/>', "the attacker"],
    ...marksKey(["move", "attack", "destroyed", "revealed"]),
  ], "Key to the Art of War board");
}

/** The step's event on the battlefields (board-kit.js marks): a shift's or a priest's move as an arrow, an attack
 * (declared, or the damage it deals) as a line from the attacker's square to the target across the middle with its
 * value, a unit captured or destroyed crossed out on the square it stood on, a card played or deployed face up
 * flagged; a card shown from the hand (a support, a unit entering the kingdom) listed under the board. */
function marks(svg, cause, centres, players, names) {
  const layer = markLayer(svg);
  const revealed = [];
  const slot = (player, square) => {
    const c = centres[`${player}:${square}`];
    return c ? { x: c[0] - SLOT / 2 + 3, y: c[1] - SLOT / 2 + 3, width: SLOT - 6, height: SLOT - 6 } : null;
  };
  const who = (player) => names[player] || player;
  const other = (player) => players.find((p) => p.id !== player)?.id;
  if (cause.type === "moved") {
    for (const [from, to] of cause.moves || []) {
      markMove(layer, centres[`${cause.player}:${from}`], centres[`${cause.player}:${to}`], { from, to, trimFrom: 16, trimTo: 58,
        label: `${who(cause.player)}'s unit moved from ${from} to ${to}${cause.forced ? " (forced forward)" : ""}` });
    }
  }
  if (cause.type === "arranged" && cause.how === "shift" && cause.to) {
    markMove(layer, centres[`${cause.player}:${cause.square}`], centres[`${cause.player}:${cause.to}`], { from: cause.square, to: cause.to, trimFrom: 16, trimTo: 58,
      label: `${who(cause.player)} shifted ${cause.square} to ${cause.to}` });
  }
  if (cause.type === "arranged" && cause.how === "play" && cause.card) {
    markRevealed(layer, slot(cause.player, cause.square), { card: cause.card, label: `${cardOf(cause.card).name} played from the hand to ${cause.square}` });
  }
  if (cause.type === "deployed" && cause.card) {
    markRevealed(layer, slot(cause.player, cause.square), { card: cause.card, label: `${cardOf(cause.card).name} deployed on ${cause.square}` });
  }
  if (cause.type === "attack_declared") {
    const defender = other(cause.player);
    markAttack(layer, centres[`${cause.player}:${cause.square}`], centres[`${defender}:${cause.target}`], { kind: "attack",
      from: `${cause.player}:${cause.square}`, to: `${defender}:${cause.target}`, value: cause.value, trim: 34,
      label: `${who(cause.player)}'s ${cardOf(cause.unit).name} on ${cause.square} attacks ${cause.target} for ${cause.value}` });
  }
  if (cause.type === "damaged") {
    if (cause.source_square) {
      markAttack(layer, centres[`${cause.by}:${cause.source_square}`], centres[`${cause.owner}:${cause.square}`], { kind: "attack",
        from: `${cause.by}:${cause.source_square}`, to: `${cause.owner}:${cause.square}`, value: cause.value, trim: 34,
        label: `${cardOf(cause.source).name} deals ${cause.value} to ${cardOf(cause.unit).name} (defence ${cause.defence}): ${cause.result}` });
    }
    if (cause.result !== "damaged") {
      markDestroyed(layer, slot(cause.owner, cause.square), { at: `${cause.owner}:${cause.square}`, card: cause.unit,
        label: `${who(cause.owner)}'s ${cardOf(cause.unit).name} ${cause.result} on ${cause.square}${cause.to ? ` (to the ${cause.to})` : ""}` });
    }
  }
  if ((cause.type === "support_declared" || cause.type === "entered") && cause.card) {
    revealed.push({ card: cause.card, name: `${cardOf(cause.card).name}${cause.type === "entered" ? " (into the kingdom)" : ` (a ${cause.effect} support)`}`, who: who(cause.player) });
  }
  return { revealed, words: marksWords(svg) };
}

export function draw(host, state, context = {}) {
  catalog = use(context.catalogue ?? null);
  const players = state.players || [];
  const names = Object.fromEntries((context.seats || state.seats || []).map((s) => [s.id, s.name || s.id]));
  const bottom = players.find((p) => p.id === context.view) || players[0];
  const top = players.find((p) => p !== bottom);
  const bandHeight = 30 + 2 * SLOT + GAP + 12;
  const middle = 26;
  const height = 2 * bandHeight + middle;
  const svg = node("svg", { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, role: "img", class: "aow-board", "data-min-text": 11 });
  const cause = context.cause || {};
  const centres = {};
  const lines = [];
  const text = (x, y, words, size, extra = {}) => node("text", { x, y, "font-size": size, fill: "#1d1f24", ...extra }, words);

  const drawSide = (player, isTop) => {
    if (!player) return;
    const colour = COLOURS[player.id] || "#333";
    const y0 = isTop ? 0 : bandHeight + middle;
    const g = node("g", { class: "aow-side", "data-player": player.id });
    g.append(node("rect", { x: 0, y: y0, width: WIDTH, height: bandHeight, rx: 8, fill: TINTS[player.id] || "#eee" }));
    const hand = player.hand_count ?? (player.hand || []).length;
    const deck = player.deck_count ?? (player.deck || []).length;
    g.append(text(FIELD_X, y0 + 21, `${names[player.id] || player.id} · ${capital(player.deck_name || "")}`, 16, { "font-weight": 700, fill: colour }));
    const gridTop = y0 + 30;
    const rows = isTop ? ["2", "1"] : ["1", "2"]; // the front rows (1) face each other in the middle
    const units = Object.fromEntries((player.field || []).map((slot) => [slot.square, slot.unit]));
    rows.forEach((row, r) => {
      ["A", "B", "C"].forEach((col, c) => {
        const square = `${col}${row}`;
        const sx = FIELD_X + c * (SLOT + GAP);
        const sy = gridTop + r * (SLOT + GAP);
        centres[`${player.id}:${square}`] = [sx + SLOT / 2, sy + SLOT / 2];
        const unit = units[square];
        if (!unit) {
          g.append(node("rect", { x: sx + 2, y: sy + 2, width: SLOT - 4, height: SLOT - 4, fill: "none", stroke: "#999", "stroke-dasharray": "4 3", rx: 6 }));
          g.append(text(sx + SLOT / 2, sy + SLOT / 2 + 5, square, 13, { "text-anchor": "middle", fill: "#4f5561" }));
          return;
        }
        const card = cardOf(unit.card);
        const hit = cause.type === "damaged" && cause.owner === player.id && cause.square === square;
        const attacker = (cause.type === "attack_declared" && cause.player === player.id && cause.square === square)
          || (cause.type === "damaged" && cause.by === player.id && cause.source_square === square);
        const [w, h] = unit.upright ? [CW, CH] : [CH, CW];
        const x = sx + (SLOT - w) / 2;
        const y = sy + (SLOT - h) / 2;
        const defence = card.defence[unit.upright ? 0 : 1];
        const words = `${names[player.id] || player.id}'s ${card.name}${card.king ? " (king)" : ""} at ${square}, ${unit.upright ? "upright" : "sideways"}: defence ${defence}` +
          `${card.attack !== null && card.attack !== undefined ? `, attack ${card.attack}` : ", no attack"}${unit.damage ? `, ${unit.damage} damage this turn` : ""}`;
        const u = node("g", { class: "aow-unit", tabindex: 0, role: "img", "aria-label": words, "data-detail": words,
          "data-square": square, "data-owner": player.id, "data-card-id": card.king ? kindOf(unit.card) : null, "data-sideways": unit.upright ? null : "true" }, node("title", {}, words));
        u.append(node("rect", { x, y, width: w, height: h, rx: 6, fill: "#fffdf8", stroke: attacker ? "#e0a000" : colour,
          "stroke-width": attacker || hit ? 4 : 1.5 }));
        u.append(text(x + 6, y + 18, `${card.king ? "♔ " : ""}${card.name}`, 12, { "font-weight": 700, fill: colour }));
        u.append(text(x + 6, y + 36, `defence ${defence}`, 12));
        u.append(text(x + 6, y + 52, card.attack !== null && card.attack !== undefined ? `attack ${card.attack}` : "no attack", 12));
        if (unit.damage) u.append(text(x + 6, y + 68, `damage ${unit.damage}`, 12, { fill: "#b3261e", "font-weight": 700 }));
        u.append(text(x + w - 6, y + h - 7, square, 11, { "text-anchor": "end", fill: "#4f5561" }));
        g.append(u);
      });
    });
    // the standby queue, oldest first
    g.append(text(STANDBY_X, y0 + 46, "Standby (oldest first)", 12, { "font-weight": 600, fill: "#4f5561" }));
    const standby = player.standby || [];
    if (!standby.length) g.append(text(STANDBY_X, y0 + 68, "empty", 12, { fill: "#4f5561" }));
    const shown = standby.length > 7 ? 6 : standby.length; // the band holds seven; more are counted
    if (shown < standby.length) g.append(text(STANDBY_X, y0 + 54 + 6 * 30 + 18, `and ${standby.length - shown} more`, 12, { fill: "#4f5561" }));
    standby.slice(0, shown).forEach((instance, i) => {
      const card = cardOf(instance);
      const sy = y0 + 54 + i * 30;
      const words = `standby ${i + 1}: ${card.name}`;
      const s = node("g", { class: "aow-standby", tabindex: 0, "data-detail": words, "data-card-id": card.king ? kindOf(instance) : null }, node("title", {}, words));
      s.append(node("rect", { x: STANDBY_X, y: sy, width: 150, height: 26, rx: 4, fill: "#fffdf8", stroke: colour }));
      s.append(text(STANDBY_X + 6, sy + 18, `${i + 1}. ${card.name}`, 12, { "font-weight": 600 }));
      g.append(s);
    });
    // the kingdom by type
    const kingdom = player.kingdom || [];
    g.append(text(KINGDOM_X, y0 + 46, `Kingdom (${kingdom.length})`, 12, { "font-weight": 600, fill: "#4f5561" }));
    TYPES.forEach((type, i) => {
      const count = kingdom.filter((c) => kindOf(c) === type).length;
      const ky = y0 + 54 + i * 30;
      const words = `${count} ${type}${count === 1 ? "" : "s"} in the kingdom`;
      const k = node("g", { class: "aow-kingdom", tabindex: 0, "data-detail": words, "data-type": type, "data-count": count }, node("title", {}, words));
      k.append(node("rect", { x: KINGDOM_X, y: ky, width: 150, height: 26, rx: 4, fill: count ? "#fffdf8" : "none", stroke: count ? colour : "#bbb" }));
      k.append(text(KINGDOM_X + 6, ky + 18, `${(catalog[type] || { name: type }).name}`, 12, { "font-weight": 600, fill: count ? "#1d1f24" : "#4f5561" }));
      k.append(text(KINGDOM_X + 144, ky + 18, `×${count}`, 13, { "text-anchor": "end", "font-weight": 700, fill: count ? colour : "#4f5561" }));
      g.append(k);
    });
    // the counts
    [["Hand", hand], ["Deck", deck], ["Graveyard", (player.graveyard || []).length]].forEach(([word, count], i) => {
      g.append(text(COUNTS_X, y0 + 68 + i * 30, word, 13, { fill: "#4f5561" }));
      g.append(text(WIDTH - 14, y0 + 68 + i * 30, String(count), 15, { "text-anchor": "end", "font-weight": 700 }));
    });
    svg.append(g);
    lines.push(`${names[player.id] || player.id}: ${(player.field || []).map((s) => `${cardOf(s.unit.card).name} at ${s.square}${s.unit.upright ? "" : " (sideways)"}`).join(", ") || "no unit"}; ` +
      `standby ${standby.map((c) => cardOf(c).name).join(", ") || "empty"}; kingdom ${kingdom.length} cards; hand ${hand}, deck ${deck}`);
  };
  drawSide(top, true);
  drawSide(bottom, false);
  svg.append(node("line", { x1: FIELD_X, y1: bandHeight + middle / 2, x2: FIELD_X + 3 * SLOT + 2 * GAP, y2: bandHeight + middle / 2, stroke: "#4f5561", "stroke-dasharray": "6 4" }));
  const { revealed, words } = marks(svg, cause, centres, players, names);
  if (words) lines.push(words);
  const alt = `Art of War, turn ${state.turn}. ${lines.join(". ")}.`;
  svg.prepend(node("desc", {}, alt));
  host.replaceChildren(svg, ...[stepStrip({ revealed })].filter(Boolean), key());
  return alt;
}
