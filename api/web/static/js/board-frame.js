// The replay board's frame (issue 32 items 1 and 5): the system's drawing keeps its own size and scrolls (pans)
// inside a frame rather than shrinking to one picture, zooms with −, fit and + (or the keys -, 0 and +), and a tap
// (click, or Enter on a focused card) on a piece of the board shows its details under the frame.
//
// A drawing's SVG user unit is a CSS pixel at zoom 1. "Fit" scales the drawing to the frame's width, but never
// below the scale at which its smallest text (its svg's data-min-text, else measured) is 10 px, nor above 1.25: a big board scrolls instead of shrinking
// to unreadable text. The chosen zoom is kept from step to step, so the board does not change scale while the
// game is stepped through (Lords of War draws its unbounded games over the extent of the whole game: extent()).
//
// Card details (issue 30): a piece that names a catalogue entry (its data-card-id: a card, KING, unit type or tactic
// tile of the game's catalogue) shows that entry's name and numbers in a small popover (role tooltip, the piece's
// aria-describedby) on hover, on focus and on a tap (phones), from the game's catalogue document (frame.catalogue).
// Escape, a tap elsewhere or the next step closes it; it follows its piece when the page or the frame scrolls.
import { el } from "./page.js";
import { facts, findCard } from "./catalogue-kit.js";

const MIN_TEXT = 10; // px: the smallest text a board may show
const MAX_FIT = 1.25;
const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];

export class BoardFrame {
  constructor(host) {
    this.host = host;
    this.zoom = null; // null: fit
    this.scale = 1;
    this.out = el("output", { class: "board-zoom-value", "aria-live": "polite" });
    this.tools = el("div", { class: "board-tools", role: "group", "aria-label": "Board zoom" },
      el("button", { type: "button", "aria-label": "Zoom out", title: "Zoom out (-)", "data-zoom": "out", onclick: () => this.step(-1) }, "−"),
      el("button", { type: "button", "aria-label": "Fit the board to the frame", title: "Fit (0)", "data-zoom": "fit", onclick: () => this.set(null) }, "Fit"),
      el("button", { type: "button", "aria-label": "Zoom in", title: "Zoom in (+)", "data-zoom": "in", onclick: () => this.step(1) }, "+"),
      this.out);
    this.detail = el("p", { class: "board-detail", id: "board-detail", "aria-live": "polite", hidden: true });
    this.catalogue = null; // the game's catalogue document (GET /catalogues/{id}), or null
    this.card = null; // the popover, made when first shown (one a page: the replay page's frame)
    host.addEventListener("click", (event) => this.tap(event));
    host.addEventListener("keydown", (event) => {
      if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("[tabindex]")) {
        event.preventDefault();
        this.tap(event);
      }
    });
    this.cardEvents();
    this.pan();
    new ResizeObserver(() => { if (this.zoom === null) this.layout(); }).observe(host);
  }

  /** After a drawing: frame its main SVG (the first one with a viewBox) and scale it. */
  framed() {
    const svg = this.host.querySelector("svg[viewBox]");
    this.svg = svg;
    if (!svg) return;
    if (!svg.parentElement.classList.contains("board-frame")) {
      // a tab stop of its own: a board that scrolls may have no focusable piece (axe: scrollable-region-focusable)
      const frame = el("div", { class: "board-frame", tabindex: "0", role: "group", "aria-label": "The board's drawing" });
      svg.replaceWith(frame);
      frame.append(svg);
    }
    this.frame = svg.parentElement;
    // the step's marks (board-kit.js markLayer) stay one layer over the whole board, whatever a drawing added after
    const marks = svg.querySelector(":scope > g[data-layer='marks']");
    if (marks && marks !== svg.lastElementChild) svg.append(marks);
    const box = svg.viewBox.baseVal;
    this.natural = { width: box.width, height: box.height };
    // the smallest text the drawing ever draws (its data-min-text), so the scale does not follow what a step shows;
    // else the smallest text of this drawing
    let smallest = Number(svg.dataset.minText) || Infinity;
    if (!Number.isFinite(smallest)) {
      for (const text of svg.querySelectorAll("text")) {
        const size = parseFloat(getComputedStyle(text).fontSize);
        if (size > 0 && size < smallest) smallest = size;
      }
    }
    this.smallest = Number.isFinite(smallest) ? smallest : MIN_TEXT;
    this.layout();
  }

  /** The scale "fit" picks: the frame's width, within [smallest text 10 px, 1.25]. */
  fit() {
    const width = (this.frame || this.host).clientWidth - 2;
    const floor = MIN_TEXT / this.smallest;
    return Math.max(floor, Math.min(MAX_FIT, width / this.natural.width));
  }

  layout() {
    if (!this.svg || !this.natural) return;
    this.scale = this.zoom ?? this.fit();
    this.svg.style.width = `${Math.round(this.natural.width * this.scale)}px`;
    this.svg.style.height = `${Math.round(this.natural.height * this.scale)}px`;
    this.svg.style.maxWidth = "none";
    this.svg.style.maxHeight = "none";
    this.svg.dataset.scale = this.scale.toFixed(3);
    this.out.textContent = `${Math.round(this.scale * 100)}%${this.zoom === null ? " (fit)" : ""}`;
  }

  set(zoom) {
    this.zoom = zoom;
    this.layout();
  }

  step(direction) {
    const now = this.zoom ?? this.scale;
    const next = direction > 0 ? ZOOMS.find((z) => z > now + 0.001) : [...ZOOMS].reverse().find((z) => z < now - 0.001);
    this.set(next ?? now);
  }

  /** Drag with the mouse to pan (touch scrolls the frame natively). */
  pan() {
    let from = null;
    this.host.addEventListener("pointerdown", (event) => {
      this.dragged = false;
      const frame = event.target.closest?.(".board-frame");
      if (!frame || event.pointerType !== "mouse" || event.button !== 0) return;
      if (frame.scrollWidth <= frame.clientWidth && frame.scrollHeight <= frame.clientHeight) return;
      from = { frame, x: event.clientX, y: event.clientY, left: frame.scrollLeft, top: frame.scrollTop, moved: false };
    });
    window.addEventListener("pointermove", (event) => {
      if (!from) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) from.moved = true;
      from.frame.scrollLeft = from.left - dx;
      from.frame.scrollTop = from.top - dy;
      from.frame.classList.toggle("panning", from.moved);
    });
    window.addEventListener("pointerup", () => {
      if (!from) return;
      this.dragged = from.moved;
      from.frame.classList.remove("panning");
      from = null;
    });
  }

  /** The popover's events: hover (a mouse or pen), focus, Escape, a scroll (closes it). A tap is tap()'s. */
  cardEvents() {
    const pieceOf = (target) => target?.closest?.("[data-card-id]");
    this.host.addEventListener("pointerover", (event) => {
      const piece = pieceOf(event.target);
      if (piece && event.pointerType !== "touch" && !this.pinned) this.showCard(piece, false);
    });
    this.host.addEventListener("pointerout", (event) => {
      const piece = pieceOf(event.target);
      if (piece && !piece.contains(event.relatedTarget) && !this.pinned) this.hideCard();
    });
    this.host.addEventListener("focusin", (event) => {
      const piece = pieceOf(event.target);
      if (piece && !this.pinned) this.showCard(piece, false);
    });
    this.host.addEventListener("focusout", () => { if (!this.pinned) this.hideCard(); });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.card && !this.card.hidden) this.hideCard();
    });
    window.addEventListener("scroll", () => this.placeCard(), { capture: true, passive: true });
  }

  /** Show the catalogue entry of `piece` (its data-card-id) beside it; `pinned` (a tap) keeps it until closed. */
  showCard(piece, pinned) {
    const id = piece.dataset.cardId;
    const entry = this.catalogue ? findCard(this.catalogue, id) : null;
    if (!entry) { this.hideCard(); return; }
    this.hideCard();
    this.card ??= document.body.appendChild(el("div", { class: "board-card", id: "board-card", role: "tooltip", hidden: true }));
    this.pinned = pinned;
    this.shownFor = piece;
    const rows = facts(entry, this.catalogue).flatMap(([field, text]) => [el("dt", {}, field), el("dd", {}, text)]);
    this.card.replaceChildren(el("p", { class: "board-card-name" }, el("strong", {}, entry.name ?? id)),
      el("p", { class: "board-card-from muted" }, `${this.catalogue.name} ${this.catalogue.version ?? ""}`.trim()),
      el("dl", {}, rows));
    this.card.dataset.cardId = id;
    this.card.hidden = false;
    piece.setAttribute("aria-describedby", "board-card");
    this.placeCard();
  }

  /** The popover beside its piece (under it, else over it), within the window; again when anything scrolls. */
  placeCard() {
    if (!this.shownFor || !this.card || this.card.hidden) return;
    const box = this.shownFor.getBoundingClientRect();
    const own = this.card.getBoundingClientRect();
    const left = Math.max(4, Math.min(box.left, innerWidth - own.width - 4));
    const below = box.bottom + 6;
    const top = below + own.height <= innerHeight - 4 ? below : Math.max(4, box.top - own.height - 6);
    this.card.style.left = `${Math.round(left)}px`;
    this.card.style.top = `${Math.round(top)}px`;
  }

  hideCard() {
    this.pinned = false;
    if (this.shownFor) this.shownFor.removeAttribute("aria-describedby");
    this.shownFor = null;
    if (this.card) this.card.hidden = true;
  }

  /** A tap on a piece of the board: its details (its data-detail, else its <title>) under the frame, and its
   * catalogue entry in the popover. */
  tap(event) {
    if (this.dragged) { this.dragged = false; return; }
    const named = event.target.closest?.("[data-card-id]");
    if (named && this.host.contains(named)) this.showCard(named, true);
    else this.hideCard();
    const piece = event.target.closest?.("[data-detail], g");
    if (!piece || !this.host.contains(piece)) return;
    const title = piece.dataset?.detail || [...piece.children].find((c) => c.tagName === "title")?.textContent;
    if (!title) return;
    this.host.querySelector("[data-tapped]")?.removeAttribute("data-tapped");
    piece.setAttribute("data-tapped", "true");
    this.detail.textContent = title;
    this.detail.hidden = false;
  }

  /** A new step: the old details no longer apply. */
  clear() {
    this.detail.hidden = true;
    this.detail.textContent = "";
    this.hideCard();
  }
}

/** Keys: + and - zoom, 0 fits. True when the key was one of them. */
export function zoomKey(frame, key) {
  if (key === "+" || key === "=") frame.step(1);
  else if (key === "-") frame.step(-1);
  else if (key === "0") frame.set(null);
  else return false;
  return true;
}
