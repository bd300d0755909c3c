// The bracket page (/tournaments/{id}/bracket to a browser): the cut's single-elimination bracket drawn (seeds,
// who went first, winners going through, the final and the champion), following the tournament while a cut game
// plays. Reads GET /tournaments/{id} (names and the bracket); JSON clients of the same path get the bracket.
import { getJSON } from "./api.js";
import { el } from "./page.js";
import { bracketView, seedsList } from "./bracket.js";
import { nameOf } from "./tournament-parts.js";
import { loadAndFollow } from "./tournament-live.js";

const main = document.querySelector("main");
const path = location.pathname.replace(/\/bracket\/*$/, "");

async function load() {
  const tournament = await getJSON(path);
  const name = nameOf(tournament);
  document.title = `${tournament.name} · bracket · warlog`;
  const back = el("p", {}, el("a", { href: path }, `Back to ${tournament.name}`));
  const content = el("div", { "data-bracket-page": tournament.id }, el("h1", {}, `${tournament.name}: bracket`), back);
  const bracket = tournament.bracket;
  if (!bracket) content.append(el("p", { "data-no-cut": true }, "There is no cut yet: the bracket is drawn once the organiser cuts to a final."));
  else {
    content.append(el("p", {}, `Top ${bracket.size} of the standings, single elimination; the higher seed chooses to go first or second`,
      bracket.cut_draws === "replay" ? "; a drawn game is replayed." : "; a drawn game is decided by the time rule."),
    el("h2", {}, "Seeds"), seedsList(bracket, name), el("h2", {}, "Matches"), bracketView(bracket, name));
  }
  const old = main.querySelector("[data-bracket-page]");
  if (old) old.replaceWith(content);
  else main.replaceChildren(content);
  if (!bracket) return tournament.status === "finished" ? "stop" : "slow";
  if (bracket.champion) return "stop";
  return bracket.rounds.flat().some((m) => m.status === "playing") ? "fast" : "slow";
}

loadAndFollow(main, load);
