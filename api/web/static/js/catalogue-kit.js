// What the catalogue pages and the replay boards share about a catalogue document (issue 30; docs/web.md
// "Catalogues"): its entries by id, an entry's numbers in words, what it holds. A board module imports it as
// "/static/js/catalogue-kit.js". The document is the JSON of GET /catalogues/{id}, whatever its system: the kit
// reads its lists generically (every list of objects is a table; an entry with an `id` can be named by it).

/** The lists whose entries the games name by id (a card, a KING, a unit type, a tactic tile), in reading order. */
export const CARD_LISTS = ["cards", "kings", "units", "tactics"];

const WORDS = {
  defense: "defence", personal_honor: "personal honour", province_strength: "province strength",
  honor_req: "honour needed", honor: "honour", shugenja: "shugenja", unique: "Unique", figures: "figures",
  start_zones: "start zones", obstacles: "walls", territories: "territories", dynasty: "dynasty deck",
  fate: "fate deck", class: "class",
};
const indexes = new WeakMap();

/** id -> {entry, list} over the document's card lists (made once per document). */
export function cardIndex(document) {
  if (!document || typeof document !== "object") return new Map();
  let index = indexes.get(document);
  if (!index) {
    index = new Map();
    for (const list of CARD_LISTS) {
      for (const entry of Array.isArray(document[list]) ? document[list] : []) {
        if (entry && typeof entry.id === "string" && !index.has(entry.id)) index.set(entry.id, { entry, list });
      }
    }
    indexes.set(document, index);
  }
  return index;
}

/** The entry of that id (a card, KING, unit type or tactic tile), or null. */
export function findCard(document, id) {
  return cardIndex(document).get(id)?.entry ?? null;
}

/** A field's name in words. */
export function fieldName(key) {
  return WORDS[key] ?? key.replaceAll("_", " ");
}

/** A card's name when the document has it, else the id itself. */
export function nameOf(document, id) {
  return findCard(document, id)?.name ?? id;
}

/** A value of the document in words: lists of {card, count} as "3× name", card ids by their names, objects as
 * "key value · ...", offsets as "[0, 1]". */
export function valueText(value, document) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return findCard(document, value)?.name ?? value;
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v) && "card" in v && "count" in v)) {
      return value.map((v) => `${v.count}× ${nameOf(document, v.card)}`).join(", ");
    }
    if (value.every((v) => typeof v === "number")) return `[${value.join(", ")}]`;
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      return value.map((v) => (v.name ? `${v.name} (${entryText(v, document, ["name"])})` : `{${entryText(v, document)}}`)).join("; ");
    }
    return value.map((v) => valueText(v, document)).join(", ");
  }
  return entryText(value, document);
}

function entryText(object, document, skip = []) {
  return Object.entries(object).filter(([key]) => !skip.includes(key))
    .map(([key, v]) => `${fieldName(key)} ${valueText(v, document)}`).join(" · ");
}

/** An entry's facts in words: [[field, text]] of every field but its id and name, in the document's order. */
export function facts(entry, document) {
  return Object.entries(entry || {}).filter(([key]) => key !== "id" && key !== "name")
    .map(([key, value]) => [fieldName(key), valueText(value, document)]);
}

/** The lists in the order the pages show them (the cards first; a stored document's keys are sorted), and what
 * each holds in words. */
const ORDER = [...CARD_LISTS, "decks", "armies", "maps"];
export const LIST_WORDS = { cards: "cards", kings: "KINGs", units: "unit types", tactics: "tactic tiles",
  decks: "decks", armies: "armies", maps: "maps" };
const ONE = { cards: "card", kings: "KING", units: "unit type", tactics: "tactic tile", decks: "deck", armies: "army",
  maps: "map" };

/** The document's lists of entries: [[key, list]] (cards, decks, armies, maps, ...), the cards first. */
export function lists(document) {
  const rank = (key) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
  return Object.entries(document || {})
    .filter(([, v]) => Array.isArray(v) && v.every((e) => e && typeof e === "object" && !Array.isArray(e)))
    .sort(([a], [b]) => rank(a) - rank(b));
}

/** How many entries the document holds: "58 cards, 4 decks". */
export function holdings(document) {
  return lists(document).map(([key, list]) => `${list.length} ${(list.length === 1 ? ONE[key] : LIST_WORDS[key]) ?? fieldName(key)}`).join(", ");
}

/** How many cards (entries of the card lists) the document holds. */
export function cardCount(document) {
  return cardIndex(document).size;
}

/** What a board draws from the game's catalogue: a function of the catalogue document (context.catalogue, or null)
 * answering `make(document)` (made once per document), or `builtin` when the game has no catalogue. */
export function fromCatalogue(builtin, make) {
  let source = null;
  let made = builtin;
  return (given) => {
    if (given !== source) {
      source = given;
      made = given ? make(given) ?? builtin : builtin;
    }
    return made;
  };
}
