"""A game's client module (``web/static/js/games/<game>.js``) run for real in node over the
views the engine gives while a golden record replays, with a catalogue of the page's
language: what the table would say, for tests to compare with the exact texts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from server.api.i18n import load_catalogs
from server.engine.record import load_record
from server.engine.registry import get_rules

ROOT = Path(__file__).resolve().parent.parent.parent
NODE = shutil.which("node")

#: The beginning of a node script that runs a game's client module (``game``, imported from
#: the first argument) over ``input`` (JSON on stdin) with a context like the table's
#: (game-info.js, i18n.js): ``ctx`` with catalogue texts with %(name)s filled in and the
#: singular for n = 1, contracts by their catalogue names, actions labelled by their key
#: (the game's own ``action.<game>.<text>`` before the shared one; an action without a
#: label stays its text), no sheet; ``name(seat)`` from ``input.seats``.
MODULE_CONTEXT = """
import { readFileSync } from "node:fs";
const game = await import(process.argv[1]);
const input = JSON.parse(readFileSync(0, "utf8"));
const messages = input.messages;
const t = (key, params = {}) => {
  if (!(key in messages)) throw new Error("missing key " + key);
  if (params.n === 1 && `${key}.one` in messages) key = `${key}.one`;
  return messages[key].replace(/%\\((\\w+)\\)s/g, (_, name) => String(params[name]));
};
const has = (key) => key in messages;
const ctx = {
  game: input.game, t, has,
  contract: (c) => (c ? t(`contract.${input.game}.${c}`) : ""),
  action: (a) => {
    const rest = a.replace(/\\s+/g, "_");
    const own = `action.${input.game}.${rest}`;
    const k = has(own) ? own : `action.${rest}`;
    return has(k) ? t(k) : a;
  },
  sheet: () => null,
};
const name = (seat) => input.seats[seat];
"""

#: Runs the module's exports over the views on stdin (see :data:`MODULE_CONTEXT`).
SCRIPT = (
    MODULE_CONTEXT
    + """
const coded = (view) => (game.resultLine && view.outcome.lines ? view.outcome.lines : [])
  .map((line) => game.resultLine(line, ctx));
const out = input.views.map((view) => ({
  badges: view.seats.map((_, seat) => game.seatBadges(view, seat, ctx)),
  info: game.infoLines(view, name, ctx).map((l) => l.text + (l.cards ? " " + l.cards.join(",") : "")
    + (l.choices ? " " + l.choices.map((c) => `${c.action}=${c.cards.join(",")}`).join(" ") : "")),
  turn: game.turnText(view, ctx),
  title: view.outcome ? game.resultTitle(view, name, ctx) : null,
  result: view.outcome ? [...game.resultLines(view, name, ctx), ...coded(view)] : null,
  replay: game.replayLines ? game.replayLines(view, name, ctx) : [],
  call: game.isCall && view.legal_actions && view.legal_actions.length
    ? game.isCall(view.legal_actions[0]) : null,
}));
process.stdout.write(JSON.stringify(out));
"""
)


def views_of(
    game: str, record_name: str, viewer: str = "mover"
) -> tuple[dict[str, Any], list[Any]]:
    """The golden record ``record_name`` of ``game`` and, before each action and at the end,
    the view of the seat to move (seat 0 at the end; ``viewer="mover"``) or of a spectator
    (``"spectator"``)."""
    record = json.loads((ROOT / "tests" / "golden" / game / record_name).read_text("utf-8"))
    finished = load_record(record)
    rules = get_rules(game)
    deal = rules.new_deal(finished.dealt, record["options"], record["seats"], record["dealer"])
    views = []
    for seat, text in record["actions"]:
        views.append(json.loads(json.dumps(deal.view(seat if viewer == "mover" else None))))
        deal.apply(deal.parse(text), seat)
    views.append(json.loads(json.dumps(deal.view(0 if viewer == "mover" else None))))
    return record, views


def run_module(game: str, seats: list[str], views: list[Any]) -> list[dict[str, Any]]:
    """The module's texts for every view, from node, in German."""
    messages = load_catalogs(ROOT / "web" / "locale").messages["de"]
    payload = json.dumps({"game": game, "messages": messages, "seats": seats, "views": views})
    assert NODE is not None
    module = ROOT / "web" / "static" / "js" / "games" / f"{game}.js"
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT, module.as_uri()],
        input=payload,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result
