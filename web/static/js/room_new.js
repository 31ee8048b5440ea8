/**
 * Creating a room: the game's house-rule options are built from the registry data the page
 * embeds (the same as GET /api/games), one control per option with its explanation and its
 * default preselected; switching the game rebuilds them. The evening's rules (the game
 * description's `rules`) are listed with a control where an option sets the rule (that
 * option then stands with its rule only), and a rule's text follows its control.
 * The Tempo (live or correspondence, with its holiday days) is room-tempo.js's.
 * Submitting posts /api/rooms and goes to the new room.
 */

import { api, ApiError } from "./api.js";
import { STAKE_PATTERN, el, onSubmit, pageData, parseStake } from "./forms.js";
import { has, lang, money, t } from "./i18n.js";
import { tempoFields, watchTempo } from "./room-tempo.js";

/**
 * @typedef {{name: string, default: string|number|boolean, choices: (string|number|boolean)[],
 *            label?: string, help?: string, help_de: string, help_en: string}} Option
 * @typedef {{name: string, title: string, summary?: string, summary_de?: string, summary_en?: string,
 *            rounds: {min: number, max: number, default: number, unit?: string}, options: Option[],
 *            match_options?: Option[], rules?: {key: string, option: string|null}[],
 *            warnings?: {key: string, when: Record<string, string|number|boolean>}[],
 *            sheet?: {stake?: boolean}}} Game
 * (the game description: `label`, `help` and `summary` are catalogue keys where given;
 * `sheet.stake` false: the stake per point does not apply to the game)
 */

/** @type {Game[]} */
const games = pageData("games-data") || [];
const form = /** @type {HTMLFormElement} */ (document.getElementById("new-room-form"));
const gameSelect = /** @type {HTMLSelectElement} */ (document.getElementById("room-game"));
const fields = /** @type {HTMLElement} */ (document.getElementById("option-fields"));
const rounds = /** @type {HTMLInputElement} */ (document.getElementById("room-rounds"));
const ruleFields = /** @type {HTMLElement} */ (document.getElementById("rule-fields"));
const stakeField = /** @type {HTMLInputElement} */ (document.getElementById("room-stake"));
const stakeEcho = /** @type {HTMLElement} */ (document.getElementById("stake-echo"));
/** The stake's label, field and hints; and the line that says the stake does not apply. */
const stakeBox = document.getElementById("stake-field");
const stakeNotApplied = document.getElementById("stake-not-applied");
/** The highest stake per point, in cents (the server's limit). */
const MAX_STAKE_CENTS = 10_000;

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
 * @param {string} [kind] "option" (a house rule of the deal) or "matchOption" (of the evening)
 */
function optionField(game, option, kind = "option") {
  const id = (kind === "option" ? "opt-" : "mopt-") + option.name;
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
    for (const choice of ordered(option.choices)) {
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
  control.dataset[kind] = option.name;
  control.dataset.kind = typeof option.default;
  control.setAttribute("aria-describedby", help.id);
  return wrap;
}

/**
 * Choices in the order a person reads them: numbers from the smallest up (the game may
 * list its default first), other values as the game lists them.
 * @param {(string|number|boolean)[]} choices
 */
function ordered(choices) {
  if (!choices.every((choice) => typeof choice === "number")) return choices;
  return [...choices].sort((a, b) => Number(a) - Number(b));
}

/**
 * The options of `game` that a rule of its evening names: they stand with their rule,
 * not among the house rules.
 * @param {Game} game
 */
function ruledOptions(game) {
  return new Set((game.rules || []).map((rule) => rule.option).filter(Boolean));
}

/**
 * The text of a rule for the value its control has: the catalogue's wording for that
 * value (`<rule key>.<value>`, such as `….false` for a rule switched off) where there is
 * one, else the rule's own text.
 * @param {string} key
 * @param {HTMLInputElement | HTMLSelectElement | null} control
 */
function ruleText(key, control) {
  if (!control) return t(key);
  const value = control instanceof HTMLInputElement && control.type === "checkbox" ? String(control.checked) : control.value;
  return has(`${key}.${value}`) ? t(`${key}.${value}`) : t(key);
}

/**
 * The evening's rules of `game`, each with the control of the option that sets it (a
 * house rule of the deal or an option of the evening); its text follows the control.
 * Match options no rule names come last.
 * @param {Game} game
 */
function ruleItems(game) {
  const evening = game.match_options || [];
  const used = new Set();
  const items = (game.rules || []).map((rule) => {
    const item = el("li");
    item.dataset.rule = rule.key;
    const text = el("span", "rule-text", t(rule.key));
    item.append(text);
    const own = game.options.find((o) => o.name === rule.option);
    const option = own || evening.find((o) => o.name === rule.option);
    if (option) {
      used.add(option.name);
      const field = optionField(game, option, own ? "option" : "matchOption");
      item.append(field);
      const control = /** @type {HTMLInputElement | HTMLSelectElement} */ (field.querySelector("input, select"));
      const update = () => (text.textContent = ruleText(rule.key, control));
      control.addEventListener("change", update);
      update();
    }
    return item;
  });
  for (const option of evening) {
    if (used.has(option.name)) continue;
    const item = el("li");
    item.append(optionField(game, option, "matchOption"));
    items.push(item);
  }
  return items;
}

/**
 * The game's warnings (its description's `warnings`) whose option values are all chosen
 * now, shown under the evening's rules: e.g. a lost solo replayed without a cap.
 */
function showWarnings() {
  const box = document.getElementById("rule-warnings");
  if (!box) return;
  const chosen = { ...chosenOptions(), ...chosenOptions("matchOption") };
  const warnings = (currentGame().warnings || []).filter((warning) =>
    Object.entries(warning.when).every(([name, value]) => name in chosen && chosen[name] === value),
  );
  box.replaceChildren(...warnings.map((warning) => {
    const line = el("p", "form-warning", t(warning.key));
    line.dataset.warning = warning.key;
    return line;
  }));
  box.hidden = warnings.length === 0;
}

/** Rebuild the options, the rules, the summary and the rounds field for the chosen game. */
function showGame() {
  const game = currentGame();
  if (!game) return;
  const ruled = ruledOptions(game);
  const own = game.options.filter((option) => !ruled.has(option.name));
  fields.replaceChildren(...own.map((option) => optionField(game, option)));
  ruleFields.replaceChildren(...ruleItems(game));
  document.getElementById("room-rules").hidden = ruleFields.children.length === 0;
  document.getElementById("room-options").hidden = own.length === 0;
  const summary = document.getElementById("game-summary");
  if (summary) {
    const own = game.summary && has(game.summary) ? t(game.summary) : null;
    summary.textContent = own || (lang === "de" ? game.summary_de : game.summary_en) || "";
  }
  showStakeApplies(game);
  showWarnings();
  rounds.min = String(game.rounds.min);
  rounds.max = String(game.rounds.max);
  rounds.value = String(game.rounds.default);
  const roundsLabel = document.querySelector('label[for="room-rounds"]');
  if (roundsLabel) roundsLabel.textContent = t(game.rounds.unit === "deals" ? "new.deals" : "new.rounds");
  const hint = document.getElementById("rounds-hint");
  if (hint) {
    hint.textContent = t("new.rounds_hint", { min: game.rounds.min, max: game.rounds.max });
    if (game.rounds.min === 0) hint.textContent += " " + t("new.rounds_zero");
  }
}

/**
 * The chosen option values, typed like the defaults.
 * @param {string} [kind] "option" or "matchOption"
 */
function chosenOptions(kind = "option") {
  /** @type {Record<string, string|number|boolean>} */
  const options = {};
  const attr = kind === "option" ? "data-option" : "data-match-option";
  for (const control of form.querySelectorAll(`[${attr}]`)) {
    const input = /** @type {HTMLInputElement} */ (control);
    const name = input.dataset[kind] || "";
    if (input.dataset.kind === "boolean") options[name] = input.checked;
    else if (input.dataset.kind === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

/**
 * Whether the room's stake per point applies to `game` (its description's `sheet.stake`;
 * a game whose evening is paid otherwise, such as into a Depot, says false).
 * @param {Game | undefined} game
 * @returns {boolean}
 */
function stakeApplies(game) {
  return !(game && game.sheet && game.sheet.stake === false);
}

/**
 * The stake field for a game it applies to; else, in its place, the line that says it
 * does not apply (the field is disabled and not sent).
 * @param {Game} game
 */
function showStakeApplies(game) {
  const applies = stakeApplies(game);
  if (stakeBox) stakeBox.hidden = !applies;
  if (stakeNotApplied) stakeNotApplied.hidden = applies;
  stakeField.disabled = !applies;
}

/**
 * The stake field read as cents, or the text that says what is wrong with it.
 * @returns {{cents: number, problem: null} | {cents: null, problem: string}}
 */
function readStake() {
  const cents = parseStake(stakeField.value);
  if (cents === null) return { cents: null, problem: t("new.bad_stake") };
  if (cents > MAX_STAKE_CENTS) {
    return { cents: null, problem: t("new.stake_too_high", { stake: money(MAX_STAKE_CENTS) }) };
  }
  return { cents, problem: null };
}

/** Under the stake field, the amount as it will count ("= 0,20 € pro Punkt") or why not. */
function showStake() {
  const { cents, problem } = readStake();
  stakeEcho.textContent = problem ?? t("new.stake_echo", { stake: money(cents) });
  stakeEcho.classList.toggle("form-error", problem !== null);
  stakeField.setAttribute("aria-invalid", String(problem !== null));
}

stakeField.pattern = STAKE_PATTERN;
stakeField.addEventListener("input", showStake);
showStake();
gameSelect.addEventListener("change", showGame);
form.addEventListener("change", (event) => {
  if (event.target !== gameSelect) showWarnings();
});
showGame();
watchTempo(form);

onSubmit(form, async (values) => {
  const roundCount = Number(values.rounds);
  const applies = stakeApplies(currentGame());
  const { problem } = readStake();
  if (applies && problem !== null) {
    stakeField.focus();
    throw new ApiError("bad_stake", problem, 0);
  }
  if (!Number.isInteger(roundCount) || values.rounds === "") {
    const deals = currentGame().rounds.unit === "deals";
    throw new ApiError("bad_rounds", t(deals ? "new.bad_deals" : "new.bad_rounds"), 0);
  }
  const tempo = tempoFields(values);
  const room = await api("POST", "/api/rooms", {
    name: values.name,
    game: values.game,
    options: chosenOptions(),
    match_options: chosenOptions("matchOption"),
    next_deal_pause_seconds: Number(values.pause || 0),
    // how long a computer player waits before its move: "least-most" milliseconds
    computer_pause_ms: (values.computer_pace || "800-1500").split("-").map(Number),
    // a game without a stake per point: the room stores none
    stake: applies ? values.stake : "0",
    rounds: roundCount,
    timer_seconds: values.timer ? Number(values.timer) : null,
    allow_spectators: form.allow_spectators.checked,
    // the stand-in ("Vertretung"): on or off, its level, the seconds offline before it plays
    standin: form.standin.checked,
    standin_level: values.standin_level || "einsteiger",
    standin_delay_seconds: Number(values.standin_delay || 60),
    // correspondence only: the time per move and the holiday days (live: the defaults)
    ...tempo,
  });
  location.assign(`/rooms/${room.id}`);
});
