// Art of War's drawing for the replay page (docs/web.md "A system's drawing"): both 3x2 battlefields facing each
// other (the viewer's, or p1's, at the bottom, front rows in the middle), each unit a card with its name, defence
// (upright / sideways) and this turn's damage, turned when sideways; beside each battlefield its standby queue
// (oldest first), its kingdom by type, graveyard, hand and deck counts. The step's attack or damage is marked: the
// attacker outlined, a line to its target, the target crossed out when captured or destroyed. Card data: the
// engine's catalog served beside this module.
const SVG = "http://www.w3.org/2000/svg";
const W = 96;
const H = 64;
const GAP = 8;
const COLOURS = { p1: "#8c1d18", p2: "#1f4f99" };
const TINTS = { p1: "#f8e4e1", p2: "#e1e9f7" };
const TYPES = ["soldier", "archer", "priest", "guardian", "wizard"];

const catalog = await (await fetch(new URL("./catalog.json", import.meta.url))).json();

function node(tag, attributes = {}, ...children) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) made.setAttribute(key, String(value));
  for (const child of children) made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return made;
}

const kindOf = (instance) => (instance || "").split(".")[1];
const cardOf = (instance) => catalog[kindOf(instance)] || { name: kindOf(instance), defence: [0, 0] };

export function draw(host, state, context = {}) {
  const players = state.players || [];
  const bottom = players.find((p) => p.id === context.view) || players[0];
  const top = players.find((p) => p !== bottom);
  const width = 3 * (W + GAP) + 440;
  const height = 4 * (H + GAP) + 60;
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", width: "100%", class: "aow-board" });
  const cause = context.cause || {};
  const centres = {};
  const lines = [];
  const drawSide = (player, isTop) => {
    if (!player) return;
    const colour = COLOURS[player.id] || "#333";
    const y0 = isTop ? 10 : 2 * (H + GAP) + 40;
    svg.append(node("rect", { x: 0, y: y0 - 6, width: 3 * (W + GAP) + 8, height: 2 * (H + GAP) + 8, rx: 8, fill: TINTS[player.id] || "#eee" }));
    const rows = isTop ? ["2", "1"] : ["1", "2"];
    const units = Object.fromEntries((player.field || []).map((slot) => [slot.square, slot.unit]));
    rows.forEach((row, r) => {
      ["A", "B", "C"].forEach((col, c) => {
        const square = `${col}${row}`;
        const x = 4 + c * (W + GAP); // columns are shared (§2): p2's A faces p1's A
        const y = y0 + r * (H + GAP);
        const unit = units[square];
        centres[`${player.id}:${square}`] = [x + W / 2, y + H / 2];
        svg.append(node("text", { x: x + 3, y: y + H - 4, "font-size": 9, fill: "#777" }, square));
        if (!unit) {
          svg.append(node("rect", { x, y, width: W, height: H, fill: "none", stroke: "#bbb", "stroke-dasharray": "3 3", rx: 5 }));
          return;
        }
        const card = cardOf(unit.card);
        const hit = cause.type === "damaged" && cause.owner === player.id && cause.square === square;
        const attacker = (cause.type === "attack_declared" && cause.player === player.id && cause.square === square)
          || (cause.type === "damaged" && cause.by === player.id && cause.source_square === square);
        const g = node("g", { transform: unit.upright ? "" : `rotate(-12 ${x + W / 2} ${y + H / 2})`, "data-square": square, "data-owner": player.id });
        g.append(node("rect", { x, y, width: W, height: H, rx: 6, fill: "#fffdf8", stroke: attacker ? "#e0a000" : colour,
          "stroke-width": attacker || hit ? 3 : 1.5 }));
        g.append(node("text", { x: x + 6, y: y + 17, "font-size": 12, "font-weight": 700, fill: colour }, card.name));
        g.append(node("text", { x: x + 6, y: y + 33, "font-size": 10 }, `def ${card.defence[0]}/${card.defence[1]}${unit.upright ? "" : " · sideways"}`));
        if (unit.damage) g.append(node("text", { x: x + 6, y: y + 48, "font-size": 10, fill: "#c00" }, `damage ${unit.damage}`));
        g.append(node("title", {}, `${player.id}'s ${card.name} at ${square}${unit.upright ? "" : " (sideways)"}${unit.damage ? `, ${unit.damage} damage` : ""}`));
        svg.append(g);
      });
    });
    const info = 3 * (W + GAP) + 24;
    const kingdom = TYPES.map((t) => `${t} ${(player.kingdom || []).filter((c) => kindOf(c) === t).length}`).join(" · ");
    const standby = (player.standby || []).map((c) => cardOf(c).name).join(", ") || "empty";
    const hand = player.hand_count ?? (player.hand || []).length;
    const deck = player.deck_count ?? (player.deck || []).length;
    [[`${player.id}`, 14, 700], [`standby: ${standby}`, 12, 400], [`kingdom: ${kingdom}`, 11, 400],
      [`graveyard ${(player.graveyard || []).length} · hand ${hand} · deck ${deck}`, 11, 400]].forEach(([text, size, weight], i) => {
      svg.append(node("text", { x: info, y: y0 + 14 + i * 18, "font-size": size, "font-weight": weight, fill: colour }, text));
    });
    lines.push(`${player.id}: ${(player.field || []).map((s) => `${cardOf(s.unit.card).name} at ${s.square}`).join(", ") || "no unit"}; standby ${standby}; kingdom ${(player.kingdom || []).length} cards`);
  };
  drawSide(top, true);
  drawSide(bottom, false);
  if (cause.type === "attack_declared" || (cause.type === "damaged" && cause.source_square)) {
    const from = centres[`${cause.type === "damaged" ? cause.by : cause.player}:${cause.square && cause.type === "attack_declared" ? cause.square : cause.source_square}`];
    const defender = cause.type === "damaged" ? cause.owner : players.find((p) => p.id !== cause.player)?.id;
    const to = centres[`${defender}:${cause.type === "damaged" ? cause.square : cause.target}`];
    if (from && to) svg.append(node("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], stroke: "#e0a000", "stroke-width": 3, "stroke-dasharray": "6 4" }));
  }
  if (cause.type === "damaged" && cause.result !== "damaged") {
    const at = centres[`${cause.owner}:${cause.square}`];
    if (at) svg.append(node("text", { x: at[0], y: at[1] + 6, "text-anchor": "middle", "font-size": 34, fill: "#c00", "font-weight": 700 }, "✕"));
    lines.push(`${cardOf(cause.unit).name} ${cause.result}`);
  }
  host.replaceChildren(svg);
  return lines.join(". ");
}
