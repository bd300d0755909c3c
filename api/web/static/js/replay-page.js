// /replay/{id}: a game step by step. A step is an event: the state after it, drawn by the game's system (its
// board module, docs/web.md "A system's drawing"; board-table.js when it has none), and the event's explanation.
// Steps come from GET /games/{id}/steps (state + explanation per event, one fold for many steps): a window around
// the first step shown, then the rest in the background, so stepping never waits for the network. The URL holds
// the step and the view (?step=N&view=V, N = the event's seq; no view: spectator), so a link shares what is shown;
// the token of a seat view stays in sessionStorage, never in the URL. The record downloads from the side panel.
// A running game is followed through GET /games/{id}/live (Server-Sent Events).
import { getJSON, webSystems } from "./api.js";
import { el, showError } from "./page.js";
import { armyName, endReasonName, labelsOf, systemName, withNames } from "./labels.js";
import { BoardFrame, zoomKey } from "./board-frame.js";

const WINDOW = 48; // steps fetched around the first step shown, before the rest
const CHUNK = 500; // the most GET /steps answers at once
const SPEEDS = [0.5, 1, 2, 4]; // autoplay's speeds, in steps a second
const main = document.querySelector("main");
const gameId = decodeURIComponent(location.pathname.replace(/^\/replay\//, "").replace(/\/$/, ""));
const storageKey = `warlog.replay.${gameId}`;

const replay = {
  game: null, // GET /games/{id}
  seats: [], // [{id, name, army}]
  labels: null, // the system's display labels (labels.js)
  board: null, // the drawing module
  steps: new Map(), // seq -> {state, explanation}
  last: 0, // the game's last seq as far as we know
  step: 0, // the step shown
  view: "spectator",
  token: "",
  over: false,
  fresh: 0, // steps that arrived while the viewer was elsewhere
  drawn: 0, // steps drawn (the first one sets the "board-drawn" performance mark)
  collapsed: new Set(), // the turns whose steps the reader folded away
  extent: undefined, // the drawing's extent() over every step loaded (docs/web.md)
  complete: false, // every step is loaded (the extent is the whole game's)
  notes: new Map(), // seq -> the annotations on that step (GET /games/{id}/annotations)
  catalogue: null, // the game's catalogue document (issue 30: gameCatalogue), or null
};

// -- the API -------------------------------------------------------------------------------------------------

/** Steps from..to (to: the end) into the cache; answers the game's last seq. */
async function loadSteps(from, to, view = replay.view, token = replay.token) {
  let next = from;
  let last = replay.last;
  const got = new Map();
  while (next !== null && (to === undefined || next <= to)) {
    const params = new URLSearchParams({ from: String(next), view });
    if (to !== undefined) params.set("to", String(to));
    const answer = await getJSON(`/games/${encodeURIComponent(gameId)}/steps?${params}`, { token });
    for (const step of answer.steps) got.set(step.seq, { state: step.state, explanation: step.explanation, turn: step.turn });
    last = answer.last_seq;
    next = answer.next;
  }
  if (view === replay.view) for (const [seq, step] of got) replay.steps.set(seq, step);
  return { last, got };
}

// -- the page ------------------------------------------------------------------------------------------------

const ui = {};

function button(label, text, onclick, shortcut) {
  return el("button", { type: "button", "aria-label": label, title: `${label} (${shortcut})`, onclick }, text);
}

function build() {
  main.querySelector("[data-loading]")?.remove();
  ui.title = main.querySelector("h1");
  ui.meta = el("p", { class: "muted replay-meta" });
  ui.first = button("First step", "«", () => go(1), "Home");
  ui.back = button("Previous step", "‹", () => go(replay.step - 1), "Left arrow");
  ui.forward = button("Next step", "›", () => go(replay.step + 1), "Right arrow");
  ui.lastButton = button("Last step", "»", () => go(replay.last), "End");
  ui.slider = el("input", { type: "range", min: "1", max: "1", value: "1", id: "step-slider", "aria-label": "Step" });
  ui.slider.addEventListener("input", () => go(Number(ui.slider.value)));
  ui.counter = el("output", { class: "replay-counter", for: "step-slider" });
  ui.play = el("button", { type: "button", "data-autoplay": true, "aria-pressed": "false", "aria-label": "Autoplay",
    title: "Autoplay (k)", onclick: toggleAutoplay }, "▶");
  ui.speed = el("select", { id: "autoplay-speed", "aria-label": "Autoplay speed" },
    SPEEDS.map((speed) => el("option", { value: String(speed) }, `${speed}× (${speed} step${speed === 1 ? "" : "s"}/s)`)));
  ui.speed.value = "1";
  ui.host = el("div", { class: "board-host", id: "board", "aria-describedby": "board-alt" });
  ui.frame = new BoardFrame(ui.host);
  ui.alt = el("p", { id: "board-alt", class: "visually-hidden" });
  // the step's notes beside the board (first in the side column: under the board on a phone)
  ui.notes = el("section", { class: "board-notes", "data-board-notes": "", "aria-labelledby": "board-notes-heading", hidden: true });
  ui.explanation = el("p", { class: "replay-explanation", id: "explanation", "aria-live": "polite" });
  ui.live = el("p", { class: "replay-live", id: "live-status", "aria-live": "polite", hidden: true });
  ui.viewSelect = el("select", { id: "view-select", name: "view" });
  ui.token = el("input", { id: "view-token", name: "token", type: "password", autocomplete: "off", spellcheck: "false" });
  ui.tokenLabel = el("label", { for: "view-token" }, "Token", ui.token);
  ui.viewForm = el("form", { class: "replay-view filters", "aria-labelledby": "view-heading" },
    el("label", { for: "view-select" }, "Seen as", ui.viewSelect), ui.tokenLabel,
    el("button", { type: "submit" }, "Show"));
  ui.viewForm.addEventListener("submit", (event) => { event.preventDefault(); changeView(); });
  ui.viewSelect.addEventListener("change", () => { ui.tokenLabel.hidden = ui.viewSelect.value === "spectator"; });
  ui.downloads = el("p", { class: "replay-downloads", "aria-labelledby": "download-heading" },
    el("a", { "data-download": "record", download: true, onclick: download }, "Record (text)"), " · ",
    el("a", { "data-download": "jsonl", download: true, onclick: download }, "Events (JSONL)"));
  ui.log = el("ol", { class: "replay-log", id: "moves" });
  ui.fold = el("button", { type: "button", class: "replay-fold", "data-fold": "all", onclick: foldAll }, "Fold every turn");
  ui.log.addEventListener("toggle", (event) => {
    const turn = event.target.dataset?.turn;
    if (turn === undefined) return;
    if (event.target.open) replay.collapsed.delete(turn);
    else replay.collapsed.add(turn);
    foldLabel();
  }, true);
  ui.log.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    go(Number(link.dataset.step), { push: true });
  });
  main.append(
    ui.meta,
    el("div", { class: "replay-layout" },
      el("section", { class: "replay-stage", "aria-label": "Board" },
        el("div", { class: "replay-controls", role: "group", "aria-label": "Step controls" },
          ui.first, ui.back, ui.slider, ui.forward, ui.lastButton, ui.counter, ui.play, ui.speed),
        ui.explanation, ui.live, ui.frame.tools, ui.host, ui.frame.detail, ui.alt),
      el("aside", { class: "replay-side" }, ui.notes,
        el("h2", { id: "view-heading" }, "View"), ui.viewForm,
        el("h2", { id: "download-heading" }, "Download"), ui.downloads,
        el("div", { class: "replay-steps-head" }, el("h2", { id: "moves-heading" }, "Steps"), ui.fold),
        el("nav", { "aria-labelledby": "moves-heading", class: "replay-log-wrap" }, ui.log))));
}

// "Ann (Orcs)": the player's name (the seat's id when it has none) and the army's display label
function seatLabel(seat) {
  return [seat.name || seat.id, seat.army ? `(${armyName(replay.labels, seat.army)})` : null].filter(Boolean).join(" ");
}

function named(text) {
  return withNames(text, replay.seats);
}

function describeGame() {
  const { game } = replay;
  const names = teamsTitle(replay.seats) || replay.seats.map(seatLabel).join(" vs ");
  ui.title.textContent = names ? `Replay: ${names}` : `Replay of game ${gameId}`;
  document.title = `${names || gameId} · Replay · warlog`;
  const status = replay.over
    ? el("span", { class: "badge" }, game.winner ? (game.winner === "draw" ? "draw" : `${named(game.winner)} won`) : "over")
    : el("span", { class: "badge live" }, "live");
  const reason = replay.over && game.end_reason ? ` (${endReasonName(replay.labels, game.end_reason)})` : "";
  ui.meta.replaceChildren(`${systemName(replay.labels, game.system)} · game ${gameId} · `, status, reason);
}

function fillViews() {
  const options = [["spectator", "Spectator"], ...replay.seats.map((s) => [s.id, `Seat ${seatLabel(s)}`]),
    ["all", "Everything (scorekeeper)"]];
  ui.viewSelect.replaceChildren(...options.map(([value, text]) => el("option", { value }, text)));
  ui.viewSelect.value = replay.view;
  ui.token.value = replay.token;
  ui.tokenLabel.hidden = replay.view === "spectator";
}

// The steps grouped by turn (GET /steps gives each step's turn as its system counts them): one <details> a turn,
// open unless the reader folded it; a step not loaded yet joins the turn before it.
function renderLog() {
  const groups = [];
  for (let seq = 1; seq <= replay.last; seq += 1) {
    const step = replay.steps.get(seq);
    const text = step ? (step.explanation ? named(step.explanation.text) : "(hidden from this view)") : "…";
    const turn = step && Number.isInteger(step.turn) ? step.turn : (groups.length ? groups[groups.length - 1].turn : null);
    if (!groups.length || groups[groups.length - 1].turn !== turn) groups.push({ turn, items: [] });
    groups[groups.length - 1].items.push(el("li", { value: String(seq) },
      el("a", { href: `?step=${seq}`, "data-step": String(seq) }, text), notesOf(seq)));
  }
  ui.log.replaceChildren(...groups.map(({ turn, items }) => {
    const first = items[0].value;
    const last = items[items.length - 1].value;
    const key = String(turn);
    const word = replay.board?.turnName ? replay.board.turnName(turn) : (turn ? `Turn ${turn}` : "Before the first turn");
    const summary = el("summary", {}, el("span", { class: "turn-name" }, turn === null ? "Loading" : word),
      el("span", { class: "turn-steps muted" }, first === last ? ` · step ${first}` : ` · steps ${first}–${last}`));
    return el("li", { class: "replay-turn", "data-turn": key },
      el("details", { open: !replay.collapsed.has(key), "data-turn": key }, summary, el("ol", { start: String(first) }, items)));
  }));
  foldLabel();
  markLog();
}

function foldLabel() {
  const all = [...ui.log.querySelectorAll("details[data-turn]")];
  ui.fold.textContent = all.length && all.every((d) => !d.open) ? "Unfold every turn" : "Fold every turn";
  ui.fold.hidden = all.length < 2;
}

function foldAll() {
  const all = [...ui.log.querySelectorAll("details[data-turn]")];
  const open = !all.every((d) => !d.open); // some open: fold them all; all folded: unfold them all
  for (const details of all) details.open = !open; // the toggle events record it in replay.collapsed
}

// -- annotations (issue 32 item 6): the scorekeeper's or organiser's comments, under their steps in the list ----

async function loadNotes() {
  try {
    const answer = await getJSON(`/games/${encodeURIComponent(gameId)}/annotations`);
    replay.notes = new Map();
    for (const note of answer.annotations) {
      if (!replay.notes.has(note.step)) replay.notes.set(note.step, []);
      replay.notes.get(note.step).push(note);
    }
  } catch (error) {
    console.warn("the annotations could not be read", error); // the replay goes on without them
  }
}

function notesOf(seq) {
  const notes = replay.notes.get(seq);
  if (!notes) return null;
  return el("ul", { class: "step-notes", "aria-label": `Notes on step ${seq}` }, notes.map((note) => {
    const by = note.author === note.role ? note.role : `${note.author} (${note.role})`;
    return el("li", { "data-annotation": String(note.n) }, note.text,
      el("span", { class: "step-note-by" }, ` — ${by}, ${note.created_at.slice(0, 16).replace("T", " ")} UTC`));
  }));
}

/** The step shown's notes in the panel beside the board (hidden when it has none). */
function boardNotes() {
  const notes = notesOf(replay.step);
  ui.notes.hidden = !notes;
  ui.notes.replaceChildren(...(notes ? [el("h2", { id: "board-notes-heading" }, `Notes on step ${replay.step}`), notes] : []));
}

function markLog() {
  ui.log.querySelector("[aria-current]")?.removeAttribute("aria-current");
  const link = ui.log.querySelector(`a[data-step="${replay.step}"]`);
  if (!link) return;
  link.setAttribute("aria-current", "step");
  const details = link.closest("details");
  if (details && !details.open) details.open = true; // the step shown is never folded away
  cancelAnimationFrame(markLog.frame); // scroll the list in the next frame: stepping never waits for a layout
  markLog.frame = requestAnimationFrame(() => {
    const box = ui.log.parentElement;
    const top = link.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - link.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  });
}

function context(step) {
  const explanation = step.explanation ?? null;
  return {
    extent: replay.extent,
    system: replay.game.system,
    view: replay.view,
    seats: replay.seats,
    seq: replay.step,
    last: replay.last,
    explanation,
    cause: explanation ? explanation.cause : null,
    catalogue: replay.catalogue,
  };
}

/** The drawing's extent over every step loaded (its optional extent(states), docs/web.md): computed when steps
 * arrive, not per step, so a board drawn at one scale stays at it; redrawn when it grows. */
function updateExtent() {
  if (!replay.board?.extent) return;
  const next = replay.board.extent([...replay.steps.values()].map((step) => step.state));
  if (JSON.stringify(next) === JSON.stringify(replay.extent)) return;
  replay.extent = next;
  if (replay.drawn) draw();
}

function draw() {
  const step = replay.steps.get(replay.step);
  if (!step) return false;
  let alt;
  try {
    alt = replay.board.draw(ui.host, step.state, context(step));
  } catch (error) {
    console.warn("the board drawing failed; showing the state as a table", error);
    replay.board = replay.table;
    alt = replay.board.draw(ui.host, step.state, context(step));
  }
  ui.alt.textContent = alt || "";
  // a drawing's image without a name of its own is named by its text alternative (axe: svg-img-alt)
  const image = ui.host.querySelector("svg[role='img']");
  if (image && !image.hasAttribute("aria-label") && !image.hasAttribute("aria-labelledby")
      && !image.querySelector(":scope > title")) image.setAttribute("aria-labelledby", "board-alt");
  ui.frame.framed();
  ui.frame.clear();
  ui.explanation.textContent = step.explanation ? named(step.explanation.text) : "This step is hidden from this view.";
  main.dataset.step = String(replay.step);
  boardNotes();
  replay.drawn += 1;
  if (replay.drawn === 1) performance.mark("board-drawn");
  document.dispatchEvent(new CustomEvent("warlog:drawn", { detail: { step: replay.step } }));
  return true;
}

function controls() {
  const { step, last } = replay;
  ui.slider.max = String(Math.max(1, last));
  ui.slider.value = String(step);
  const text = named(replay.steps.get(step)?.explanation?.text);
  ui.slider.setAttribute("aria-valuetext", `Step ${step} of ${last}${text ? `: ${text}` : ""}`);
  ui.counter.textContent = `Step ${step} of ${last}`;
  ui.first.disabled = ui.back.disabled = step <= 1;
  ui.forward.disabled = ui.lastButton.disabled = step >= last;
  if (step >= last) replay.fresh = 0;
  liveStatus();
}

function urlFor(step) {
  const url = new URL(location.href);
  url.searchParams.set("step", String(step));
  if (replay.view === "spectator") url.searchParams.delete("view");
  else url.searchParams.set("view", replay.view);
  return url;
}

// the download links: the game's record in the view shown (GET /games/{id}/export)
function exportUrl(format) {
  return `/games/${encodeURIComponent(gameId)}/export?${new URLSearchParams({ format, view: replay.view })}`;
}

function setDownloads() {
  for (const link of ui.downloads.querySelectorAll("a[data-download]")) link.href = exportUrl(link.dataset.download);
}

// A seat's view needs its token, which a link cannot carry: fetched with it, then saved from memory.
async function download(event) {
  if (!replay.token) return; // a public view: the link downloads it
  event.preventDefault();
  const link = event.currentTarget;
  try {
    const response = await fetch(link.href, { headers: { Authorization: `Bearer ${replay.token}` } });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const name = (response.headers.get("content-disposition") || "").match(/filename="([^"]+)"/);
    const saved = el("a", { href: URL.createObjectURL(await response.blob()), download: name ? name[1] : "" });
    saved.click();
    setTimeout(() => URL.revokeObjectURL(saved.href), 0);
  } catch (error) {
    showError(new Error(`The record could not be downloaded: ${error.message}`));
  }
}

/** Show step `seq` (clamped): drawn at once from the cache, else after fetching the steps around it. */
async function go(seq, { push = false, history: record = true } = {}) {
  if (!replay.last) return;
  const step = Math.min(Math.max(1, Math.round(Number(seq)) || 1), replay.last);
  replay.step = step;
  if (record) {
    const url = urlFor(step);
    if (push) history.pushState({ step }, "", url);
    else history.replaceState({ step }, "", url);
  }
  controls();
  markLog();
  if (draw()) return;
  ui.explanation.textContent = "Loading this step…";
  try {
    await loadSteps(Math.max(1, step - WINDOW / 2), step + WINDOW / 2);
  } catch (error) {
    showError(error);
    return;
  }
  if (replay.step === step) {
    updateExtent();
    draw();
    controls();
    renderLog();
  }
}

// -- autoplay: one step after another at the chosen speed, each drawn before the next is timed; stops at the end

let autoplay = null; // the pending timer while playing

function setPlaying(playing) {
  ui.play.setAttribute("aria-pressed", String(playing));
  ui.play.textContent = playing ? "⏸" : "▶";
  if (playing) main.dataset.autoplay = "on";
  else delete main.dataset.autoplay;
}

function stopAutoplay() {
  clearTimeout(autoplay);
  autoplay = null;
  setPlaying(false);
}

function nextAutoplay() {
  autoplay = setTimeout(async () => {
    if (replay.step >= replay.last) { stopAutoplay(); return; }
    await go(replay.step + 1);
    if (autoplay !== null) nextAutoplay();
  }, 1000 / Number(ui.speed.value));
}

async function toggleAutoplay() {
  if (autoplay !== null) { stopAutoplay(); return; }
  if (!replay.last) return;
  setPlaying(true);
  autoplay = 0; // playing (no timer yet)
  if (replay.step >= replay.last) await go(1); // at the end: from the first step
  if (autoplay !== null) nextAutoplay();
}

function requestedStep() {
  const raw = new URLSearchParams(location.search).get("step") ?? (location.hash.match(/^#(\d+)$/) || [])[1];
  if (raw === null || raw === undefined || raw === "") return null;
  if (!/^\d+$/.test(raw)) {
    notice(`"${raw}" is not a step number: showing the last step.`);
    return null;
  }
  return Number(raw);
}

function notice(text) {
  const box = el("p", { class: "replay-notice", role: "status" }, text);
  ui.meta.after(box);
}

// -- keyboard ------------------------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !replay.last) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return; // the slider steps itself
  const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
  if (event.key in moves) go(replay.step + moves[event.key]);
  else if (event.key === "Home") go(1);
  else if (event.key === "End") go(replay.last);
  else if (event.key === "k") toggleAutoplay();
  else if (!zoomKey(ui.frame, event.key)) return;
  event.preventDefault();
});

window.addEventListener("popstate", () => {
  const seq = requestedStep();
  go(seq ?? replay.last, { history: false });
});

// -- the view -------------------------------------------------------------------------------------------------

function savedView() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey) || "null");
    if (saved && typeof saved.view === "string") return { view: saved.view, token: String(saved.token || "") };
  } catch (_) { /* a damaged entry: the spectator view */ }
  return { view: "spectator", token: "" };
}

async function changeView() {
  const view = ui.viewSelect.value;
  const token = view === "spectator" ? "" : ui.token.value.trim();
  main.querySelectorAll(".error").forEach((box) => box.remove());
  let loaded;
  try {
    loaded = await loadSteps(Math.max(1, replay.step - WINDOW / 2), replay.step + WINDOW / 2, view, token);
  } catch (error) {
    const hint = error.status === 401 || error.status === 403 ? " Check the token for this view." : "";
    showError(new Error(`Cannot show the ${view} view: ${error.message}.${hint}`));
    ui.viewSelect.value = replay.view;
    ui.tokenLabel.hidden = replay.view === "spectator";
    return;
  }
  replay.view = view;
  replay.token = token;
  sessionStorage.setItem(storageKey, JSON.stringify({ view, token }));
  history.replaceState({ step: replay.step }, "", urlFor(replay.step));
  setDownloads();
  replay.steps = loaded.got;
  replay.last = Math.max(replay.last, loaded.last);
  replay.extent = undefined;
  updateExtent();
  draw();
  controls();
  renderLog();
  follow();
  loadRest();
}

// -- following a live game ------------------------------------------------------------------------------------

const live = { source: null, timer: null, retries: 0, state: "", fetching: null, again: false };

function liveStatus() {
  if (replay.over && !live.source) {
    ui.live.hidden = true;
    return;
  }
  ui.live.hidden = false;
  const parts = [];
  if (live.state === "reconnecting") parts.push("Connection lost: reconnecting…");
  else if (live.state === "live") parts.push("Live: new steps appear as they are played.");
  else parts.push("Connecting to the live game…");
  const children = [parts.join(" ")];
  if (replay.fresh > 0 && replay.step < replay.last) {
    children.push(" ", el("button", { type: "button", class: "replay-fresh", onclick: () => go(replay.last) },
      `${replay.fresh} new step${replay.fresh === 1 ? "" : "s"}: go to the latest`));
  }
  ui.live.replaceChildren(...children);
  ui.live.dataset.state = live.state;
}

function stopFollowing() {
  if (live.source) live.source.close();
  live.source = null;
  clearTimeout(live.timer);
}

function follow() {
  stopFollowing();
  if (replay.over) return;
  const params = new URLSearchParams({ after: String(replay.last), view: replay.view });
  if (replay.token) params.set("access_token", replay.token); // EventSource sends no headers (docs/api.md)
  const source = new EventSource(`/games/${encodeURIComponent(gameId)}/live?${params}`);
  live.source = source;
  source.onopen = () => { live.retries = 0; live.state = "live"; liveStatus(); };
  source.onmessage = (message) => { if (Number(message.lastEventId) > replay.last) catchUp(); };
  source.addEventListener("end", () => {
    stopFollowing();
    catchUp().then(finished);
  });
  source.addEventListener("revoked", () => {
    stopFollowing();
    showError(new Error("This token was reissued: the live view stopped. Enter the new token to follow again."));
  });
  source.onerror = () => {
    live.state = "reconnecting";
    liveStatus();
    if (source.readyState === EventSource.CLOSED) { // refused (e.g. 503): EventSource gives up, we do not
      live.retries += 1;
      live.timer = setTimeout(() => { if (live.source === source) follow(); }, Math.min(15000, 1000 * 2 ** live.retries));
    }
  };
}

/** Fetch the steps after the last one we have (one request at a time; no step twice, none lost). */
function catchUp() {
  if (live.fetching) {
    live.again = true;
    return live.fetching;
  }
  live.fetching = (async () => {
    do {
      live.again = false;
      const atLast = replay.step >= replay.last;
      const before = replay.last;
      let loaded;
      try {
        loaded = await loadSteps(before + 1);
      } catch (error) {
        showError(error);
        break;
      }
      const added = [...loaded.got.keys()].filter((seq) => seq > before).length;
      replay.last = Math.max(replay.last, loaded.last, ...loaded.got.keys());
      if (!added) continue;
      updateExtent();
      await loadNotes(); // a running game's notes come with its steps
      renderLog();
      boardNotes();
      if (atLast) go(replay.last);
      else {
        replay.fresh += added;
        controls();
      }
    } while (live.again);
    live.fetching = null;
  })();
  return live.fetching;
}

async function finished() {
  try {
    replay.game = await getJSON(`/games/${encodeURIComponent(gameId)}`);
  } catch (_) { /* keep what we have */ }
  replay.over = true;
  live.state = "";
  describeGame();
  liveStatus();
}

// -- loading --------------------------------------------------------------------------------------------------

/** The steps not fetched yet, in the background, nearest the shown step first. */
async function loadRest() {
  const view = replay.view;
  const missing = [];
  for (let seq = 1; seq <= replay.last; seq += 1) if (!replay.steps.has(seq)) missing.push(seq);
  if (!missing.length) return;
  const ranges = [];
  for (const seq of missing) {
    const range = ranges[ranges.length - 1];
    if (range && seq === range[1] + 1 && seq - range[0] < CHUNK) range[1] = seq;
    else ranges.push([seq, seq]);
  }
  ranges.sort((a, b) => Math.abs(a[0] - replay.step) - Math.abs(b[0] - replay.step));
  try {
    for (const [from, to] of ranges) {
      if (replay.view !== view) return;
      await loadSteps(from, to);
    }
  } catch (error) {
    showError(error);
  }
  if (replay.view === view) {
    renderLog();
    controls();
    updateExtent();
  }
}

function seatsOf(game, state) {
  // a seat's team, where the state's players name one (Lords of War's team rules and three-player game)
  const teams = new Map((state && Array.isArray(state.players) ? state.players : [])
    .filter((p) => p && p.id && typeof p.team === "string").map((p) => [p.id, p.team]));
  const seat = (p) => ({ id: p.id, name: p.name || p.id, army: p.army ?? p.army_name ?? null,
    team: teams.get(p.id) ?? null });
  if (Array.isArray(game.players) && game.players.length) return game.players.map(seat);
  if (state && Array.isArray(state.players)) return state.players.filter((p) => p && p.id).map(seat);
  return [];
}

// "team odd (Ana, Cas) v team even (Ben, Dee)" when every seat has a team and a team has more than one seat;
// else null (the seats are the sides)
function teamsTitle(seats) {
  if (!seats.length || seats.some((s) => !s.team)) return null;
  const teams = new Map();
  for (const s of seats) teams.set(s.team, [...(teams.get(s.team) || []), s.name || s.id]);
  if (teams.size < 2 || teams.size === seats.length) return null;
  return [...teams].map(([team, names]) => `team ${team} (${names.join(", ")})`).join(" v ");
}

/** The game's catalogue document (issue 30), read once: the one it names (GET /games/{id}'s catalogue), else its
 * system's default; null for a system that takes none or when it cannot be read (the boards then use their
 * built-in data). */
async function gameCatalogue(game) {
  try {
    let id = game.catalogue;
    if (!id) {
      const listed = await getJSON(`/catalogues?system=${encodeURIComponent(game.system)}`);
      id = listed.catalogues.find((c) => c.default)?.id;
    }
    return id ? await getJSON(`/catalogues/${encodeURIComponent(id)}`) : null;
  } catch (error) {
    console.warn("the game's catalogue could not be read: the board names from its built-in data", error);
    return null;
  }
}

async function boardModule(system) {
  replay.table = await import("./board-table.js");
  const entry = (await webSystems()).find((s) => s.name === system);
  if (!entry || !entry.board) return replay.table;
  try {
    return await import(entry.board);
  } catch (error) {
    showError(new Error(`The ${system} drawing could not be loaded (${error.message}): the state is shown as a table.`));
    return replay.table;
  }
}

async function start() {
  build();
  const saved = savedView();
  const shared = new URLSearchParams(location.search).get("view"); // a shared link's view wins over this tab's
  replay.view = shared || saved.view;
  replay.token = replay.view === saved.view ? saved.token : "";
  let game;
  try {
    game = await getJSON(`/games/${encodeURIComponent(gameId)}`);
  } catch (error) {
    showError(error);
    return;
  }
  replay.game = game;
  replay.over = game.status === "over";
  replay.last = game.seq;
  const boardLoading = boardModule(game.system);
  const labelsLoading = labelsOf(game.system);
  const catalogueLoading = gameCatalogue(game);
  const notesLoading = loadNotes();
  const requested = requestedStep();
  const wanted = Math.min(Math.max(1, requested ?? game.seq), Math.max(1, game.seq));
  const from = Math.max(1, wanted - WINDOW / 2);
  let first;
  try {
    first = await loadSteps(from, from + WINDOW - 1);
  } catch (error) {
    if (replay.view !== "spectator" && (error.status === 401 || error.status === 403 || error.status === 422)) {
      // a token saved for this game no longer works (reissued, or the game changed): back to the spectator view
      showError(new Error(`The saved ${replay.view} view is not available (${error.message}): showing the spectator view.`));
      replay.view = "spectator";
      replay.token = "";
      sessionStorage.removeItem(storageKey);
      first = await loadSteps(from, from + WINDOW - 1).catch((again) => { showError(again); return null; });
      if (!first) return;
    } else {
      showError(error);
      return;
    }
  }
  replay.last = Math.max(replay.last, first.last);
  replay.seats = seatsOf(game, first.got.values().next().value?.state);
  replay.board = await boardLoading;
  replay.labels = await labelsLoading;
  replay.catalogue = ui.frame.catalogue = await catalogueLoading;
  await notesLoading;
  describeGame();
  fillViews();
  setDownloads();
  if (!replay.last) {
    ui.explanation.textContent = "This game has no events yet.";
    return;
  }
  updateExtent();
  renderLog();
  if (requested !== null && requested > replay.last) notice(`The game has ${replay.last} steps: showing the last one.`);
  if (requested !== null && requested < 1) notice("Steps start at 1: showing the first one.");
  await go(wanted, { history: requested !== null && requested !== wanted });
  follow();
  liveStatus();
  loadRest();
}

start().catch((error) => showError(error));
