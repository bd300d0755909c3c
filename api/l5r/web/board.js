// L5R's drawing for the replay page (docs/web.md "A system's drawing"): for each player a band (the viewer's, or
// the turn player's, at the bottom) with its four provinces (face-down cards as card backs, a destroyed province
// struck out), its stronghold and home (personalities with force/chi and their attachments, bowed cards turned,
// dishonoured ones marked), family honour, gold and the hand, deck and discard counts; between the bands the
// battle under way (each battlefield's armies) or the duel (the duellists and their focus cards, face down until
// the reveal, then with their focus values). The cards destroyed by the step's event are listed in red. The card
// data is the engine's catalog, served beside this module (catalog.json).
const SVG = "http://www.w3.org/2000/svg";
const CARD_W = 104;
const CARD_H = 62;
const GAP = 8;
const COLOURS = { p1: "#8c1d18", p2: "#1f4f99" };
const TINTS = { p1: "#f8e4e1", p2: "#e1e9f7" };

const catalog = await (await fetch(new URL("./catalog.json", import.meta.url))).json();

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

function short(text, length = 15) {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function drawCard(svg, x, y, instance, options = {}) {
  const card = cardOf(instance);
  const group = node("g", { transform: `translate(${x} ${y})${options.bowed ? ` rotate(8 ${CARD_W / 2} ${CARD_H / 2})` : ""}` });
  const faceDown = !card;
  group.append(node("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: faceDown ? "#5b4a3a" : "#fffdf8",
    stroke: options.destroyed ? "#c00" : options.colour || "#666", "stroke-width": options.highlight ? 3 : 1.5,
    "stroke-dasharray": options.destroyed ? "5 3" : null }));
  if (faceDown) {
    group.append(node("text", { x: CARD_W / 2, y: CARD_H / 2 + 4, "text-anchor": "middle", fill: "#f3e9dc", "font-size": 11 },
      options.label || "face down"));
  } else {
    group.append(node("text", { x: 6, y: 16, "font-size": 11, "font-weight": 600 }, short(card.name)));
    let detail = card.kind;
    if (card.kind === "personality") detail = `F ${card.force} · C ${card.chi} · H ${card.personal_honor}`;
    else if (card.kind === "holding") detail = `holding · ${card.gold} gold`;
    else if (card.kind === "follower" || card.kind === "item") detail = `${card.kind} · +${card.force}F`;
    else if (card.kind === "ring") detail = `ring · ${card.element}`;
    group.append(node("text", { x: 6, y: 32, "font-size": 10, fill: "#444" }, detail));
    if (options.note) group.append(node("text", { x: 6, y: 48, "font-size": 10, fill: "#333" }, short(options.note, 18)));
    if (options.dishonored) group.append(node("text", { x: CARD_W - 8, y: 16, "text-anchor": "end", fill: "#c00", "font-size": 12, "font-weight": 700 }, "!"));
  }
  group.append(node("title", {}, `${faceDown ? "a face-down card" : card.name}${options.bowed ? " (bowed)" : ""}${options.dishonored ? " (dishonoured)" : ""}`));
  svg.append(group);
}

const HOME_X = 10 + 4 * (CARD_W + GAP) + 16;

function homeOf(player) {
  // personalities first (with their attachments), then holdings and rings; the stronghold leads
  const rank = (c) => ({ personality: 0, ring: 2 }[cardOf(c.id).kind] ?? 1);
  const own = player.cards.filter((c) => !c.on).sort((a, b) => rank(a) - rank(b));
  return [{ id: player.stronghold, bowed: player.stronghold_bowed }].concat(own);
}

function bandHeight(player, width) {
  const perRow = Math.max(1, Math.floor((width - HOME_X) / (CARD_W + GAP)));
  const rows = Math.ceil(homeOf(player).length / perRow);
  return Math.max(CARD_H + 46, 34 + rows * (CARD_H + GAP) + 6);
}

function band(svg, state, player, top, width, names) {
  const colour = COLOURS[player.id] || "#333";
  svg.append(node("rect", { x: 0, y: top, width, height: bandHeight(player, width), fill: TINTS[player.id] || "#eee", rx: 8 }));
  const hand = player.hand_count ?? (player.hand || []).length;
  svg.append(node("text", { x: 10, y: top + 18, "font-size": 14, "font-weight": 700, fill: colour },
    `${names[player.id] || player.id} · ${player.clan} · honour ${player.honor} · gold ${player.gold} · hand ${hand} · ` +
    `dynasty ${player.dynasty_count} · fate ${player.fate_count}` +
    `${(player.removed || []).length ? ` · removed from the game ${player.removed.length}` : ""}` +
    `${player.eliminated ? " · eliminated" : ""}`));
  const numbers = new Map(player.provinces.map((p) => [p.number, p]));
  for (let n = 1; n <= 4; n++) {
    const x = 10 + (n - 1) * (CARD_W + GAP);
    const y = top + 28;
    const province = numbers.get(n);
    svg.append(node("text", { x, y: y - 2, "font-size": 9, fill: "#555" }, `province ${n}`));
    if (!province) {
      svg.append(node("rect", { x, y, width: CARD_W, height: CARD_H, fill: "none", stroke: "#999", "stroke-dasharray": "3 3" }));
      svg.append(node("text", { x: x + CARD_W / 2, y: y + CARD_H / 2, "text-anchor": "middle", "font-size": 11, fill: "#a00" }, "destroyed"));
    } else if (!province.filled) {
      svg.append(node("rect", { x, y, width: CARD_W, height: CARD_H, fill: "none", stroke: "#999" }));
      svg.append(node("text", { x: x + CARD_W / 2, y: y + CARD_H / 2, "text-anchor": "middle", "font-size": 11 }, "empty"));
    } else {
      drawCard(svg, x, y, province.face_up ? province.card : null, { colour });
    }
  }
  const home = homeOf(player);
  const x = HOME_X;
  const homeTop = top + 28;
  svg.append(node("text", { x, y: homeTop - 2, "font-size": 9, fill: "#555" }, "home"));
  const perRow = Math.max(1, Math.floor((width - x) / (CARD_W + GAP)));
  home.forEach((c, i) => {
    const col = i % perRow;
    const row = Math.floor(i / perRow);
    const attached = player.cards.filter((a) => a.on === c.id).map((a) => nameOf(a.id));
    drawCard(svg, x + col * (CARD_W + GAP), homeTop + row * (CARD_H + GAP), c.id,
      { colour, bowed: c.bowed, dishonored: c.dishonored, note: attached.length ? `+ ${attached.join(", ")}` : null });
  });
}

export function draw(host, state, context = {}) {
  const players = state.players || [];
  const names = Object.fromEntries((context.seats || []).map((s) => [s.id, s.name || s.id]));
  const bottomId = players.some((p) => p.id === context.view) ? context.view : state.active;
  const ordered = players.filter((p) => p.id !== bottomId).concat(players.filter((p) => p.id === bottomId));
  const width = 10 + 9 * (CARD_W + GAP) + 40;
  const heights = ordered.map((p) => bandHeight(p, width));
  const middle = 110;
  const height = heights.reduce((a, b) => a + b, 0) + middle + 10;
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", width: "100%", class: "l5r-table" });
  const lines = [];
  const destroyed = new Set((context.cause && context.cause.destroyed) || []);
  ordered.forEach((player, i) => {
    const top = i === 0 ? 0 : heights[0] + middle;
    band(svg, state, player, top, width, names);
    lines.push(`${player.id} (${player.clan}): family honour ${player.honor}, ${player.provinces.length} provinces, ` +
      `${player.cards.filter((c) => !c.on && cardOf(c.id).kind === "personality").map((c) => nameOf(c.id)).join(", ") || "no personality"} at home`);
  });
  const midTop = (heights[0] || 0) + 10;
  const cause = context.cause || {};
  if (state.duel) {
    const duel = state.duel;
    svg.append(node("text", { x: 10, y: midTop + 14, "font-size": 13, "font-weight": 700 },
      `Duel on ${duel.stat}: ${nameOf(duel.challenger)} challenges ${nameOf(duel.challenged)}`));
    duel.focuses.forEach((f, i) => {
      drawCard(svg, 10 + i * (CARD_W + GAP), midTop + 24, f.card, { colour: COLOURS[f.player], label: `${f.player} focus` });
    });
    lines.push(`a duel: ${nameOf(duel.challenger)} against ${nameOf(duel.challenged)}, ${duel.focuses.length} focus cards down`);
  } else if (cause.type === "duel_resolved") {
    svg.append(node("text", { x: 10, y: midTop + 14, "font-size": 13, "font-weight": 700 },
      `Duel: ${cause.totals[0]} to ${cause.totals[1]}`));
    (cause.revealed || []).forEach((f, i) => {
      drawCard(svg, 10 + i * (CARD_W + GAP), midTop + 24, f.card, { colour: COLOURS[f.player], note: `focus ${f.focus}` });
    });
  } else if ((state.armies || []).length) {
    (state.armies || []).forEach((army, i) => {
      svg.append(node("text", { x: 10, y: midTop + 16 + i * 18, "font-size": 12, fill: COLOURS[army.player] },
        `battlefield ${army.battlefield}: ${army.side} ${army.units.map(nameOf).join(", ")}`));
    });
    lines.push(`battles at ${(state.battlefields || []).join(", ")}`);
  }
  if (destroyed.size) {
    svg.append(node("text", { x: 10, y: midTop + middle - 18, "font-size": 12, fill: "#c00", "font-weight": 700 },
      `destroyed: ${[...destroyed].map(nameOf).join(", ")}`));
    lines.push(`destroyed: ${[...destroyed].map(nameOf).join(", ")}`);
  }
  host.replaceChildren(svg);
  return lines.join(". ");
}
