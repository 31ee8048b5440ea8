/**
 * A line chart of the running totals over an evening, as an SVG built from DOM nodes
 * (no library, no innerHTML): one line per player in its own colour and dash pattern,
 * the player's name and last value at the end of each line, and a legend below. Its
 * <title> and <desc> say in words what it shows, for screen readers.
 *
 * The SVG is drawn at the width of its box, so the text stays readable on a 360 px phone;
 * it is drawn again when the width changes. Every label stays inside the drawing: the
 * margins are measured from the labels as the browser sets them (the end labels on the
 * right, the values on the left) and the end labels are kept between the top and the
 * bottom of the plot.
 */

import { el } from "./forms.js";
import { t } from "./i18n.js";

/** A number as every sheet writes it: a negative one with the minus sign (−32), never a
 * hyphen. */
const num = (/** @type {number} */ n) => (n < 0 ? `−${-n}` : String(n));

const SVG = "http://www.w3.org/2000/svg";

/** Player colours: distinct in light and dark mode and for the common colour blindness. */
export const PLAYER_COLOURS = ["#1f77b4", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#a6761d", "#666666"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3"];

/**
 * @typedef {object} Series
 * @property {string[]} labels x labels: "0" (the start), then one per deal
 * @property {Record<string, number[]>} players running total per player, start first
 */

/**
 * A new SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/**
 * Round tick values between `low` and `high` (about `count` of them).
 * @param {number} low
 * @param {number} high
 * @param {number} count
 * @returns {number[]}
 */
export function niceTicks(low, high, count = 5) {
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const raw = (high - low) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  const ticks = [];
  for (let v = Math.floor(low / step) * step; v <= high + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

/**
 * Draw the running totals of `series` into `target` (replacing its content).
 * @param {HTMLElement} target
 * @param {Series} series
 * @param {{title?: string}} [options]
 */
export function renderChart(target, series, options = {}) {
  const draw = () => drawChart(target, series, options);
  draw();
  let width = target.clientWidth;
  if (typeof ResizeObserver !== "undefined" && !target.dataset.observed) {
    target.dataset.observed = "1";
    new ResizeObserver(() => {
      if (Math.abs(target.clientWidth - width) > 8) {
        width = target.clientWidth;
        draw();
      }
    }).observe(target);
  }
}

/** The space an end label keeps from the line's end, and every label from the edge. */
const LABEL_GAP = 8;
const EDGE = 4;
/** The distance of two end labels' baselines, and of a label's baseline from its top. */
const LINE_STEP = 14;
const ASCENT = 11;

/**
 * The margins the labels of `svg` need: the right one for the end labels, the left one
 * for the values of the y axis (0 where the browser set no text, e.g. in a hidden box).
 * @param {SVGElement} svg
 * @returns {{left: number, right: number}}
 */
function neededMargins(svg) {
  const widest = (/** @type {string} */ selector) =>
    Math.max(0, ...[...svg.querySelectorAll(selector)].map((node) => /** @type {SVGTextElement} */ (node).getBBox().width));
  const ends = widest(".chart-end");
  const values = widest(".chart-value");
  return {
    right: ends ? Math.ceil(ends) + LABEL_GAP + EDGE : 0,
    left: values ? Math.ceil(values) + 6 + EDGE : 0,
  };
}

/**
 * @param {HTMLElement} target
 * @param {Series} series
 * @param {{title?: string}} options
 * @param {{left: number, right: number}} [measured] the margins the labels need, once known
 */
function drawChart(target, series, options, measured) {
  target.replaceChildren();
  const names = Object.keys((series && series.players) || {});
  const labels = (series && series.labels) || [];
  if (!names.length || labels.length < 2) {
    target.append(el("p", "hint", t("archive.chart.empty")));
    return;
  }
  // as wide as its box (never wider: a wider drawing would be cut or shrunk)
  const width = Math.max(200, Math.min(target.clientWidth || 360, 900));
  const height = width < 500 ? 220 : 300;
  const longest = Math.max(...names.map((n) => Math.min(n.length, 10)));
  const margin = {
    top: 12,
    right: measured ? measured.right : Math.min(140, 14 + (longest + 7) * 7),
    bottom: 30,
    left: measured ? measured.left : 40,
  };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const values = names.flatMap((n) => series.players[n]);
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values), height < 250 ? 4 : 6);
  const low = ticks[0];
  const high = ticks[ticks.length - 1];
  const x = (/** @type {number} */ i) => margin.left + (plotW * i) / (labels.length - 1);
  const y = (/** @type {number} */ v) => margin.top + plotH - (plotH * (v - low)) / (high - low || 1);

  const title = options.title || t("archive.chart.title");
  const uid = `chart-${Math.random().toString(36).slice(2, 8)}`;
  const svg = svgEl("svg", {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-labelledby": `${uid}-title ${uid}-desc`,
    class: "chart-svg",
  });
  const titleNode = svgEl("title", { id: `${uid}-title` });
  titleNode.textContent = title;
  const desc = svgEl("desc", { id: `${uid}-desc` });
  desc.textContent = t("archive.chart.desc", {
    deals: labels.length - 1,
    totals: names.map((n) => `${n} ${num(last(series.players[n]))}`).join(", "),
  });
  svg.append(titleNode, desc);

  // Grid and y axis.
  const grid = svgEl("g", { class: "chart-grid" });
  for (const tick of ticks) {
    grid.append(
      svgEl("line", {
        x1: margin.left,
        x2: margin.left + plotW,
        y1: y(tick),
        y2: y(tick),
        class: tick === 0 ? "zero" : "",
      }),
    );
    const label = svgEl("text", { x: margin.left - 6, y: y(tick) + 4, "text-anchor": "end", class: "chart-value" });
    label.textContent = num(tick);
    grid.append(label);
  }
  // x labels: the deal numbers, thinned out so they do not touch.
  const every = Math.max(1, Math.ceil((labels.length * 22) / plotW));
  labels.forEach((text, i) => {
    if (i % every && i !== labels.length - 1) return;
    const label = svgEl("text", { x: x(i), y: margin.top + plotH + 18, "text-anchor": "middle" });
    label.textContent = text;
    grid.append(label);
  });
  svg.append(grid);

  // One line per player, with a dot and its name at the end.
  /** @type {{name: string, y: number, colour: string, value: number}[]} */
  const ends = [];
  names.forEach((name, p) => {
    const colour = PLAYER_COLOURS[p % PLAYER_COLOURS.length];
    const points = series.players[name].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const line = svgEl("polyline", {
      points,
      fill: "none",
      stroke: colour,
      "stroke-width": 2.5,
      "stroke-linejoin": "round",
      "stroke-linecap": "round",
      class: "chart-line",
    });
    if (DASHES[p % DASHES.length]) line.setAttribute("stroke-dasharray", DASHES[p % DASHES.length]);
    line.dataset.player = name;
    svg.append(line);
    const value = last(series.players[name]);
    svg.append(svgEl("circle", { cx: x(labels.length - 1), cy: y(value), r: 4, fill: colour }));
    ends.push({ name, y: y(value), colour, value });
  });
  // End labels, pushed apart so that equal totals do not print on top of each other.
  // Their baselines lie between the top of the drawing (plus the letters' height) and the
  // bottom of the plot: pushed down from the top, then up from the bottom where needed.
  ends.sort((a, b) => a.y - b.y);
  const top = EDGE + ASCENT - 4;
  const bottom = margin.top + plotH + 4;
  ends.forEach((end, i) => (end.y = Math.max(end.y, i ? ends[i - 1].y + LINE_STEP : top)));
  for (let i = ends.length - 1; i >= 0; i -= 1) {
    const limit = i === ends.length - 1 ? bottom : ends[i + 1].y - LINE_STEP;
    ends[i].y = Math.max(top, Math.min(ends[i].y, limit));
  }
  for (const end of ends) {
    const label = svgEl("text", { x: margin.left + plotW + LABEL_GAP, y: end.y + 4, fill: end.colour, class: "chart-end" });
    label.textContent = `${short(end.name)} ${num(end.value)}`;
    svg.append(label);
  }
  target.append(svg);
  if (!measured) {
    // Drawn once with an estimate; drawn again where the labels need other margins.
    const need = neededMargins(svg);
    if (need.right && (need.right > margin.right || need.left > margin.left)) {
      drawChart(target, series, options, {
        right: Math.max(need.right, margin.right),
        left: Math.max(need.left, margin.left),
      });
      return;
    }
  }

  const legend = el("ul", "chart-legend");
  names.forEach((name, p) => {
    const item = el("li");
    const swatch = el("span", "swatch");
    swatch.style.background = PLAYER_COLOURS[p % PLAYER_COLOURS.length];
    item.append(swatch, el("span", "", `${name}: ${num(last(series.players[name]))}`));
    legend.append(item);
  });
  target.append(legend);
}

/** @param {number[]} list */
function last(list) {
  return list.length ? list[list.length - 1] : 0;
}

/** A name cut to ten characters for the end labels (the legend has it whole). */
function short(/** @type {string} */ name) {
  return name.length > 10 ? name.slice(0, 9) + "…" : name;
}
