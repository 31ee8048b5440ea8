/**
 * Stammtisch card art: every card of the three packs (Tarock, the French 48-card pack, German) as
 * an SVG string, drawn here from paths, circles and text; no images, no dependencies.
 *
 * Card codes are the canonical codes of server/engine/cards.py:
 *
 * - Tarock (54): trumps "T1".."T21", the Sküs "SK"; suits "H" Herz, "Ka" Karo, "P" Pik,
 *   "Kr" Kreuz with ranks K D C B, then "A 2 3 4" (red) or "10 9 8 7" (black).
 * - french48 (48, the double French pack): suit "C S H D" + rank "A 10 K Q J 9" + copy ".1"/".2" (the copy
 *   never changes the picture).
 * - German (36): suit "E G H S" (Eichel, Gras, Herz, Schellen) + rank "A 10 K O U 9 8 7 6".
 *
 * Three codes exist in two packs: "HK" and "HA" (Tarock and German) and "SK" (Tarock's
 * Sküs, German Schellen König). Without a `pack` argument they mean the Tarock card;
 * a German table passes pack "german".
 *
 * The names here are the pack's. A game that calls some of its cards otherwise (the Sküs
 * "Stieß", the Pagat "Pfeife", the Ass "Daus") says so in its catalogue; the page's game
 * hands those words over once (`useCardWords`, from game-info.js), and from then on the
 * names and the words drawn on the pictures of that pack are the game's.
 *
 * Layout (viewBox 0 0 200 300): a large index (rank over suit symbol, or the Roman
 * numeral of a trump) fills the top-left 30 % of the card, so it stays readable when the
 * cards of a hand overlap; the same index, turned by 180°, sits bottom-right.
 */

const W = 200;
const H = 300;
const FONT =
  "'Liberation Sans Narrow','Arial Narrow','DejaVu Sans Condensed','Roboto Condensed'," +
  "'Helvetica Neue',Arial,sans-serif";
const SERIF = "'DejaVu Serif','Liberation Serif',Georgia,'Times New Roman',serif";

const INK = "#1b1712";
const RED = "#c8102e";
const BLACK = "#111111";
const TRUMP = "#17357a";
const GOLD = "#e0ad2e";
const SKIN = "#f5d6b4";
const PAPER = "#fffdf8";
const TRUMP_PAPER = "#fbf2d8";

// ----------------------------------------------------------------------------- suits
// Every symbol is drawn in a 100 × 100 box centred on 0,0 and placed by `place`.

const HEART =
  "M0,40 C-6,31 -46,9 -46,-17 C-46,-35 -34,-45 -21,-45 C-10,-45 -3,-38 0,-29 " +
  "C3,-38 10,-45 21,-45 C34,-45 46,-35 46,-17 C46,9 6,31 0,40 Z";

/** @param {string} fill */
const heart = (fill) =>
  `<path d="${HEART}" transform="translate(0 3)" fill="${fill}" stroke="${shade(fill)}" stroke-width="3"/>`;

/** @param {string} fill */
const diamond = (fill) =>
  `<path d="M0,-48 Q13,-20 36,0 Q13,20 0,48 Q-13,20 -36,0 Q-13,-20 0,-48 Z" fill="${fill}" ` +
  `stroke="${shade(fill)}" stroke-width="3"/>`;

/** @param {string} fill */
const spade = (fill) =>
  `<path d="M0,-46 C8,-30 45,-14 45,10 C45,26 33,34 21,34 C13,34 7,30 3,26 ` +
  `C4,36 8,42 17,47 L-17,47 C-8,42 -4,36 -3,26 C-7,30 -13,34 -21,34 ` +
  `C-33,34 -45,26 -45,10 C-45,-14 -8,-30 0,-46 Z" fill="${fill}"/>`;

/** @param {string} fill */
const club = (fill) =>
  `<g fill="${fill}"><circle cx="0" cy="-23" r="20"/><circle cx="-22" cy="10" r="20"/>` +
  `<circle cx="22" cy="10" r="20"/><circle cx="0" cy="4" r="10"/>` +
  `<path d="M-3,6 C-3,30 -8,40 -17,47 L17,47 C8,40 3,30 3,6 Z"/></g>`;

/** Eichel: an acorn, ochre nut in a brown cup. */
const acorn = () =>
  `<path d="M-4,-48 L4,-48 L4,-32 L-4,-32 Z" fill="#4a2c0c"/>` +
  `<path d="M-26,-6 C-28,22 -12,42 0,47 C12,42 28,22 26,-6 Z" fill="#d49a34" stroke="#5d3a12" stroke-width="3.5"/>` +
  `<path d="M-14,2 C-15,18 -9,30 -2,36" fill="none" stroke="#f3d08a" stroke-width="4" stroke-linecap="round"/>` +
  `<path d="M-32,-4 C-34,-26 -16,-36 0,-36 C16,-36 34,-26 32,-4 Z" fill="#6b4218" stroke="#3d2508" stroke-width="3.5"/>` +
  `<path d="M-22,-30 L-8,-6 M-6,-35 L10,-6 M10,-35 L24,-10 M22,-30 L8,-6 M6,-35 L-10,-6 M-10,-35 L-24,-10" ` +
  `stroke="#3d2508" stroke-width="2.5"/>`;

/** Gras (Laub): a green leaf with its veins. */
const leaf = () =>
  `<path d="M0,-47 C20,-36 30,-22 36,-12 C28,-10 30,-4 32,2 C26,4 26,10 27,16 ` +
  `C20,28 9,36 0,40 C-9,36 -20,28 -27,16 C-26,10 -26,4 -32,2 C-30,-4 -28,-10 -36,-12 ` +
  `C-30,-22 -20,-36 0,-47 Z" fill="#2f8a3a" stroke="#17521f" stroke-width="3.5"/>` +
  `<path d="M0,-38 L0,49 M0,-14 L16,-24 M0,-14 L-16,-24 M0,6 L18,-4 M0,6 L-18,-4 M0,24 L12,16 M0,24 L-12,16" ` +
  `fill="none" stroke="#17521f" stroke-width="3.5" stroke-linecap="round"/>`;

/** German Herz: the heart, a touch rounder and with a highlight. */
const germanHeart = () =>
  heart(RED) +
  `<path d="M-30,-22 C-30,-32 -22,-36 -16,-35" fill="none" stroke="#ff8a8a" stroke-width="5" stroke-linecap="round"/>`;

/** Schellen: a round bell with its band, slit and loop. */
const bell = () =>
  `<circle cx="0" cy="-38" r="7" fill="none" stroke="#6e4a00" stroke-width="4"/>` +
  `<circle cx="0" cy="4" r="38" fill="#eab02c" stroke="#6e4a00" stroke-width="4"/>` +
  `<path d="M-37,-6 Q0,2 37,-6 L37,6 Q0,14 -37,6 Z" fill="#b0182a" stroke="#6e4a00" stroke-width="2.5"/>` +
  `<circle cx="0" cy="24" r="6" fill="#4a3000"/>` +
  `<path d="M0,26 L0,41" stroke="#4a3000" stroke-width="5" stroke-linecap="round"/>` +
  `<path d="M-24,-18 Q-18,-26 -8,-28" fill="none" stroke="#fff2c0" stroke-width="5" stroke-linecap="round"/>`;

/**
 * @typedef {object} Suit
 * @property {string} de German name
 * @property {string} en English name
 * @property {string} color index colour (dark enough for white paper)
 * @property {string} robe main colour of the figures
 * @property {string} alt second colour of the figures
 * @property {() => string} draw the symbol in its 100 × 100 box
 */

/** @type {Record<string, Suit>} */
const FRENCH = {
  hearts: { de: "Herz", en: "Hearts", color: RED, robe: RED, alt: "#1f4e9a", draw: () => heart(RED) },
  diamonds: {
    de: "Karo",
    en: "Diamonds",
    color: RED,
    robe: RED,
    alt: "#2f7a3a",
    draw: () => diamond(RED),
  },
  spades: {
    de: "Pik",
    en: "Spades",
    color: BLACK,
    robe: "#2c3038",
    alt: "#1f4e9a",
    draw: () => spade(BLACK),
  },
  clubs: {
    de: "Kreuz",
    en: "Clubs",
    color: BLACK,
    robe: "#2c3038",
    alt: "#2f7a3a",
    draw: () => club(BLACK),
  },
};

/** @type {Record<string, Suit>} */
const GERMAN_SUITS = {
  E: { de: "Eichel", en: "Acorns", color: "#5d3a12", robe: "#7a4a1c", alt: "#2f6a3a", draw: acorn },
  G: { de: "Gras", en: "Leaves", color: "#1d6b2a", robe: "#2f8a3a", alt: "#b0182a", draw: leaf },
  H: { de: "Herz", en: "Hearts", color: RED, robe: RED, alt: "#2a5aa8", draw: germanHeart },
  S: { de: "Schellen", en: "Bells", color: "#8a5600", robe: "#d39a1c", alt: "#b0182a", draw: bell },
};

/** @type {Record<string, Record<string, Suit>>} */
const SUITS = {
  tarock: { H: FRENCH.hearts, Ka: FRENCH.diamonds, P: FRENCH.spades, Kr: FRENCH.clubs },
  french48: { C: FRENCH.clubs, S: FRENCH.spades, H: FRENCH.hearts, D: FRENCH.diamonds },
  german: GERMAN_SUITS,
};

// ----------------------------------------------------------------------------- ranks

/** Index label and names of every rank letter (pip numbers are their own label). */
const RANKS = {
  K: { label: "K", de: "König", en: "King" },
  D: { label: "D", de: "Dame", en: "Queen" },
  Q: { label: "D", de: "Dame", en: "Queen" },
  C: { label: "C", de: "Cavall", en: "Cavall" },
  B: { label: "B", de: "Bube", en: "Jack" },
  J: { label: "B", de: "Bube", en: "Jack" },
  O: { label: "O", de: "Ober", en: "Ober" },
  U: { label: "U", de: "Unter", en: "Unter" },
  A: { label: "A", de: "Ass", en: "Ace" },
};

const ROMAN = [
  "",
  "I",
  "II",
  "III",
  "IV",
  "V",
  "VI",
  "VII",
  "VIII",
  "IX",
  "X",
  "XI",
  "XII",
  "XIII",
  "XIV",
  "XV",
  "XVI",
  "XVII",
  "XVIII",
  "XIX",
  "XX",
  "XXI",
];

// ----------------------------------------------------------------------------- codes

/**
 * @typedef {object} Spec
 * @property {"tarock"|"french48"|"german"} pack
 * @property {string} kind the code without a copy suffix
 * @property {string} suit "T" for Tarock trumps
 * @property {string} rank
 */

/** @type {Record<string, Map<string, Spec>>} */
const TABLE = { tarock: new Map(), french48: new Map(), german: new Map() };
/** @type {Record<string, string[]>} */
const ORDER = { tarock: [], french48: [], german: [] };

/**
 * @param {"tarock"|"french48"|"german"} pack
 * @param {string} code
 * @param {string} kind
 * @param {string} suit
 * @param {string} rank
 */
function register(pack, code, kind, suit, rank) {
  TABLE[pack].set(code, { pack, kind, suit, rank });
  ORDER[pack].push(code);
}

for (let n = 1; n <= 21; n += 1) register("tarock", `T${n}`, `T${n}`, "T", String(n));
register("tarock", "SK", "SK", "T", "22");
for (const [suit, pips] of [
  ["H", ["A", "2", "3", "4"]],
  ["Ka", ["A", "2", "3", "4"]],
  ["P", ["10", "9", "8", "7"]],
  ["Kr", ["10", "9", "8", "7"]],
]) {
  for (const rank of ["K", "D", "C", "B", ...pips]) {
    register("tarock", `${suit}${rank}`, `${suit}${rank}`, /** @type {string} */ (suit), rank);
  }
}
for (const copy of [1, 2]) {
  for (const suit of ["C", "S", "H", "D"]) {
    for (const rank of ["A", "10", "K", "Q", "J", "9"]) {
      register("french48", `${suit}${rank}.${copy}`, `${suit}${rank}`, suit, rank);
    }
  }
}
for (const suit of ["E", "G", "H", "S"]) {
  for (const rank of ["A", "10", "K", "O", "U", "9", "8", "7", "6"]) {
    register("german", `${suit}${rank}`, `${suit}${rank}`, suit, rank);
  }
}

/**
 * @param {unknown} code
 * @param {string} [pack]
 * @returns {Spec}
 */
function lookup(code, pack) {
  if (pack !== undefined && !Object.prototype.hasOwnProperty.call(TABLE, pack)) {
    throw new Error(`Unknown card pack ${JSON.stringify(pack)} (tarock, french48 or german)`);
  }
  if (typeof code === "string") {
    for (const name of pack === undefined ? Object.keys(TABLE) : [pack]) {
      const spec = TABLE[name].get(code);
      if (spec) return spec;
    }
  }
  const where = pack === undefined ? "" : ` in the ${pack} pack`;
  throw new Error(`Unknown card code ${JSON.stringify(code)}${where}`);
}

// ----------------------------------------------------------------------------- drawing

/** A darker shade of a #rrggbb colour (for outlines). @param {string} hex */
function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const part = (/** @type {number} */ shift) => Math.round(((n >> shift) & 255) * 0.62);
  return `rgb(${part(16)},${part(8)},${part(0)})`;
}

/**
 * A suit symbol centred on x,y, `size` units across, optionally upside down.
 * @param {Suit} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {boolean} [flip]
 */
function place(suit, x, y, size, flip = false) {
  const turn = flip ? " rotate(180)" : "";
  return `<g transform="translate(${x} ${y}) scale(${size / 100})${turn}">${suit.draw()}</g>`;
}

/**
 * A bold text, squeezed into `max` units when its estimated width is larger.
 * @param {string} content
 * @param {number} x centre
 * @param {number} y baseline
 * @param {number} size font size
 * @param {string} fill
 * @param {number} max widest allowed
 * @param {string} [family]
 */
function label(content, x, y, size, fill, max, family = FONT) {
  const em = { I: 0.3, V: 0.64, X: 0.64, 1: 0.5 };
  let width = 0;
  for (const ch of content) width += (em[/** @type {keyof typeof em} */ (ch)] ?? 0.58) * size;
  const fit = width > max ? ` textLength="${max}" lengthAdjust="spacingAndGlyphs"` : "";
  return (
    `<text x="${x}" y="${y}" text-anchor="middle" font-family="${family}" font-weight="700" ` +
    `font-size="${size}" fill="${fill}"${fit}>${content}</text>`
  );
}

/** The corner index of a suit card. @param {Spec} spec @param {Suit} suit */
function suitIndex(spec, suit) {
  const text = spec.rank in RANKS ? RANKS[/** @type {keyof typeof RANKS} */ (spec.rank)].label : spec.rank;
  return label(text, 31, 54, 54, suit.color, 50) + place(suit, 31, 84, 40);
}

/**
 * The corner index of a trump.
 * @param {number} n 1..22
 * @param {string} word the word under the Sküs' star ("" for none)
 */
function trumpIndex(n, word) {
  if (n === 22) {
    return (
      `<path d="${star(31, 36, 24, 10, 5)}" fill="${GOLD}" stroke="${TRUMP}" stroke-width="3.5" stroke-linejoin="round"/>` +
      (word ? label(escapeText(word), 31, 84, 21, TRUMP, 50) : "")
    );
  }
  return label(ROMAN[n], 31, 50, 46, TRUMP, 52, SERIF) + label(String(n), 31, 80, 24, "#5a6a94", 40);
}

/** Both corner indices (the second turned by 180°). @param {string} index */
function corners(index) {
  return `<g>${index}</g><g transform="rotate(180 ${W / 2} ${H / 2})">${index}</g>`;
}

/** Points of a star polygon as path data. */
function star(
  /** @type {number} */ cx,
  /** @type {number} */ cy,
  /** @type {number} */ outer,
  /** @type {number} */ inner,
  /** @type {number} */ points,
) {
  const parts = [];
  for (let i = 0; i < points * 2; i += 1) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI * i) / points - Math.PI / 2;
    parts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${parts.join(" L")} Z`;
}

/** Card paper with its edge. @param {string} fill */
function paper(fill) {
  return `<rect x="1.5" y="1.5" width="197" height="297" rx="14" fill="${fill}" stroke="#4a4238" stroke-width="3"/>`;
}

/** Where the pips of a 2..10 card go (columns 78/100/122, rows top to bottom). */
const PIPS = {
  2: [[100, 58], [100, 242]],
  3: [[100, 58], [100, 150], [100, 242]],
  4: [[78, 58], [122, 58], [78, 242], [122, 242]],
  6: [[78, 58], [122, 58], [78, 150], [122, 150], [78, 242], [122, 242]],
  7: [[78, 58], [122, 58], [100, 104], [78, 150], [122, 150], [78, 242], [122, 242]],
  8: [[78, 58], [122, 58], [100, 104], [78, 150], [122, 150], [100, 196], [78, 242], [122, 242]],
  9: [[78, 58], [122, 58], [78, 119], [122, 119], [100, 150], [78, 181], [122, 181], [78, 242], [122, 242]],
  10: [
    [78, 58], [122, 58], [100, 89], [78, 119], [122, 119],
    [78, 181], [122, 181], [100, 211], [78, 242], [122, 242],
  ],
};

/** The middle of a pip card. @param {Suit} suit @param {string} rank */
function pips(suit, rank) {
  const spots = PIPS[/** @type {keyof typeof PIPS} */ (Number(rank))];
  const size = Number(rank) >= 9 ? 32 : 36;
  return spots.map(([x, y]) => place(suit, x, y, size, y > 150)).join("");
}

/** The middle of an ace: one big symbol in a ring. @param {Suit} suit @param {string} pack */
function ace(suit, pack) {
  const ring =
    pack === "german"
      ? `<circle cx="100" cy="150" r="56" fill="none" stroke="${suit.color}" stroke-width="2.5" stroke-dasharray="2 6" stroke-linecap="round"/>` +
        `<path d="${star(100, 150, 70, 62, 12)}" fill="none" stroke="${GOLD}" stroke-width="2.5"/>`
      : `<circle cx="100" cy="150" r="58" fill="none" stroke="${suit.color}" stroke-width="2" opacity="0.35"/>`;
  return ring + place(suit, 100, 150, 84);
}

// ----------------------------------------------------------------------------- figures

/**
 * A court figure standing in the middle panel (x 60..140).
 * @param {string} rank K, D/Q, C, B/J, O, U
 * @param {Suit} suit
 */
function figure(rank, suit) {
  const r = rank === "Q" ? "D" : rank === "J" ? "B" : rank;
  const robe = suit.robe;
  const edge = shade(robe);
  const out = [];
  const longRobe = r === "K" || r === "D";

  // Behind the head: the Dame's hair.
  if (r === "D") {
    out.push(`<path d="M84,90 C80,62 120,62 116,90 L122,124 L78,124 Z" fill="#6b3a1a"/>`);
  }
  // Arms (behind the body).
  const raise = r === "O";
  out.push(
    `<path d="M84,116 L74,${raise ? 150 : 172}" stroke="${edge}" stroke-width="13" stroke-linecap="round"/>`,
    raise
      ? `<path d="M116,116 L126,84" stroke="${edge}" stroke-width="13" stroke-linecap="round"/>`
      : `<path d="M116,116 L126,172" stroke="${edge}" stroke-width="13" stroke-linecap="round"/>`,
    `<circle cx="74" cy="${raise ? 152 : 176}" r="6.5" fill="${SKIN}" stroke="${INK}" stroke-width="1.5"/>`,
    `<circle cx="126" cy="${raise ? 80 : 176}" r="6.5" fill="${SKIN}" stroke="${INK}" stroke-width="1.5"/>`,
  );
  // Body.
  if (longRobe) {
    const hem = r === "D" ? "L138,262 Q100,274 62,262" : "L134,264 L66,264";
    out.push(
      `<path d="M82,112 Q100,104 118,112 ${hem} Z" fill="${robe}" stroke="${INK}" stroke-width="2"/>`,
      `<path d="M100,112 L100,264" stroke="${GOLD}" stroke-width="5"/>`,
      `<path d="M86,174 L114,174" stroke="${GOLD}" stroke-width="5"/>`,
    );
    if (r === "D") {
      out.push(`<path d="M88,178 L112,178 L120,252 L80,252 Z" fill="#fffaf0" stroke="${INK}" stroke-width="1.5"/>`);
    }
  } else {
    out.push(
      `<rect x="83" y="206" width="14" height="52" fill="${suit.alt}" stroke="${INK}" stroke-width="1.5"/>`,
      `<rect x="103" y="206" width="14" height="52" fill="${suit.alt}" stroke="${INK}" stroke-width="1.5"/>`,
      `<ellipse cx="88" cy="261" rx="11" ry="5" fill="${INK}"/>`,
      `<ellipse cx="112" cy="261" rx="11" ry="5" fill="${INK}"/>`,
      `<path d="M82,112 Q100,104 118,112 L128,212 L72,212 Z" fill="${robe}" stroke="${INK}" stroke-width="2"/>`,
      `<path d="M78,172 L122,172" stroke="${GOLD}" stroke-width="5"/>`,
    );
  }
  // Chest emblem with the suit.
  out.push(`<circle cx="100" cy="140" r="15" fill="#fffaf0" stroke="${GOLD}" stroke-width="3"/>`);
  out.push(place(suit, 100, 140, 22));
  // Collar, head, face.
  out.push(
    `<ellipse cx="100" cy="108" rx="16" ry="5.5" fill="#fffaf0" stroke="${INK}" stroke-width="1.5"/>`,
    `<circle cx="100" cy="88" r="15" fill="${SKIN}" stroke="${INK}" stroke-width="2"/>`,
    `<circle cx="94.5" cy="86" r="1.8" fill="${INK}"/><circle cx="105.5" cy="86" r="1.8" fill="${INK}"/>`,
  );
  if (r === "K") {
    out.push(`<path d="M88,93 Q100,122 112,93 Q100,100 88,93 Z" fill="#8c8c8c" stroke="${INK}" stroke-width="1.5"/>`);
  } else {
    out.push(`<path d="M96,95 Q100,98 104,95" fill="none" stroke="${INK}" stroke-width="1.6" stroke-linecap="round"/>`);
  }
  // Headgear and what the figure holds.
  if (r === "K") {
    out.push(
      `<path d="M84,78 L84,54 L92,65 L100,50 L108,65 L116,54 L116,78 Z" fill="${GOLD}" stroke="${INK}" stroke-width="2" stroke-linejoin="round"/>`,
      `<circle cx="100" cy="70" r="3" fill="${suit.alt}"/>`,
      `<path d="M126,176 L126,96" stroke="#8a6a1a" stroke-width="4"/>`,
      `<circle cx="126" cy="92" r="6" fill="${GOLD}" stroke="${INK}" stroke-width="1.5"/>`,
    );
  } else if (r === "D") {
    out.push(
      `<path d="M87,76 L93,66 L100,72 L107,66 L113,76 Z" fill="${GOLD}" stroke="${INK}" stroke-width="1.5" stroke-linejoin="round"/>`,
      `<path d="M74,176 L74,154" stroke="#2f7a3a" stroke-width="3"/>`,
      `<circle cx="74" cy="150" r="6" fill="${suit.alt}" stroke="${INK}" stroke-width="1.2"/>`,
    );
  } else if (r === "C") {
    out.push(
      `<path d="M84,90 C84,62 116,62 116,90 L116,92 L84,92 Z" fill="#b7bec8" stroke="${INK}" stroke-width="2"/>`,
      `<path d="M87,84 L113,84" stroke="${INK}" stroke-width="3"/>`,
      `<path d="M100,66 C106,48 118,40 132,38 C124,48 116,58 104,68 Z" fill="${suit.alt}" stroke="${INK}" stroke-width="1.5"/>`,
      `<path d="M126,262 L126,60" stroke="#7a5a2a" stroke-width="4"/>`,
      `<path d="M126,40 L131,60 L121,60 Z" fill="#b7bec8" stroke="${INK}" stroke-width="1.5"/>`,
      // A horse's head at the knight's side.
      `<path d="M62,262 L62,226 C62,208 70,196 82,192 L80,186 L88,190 C96,190 100,198 100,206 ` +
        `L98,214 C94,216 90,214 86,210 C82,222 84,240 90,262 Z" fill="#a8743a" stroke="${INK}" stroke-width="2" stroke-linejoin="round"/>`,
      `<circle cx="88" cy="198" r="2" fill="${INK}"/>`,
      `<path d="M70,198 C66,210 64,230 66,256" fill="none" stroke="#4a2c0c" stroke-width="5"/>`,
    );
  } else if (r === "O") {
    out.push(
      `<path d="M86,78 L90,56 L110,56 L114,78 Z" fill="${suit.alt}" stroke="${INK}" stroke-width="2"/>`,
      `<ellipse cx="100" cy="78" rx="20" ry="4.5" fill="${suit.alt}" stroke="${INK}" stroke-width="2"/>`,
      `<path d="M108,58 C110,44 100,34 90,32 C96,40 98,48 100,58 Z" fill="#fffaf0" stroke="${INK}" stroke-width="1.5"/>`,
      place(suit, 124, 52, 28),
    );
  } else {
    // Bube / Unter: a flat cap with a feather.
    out.push(
      `<ellipse cx="100" cy="76" rx="20" ry="7" fill="${suit.alt}" stroke="${INK}" stroke-width="2"/>`,
      `<path d="M108,72 C114,58 124,52 134,50 C128,58 120,66 112,74 Z" fill="#fffaf0" stroke="${INK}" stroke-width="1.5"/>`,
    );
    if (r === "U") out.push(place(suit, 128, 236, 26));
  }
  return out.join("");
}

/** The middle panel of a court card. @param {Spec} spec @param {Suit} suit */
function court(spec, suit) {
  return (
    `<rect x="60" y="14" width="80" height="272" rx="6" fill="${suit.robe}" fill-opacity="0.08" ` +
    `stroke="${suit.color}" stroke-width="2"/>` +
    figure(spec.rank, suit)
  );
}

/**
 * The middle of a trump: a motif between two small stars (the numeral is in the corners).
 * @param {number} n
 * @param {string} word the word drawn with the Sküs', the Mond's and the Pagat's motif ("" for none)
 */
function trumpMiddle(n, word) {
  const panel =
    `<rect x="60" y="14" width="80" height="272" rx="6" fill="#f1dfa6" stroke="${TRUMP}" stroke-width="2.5"/>` +
    `<rect x="65" y="19" width="70" height="262" rx="4" fill="none" stroke="${GOLD}" stroke-width="1.5"/>`;
  const ornament =
    `<path d="M72,48 L128,48" stroke="${TRUMP}" stroke-width="1.5"/>` +
    `<path d="${star(100, 48, 11, 4.5, 5)}" fill="${GOLD}" stroke="${TRUMP}" stroke-width="1.5" stroke-linejoin="round"/>`;
  const ends = n === 22 ? "" : `${ornament}<g transform="rotate(180 100 150)">${ornament}</g>`;
  let motif;
  if (n === 22) {
    motif = skus(word);
  } else if (n === 21) {
    motif =
      `<circle cx="100" cy="150" r="38" fill="#fff3c4" stroke="${TRUMP}" stroke-width="2"/>` +
      `<circle cx="96" cy="150" r="29" fill="${GOLD}"/>` +
      `<circle cx="110" cy="144" r="25" fill="#fff3c4"/>` +
      `<path d="${star(118, 166, 7, 3, 5)}" fill="${TRUMP}"/><path d="${star(122, 130, 5, 2, 5)}" fill="${TRUMP}"/>` +
      (word ? label(escapeText(word), 100, 222, 20, TRUMP, 64, SERIF) : "");
  } else if (n === 1) {
    motif = pagat(word);
  } else {
    motif = rosette(n);
  }
  return panel + ends + motif;
}

/** A rosette of n petals (the trump's number) around a gold centre. @param {number} n */
function rosette(n) {
  const petals = [];
  for (let i = 0; i < n; i += 1) {
    const angle = ((360 / n) * i).toFixed(2);
    const color = i % 2 ? RED : TRUMP;
    petals.push(
      `<ellipse cx="100" cy="${150 - 22}" rx="${n > 12 ? 3.5 : 5}" ry="13" fill="${color}" transform="rotate(${angle} 100 150)"/>`,
    );
  }
  return (
    `<circle cx="100" cy="150" r="38" fill="#fff3c4" stroke="${TRUMP}" stroke-width="2"/>` +
    petals.join("") +
    `<circle cx="100" cy="150" r="8" fill="${GOLD}" stroke="${TRUMP}" stroke-width="2"/>`
  );
}

/** The Pagat (I): a little juggler with three balls. @param {string} word its word ("" for none) */
function pagat(word) {
  return (
    `<g transform="translate(0 -22)">` +
    `<circle cx="84" cy="96" r="5" fill="${RED}"/><circle cx="100" cy="86" r="5" fill="#2f7a3a"/>` +
    `<circle cx="116" cy="96" r="5" fill="${TRUMP}"/>` +
    `<path d="M88,140 L80,110 M112,140 L120,110" stroke="${TRUMP}" stroke-width="8" stroke-linecap="round"/>` +
    `<path d="M86,134 Q100,128 114,134 L120,196 L80,196 Z" fill="${RED}" stroke="${INK}" stroke-width="2"/>` +
    `<path d="M80,196 L120,196 L114,206 L86,206 Z" fill="${TRUMP}"/>` +
    `<rect x="87" y="204" width="10" height="34" fill="${TRUMP}"/><rect x="103" y="204" width="10" height="34" fill="${RED}"/>` +
    `<circle cx="100" cy="120" r="12" fill="${SKIN}" stroke="${INK}" stroke-width="2"/>` +
    `<path d="M86,114 L90,98 L100,108 L110,98 L114,114 Z" fill="${GOLD}" stroke="${INK}" stroke-width="1.5"/>` +
    `</g>` +
    (word ? label(escapeText(word), 100, 236, 20, TRUMP, 64, SERIF) : "")
  );
}

/** The Sküs: a jester's head under a star. @param {string} word its word ("" for none) */
function skus(word) {
  const heading = word ? label(escapeText(word), 100, 54, 28, TRUMP, 64, SERIF) : "";
  return (
    (heading ? `${heading}<g transform="rotate(180 100 150)">${heading}</g>` : "") +
    `<path d="${star(100, 86, 16, 7, 5)}" fill="${GOLD}" stroke="${TRUMP}" stroke-width="2" stroke-linejoin="round"/>` +
    // Cap with three tips and bells.
    `<path d="M78,156 C74,140 70,126 62,118 C76,120 84,128 88,138 C90,124 94,112 100,104 ` +
    `C106,112 110,124 112,138 C116,128 124,120 138,118 C130,126 126,140 122,156 Z" ` +
    `fill="${RED}" stroke="${INK}" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M88,138 C92,146 108,146 112,138 L122,156 L78,156 Z" fill="#2f7a3a" stroke="${INK}" stroke-width="1.5"/>` +
    `<circle cx="64" cy="118" r="5" fill="${GOLD}" stroke="${INK}" stroke-width="1.2"/>` +
    `<circle cx="100" cy="103" r="5" fill="${GOLD}" stroke="${INK}" stroke-width="1.2"/>` +
    `<circle cx="136" cy="118" r="5" fill="${GOLD}" stroke="${INK}" stroke-width="1.2"/>` +
    // Face and ruff.
    `<circle cx="100" cy="172" r="18" fill="${SKIN}" stroke="${INK}" stroke-width="2"/>` +
    `<circle cx="93.5" cy="168" r="2" fill="${INK}"/><circle cx="106.5" cy="168" r="2" fill="${INK}"/>` +
    `<path d="M91,178 Q100,187 109,178" fill="none" stroke="${INK}" stroke-width="2" stroke-linecap="round"/>` +
    `<path d="M74,196 L82,190 L88,198 L94,190 L100,198 L106,190 L112,198 L118,190 L126,196 L120,208 L80,208 Z" ` +
    `fill="${TRUMP}" stroke="${INK}" stroke-width="1.5" stroke-linejoin="round"/>` +
    `<path d="${star(100, 232, 10, 4, 5)}" fill="${GOLD}" stroke="${TRUMP}" stroke-width="1.5"/>`
  );
}

/**
 * The SVG element around a card's drawing.
 * @param {string} name the accessible name (only our own names and the catalogue's, never user text)
 * @param {string} body
 */
function svg(name, body) {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" ` +
    `aria-label="${escapeText(name)}">${body}</svg>`
  );
}

/** A text for SVG markup, with the five characters XML reserves escaped. @param {string} text */
function escapeText(text) {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

// ----------------------------------------------------------------------------- a game's words

/**
 * The words a game uses for cards of its pack instead of the pack's own (built by
 * `cardWords` from the game's catalogue).
 * @typedef {object} CardWords
 * @property {"tarock"|"french48"|"german"} pack the pack they are for
 * @property {"de"|"en"} lang the language they are written in
 * @property {Record<string, string>} names a card's whole name by its kind ("SK" → "Stieß")
 * @property {Record<string, string>} ranks a rank's word ("A" → "Daus")
 * @property {Record<string, string>} art the word drawn on a card's picture by its kind
 */

/** The page's game's words (null: the pack's own names everywhere). */
let pageWords = /** @type {CardWords | null} */ (null);

/**
 * A game's words for the cards of `pack`, read through `text(key, params)` (the
 * catalogue's text of `key`, or null where it has none):
 *
 * - `card.<game>.trump`: the name of every trump, with `%(n)s` (its number) and
 *   `%(roman)s` (its Roman numeral) filled in: "Trumpf %(n)s";
 * - `card.<game>.<kind>`: one card's whole name ("card.<game>.sk": "Stieß");
 * - `card.<game>.rank.<rank>`: a rank's word in the suit cards' names ("rank.a": "Daus");
 * - `card.<game>.<kind>.art`: the word drawn on the picture of a card the game names
 *   itself (the Sküs, the Mond and the Pagat carry a word); without it such a card's
 *   picture carries none.
 *
 * Kinds and ranks are written in small letters in the keys (the catalogues' keys are,
 * and a page's text never spells a card's code: a card laid face down stays unknown).
 * @param {string} game
 * @param {"tarock"|"french48"|"german"} pack
 * @param {"de"|"en"} lang
 * @param {(key: string, params?: Record<string, unknown>) => string | null} text
 * @returns {CardWords}
 */
export function cardWords(game, pack, lang, text) {
  /** @type {CardWords} */
  const words = { pack, lang, names: {}, ranks: {}, art: {} };
  for (const code of codesOf(pack)) {
    const spec = lookup(code, pack);
    if (words.names[spec.kind] !== undefined) continue;
    const kind = spec.kind.toLowerCase();
    let name = text(`card.${game}.${kind}`);
    if (name === null && spec.suit === "T" && spec.rank !== "22") {
      const n = Number(spec.rank);
      name = text(`card.${game}.trump`, { n, roman: ROMAN[n] });
    }
    if (name !== null) words.names[spec.kind] = name;
    const art = text(`card.${game}.${kind}.art`);
    if (art !== null) words.art[spec.kind] = art;
    const rank = text(`card.${game}.rank.${spec.rank.toLowerCase()}`);
    if (rank !== null) words.ranks[spec.rank] = rank;
  }
  return words;
}

/**
 * Name the cards of `words.pack` with the page's game's words from now on (null: the
 * pack's own names again). A page shows one game's cards: the table, the replay.
 * @param {CardWords | null} words
 */
export function useCardWords(words) {
  pageWords = words;
}

/**
 * The words that apply to a card of `pack`: `words` when they are for that pack.
 * @param {string} pack
 * @param {CardWords | null | undefined} words
 * @returns {CardWords | null}
 */
function wordsFor(pack, words) {
  return words && words.pack === pack ? words : null;
}

/**
 * The word drawn on the picture of a trump (the Sküs, the Mond and the Pagat carry one):
 * the game's where it names the card itself, else the pack's.
 * @param {Spec} spec
 * @param {CardWords | null} words
 * @returns {string}
 */
function artWord(spec, words) {
  const own = { 22: "Sküs", 21: "Mond", 1: "Pagat" }[Number(spec.rank)] || "";
  if (!words || words.names[spec.kind] === undefined) return own;
  return words.art[spec.kind] ?? "";
}

// ----------------------------------------------------------------------------- exports

/**
 * The pack a card code belongs to. "HK", "HA" and "SK" exist in the Tarock and the German
 * pack; for them this answers "tarock" (a German table passes its pack to the other
 * functions).
 * @param {string} code a canonical code such as "T21", "KaK", "CQ.1", "EO"
 * @returns {"tarock"|"french48"|"german"}
 * @throws {Error} for an unknown code
 */
export function packOf(code) {
  return lookup(code).pack;
}

/**
 * The canonical codes of a pack, in the order of server/engine/cards.py.
 * @param {"tarock"|"french48"|"german"} pack
 * @returns {string[]}
 * @throws {Error} for an unknown pack
 */
export function codesOf(pack) {
  if (!Object.prototype.hasOwnProperty.call(ORDER, pack)) {
    throw new Error(`Unknown card pack ${JSON.stringify(pack)} (tarock, french48 or german)`);
  }
  return [...ORDER[pack]];
}

/**
 * The name of a card: "Herz König", "Tarock XXI (Mond)", "Sküs", "Kreuz Dame", "Eichel Ober";
 * in English "King of Hearts", "Tarock XXI (Mond)", "Queen of Clubs", "Ober of Acorns"
 * (game terms such as Sküs, Pagat, Mond, Cavall, Ober and Unter stay German). Where the
 * page's game has its own words for the card (`useCardWords`, in `lang`), the game's name.
 * @param {string} code
 * @param {"de"|"en"} [lang] "de" unless "en"
 * @param {"tarock"|"french48"|"german"} [pack] needed only for "HK", "HA", "SK" outside Tarock
 * @param {CardWords | null} [words] a game's words (default: the page's game's)
 * @returns {string}
 * @throws {Error} for an unknown code or pack
 */
export function cardName(code, lang = "de", pack = undefined, words = pageWords) {
  const spec = lookup(code, pack);
  const own = wordsFor(spec.pack, words);
  const game = own && own.lang === (lang === "en" ? "en" : "de") ? own : null;
  if (game && game.names[spec.kind] !== undefined) return game.names[spec.kind];
  if (spec.suit === "T") {
    const n = Number(spec.rank);
    if (n === 22) return "Sküs";
    const extra = n === 1 ? " (Pagat)" : n === 21 ? " (Mond)" : "";
    return `Tarock ${ROMAN[n]}${extra}`;
  }
  const suit = SUITS[spec.pack][spec.suit];
  const rank = RANKS[/** @type {keyof typeof RANKS} */ (spec.rank)] ?? { de: spec.rank, en: spec.rank };
  const word = game && game.ranks[spec.rank] !== undefined ? game.ranks[spec.rank] : null;
  return lang === "en" ? `${word ?? rank.en} of ${suit.en}` : `${suit.de} ${word ?? rank.de}`;
}

/**
 * A face-up card as an SVG string (viewBox 0 0 200 300, role="img", aria-label = the
 * German name, or the page's game's name in its language). The two copies of a french48
 * card give the same string.
 * @param {string} code
 * @param {"tarock"|"french48"|"german"} [pack] needed only for "HK", "HA", "SK" outside Tarock
 * @param {CardWords | null} [words] a game's words (default: the page's game's)
 * @returns {string}
 * @throws {Error} for an unknown code or pack
 */
export function cardSvg(code, pack = undefined, words = pageWords) {
  const spec = lookup(code, pack);
  const own = wordsFor(spec.pack, words);
  const name = cardName(code, own ? own.lang : "de", spec.pack, own);
  if (spec.suit === "T") {
    const n = Number(spec.rank);
    const word = artWord(spec, own);
    return svg(name, paper(TRUMP_PAPER) + trumpMiddle(n, word) + corners(trumpIndex(n, word)));
  }
  const suit = SUITS[spec.pack][spec.suit];
  let middle;
  if (spec.rank === "A") middle = ace(suit, spec.pack);
  else if (/^\d+$/.test(spec.rank)) middle = pips(suit, spec.rank);
  else middle = court(spec, suit);
  return svg(name, paper(PAPER) + middle + corners(suitIndex(spec, suit)));
}

/**
 * The back of every card: a green diamond lattice in a cream border with a gold star.
 * @returns {string}
 */
export function cardBackSvg() {
  const tiles = [];
  for (let row = 0; row < 12; row += 1) {
    for (let col = 0; col < 8; col += 1) {
      const x = 12 + 11 + col * 22;
      const y = 12 + 11.5 + row * 23;
      tiles.push(`M${x},${y - 10} L${x + 9.5},${y} L${x},${y + 10} L${x - 9.5},${y} Z`);
    }
  }
  const dots = [];
  for (let row = 0; row <= 12; row += 1) {
    for (let col = 0; col <= 8; col += 1) {
      if (row % 12 && col % 8) dots.push(`M${12 + col * 22},${12 + row * 23} m-2,0 a2,2 0 1,0 4,0 a2,2 0 1,0 -4,0`);
    }
  }
  const body =
    paper("#f4ecd8") +
    `<rect x="12" y="12" width="176" height="276" rx="6" fill="#173f2a"/>` +
    `<path d="${tiles.join(" ")}" fill="#2b6b47"/>` +
    `<path d="${dots.join(" ")}" fill="${GOLD}"/>` +
    `<rect x="12" y="12" width="176" height="276" rx="6" fill="none" stroke="${GOLD}" stroke-width="3"/>` +
    `<circle cx="100" cy="150" r="34" fill="#f4ecd8" stroke="${GOLD}" stroke-width="4"/>` +
    `<path d="${star(100, 150, 28, 12, 8)}" fill="${GOLD}" stroke="#8a1020" stroke-width="2" stroke-linejoin="round"/>` +
    `<circle cx="100" cy="150" r="7" fill="#8a1020"/>`;
  return svg("Kartenrücken", body);
}
