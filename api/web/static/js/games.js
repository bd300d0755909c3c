// How a game's listing reads in words: its seats with their armies, its status, length and result.
// Shared by the games list (index-page.js) and the tournament page (tournament-page.js).
import { endReasonName } from "./labels.js";

/** Each seat of a listed game: {id, name, army}. Created games list their seats in metadata.seats; imported ones
 *  only the players' names (in seating order), their armies in metadata.armies (seat -> the system's label). */
export function seatsOf(game) {
  const meta = game.metadata || {};
  const armies = meta.armies && typeof meta.armies === "object" ? meta.armies : {};
  const listed = Array.isArray(meta.seats) && meta.seats.length
    ? meta.seats.map((s) => ({ id: String(s.id), name: s.name || String(s.id), army: s.army }))
    : (game.players || []).map((name, i) => ({ id: `p${i + 1}`, name }));
  return listed.map((seat) => ({ ...seat, army: armies[seat.id] || seat.army || null }));
}

export function isLive(game) {
  return (game.metadata || {}).status === "active";
}

/** "Ann wins · Commanders destroyed" (the end reason's label, ``labels``: labels.js), "draw", "—" while running. */
export function resultText(game, labels = null) {
  const meta = game.metadata || {};
  if (meta.status !== "over") return "—";
  const names = Object.fromEntries(seatsOf(game).map((s) => [s.id, s.name]));
  let who;
  if (meta.winner === "draw") who = "Draw";
  else if (meta.winner) who = `${names[meta.winner] || meta.winner} wins`;
  else if (Array.isArray(meta.winners) && meta.winners.length) who = `${meta.winners.map((s) => names[s] || s).join(" & ")} win`;
  else who = "Over";
  const said = endReasonName(labels, meta.end_reason);
  const reason = meta.adjudication ? `${said} (${meta.adjudication})` : said;
  return reason ? `${who} · ${reason}` : who;
}

/** "2026-11-23 21:45 UTC" (the same text for every reader, whatever their time zone). */
export function startedText(iso) {
  return typeof iso === "string" && iso.length >= 16 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "—";
}
