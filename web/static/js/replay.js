/**
 * The replay viewer of the archive: one deal step by step (docs/api.md, the REPLAY object
 * of /api/history/deals/{id}/replay and POST /api/records/replay). Every hand is open, the
 * current trick lies in the middle with its winner marked, each seat shows its running
 * card points, and a line says in words what happened at this step ("Anna: Zweier",
 * "Bernd spielt Herz König"). At the last step the final count and what each person got:
 * the points and money of the deal's ledger (`source.ledger`) for a stored deal, the
 * seats' points for an uploaded record.
 *
 * Steps: buttons ⏮ ◀ ▶ ⏭, the keys ← → Home End, and a selector that jumps to the end of
 * a trick. On the deal page the position is kept in the URL hash (`#step=N`) so that a
 * link opens the same position for the room's other members.
 *
 * Everything is built with DOM nodes and textContent; the only innerHTML is the card art
 * of cards.js, which is made from card codes, never from user text.
 */

import { ApiError, api } from "./api.js";
import { cardBackSvg, cardSvg } from "./cards.js";
import { computerMark, computersOnPage, markLedgerRows } from "./computer-mark.js";
import { standinMark, standinStepsOnPage } from "./standin.js";
import { el } from "./forms.js";
import { loadGame } from "./game-info.js";
import { has, phaseName, t } from "./i18n.js";
import { dealReasonText, ledgerColumns, ledgerTable, potMoveText } from "./ledger.js";
import {
  CARD_VERBS,
  actionGroup,
  actionLabel,
  infoLines,
  nameOf,
  outcomeSummary,
  seatBadges,
} from "./table-games.js";
import { signed } from "./table-sheet.js";

/**
 * The step named by a URL hash "#step=N", or null.
 * @param {string} hash
 * @returns {number | null}
 */
export function stepFromHash(hash) {
  const match = /(?:^#|&)step=(\d{1,6})(?:&|$)/.exec(hash);
  return match ? Number(match[1]) : null;
}

/**
 * What happened at a step, in words: "Die Karten sind gegeben", "Anna: Zweier",
 * "Bernd spielt Herz König".
 * @param {any} replay
 * @param {any} step
 * @param {string} pack the game's card pack
 * @returns {string}
 */
export function stepText(replay, step, pack) {
  if (step.actor === null || step.actor === undefined || !step.action) {
    return t("archive.step.dealt", { dealer: replay.dealer });
  }
  const player = replay.seats[step.actor];
  const [verb, arg] = String(step.action).split(" ");
  if (CARD_VERBS.includes(verb) && arg) {
    // Actions of a pack with two copies name the kind ("play CA"); nameOf names its cards.
    const card = nameOf(arg, pack);
    return t(`archive.step.${verb}`, { player, card });
  }
  if (verb === "takeback") {
    // the card taken back is the one played at the step before
    const before = (replay.steps || [])[step.index - 1];
    const played = before ? String(before.action || "").split(" ")[1] : "";
    if (played) return t("archive.step.takeback", { player, card: nameOf(played, pack) });
  }
  return t("archive.step.call", { player, action: actionLabel(step.action, replay.game, pack) });
}

/** Where a seat sits around the board: seat 0 at the bottom, then around the table. */
function position(/** @type {number} */ seat, /** @type {number} */ n, /** @type {boolean} */ clockwise) {
  if (seat === 0) return "bottom";
  if (n === 3) return (seat === 1) === clockwise ? "left" : "right";
  if (seat === 2) return "top";
  return (seat === 1) === clockwise ? "left" : "right";
}

/**
 * One card face as an element (small on phones; CSS decides the size). An empty code is a
 * card nobody at the table could see (the spectator's view hides it, as a card laid face
 * down): its back is shown, as the table shows it.
 * @param {string | null | undefined} code
 * @param {string} pack
 * @returns {HTMLElement}
 */
export function cardNode(code, pack) {
  const node = el("div", "card");
  node.setAttribute("role", "img");
  if (!code) {
    node.classList.add("card-back");
    node.innerHTML = cardBackSvg(); // drawn by cards.js, no user text
    node.setAttribute("title", t("archive.replay.card_back"));
    node.setAttribute("aria-label", t("archive.replay.card_back"));
    return node;
  }
  // The SVG strings are built by cards.js from card codes only, never from user text.
  node.innerHTML = cardSvg(code, pack);
  node.dataset.card = code;
  node.setAttribute("title", nameOf(code, pack));
  node.setAttribute("aria-label", nameOf(code, pack));
  return node;
}

/**
 * @typedef {object} ViewerOptions
 * @property {boolean} [useHash] keep the position in the URL hash (deal pages)
 * @property {string} [download] URL of the deal record download (stored deals)
 * @property {string} [matchLink] URL of the match's sheet page (stored deals)
 * @property {import("./game-info.js").Game} [game] the loaded game (else loaded here)
 */

/**
 * Show `replay` in the viewer element `root` (the template's `#viewer`) and return a
 * function that moves to a step (for tests and other modules).
 * @param {HTMLElement} root
 * @param {any} replay the REPLAY object
 * @param {ViewerOptions} [options]
 * @returns {Promise<{go: (index: number) => void, current: () => number, destroy: () => void}>}
 */
export async function mountReplay(root, replay, options = {}) {
  const game = options.game || (await loadGame(replay.game));
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector("#" + id));
  const steps = replay.steps || [];
  const last = Math.max(0, steps.length - 1);
  const n = replay.seats.length;
  const pack = game.pack;
  const clockwise = game.clockwise;
  const name = (/** @type {number} */ seat) => replay.seats[seat] ?? "?";
  // the computer players of the match (an uploaded record names none)
  const computers = computersOnPage();
  // the steps a stand-in played for an absent person: the archive's page names them, an
  // uploaded record in its `stood_in` (the replay's steps)
  const standins = new Set([...standinStepsOnPage(), ...(replay.stood_in || [])]);
  /** step index → trick that it completes */
  const completes = new Map((replay.tricks || []).map((/** @type {any} */ tr) => [tr.step, tr]));
  let index = 0;

  root.hidden = false;
  root.dataset.game = replay.game;
  root.classList.toggle("four", n === 4);
  $("replay-title").textContent = replay.source
    ? t("archive.replay.deal_title", { game: replay.game_title || replay.game, n: replay.source.number })
    : t("archive.replay.upload_title", { game: replay.game_title || replay.game });
  $("replay-meta").textContent = t("archive.replay.meta", {
    players: replay.seats.join(", "),
    dealer: replay.dealer,
  });

  // The seats: name, badges, card points and tricks, the open hand.
  const board = $("replay-board");
  board.querySelectorAll(".replay-seat").forEach((node) => node.remove());
  /** @type {HTMLElement[]} */
  const seatNodes = replay.seats.map((/** @type {string} */ player, /** @type {number} */ seat) => {
    const box = el("section", `replay-seat seat-at-${position(seat, n, clockwise)}`);
    box.dataset.seat = String(seat);
    const head = el("div", "replay-seat-head");
    head.append(el("span", "replay-seat-name", player));
    if (computers[player]) head.append(computerMark(computers[player]));
    const label = game.seatLabel(seat);
    if (label) head.append(el("span", "seat-label muted", label));
    if (player === replay.dealer) head.append(el("span", "tag", t("archive.replay.dealer")));
    const badges = el("span", "replay-badges");
    head.append(badges);
    const score = el("div", "replay-seat-score");
    box.append(head, score, el("div", "replay-hand"));
    box.setAttribute("aria-label", t("archive.replay.hand_of", { player }));
    board.append(box);
    return box;
  });

  // The trick selector: "Stich 3 · Bernd" jumps to the step that completed trick 3.
  const select = /** @type {HTMLSelectElement} */ ($("trick-select"));
  select.replaceChildren(el("option", "", t("archive.replay.jump_choose")));
  /** @type {HTMLOptionElement} */ (select.firstChild).value = "";
  for (const trick of replay.tricks || []) {
    const option = /** @type {HTMLOptionElement} */ (
      el("option", "", t("archive.replay.trick_option", { n: trick.number, player: name(trick.winner) }))
    );
    option.value = String(trick.number);
    select.append(option);
  }
  select.disabled = !(replay.tricks || []).length;
  select.onchange = () => {
    const trick = (replay.tricks || []).find((/** @type {any} */ tr) => String(tr.number) === select.value);
    if (trick) go(trick.step);
    select.blur(); // so that the arrow keys step again instead of changing the trick
  };

  const buttons = {
    first: /** @type {HTMLButtonElement} */ ($("step-first")),
    prev: /** @type {HTMLButtonElement} */ ($("step-prev")),
    next: /** @type {HTMLButtonElement} */ ($("step-next")),
    last: /** @type {HTMLButtonElement} */ ($("step-last")),
  };
  buttons.first.onclick = () => go(0);
  buttons.prev.onclick = () => go(index - 1);
  buttons.next.onclick = () => go(index + 1);
  buttons.last.onclick = () => go(last);

  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    const to = moves[/** @type {keyof typeof moves} */ (event.key)];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  };
  document.addEventListener("keydown", onKey);
  const onHash = () => {
    const wanted = stepFromHash(location.hash);
    if (wanted !== null && wanted !== index) go(wanted, false);
  };
  if (options.useHash) window.addEventListener("hashchange", onHash);

  const download = /** @type {HTMLAnchorElement} */ ($("download-deal"));
  download.hidden = !options.download;
  if (options.download) download.href = options.download;
  const copy = $("copy-link");
  copy.hidden = !options.useHash;
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $("copy-feedback").textContent = t("archive.replay.copied");
    } catch {
      $("copy-feedback").textContent = location.href;
    }
  };

  /**
   * Show step `to` (clamped to the deal).
   * @param {number} to
   * @param {boolean} [writeHash]
   */
  function go(to, writeHash = true) {
    index = Math.max(0, Math.min(last, Math.round(to) || 0));
    render();
    if (options.useHash && writeHash) {
      history.replaceState(null, "", `${location.pathname}${location.search}#step=${index}`);
    }
  }

  function render() {
    const step = steps[index];
    if (!step) return;
    root.dataset.step = String(index);
    $("step-counter").textContent = t("archive.replay.counter", { n: index, total: last });
    let text = stepText(replay, step, pack);
    const done = completes.get(index);
    if (done) text += " – " + t("archive.replay.trick_to", { n: done.number, player: name(done.winner) });
    $("step-text").textContent = text;
    if (standins.has(index)) $("step-text").append(" ", standinMark(name(step.actor)));
    buttons.first.disabled = buttons.prev.disabled = index === 0;
    buttons.next.disabled = buttons.last.disabled = index === last;
    renderSeats(step);
    renderTrick(step);
    renderInfo(step);
    renderResult(step);
    const playing = step.phase === "play" || step.phase === "finished";
    select.value = playing && (replay.tricks || []).length ? String(step.trick_number) : "";
  }

  /** @param {any} step */
  function renderSeats(step) {
    seatNodes.forEach((box, seat) => {
      box.classList.toggle("to-move", step.to_move === seat && step.phase !== "finished");
      box.classList.toggle("acted", step.actor === seat);
      const badges = /** @type {HTMLElement} */ (box.querySelector(".replay-badges"));
      badges.replaceChildren(...seatBadges(game, openView(step), seat).map((b) => el("span", "tag", b)));
      const score = /** @type {HTMLElement} */ (box.querySelector(".replay-seat-score"));
      const points = step.card_points ? step.card_points[seat] : "0";
      const tricks = step.tricks_won ? step.tricks_won[seat] : 0;
      score.replaceChildren(
        el("span", "card-points", t("archive.replay.card_points", { points })),
        el("span", "", t("archive.replay.tricks", { n: tricks })),
      );
      const hand = /** @type {HTMLElement} */ (box.querySelector(".replay-hand"));
      const cards = (step.hands && step.hands[seat]) || [];
      hand.replaceChildren(...cards.map((/** @type {string} */ code) => cardNode(code, pack)));
      if (!cards.length) hand.append(el("span", "muted", t("archive.replay.no_cards")));
    });
  }

  /**
   * The spectator's view of a step with what the replay knows besides (the game module's
   * `replayView`: such as every seat's real party, which the table learns only later).
   * @param {any} step
   */
  function openView(step) {
    const view = { ...(step.public || { seats: replay.seats }), game: replay.game };
    return game.module.replayView ? game.module.replayView(view, step) : view;
  }

  /** @param {any} step */
  function renderTrick(step) {
    const target = $("replay-trick");
    target.replaceChildren();
    let trick = step.trick && step.trick.cards && step.trick.cards.length ? step.trick : null;
    let collected = false;
    if (!trick && step.last_trick && (step.phase === "play" || step.phase === "finished")) {
      trick = step.last_trick; // the finished trick stays until the next lead
      collected = true;
    }
    target.classList.toggle("collected", collected);
    target.classList.toggle("empty", !trick);
    target.classList.toggle("four", n === 4);
    if (!trick) {
      target.append(el("p", "trick-caption", t("archive.replay.no_trick")));
      return;
    }
    trick.cards.forEach((/** @type {string} */ code, /** @type {number} */ i) => {
      const seat = (trick.leader + i) % n;
      const slot = el("div", `slot slot-${position(seat, n, clockwise)}`);
      const card = cardNode(code, pack);
      if (collected && trick.winner === seat) card.classList.add("winner");
      slot.append(card, el("span", "slot-name", name(seat)));
      target.append(slot);
    });
    if (collected && trick.winner !== null && trick.winner !== undefined) {
      const caption = el("p", "trick-caption trick-winner", t("table.trick_to", { player: name(trick.winner) }));
      target.append(caption);
    }
  }

  /** @param {any} step */
  function renderInfo(step) {
    const box = $("replay-info");
    box.replaceChildren();
    const view = { ...(step.public || {}), game: replay.game };
    const line = (/** @type {string} */ text, /** @type {string[]} */ cards = []) => {
      const p = el("div", "info-line");
      p.append(el("span", "", text));
      if (cards.length) {
        const row = el("span", "mini-cards");
        for (const code of cards) row.append(cardNode(code, pack));
        p.append(row);
      }
      box.append(p);
    };
    line(t("archive.replay.phase", { phase: phaseName(replay.game, step.phase) }));
    // The calls (auction, Vorbehalte) as they were said.
    const calls = steps
      .slice(1, index + 1)
      .filter((/** @type {any} */ s) => isCall(game, s.action))
      .map((/** @type {any} */ s) => `${name(s.actor)}: ${actionLabel(s.action, replay.game, pack)}`);
    if (calls.length) line(t("archive.replay.calls", { calls: calls.join(", ") }));
    // The talon is shown below from the replay itself (the spectator's view hides it).
    for (const info of infoLines(game, view, name)) {
      if (info.hidden) continue;
      line(info.text, info.cards || (info.choices || []).flatMap((c) => c.cards));
    }
    // The cards not in a hand, in the game's own word where its catalogue has one
    // (`archive.replay.talon.<game>`: Talon, Blinder, Stock); said as they are now, not as
    // a player at the table saw them (face down or turned up).
    if (step.talon && step.talon.length) {
      const own = `archive.replay.talon.${replay.game}`;
      line(has(own) ? t(own) : t("archive.replay.talon"), step.talon);
    }
    const extra = step.replay || {};
    const discards = Array.isArray(extra.discards)
      ? extra.discards
      : steps
          .slice(1, index + 1)
          .filter((/** @type {any} */ s) => String(s.action || "").startsWith("discard "))
          .map((/** @type {any} */ s) => String(s.action).split(" ")[1]);
    if (discards.length) line(t("archive.replay.discards"), discards);
    // The running count per party: the game module words its own parties
    // (`replayParty`); else the declarer's side against the opponents.
    const party = step.party_points;
    const own = party && game.module.replayParty ? game.module.replayParty(party, name, game.ctx) : null;
    if (own) line(own);
    else if (party && party.declarer !== undefined) line(t("archive.replay.party_declarer", party));
    if (game.module.replayLines) {
      for (const text of game.module.replayLines(view, name, game.ctx)) line(text);
    }
  }

  /** @param {any} step */
  function renderResult(step) {
    const box = $("replay-result");
    const finished = index === last && step.phase === "finished" && replay.outcome;
    box.hidden = !finished;
    if (!finished) return;
    const summary = outcomeSummary(game, { game: replay.game, outcome: replay.outcome }, name);
    $("result-head").textContent = summary.title;
    const list = $("result-lines");
    list.replaceChildren(...summary.lines.map((text) => el("li", "", text)));
    const table = $("result-settlement");
    table.replaceChildren();
    // A stored deal: each person's points and money as the match's ledger wrote them
    // (the sitting-out dealer and every factor included, the pots in words). An uploaded
    // record has no match: its seats' points only, and no money.
    const ledger = replay.source && replay.source.ledger && Array.isArray(replay.source.ledger.entries)
      ? replay.source.ledger
      : null;
    const moved = $("result-pots");
    moved.replaceChildren();
    if (ledger) {
      for (const reason of ledger.reasons || []) list.append(el("li", "ledger-deal", dealReasonText(reason)));
      const shown = markLedgerRows(
        ledgerTable(ledger, ledgerColumns(ledger, game.info.sheet, Boolean(replay.stake_cents))),
        computers,
      );
      table.className = shown.className;
      table.replaceChildren(...shown.childNodes);
      moved.hidden = true;
      return;
    }
    table.className = "settlement";
    for (const row of summary.settlement) {
      const tr = el("tr");
      tr.append(el("td", "", row.player), el("td", "num " + (row.points >= 0 ? "up" : "down"), signed(row.points)));
      table.append(tr);
    }
    const pots = (replay.source && replay.source.pots) || [];
    moved.hidden = !pots.length;
    for (const pot of pots) moved.append(el("li", "", potMoveText(pot.player, pot)));
  }

  const wanted = options.useHash ? stepFromHash(location.hash) : null;
  go(wanted ?? 0, false);

  return {
    go,
    current: () => index,
    destroy: () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", onHash);
    },
  };
}

/**
 * Whether an action is a call (auction, Vorbehalt) shown in the calls line: the game
 * module's `isCall`, else every action that is no card action and in no labelled group
 * (announcements have their own line).
 * @param {import("./game-info.js").Game} game
 * @param {string | null} action
 * @returns {boolean}
 */
function isCall(game, action) {
  if (!action) return false;
  if (game.module.isCall) return game.module.isCall(action);
  const verb = action.split(" ")[0];
  return !CARD_VERBS.includes(verb) && !actionGroup(game, action).key;
}

/** The deal page: load the replay of `#viewer[data-deal]` and show it. */
async function startDealPage() {
  const root = document.getElementById("viewer");
  const status = document.getElementById("replay-status");
  if (!root || !root.dataset.deal || !status) return;
  const deal = root.dataset.deal;
  try {
    const replay = await api("GET", `/api/history/deals/${encodeURIComponent(deal)}/replay`);
    status.hidden = true;
    await mountReplay(root, replay, { useHash: true, download: `/api/history/deals/${encodeURIComponent(deal)}/record` });
  } catch (error) {
    status.className = "form-error";
    status.setAttribute("role", "alert");
    if (error instanceof ApiError) {
      status.textContent = error.code === "deal_running" ? t("archive.replay.running") : error.message;
    } else {
      status.textContent = t("error.unknown");
      console.error(error);
    }
  }
}

startDealPage();
