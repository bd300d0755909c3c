// L5R's drawing for the replay page (docs/web.md "A system's drawing"), a table as players lay it out: for each
// player (the viewer's, or the turn player's, at the bottom) a band with the player's name and clan, their gold,
// hand and deck counts; the stronghold, the four provinces (face-down cards as card backs, a destroyed province
// struck out, its number above it), the decks and discards; and the home: personalities with their attachments
// tucked under them, holdings and rings. A bowed card is turned 90° (landscape, its text kept upright), a
// dishonoured one marked. Between the players: the family honour track (-20 to 40, the game's thresholds) with a
// marker per player, the battle under way (each battlefield's armies, their units drawn there rather than at home)
// or the duel (the duellists and their focus cards, face down until the reveal, then with their focus values), and
// the cards the step destroyed. Every text stays at 11 px or more at zoom 1; a key under the board explains F, C
// and H and the marks. Card data: the game's catalogue (context.catalogue, issue 30), else the engine's built-in
// catalog served beside this module (catalog.json); each card names its id (data-card-id) for the page's details.
import { boardKey, boxOf, centreOf, markAttack, markDestroyed, markLayer, markRevealed, marksKey, marksWords, stepStrip } from "/static/js/board-kit.js";
import { fromCatalogue } from "/static/js/catalogue-kit.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 860;
const CW = 92; // a card upright (portrait)
const CH = 112;
const GAP = 10;
const TAB = 22; // an attachment's tab under its personality
const COLOURS = { p1: "#8c1d18", p2: "#1f4f99" };
const TINTS = { p1: "#f8e4e1", p2: "#e1e9f7" };
const HONOUR = [-20, 40]; // the honour track: loss at -20, victory at 40 (§6)

const BUILTIN = await (await fetch(new URL("./catalog.json", import.meta.url))).json();
let catalog = BUILTIN;
// cards named from the game's catalogue document (context.catalogue, issue 30: its cards by id, with the same fields
// as catalog.json), else from the built-in cards
const use = fromCatalogue(BUILTIN, (given) => (Array.isArray(given.cards)
  ? Object.fromEntries(given.cards.map((c) => [c.id, c])) : null));
const measure = document.createElement("canvas").getContext("2d");

function node(tag, attributes = {}, ...children) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children) made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return made;
}

function cardOf(instance) {
  if (!instance) return null;
  const id = instance.split(".")[1];
  return catalog[id] || { name: id, kind: "card" };
}

function nameOf(instance) {
  const card = cardOf(instance);
  return card ? card.name : "a face-down card";
}

const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

function width(text, size, weight = 400) {
  measure.font = `${weight} ${size}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif`;
  return measure.measureText(text).width;
}

/** A text of at most `room` px: squeezed (never cut) when wider. */
function fitted(attributes, text, room, size, weight) {
  const made = node("text", { "font-size": size, "font-weight": weight, ...attributes }, text);
  if (width(text, size, weight) > room) {
    made.setAttribute("textLength", room);
    made.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return made;
}

/** A name on at most two lines of `room` px. */
function lines(text, room, size, weight) {
  const words = text.split(/\s+/);
  let first = words.shift() || "";
  while (words.length && width(`${first} ${words[0]}`, size, weight) <= room) first += ` ${words.shift()}`;
  return words.length ? [first, words.join(" ")] : [first];
}

function stats(card) {
  if (card.kind === "personality") return `F${card.force} C${card.chi} H${card.personal_honor}`;
  if (card.kind === "holding" || card.kind === "stronghold") return `${card.gold} gold`;
  if (card.kind === "follower" || card.kind === "item") return `+${card.force}F${card.chi ? ` +${card.chi}C` : ""}`;
  if (card.kind === "ring") return capital(card.element);
  return "";
}

/** One card at (x, y): portrait, or landscape when bowed (turned 90°); face down when its instance is hidden. */
function drawCard(parent, x, y, instance, options = {}) {
  const card = cardOf(instance);
  const bowed = Boolean(options.bowed);
  const [w, h] = bowed ? [CH, CW] : [CW, CH];
  const describe = card
    ? `${card.name} (${card.kind}${stats(card) ? `, ${statsWords(card)}` : ""})${bowed ? ", bowed" : ""}${options.dishonored ? ", dishonoured" : ""}${options.where ? `, ${options.where}` : ""}`
    : `a face-down card${options.where ? `, ${options.where}` : ""}`;
  const group = node("g", { class: `l5r-card${options.className ? ` ${options.className}` : ""}`, tabindex: 0, "data-card": instance || "", "data-card-id": card ? instance.split(".")[1] : null, "data-bowed": bowed ? "true" : null,
    "data-province": options.province ?? null,
    "data-detail": describe, role: "img", "aria-label": describe }, node("title", {}, describe));
  group.append(node("rect", { x, y, width: w, height: h, rx: 6, fill: card ? "#fffdf8" : "#5b4a3a",
    stroke: options.highlight || options.colour || "#666", "stroke-width": options.highlight ? 4 : 1.5 }));
  if (!card) {
    group.append(node("circle", { cx: x + w / 2, cy: y + h / 2 - 8, r: 14, fill: "none", stroke: "#c9b79c", "stroke-width": 2 }));
    group.append(fitted({ x: x + w / 2, y: y + h / 2 + 24, "text-anchor": "middle", fill: "#f3e9dc" }, options.label || "face down", w - 10, 11, 400));
  } else {
    const room = w - 12;
    lines(card.name, room, 12, 700).forEach((line, i) => {
      group.append(fitted({ x: x + 6, y: y + 17 + i * 15, fill: "#1d1f24" }, line, room, 12, 700));
    });
    group.append(node("text", { x: x + 6, y: y + 50, "font-size": 11, fill: "#4f5561" }, card.kind));
    if (options.dishonored) group.append(node("text", { x: x + 6, y: y + (bowed ? 64 : 68), "font-size": 11, "font-weight": 700, fill: "#b3261e" }, "dishonoured"));
    const line = options.note || stats(card);
    if (line) group.append(fitted({ x: x + 6, y: y + h - 9, fill: "#1d1f24" }, line, room, 13, 700));
  }
  parent.append(group);
  return [w, h];
}

function statsWords(card) {
  if (card.kind === "personality") return `force ${card.force}, chi ${card.chi}, personal honour ${card.personal_honor}`;
  if (card.kind === "follower" || card.kind === "item") return `+${card.force} force${card.chi ? `, +${card.chi} chi` : ""}`;
  return stats(card);
}

/** A unit: its card, and its attachments as tabs tucked under it. Answers its width and height. */
function drawUnit(parent, x, y, player, entry, colour, highlight) {
  const attached = player.cards.filter((a) => a.on === entry.id);
  const [cardW, cardH] = entry.bowed ? [CH, CW] : [CW, CH];
  [...attached.entries()].reverse().forEach(([i, a]) => { // the last first: each tab's name shows below the one before
    const card = cardOf(a.id);
    const ty = y + cardH - 6 + i * TAB;
    const label = card ? card.name : "a card";
    const tab = node("g", { class: "l5r-attachment", "data-card": a.id, "data-card-id": card ? a.id.split(".")[1] : null, tabindex: 0, "data-detail": `${card ? card.name : "a card"} (${card ? card.kind : "card"}${card ? `, ${statsWords(card)}` : ""}), attached to ${nameOf(entry.id)}` },
      node("title", {}, `${label}, attached to ${nameOf(entry.id)}`));
    tab.append(node("rect", { x, y: ty, width: cardW, height: TAB + 6, rx: 4, fill: "#fbf3e2", stroke: colour }));
    tab.append(fitted({ x: x + 5, y: ty + TAB + 1, fill: "#1d1f24" }, label, cardW - 10, 11, 500));
    parent.append(tab);
  });
  const [w, h] = drawCard(parent, x, y, entry.id, { colour, bowed: entry.bowed, dishonored: entry.dishonored, highlight });
  return [w, attached.length ? cardH - 6 + attached.length * TAB + 6 : h];
}

/** Cards in rows from (x, y) within the board's width; answers the height used. */
function flow(parent, x0, y0, entries, drawOne) {
  let x = x0;
  let y = y0;
  let row = 0;
  for (const entry of entries) {
    const [w] = entry.size;
    if (x + w > WIDTH - 10 && x > x0) {
      x = x0;
      y += row + GAP;
      row = 0;
    }
    const [, h] = drawOne(x, y, entry);
    x += w + GAP;
    row = Math.max(row, h);
  }
  return y - y0 + row;
}

const unitSize = (player, entry) => {
  const attached = player.cards.filter((a) => a.on === entry.id).length;
  const [w, h] = entry.bowed ? [CH, CW] : [CW, CH];
  return [w, attached ? h - 6 + attached * TAB + 6 : h];
};

function label(parent, x, y, text) {
  parent.append(node("text", { x, y, "font-size": 12, "font-weight": 600, fill: "#4f5561" }, text));
}

/** One player's band; answers its height. The top band puts its provinces nearest the middle. */
function band(svg, state, player, top, names, context, atTop) {
  const colour = COLOURS[player.id] || "#333";
  const g = node("g", { class: "l5r-band", "data-player": player.id });
  const background = node("rect", { x: 0, y: top, width: WIDTH, rx: 8, fill: TINTS[player.id] || "#eee" });
  g.append(background);
  const hand = player.hand_count ?? (player.hand || []).length;
  g.append(node("text", { x: 12, y: top + 22, "font-size": 16, "font-weight": 700, fill: colour, class: "l5r-player" },
    `${names[player.id] || player.id} · ${capital(player.clan)} · honour ${player.honor}${player.eliminated ? " · eliminated" : ""}`));
  g.append(node("text", { x: WIDTH - 12, y: top + 22, "font-size": 13, fill: "#1d1f24", "text-anchor": "end" },
    `gold ${player.gold} · hand ${hand} · dynasty ${player.dynasty_count ?? "?"} · fate ${player.fate_count ?? "?"}` +
    `${(player.removed || []).length ? ` · removed ${player.removed.length}` : ""}`));
  const inBattle = new Set((state.armies || []).flatMap((a) => a.units));
  const duellists = new Set(state.duel ? [state.duel.challenger, state.duel.challenged] : []);
  const rank = (c) => ({ personality: 0, ring: 2 }[cardOf(c.id)?.kind] ?? 1);
  const home = player.cards.filter((c) => !c.on && !inBattle.has(c.id)).sort((a, b) => rank(a) - rank(b))
    .map((c) => ({ ...c, size: unitSize(player, c) }));

  const drawTable = (y) => { // stronghold, provinces, decks: one row of labelled slots
    const slots = [["Stronghold", 12, CH], ...[1, 2, 3, 4].map((n, i) => [`Province ${n}`, 12 + CH + GAP + 8 + i * (CW + GAP), CW]),
      ["Dynasty", 12 + CH + 4 * (CW + GAP) + 20, CW], ["Fate", 12 + CH + 5 * (CW + GAP) + 20, CW],
      ["Discards", 12 + CH + 6 * (CW + GAP) + 20, CW]];
    slots.forEach(([text, x]) => label(g, x, y + 12, text));
    const cardsTop = y + 20;
    drawCard(g, slots[0][1], cardsTop + (player.stronghold_bowed ? CH - CW : 0) / 2, player.stronghold,
      { colour, bowed: player.stronghold_bowed, where: "stronghold", className: "l5r-stronghold", note: `${cardOf(player.stronghold)?.gold ?? "?"} gold` });
    const provinces = new Map(player.provinces.map((p) => [p.number, p]));
    [1, 2, 3, 4].forEach((n, i) => {
      const x = slots[1 + i][1];
      const province = provinces.get(n);
      if (!province) {
        g.append(node("rect", { x, y: cardsTop, width: CW, height: CH, rx: 6, fill: "none", stroke: "#b3261e", "stroke-dasharray": "5 4", "data-province": n, "data-destroyed": "true" }));
        g.append(node("path", { d: `M${x + 10} ${cardsTop + 10} L${x + CW - 10} ${cardsTop + CH - 10} M${x + CW - 10} ${cardsTop + 10} L${x + 10} ${cardsTop + CH - 10}`, stroke: "#b3261e", "stroke-width": 2, opacity: 0.5 }));
        g.append(node("text", { x: x + CW / 2, y: cardsTop + CH / 2 + 4, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#b3261e" }, "destroyed"));
      } else if (!province.filled) {
        g.append(node("rect", { x, y: cardsTop, width: CW, height: CH, rx: 6, fill: "none", stroke: "#999", "data-province": n }));
        g.append(node("text", { x: x + CW / 2, y: cardsTop + CH / 2 + 4, "text-anchor": "middle", "font-size": 12, fill: "#4f5561" }, "empty"));
      } else {
        drawCard(g, x, cardsTop, province.face_up ? province.card : null, { colour, where: `province ${n}`, province: n });
      }
    });
    const pile = (x, count, words) => {
      const group = node("g", { class: "l5r-pile", tabindex: 0, "data-detail": words }, node("title", {}, words));
      group.append(node("rect", { x: x + 4, y: cardsTop + 4, width: CW, height: CH, rx: 6, fill: "#8a7660", stroke: "#5b4a3a" }));
      group.append(node("rect", { x, y: cardsTop, width: CW, height: CH, rx: 6, fill: "#5b4a3a", stroke: "#3e3226" }));
      group.append(node("text", { x: x + CW / 2, y: cardsTop + CH / 2 + 6, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: "#f3e9dc" }, String(count ?? "?")));
      g.append(group);
    };
    pile(slots[5][1], player.dynasty_count, `${player.dynasty_count ?? "?"} cards in the dynasty deck`);
    pile(slots[6][1], player.fate_count, `${player.fate_count ?? "?"} cards in the fate deck`);
    const discards = node("g", { class: "l5r-pile", tabindex: 0, "data-detail":
      `discards: dynasty ${(player.dynasty_discard || []).map(nameOf).join(", ") || "none"}; fate ${(player.fate_discard || []).map(nameOf).join(", ") || "none"}` });
    const dx = slots[7][1];
    discards.append(node("rect", { x: dx, y: cardsTop, width: CW, height: CH, rx: 6, fill: "none", stroke: "#999", "stroke-dasharray": "4 3" }));
    [["dynasty", (player.dynasty_discard || []).length], ["fate", (player.fate_discard || []).length],
      ["dishon.", (player.discard_dishonored || []).length]].forEach(([word, count], i) => {
      discards.append(node("text", { x: dx + 8, y: cardsTop + 26 + i * 26, "font-size": 12, fill: "#1d1f24" }, `${word} ${count}`));
    });
    g.append(discards);
    return 20 + CH;
  };
  const drawHome = (y) => {
    label(g, 12, y + 12, home.length ? "Home" : "Home: nobody");
    const used = flow(g, 12, y + 20, home, (x, yy, entry) => {
      if (cardOf(entry.id)?.kind === "personality" || player.cards.some((a) => a.on === entry.id)) {
        return drawUnit(g, x, yy + (entry.bowed && entry.size[1] === CW ? (CH - CW) / 2 : 0), player, entry, colour, duellists.has(entry.id) ? "#e0a000" : null);
      }
      const [w, h] = drawCard(g, x, yy + (entry.bowed ? (CH - CW) / 2 : 0), entry.id, { colour, bowed: entry.bowed, dishonored: entry.dishonored });
      return [w, entry.bowed ? CH : h];
    });
    return 20 + Math.max(used, home.length ? CH : 0);
  };
  let y = top + 34;
  if (atTop) {
    y += drawHome(y) + 12;
    y += drawTable(y) + 12;
  } else {
    y += drawTable(y) + 12;
    y += drawHome(y) + 12;
  }
  background.setAttribute("height", y - top);
  svg.append(g);
  return y - top;
}

/** The family honour track between the bands: a marker per player (the top band's above the line). */
function honourTrack(svg, players, y, names) {
  const [low, high] = HONOUR;
  const x0 = 150;
  const x1 = WIDTH - 30;
  const at = (honour) => x0 + (Math.max(low, Math.min(high, honour)) - low) / (high - low) * (x1 - x0);
  const g = node("g", { class: "l5r-honour" });
  g.append(node("text", { x: 12, y: y + 5, "font-size": 13, "font-weight": 700, fill: "#1d1f24" }, "Family honour"));
  g.append(node("line", { x1: x0, y1: y, x2: x1, y2: y, stroke: "#4f5561", "stroke-width": 2 }));
  for (let v = low; v <= high; v += 10) {
    g.append(node("line", { x1: at(v), y1: y - 5, x2: at(v), y2: y + 5, stroke: "#4f5561" }));
    g.append(node("text", { x: at(v), y: y + 44, "font-size": 11, "text-anchor": "middle", fill: "#4f5561" }, v === low ? `${v} loses` : v === high ? `${v} wins` : String(v)));
  }
  players.forEach((p, i) => {
    const cy = i === 0 ? y - 16 : y + 16;
    const words = `${names[p.id] || p.id}: family honour ${p.honor}`;
    const marker = node("g", { "data-honour": p.honor, "data-player": p.id, tabindex: 0, "data-detail": words }, node("title", {}, words));
    marker.append(node("circle", { cx: at(p.honor), cy, r: 12, fill: COLOURS[p.id] || "#333", stroke: "#fff", "stroke-width": 2 }));
    marker.append(node("text", { x: at(p.honor), y: cy + 4, "font-size": 11, "font-weight": 700, "text-anchor": "middle", fill: "#fff" }, String(p.honor)));
    g.append(marker);
  });
  svg.append(g);
  return 62; // the line 22 below the top, its values 44 below the line
}

/** The battle under way: each battlefield (the defender's province of that number) with its armies. */
function battle(svg, state, y, names) {
  const duellists = new Set(state.duel ? [state.duel.challenger, state.duel.challenged] : []);
  const fields = [...new Set((state.armies || []).map((a) => a.battlefield))].sort((a, b) => a - b);
  if (!fields.length) return 0;
  let x = 12;
  let height = 0;
  const g = node("g", { class: "l5r-battle" });
  for (const field of fields) {
    const armies = (state.armies || []).filter((a) => a.battlefield === field);
    const widest = Math.max(...armies.map((a) => a.units.length), 1);
    const w = Math.max(140, widest * (CW + GAP) + GAP);
    if (x + w > WIDTH - 10 && x > 12) break; // more battlefields than fit: listed in the text alternative
    let yy = y + 18;
    const frame = node("rect", { x, y, width: w, height: 0, fill: "none", "data-battlefield": field }); // its box, for the marks
    g.append(frame);
    g.append(node("text", { x, y: y + 12, "font-size": 13, "font-weight": 700, fill: "#1d1f24" }, `Battlefield ${field}`));
    for (const army of armies) {
      const player = state.players.find((p) => p.id === army.player);
      g.append(node("text", { x, y: yy + 12, "font-size": 12, fill: COLOURS[army.player] || "#333", "font-weight": 600 },
        `${names[army.player] || army.player}, ${army.side}`));
      let tallest = CH;
      army.units.forEach((unit, i) => {
        const entry = player.cards.find((c) => c.id === unit) || { id: unit, bowed: false, dishonored: false };
        const [, h] = drawUnit(g, x + i * (CW + GAP), yy + 18, player, entry, COLOURS[army.player], duellists.has(unit) ? "#e0a000" : null);
        tallest = Math.max(tallest, h);
      });
      yy += 18 + tallest + GAP;
    }
    height = Math.max(height, yy - y);
    frame.setAttribute("height", yy - y);
    x += w + GAP;
  }
  svg.append(g);
  return height;
}

function duel(svg, state, cause, y, names) {
  const g = node("g", { class: "l5r-duel" });
  const text = (t) => g.append(node("text", { x: 12, y: y + 14, "font-size": 14, "font-weight": 700, fill: "#1d1f24" }, t));
  let focuses;
  if (state.duel) {
    const d = state.duel;
    text(`Duel on ${d.stat}: ${nameOf(d.challenger)} challenges ${nameOf(d.challenged)} (outlined in gold); focus cards:`);
    focuses = d.focuses.map((f) => ({ player: f.player, card: f.card, note: null }));
  } else {
    text(`Duel: ${cause.totals[0]} to ${cause.totals[1]}`);
    focuses = (cause.revealed || []).map((f) => ({ player: f.player, card: f.card, note: `focus ${f.focus}` }));
  }
  if (!focuses.length) g.append(node("text", { x: 12, y: y + 40, "font-size": 12, fill: "#4f5561" }, "no focus card yet"));
  focuses.forEach((f, i) => {
    const x = 12 + i * (CW + GAP);
    g.append(fitted({ x, y: y + 36, fill: COLOURS[f.player] || "#333" }, `${names[f.player] || f.player}`, CW, 12, 600));
    drawCard(g, x, y + 44, f.card, { colour: COLOURS[f.player], label: "focus", note: f.note, where: `${names[f.player] || f.player}'s focus` });
  });
  svg.append(g);
  return 44 + CH + 6;
}

/** The key under the board. */
function key() {
  return boardKey([
    ['<rect x="8" y="1" width="12" height="18" rx="2" fill="#fffdf8" stroke="#666"/>', "a card standing"],
    ['<rect x="4" y="4" width="20" height="12" rx="2" fill="#fffdf8" stroke="#666"/>', "bowed: turned 90°"],
    ['<rect x="8" y="1" width="12" height="18" rx="2" fill="#5b4a3a"/>', "face down"],
    ['<text x="14" y="15" font-size="13" font-weight="700" text-anchor="middle">F</text>', "force"],
    ['<text x="14" y="15" font-size="13" font-weight="700" text-anchor="middle">C</text>', "chi"],
    ['<text x="14" y="15" font-size="13" font-weight="700" text-anchor="middle">H</text>', "personal honour (F2 C4 H2 on a card)"],
    ['<rect x="3" y="8" width="22" height="10" rx="2" fill="#fbf3e2" stroke="#666"/>', "an attachment (+F: its force)"],
    ['<text x="14" y="14" font-size="10" font-weight="700" fill="#b3261e" text-anchor="middle">dis.</text>', "dishonoured"],
    ['<rect x="8" y="1" width="12" height="18" rx="2" fill="none" stroke="#b3261e" stroke-dasharray="3 2"/>', "a destroyed province"],
    ['<rect x="8" y="1" width="12" height="18" rx="2" fill="#fffdf8" stroke="#e0a000" stroke-width="3"/>', "a duellist"],
    ['<circle cx="14" cy="10" r="8" fill="#8c1d18"/>', "family honour (−20 loses, 40 wins)"],
    ...marksKey(["duel", "battle", "destroyed", "revealed"]),
  ], "Key to the L5R table");
}

/** The cards the step destroyed (a duel's loser, a battle's dead), gone from the table: drawn where the step took
 * them, between the bands, faded and crossed out by marks(). Answers the height used. */
function destroyedRow(svg, cause, y, names) {
  const g = node("g", { class: "l5r-destroyed" });
  const where = cause.type === "battle_resolved" ? ` on battlefield ${cause.battlefield}` : cause.type === "duel_resolved" ? " in the duel" : "";
  g.append(fitted({ x: 12, y: y + 14, fill: "#b3261e" }, `Destroyed this step${where}:`, WIDTH - 24, 13, 700));
  const entries = (cause.destroyed || []).map((id) => ({ id, size: [CW, CH] }));
  const used = flow(g, 12, y + 22, entries, (x, yy, entry) => drawCard(g, x, yy, entry.id, {
    colour: COLOURS[(entry.id || "").split(".")[0]], className: "l5r-ghost",
    where: `destroyed this step${where}${names[(entry.id || "").split(".")[0]] ? `, ${names[(entry.id || "").split(".")[0]]}'s` : ""}` }));
  svg.append(g);
  return 22 + used;
}

/** The step's event on the table (board-kit.js marks): a duel as a line from challenger to challenged, an attack as
 * a line from the attacker's stronghold to each province it attacks, a battle's result as a line from the battlefield
 * to the province (both forces in its title), the cards it destroyed crossed out, the cards it turned face up (a
 * province's card, a duel's focus cards) flagged, and one shown apart from the table listed under it. */
function marks(svg, cause, names) {
  const layer = markLayer(svg);
  const revealed = [];
  const card = (id) => boxOf(svg, `g.l5r-card:not(.l5r-ghost)[data-card="${CSS.escape(id || "")}"]`) || boxOf(svg, `g.l5r-ghost[data-card="${CSS.escape(id || "")}"]`);
  const province = (player, n) => boxOf(svg, `g.l5r-band[data-player="${player}"] [data-province="${n}"]`);
  const stronghold = (player) => boxOf(svg, `g.l5r-band[data-player="${player}"] g.l5r-stronghold`);
  if (cause.type === "duel_challenged" || cause.type === "duel_resolved") {
    markAttack(layer, centreOf(card(cause.challenger)), centreOf(card(cause.challenged)), { kind: "duel", from: cause.challenger, to: cause.challenged,
      value: cause.type === "duel_resolved" ? `${cause.totals[0]}–${cause.totals[1]}` : null, trim: 40,
      label: `${nameOf(cause.challenger)} ${cause.type === "duel_resolved" ? `against ${nameOf(cause.challenged)}: ${cause.totals[0]} to ${cause.totals[1]}` : `challenges ${nameOf(cause.challenged)} on ${cause.stat}`}` });
  }
  if (cause.type === "attack_declared") {
    for (const n of cause.battlefields || []) {
      markAttack(layer, centreOf(stronghold(cause.player)), centreOf(province(cause.defender, n)), { kind: "battle", from: cause.player,
        to: `${cause.defender}:${n}`, trim: 50, label: `${names[cause.player] || cause.player} attacks ${names[cause.defender] || cause.defender}'s province ${n}` });
    }
  }
  if (cause.type === "battle_resolved") {
    const field = boxOf(svg, `g.l5r-battle rect[data-battlefield="${cause.battlefield}"]`);
    const from = field ? [field.x + field.width / 2, field.y] : centreOf(stronghold(cause.attacker));
    markAttack(layer, from, centreOf(province(cause.defender, cause.battlefield)), { kind: "battle",
      from: cause.attacker, to: `${cause.defender}:${cause.battlefield}`, trim: 50,
      label: `battlefield ${cause.battlefield}: force ${cause.attacker_force} against ${cause.defender_force} and the province's ${cause.province_strength}: ${cause.winner || "nobody"} wins${cause.province_destroyed ? ", the province falls" : ""}` });
  }
  for (const id of cause.destroyed || []) {
    markDestroyed(layer, boxOf(svg, `g.l5r-ghost[data-card="${CSS.escape(id)}"]`), { at: cause.type === "battle_resolved" ? `battlefield ${cause.battlefield}` : "duel", card: id, label: `${nameOf(id)} destroyed this step` });
  }
  const flag = (id, words) => {
    const box = card(id);
    if (box) markRevealed(layer, box, { card: id, label: `${nameOf(id)} ${words}` });
    else revealed.push({ card: id, name: nameOf(id), who: names[(id || "").split(".")[0]] });
  };
  if (cause.type === "cards_revealed") for (const c of cause.cards || []) if (c.card) flag(c.card, `turned face up in province ${c.province}`);
  if (cause.type === "duel_resolved") for (const f of cause.revealed || []) if (f.card) flag(f.card, `revealed as a focus (${f.focus})`);
  if (cause.type === "focus_revealed" && cause.card) flag(cause.card, "revealed as a focus");
  return { revealed, words: marksWords(svg) };
}

export function draw(host, state, context = {}) {
  catalog = use(context.catalogue ?? null);
  const players = state.players || [];
  const names = Object.fromEntries((context.seats || state.seats || []).map((s) => [s.id, s.name || s.id]));
  const bottomId = players.some((p) => p.id === context.view) ? context.view : state.active;
  const ordered = players.filter((p) => p.id !== bottomId).concat(players.filter((p) => p.id === bottomId));
  const svg = node("svg", { role: "img", class: "l5r-table", "aria-label": "The L5R table", "data-min-text": 11 });
  const cause = context.cause || {};
  const lines = [];
  let y = 0;
  ordered.forEach((player, i) => {
    if (i === 1) {
      y += 12;
      y += honourTrack(svg, ordered, y + 22, names) + 10;
      const destroyed = (cause.destroyed || []).map(nameOf);
      if (state.duel || cause.type === "duel_resolved") y += duel(svg, state, cause, y, names) + 8;
      y += battle(svg, state, y, names) + 8;
      if (destroyed.length) {
        y += destroyedRow(svg, cause, y, names) + 8;
        lines.push(`destroyed: ${destroyed.join(", ")}`);
      }
      y += 4;
    }
    y += band(svg, state, player, y, names, context, i === 0 && ordered.length > 1);
    const home = player.cards.filter((c) => !c.on && cardOf(c.id)?.kind === "personality").map((c) => nameOf(c.id) + (c.bowed ? " (bowed)" : ""));
    lines.push(`${names[player.id] || player.id} (${capital(player.clan)}): family honour ${player.honor}, gold ${player.gold}, ` +
      `${player.provinces.length} provinces, ${home.join(", ") || "no personality"} at home`);
  });
  if (state.duel) lines.push(`a duel: ${nameOf(state.duel.challenger)} against ${nameOf(state.duel.challenged)}, ${state.duel.focuses.length} focus cards down`);
  for (const army of state.armies || []) lines.push(`battlefield ${army.battlefield}: ${names[army.player] || army.player} (${army.side}) ${army.units.map(nameOf).join(", ")}`);
  const { revealed, words } = marks(svg, cause, names);
  if (words) lines.push(words);
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${y}`);
  svg.setAttribute("width", WIDTH);
  const alt = `L5R, turn ${state.turn}, ${state.phase}. ${lines.join(". ")}.`;
  svg.prepend(node("desc", {}, alt));
  host.replaceChildren(svg, ...[stepStrip({ revealed })].filter(Boolean), key());
  return alt;
}
