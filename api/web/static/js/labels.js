// A system's display labels (its labels.json, WebParts.data: docs/web.md) and the words they give: the system's
// name, its armies' and end reasons' names, and a text with its seats (p1, p2, ...) replaced by the players'
// names. A system without labels shows its codes.
import { getJSON, webSystems } from "./api.js";

const loaded = new Map(); // system -> Promise of its labels
const NONE = { system: null, armies: {}, end_reasons: {}, colours: {} };

export function labelsOf(system) {
  if (!loaded.has(system)) {
    loaded.set(system, webSystems().then((systems) => {
      const entry = systems.find((s) => s.name === system);
      return entry && entry.labels ? getJSON(entry.labels) : NONE;
    }).catch(() => NONE));
  }
  return loaded.get(system);
}

export function systemName(labels, system) {
  return (labels && labels.system) || system;
}

/** The seat's colour as the system's drawing paints it, or null: the pages' palette (.seat-dot.p1, ...). */
export function seatColour(labels, seat) {
  return (labels && labels.colours && labels.colours[seat]) || null;
}

export function armyName(labels, army) {
  return (labels && labels.armies && labels.armies[army]) || army;
}

export function endReasonName(labels, reason) {
  return (labels && labels.end_reasons && labels.end_reasons[reason]) || reason;
}

/** ``text`` with each seat id (a whole word: "p1", "p1's") replaced by its player's name, where the seat has one. */
export function withNames(text, seats) {
  const names = new Map(seats.filter((s) => s.name && s.name !== s.id).map((s) => [s.id, s.name]));
  if (!text || !names.size) return text;
  const ids = [...names.keys()].map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return text.replace(new RegExp(`\\b(${ids.join("|")})\\b`, "g"), (id) => names.get(id));
}
