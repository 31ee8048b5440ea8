"""What only one game's sheet and replay carry is read by that game's client module
(issue 29), run for real in node: the core modules (``web/static/js/table-sheet.js``,
``replay.js``) call the hooks ``storedSheet``, ``sheetMarks``, ``sheetNotes``,
``sheetLine``, ``replayParty`` and ``replayLines`` without knowing what they read.

The replay steps come from the engine's replay of golden records; the expected texts
from the German catalogue, filled in here apart from the JavaScript.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from functools import cache
from typing import Any

import pytest

from server.api.i18n import load_catalogs
from server.engine.replay import replay_steps
from tests.engine.client_module import MODULE_CONTEXT
from tests.support import REPO_ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

GAMES_JS = REPO_ROOT / "web" / "static" / "js" / "games"
GOLDEN = REPO_ROOT / "tests" / "golden"

#: Calls ``game[hook](...args, ctx)`` for every call on stdin, with a context like the
#: table's (game-info.js): catalogue texts with %(name)s filled in, contracts by their
#: catalogue names; a missing key is an error. Player names are given as a list.
SCRIPT = (
    MODULE_CONTEXT
    + """
const out = input.calls.map(([hook, args]) => {
  if (!game[hook]) return "no such hook";
  const named = ["replayParty", "replayLines"].includes(hook) ? [...args, name] : args;
  return game[hook](...named, ctx);
});
process.stdout.write(JSON.stringify(out));
"""
)


@cache
def german() -> dict[str, str]:
    return dict(load_catalogs(REPO_ROOT / "web" / "locale").messages["de"])


def text(key: str, **params: object) -> str:
    """A German catalogue text as the client fills it in."""
    return german()[key] % params if params else german()[key]


def run(game: str, calls: list[tuple[str, list[Any]]], seats: list[str] | None = None) -> list[Any]:
    """The hooks' results for ``calls`` (``(hook, args)``) of ``game``'s module."""
    assert NODE is not None
    payload = {"game": game, "messages": german(), "seats": seats or [], "calls": calls}
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT, (GAMES_JS / f"{game}.js").as_uri()],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: list[Any] = json.loads(done.stdout)
    return result


def steps_of(game: str, name: str) -> tuple[list[str], list[Any]]:
    """The seats and the replay steps of a golden record."""
    record = json.loads((GOLDEN / game / name).read_text("utf-8"))
    return record["seats"], replay_steps(record)["steps"]


def replay_calls(steps: list[Any]) -> list[tuple[str, list[Any]]]:
    """For each step, its party line and its extra lines, as replay.js asks for them."""
    calls: list[tuple[str, list[Any]]] = []
    for step in steps:
        calls.append(("replayParty", [step["party_points"] or {}]))
        calls.append(("replayLines", [step["public"] or {}]))
    return calls


def test_doppelkopf_names_its_parties_and_who_knocked_in_the_replay() -> None:
    seats, steps = steps_of("doppelkopf", "knocked-announced.json")
    out = run("doppelkopf", replay_calls(steps), seats)
    last_party, last_lines = out[-2], out[-1]
    augen = steps[-1]["party_points"]
    assert set(augen) == {"re", "kontra"}
    assert last_party == text("archive.replay.doppelkopf.party_points", **augen)
    knocked = [seats[s] for s in steps[-1]["public"]["knocks"]]
    assert knocked
    assert last_lines[0] == text("archive.replay.knocks", players=", ".join(knocked))
    # before play the parties have no count: no line
    assert out[0] is None


def test_dreierles_says_its_blinder_in_a_raeuber_and_leaves_a_declarer_to_the_core() -> None:
    seats, steps = steps_of("dreierles", "raeuber.json")
    out = run("dreierles", replay_calls(steps), seats)
    party = steps[-1]["party_points"]
    assert "blind" in party
    assert out[-2] == text("archive.replay.dreierles.party_blind", **party)
    seats, steps = steps_of("dreierles", "knocked-zweier.json")
    out = run("dreierles", replay_calls(steps), seats)
    assert "declarer" in steps[-1]["party_points"]
    assert out[-2] is None  # the core's line: declarer against the opponents
    knocked = [seats[s] for s in steps[-1]["public"]["knocks"]]
    assert knocked
    assert out[-1] == [text("archive.replay.knocks", players=", ".join(knocked))]


PLAYERS = ["Ute", "Paul", "Rita", "Olaf"]


def test_doppelkopf_reads_its_own_fields_of_the_sheet() -> None:
    row = {"number": 3, "contract": "herz", "note": "pflichtsolo", "obligatory": True,
           "kurzer": True}  # fmt: skip
    stated = {"players": PLAYERS, "lines": [{"code": "no_stake"}], "vorfuehrung": True,
              "obligations": {"Paul": ["herz"]}}  # fmt: skip
    old = {"players": PLAYERS, "lines": [], "obligations": {"Paul": ["herz", "damen"]},
           "depot_cents": {"Paul": 150}, "pots": {}}  # fmt: skip
    owes = {"code": "owes_solo", "player": "Paul", "solo": "herz"}
    out = run(
        "doppelkopf",
        [
            ("sheetMarks", [row]),
            ("sheetMarks", [{"number": 1, "contract": "normal"}]),
            ("sheetNotes", [stated]),
            ("sheetNotes", [old]),
            ("sheetLine", [owes]),
            ("sheetLine", [{"code": "no_stake"}]),
            ("storedSheet", [old]),
            ("storedSheet", [{**old, "pots": {"depot": {"Rita": 50}}}]),
        ],
    )
    marks, none, notes, old_notes, line, plain, stored, current = out
    assert marks == [text("sheet.doppelkopf.obligatory_mark"), text("sheet.doppelkopf.kurzer")]
    assert none == []
    # a sheet that states its lines says the owed solos there
    assert notes == [text("sheet.doppelkopf.vorfuehrung")]
    assert old_notes == [text("sheet.doppelkopf.pflichtsolo", player="Paul", n=2)]
    herzsolo = text("contract.doppelkopf.herz")
    assert line == text("sheet.line.doppelkopf.owes_solo", player="Paul", solo=herzsolo)
    assert plain is None  # the core's catalogue text
    assert stored["pots"] == {"depot": {"Paul": 150}}
    assert current["pots"] == {"depot": {"Rita": 50}}
