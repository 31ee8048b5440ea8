/**
 * The card gallery (/static/cards-gallery.html): a few hands, then every card of the
 * three packs with its code and names, and the back.
 */

import { cardSvg, cardBackSvg, cardName, codesOf } from "./cards.js";

const card = (svg) => {
  const span = document.createElement("span");
  span.className = "card";
  span.innerHTML = svg;
  return span;
};
const heading = (text, parent) => {
  const h = document.createElement("h2");
  h.textContent = text;
  parent.append(h);
};

try {
  const hands = {
    tarock: ["SK", "T21", "T18", "T17", "T13", "T8", "T4", "T1", "HK", "HA", "KaD", "Ka3", "PC", "P10", "KrB", "Kr7"],
    french48: ["H10.1", "CQ.1", "CQ.2", "SQ.1", "HQ.1", "CJ.1", "DJ.1", "DA.1", "D10.1", "DK.1", "CA.1", "C10.1", "C9.1", "SA.1", "SK.1", "H9.2"],
    german: ["EO", "GO", "HO", "SO", "EU", "GU", "HA", "H10", "HK", "H9", "EA", "E10", "GA", "G8", "SA", "S6"],
  };
  const handsBox = document.getElementById("hands");
  for (const [pack, codes] of Object.entries(hands)) {
    heading(`Hand (${pack}, ${codes.length} Karten)`, handsBox);
    const row = document.createElement("div");
    row.className = "hand";
    row.style.setProperty("--n", String(codes.length));
    for (const code of codes) row.append(card(cardSvg(code, pack)));
    handsBox.append(row);
  }

  const packsBox = document.getElementById("packs");
  for (const pack of ["tarock", "french48", "german"]) {
    heading(`${pack} (${codesOf(pack).length})`, packsBox);
    const grid = document.createElement("div");
    grid.className = "grid";
    for (const code of codesOf(pack)) {
      const fig = document.createElement("figure");
      fig.append(card(cardSvg(code, pack)));
      const caption = document.createElement("figcaption");
      caption.textContent = `${code} · ${cardName(code, "de", pack)} · ${cardName(code, "en", pack)}`;
      fig.append(caption);
      grid.append(fig);
    }
    packsBox.append(grid);
  }
  heading("Rückseite", packsBox);
  const backs = document.createElement("div");
  backs.className = "grid";
  backs.append(card(cardBackSvg()));
  packsBox.append(backs);
} catch (error) {
  document.getElementById("error").textContent = String(error.stack || error);
}
