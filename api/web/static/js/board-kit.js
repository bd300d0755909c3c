// What every system's board drawing may share (docs/web.md "A system's drawing"): the key under a board. A board
// module imports it as "/static/js/board-kit.js".
const SVG = "http://www.w3.org/2000/svg";

/** The key under a board: a list of [swatch, words], the swatch SVG markup drawn in a 28x20 box (the drawing's own
 * marks, so the key looks like the board), the words what it means. */
export function boardKey(entries, label = "Key") {
  const list = document.createElement("ul");
  list.className = "board-key";
  list.setAttribute("aria-label", label);
  for (const [swatch, words] of entries) {
    const item = document.createElement("li");
    const picture = document.createElementNS(SVG, "svg");
    picture.setAttribute("viewBox", "0 0 28 20");
    picture.setAttribute("width", "28");
    picture.setAttribute("height", "20");
    picture.setAttribute("aria-hidden", "true");
    picture.innerHTML = swatch;
    item.append(picture, document.createTextNode(words));
    list.append(item);
  }
  return list;
}
