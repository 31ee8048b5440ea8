/**
 * Creating a room: the game's house-rule options are built from the registry data the page
 * embeds (the same as GET /api/games), one control per option with its explanation and its
 * default preselected; switching the game rebuilds them. Submitting posts /api/rooms and
 * goes to the new room.
 */

import { api, ApiError } from "./api.js";
import { el, onSubmit, pageData } from "./forms.js";
import { has, lang, t } from "./i18n.js";

/**
 * @typedef {{name: string, default: string|number|boolean, choices: (string|number|boolean)[],
 *            label?: string, help?: string, help_de: string, help_en: string}} Option
 * @typedef {{name: string, title: string, summary?: string, summary_de?: string, summary_en?: string,
 *            rounds: {min: number, max: number, default: number}, options: Option[]}} Game
 * (the game description: `label`, `help` and `summary` are catalogue keys where given)
 */

/** @type {Game[]} */
const games = pageData("games-data") || [];
const form = /** @type {HTMLFormElement} */ (document.getElementById("new-room-form"));
const gameSelect = /** @type {HTMLSelectElement} */ (document.getElementById("room-game"));
const fields = /** @type {HTMLElement} */ (document.getElementById("option-fields"));
const rounds = /** @type {HTMLInputElement} */ (document.getElementById("room-rounds"));

/**
 * The label of an option, or of one of its values, where the catalogue has one.
 * @param {string} key
 * @param {string} fallback
 */
function label(key, fallback) {
  return has(key) ? t(key) : fallback;
}

/** @returns {Game} */
function currentGame() {
  return games.find((game) => game.name === gameSelect.value) || games[0];
}

/**
 * One control for `option` of `game`: a checkbox for yes/no, a select for a choice,
 * a number field for a free integer.
 * @param {Game} game
 * @param {Option} option
 */
function optionField(game, option) {
  const id = "opt-" + option.name;
  const key = option.label && has(option.label) ? option.label : `opt.${game.name}.${option.name}`;
  const wrap = el("div", "option");
  const title = el("label", undefined, label(key, option.name));
  title.htmlFor = id;
  const help = el("p", "hint", option.help && has(option.help) ? t(option.help) : lang === "de" ? option.help_de : option.help_en);
  help.id = id + "-help";
  let control;
  if (typeof option.default === "boolean") {
    control = document.createElement("input");
    control.type = "checkbox";
    control.checked = option.default;
    wrap.classList.add("check");
    wrap.append(control, title, help);
  } else if (option.choices.length) {
    control = document.createElement("select");
    for (const choice of option.choices) {
      const old = `opt.${game.name}.${option.name}.${choice}`;
      const item = el("option", undefined, label(`${key}.${choice}`, label(old, String(choice))));
      item.setAttribute("value", String(choice));
      item.selected = choice === option.default;
      control.append(item);
    }
    wrap.append(title, control, help);
  } else {
    control = document.createElement("input");
    control.type = "number";
    control.step = "1";
    control.value = String(option.default);
    wrap.append(title, control, help);
  }
  control.id = id;
  control.dataset.option = option.name;
  control.dataset.kind = typeof option.default;
  control.setAttribute("aria-describedby", help.id);
  return wrap;
}

/** Rebuild the options, the summary and the rounds field for the chosen game. */
function showGame() {
  const game = currentGame();
  if (!game) return;
  fields.replaceChildren(...game.options.map((option) => optionField(game, option)));
  document.getElementById("room-options").hidden = game.options.length === 0;
  const summary = document.getElementById("game-summary");
  if (summary) {
    const own = game.summary && has(game.summary) ? t(game.summary) : null;
    summary.textContent = own || (lang === "de" ? game.summary_de : game.summary_en) || "";
  }
  rounds.min = String(game.rounds.min);
  rounds.max = String(game.rounds.max);
  rounds.value = String(game.rounds.default);
  const hint = document.getElementById("rounds-hint");
  if (hint) {
    hint.textContent = t("new.rounds_hint", { min: game.rounds.min, max: game.rounds.max });
    if (game.rounds.min === 0) hint.textContent += " " + t("new.rounds_zero");
  }
}

/** The chosen option values, typed like the defaults. */
function chosenOptions() {
  /** @type {Record<string, string|number|boolean>} */
  const options = {};
  for (const control of fields.querySelectorAll("[data-option]")) {
    const input = /** @type {HTMLInputElement} */ (control);
    const name = input.dataset.option || "";
    if (input.dataset.kind === "boolean") options[name] = input.checked;
    else if (input.dataset.kind === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

gameSelect.addEventListener("change", showGame);
showGame();

onSubmit(form, async (values) => {
  const stake = Number(String(values.stake).replace(",", "."));
  const roundCount = Number(values.rounds);
  if (!Number.isFinite(stake) || values.stake === "") {
    throw new ApiError("bad_stake", t("new.bad_stake"), 0);
  }
  if (!Number.isInteger(roundCount) || values.rounds === "") {
    throw new ApiError("bad_rounds", t("new.bad_rounds"), 0);
  }
  const room = await api("POST", "/api/rooms", {
    name: values.name,
    game: values.game,
    options: chosenOptions(),
    stake_cents: Math.round(stake * 100),
    rounds: roundCount,
    timer_seconds: values.timer ? Number(values.timer) : null,
    allow_spectators: form.allow_spectators.checked,
  });
  location.assign(`/rooms/${room.id}`);
});
