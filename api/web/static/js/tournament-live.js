// How the tournament pages follow a tournament: polling (there is no event stream for tournaments; the games'
// SSE is per game). `load()` fetches and redraws, answering "fast" (a table plays or a clock runs), "slow"
// (between rounds, or registration) or "stop" (finished); a failed load backs off (doubling to 2 minutes) and says
// so in `status`; a hidden tab is not polled until it shows again.
import { el, showError } from "./page.js";

const FAST_MS = 5000;
const SLOW_MS = 30000;
const MOST_MS = 120000;

export function follow(load, status, first) {
  let pace = first;
  let failures = 0;
  let timer = null;
  const next = () => {
    if (pace === "stop") return;
    const wait = failures ? Math.min(MOST_MS, FAST_MS * 2 ** failures) : pace === "fast" ? FAST_MS : SLOW_MS;
    timer = setTimeout(tick, wait);
  };
  const tick = async () => {
    timer = null;
    if (document.visibilityState !== "visible") return; // visibilitychange starts again
    try {
      pace = await load();
      failures = 0;
      status.textContent = "";
    } catch (error) {
      failures += 1;
      status.textContent = `Could not refresh: ${error.message}. Trying again…`;
    }
    next();
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && timer === null && pace !== "stop") tick();
  });
  next();
}

// A page's first load, then following: a first load that fails shows its error and follows nothing; else a
// polite status line under the page says when a refresh fails. Answers whether the first load worked.
export async function loadAndFollow(main, load) {
  let pace;
  try {
    pace = await load();
  } catch (error) {
    main.querySelector("[data-loading]")?.remove();
    showError(error);
    return false;
  }
  const status = el("p", { class: "muted", "data-refresh": true, "aria-live": "polite" });
  main.append(status);
  follow(load, status, pace);
  return true;
}

// A round's clock: the seconds left as the server counted them when the page read the tournament, counted down
// by the browser's own clock from that moment (not from the server's deadline text: the two clocks may differ).
export function clockText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}
