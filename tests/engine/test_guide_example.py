"""The guide's own example, built as a newcomer builds it (``docs/adding-a-game.md``, "A
whole example").

The code blocks of the guide whose first line names a file (``# example/deal.py``,
``# web/locale/de/game-example.po``) are written into a temporary folder: the package
``example`` is imported from there and listed in the registry for these tests only
(:func:`server.engine.registry.extra_game`), its catalogue files are read beside the shared
ones. Then the throw-away game goes where every game goes: random playouts with the
playout checker, records and their replay, matches through the match protocol, the game's
description and the room form of the running app. Nothing of it stays behind.
"""

from __future__ import annotations

import ast
import importlib
import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from server.api.app import create_app
from server.api.i18n import LANGUAGES, Catalogs, load_catalogs
from server.engine.errors import IllegalActionError
from server.engine.gameinfo import GameInfo
from server.engine.playout import check_finished, play_random, run_playouts
from server.engine.record import dump_record, load_record, parse_record_text
from server.engine.registry import describe, extra_game, get_rules, list_games, new_match
from server.engine.replay import replay_steps
from server.settings import Settings
from tests.engine.test_match_protocol import run_to_the_end
from tests.support import REPO_ROOT, uvicorn_thread

GUIDE = REPO_ROOT / "docs" / "adding-a-game.md"
#: A fenced block whose first line is a comment naming its file.
FILE_BLOCK = re.compile(r"^```[a-z]+\n# ([\w./-]+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PACKAGE = "example"
NAME = "example"
FILES = {
    "example/__init__.py",
    "example/about.py",
    "example/contracts.py",
    "example/deal.py",
    "example/match.py",
    "web/locale/de/game-example.po",
    "web/locale/en/game-example.po",
}


def guide_files() -> dict[str, str]:
    """Every file the guide's example gives: its path → its text (the naming comment kept:
    it is a comment in Python and in a catalogue alike)."""
    files: dict[str, str] = {}
    for found in FILE_BLOCK.finditer(GUIDE.read_text(encoding="utf-8")):
        path, body = found.group(1), found.group(2)
        assert path not in files, f"the guide gives {path} twice"
        files[path] = f"# {path}\n{body}"
    return files


def _forget_package() -> None:
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary folder holding the example's files as the guide gives them."""
    root = tmp_path_factory.mktemp("guide-example")
    for path, text in guide_files().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def game(folder: Path) -> Iterator[GameInfo]:
    """The example imported from the temporary folder and listed in the registry while
    the module's tests run; afterwards neither the import path, nor the modules, nor the
    registry keep it."""
    assert PACKAGE not in sys.modules and NAME not in {g.name for g in list_games()}
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        about: ModuleType = importlib.import_module(f"{PACKAGE}.about")
        with extra_game(about.GAME) as info:
            yield info
    finally:
        sys.path.remove(str(folder))
        _forget_package()
    assert NAME not in {g.name for g in list_games()}


@pytest.fixture(scope="module")
def catalogs(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Catalogs:
    """The shared catalogues and every game's, with the example's files beside them (as
    they lie in ``web/locale/<lang>/`` once the game is added)."""
    locale = tmp_path_factory.mktemp("locale")
    for lang in LANGUAGES:
        shutil.copytree(REPO_ROOT / "web" / "locale" / lang, locale / lang)
        shutil.copy(folder / "web" / "locale" / lang / f"game-{NAME}.po", locale / lang)
    return load_catalogs(locale)


# --------------------------------------------------------------------------- the guide


def test_the_guide_gives_every_file_of_the_example() -> None:
    assert set(guide_files()) == FILES


def test_the_examples_code_is_lint_clean(folder: Path) -> None:
    """The example keeps the project's style (ruff's checks and format, as ``make lint``)."""
    config = str(REPO_ROOT / "pyproject.toml")
    code = str(folder / PACKAGE)
    for command in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--config", config, code],
            capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_example_is_pure_engine_code(folder: Path) -> None:
    """Like every game's folder (``tests/engine/test_purity.py``): the standard library,
    the engine and the game's own modules, nothing else."""
    allowed = set(sys.stdlib_module_names)
    for path in (folder / PACKAGE).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue  # a relative import: the game's own module
            for name in names:
                assert name.split(".")[0] in allowed or name.startswith("server.engine"), (
                    f"{path.name} imports {name}"
                )


# --------------------------------------------------------------------------- the engine


def test_the_registry_describes_it_from_its_own_folder(game: GameInfo) -> None:
    info = describe(NAME)
    assert info["implemented"] and info["title"] == game.title
    assert info["phases"] == ["auction", "play", "finished"]  # from the deal's Phase enum
    assert (info["pack"], info["players"], info["seats"]) == ("german", [3, 4], 3)
    rules = get_rules(NAME)
    assert len(rules.pack) == 32 and rules.pack.points_of(rules.pack.full) == 120


def test_random_deals_pass_the_playout_checker(game: GameInfo) -> None:
    """Invariants, a zero-sum settlement, the record's round trip and the information-set
    oracle, over random full deals: both contracts and the thrown-in deal come up."""
    report = run_playouts(NAME, 120, seed=29)
    assert report.invariant_failures == 0, report.failures
    assert set(report.contracts) == {"herz", "bettel", "None"}
    assert report.comparisons > 0


def test_a_scripted_deal_and_its_refusals(game: GameInfo) -> None:
    rules = get_rules(NAME)
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(45)), seats=["A", "B", "C"])
    for seat, text in [(0, "bid herz"), (1, "pass"), (2, "pass")]:
        deal.act(seat, text)
    assert (deal.phase, deal.to_move) == ("play", 0)
    view = deal.view(1)
    assert (view["contract"], view["declarer"], len(view["hand"])) == ("herz", 0, 10)
    assert view["legal_actions"] == [] and deal.view(0)["legal_actions"]
    with pytest.raises(IllegalActionError) as refused:
        deal.act(0, "bid bettel")
    assert refused.value.code == "wrong_phase"
    # a card of another seat's hand is refused with the shared code
    other = rules.pack.codes(deal.hands[1])[0]
    with pytest.raises(IllegalActionError) as refused:
        deal.act(0, f"play {other}")
    assert refused.value.code == "card_not_in_hand"
    # Farbzwang: Vorhand leads, Mittelhand holds the led suit and plays another one
    play = deal.play
    assert play is not None
    deal.act(0, "play EA")
    hand = rules.pack.codes(deal.hands[1])
    assert "E7" in hand and "S7" in hand
    with pytest.raises(IllegalActionError) as refused:
        deal.act(1, "play S7")
    assert refused.value.code == "farbzwang"
    assert refused.value.message_de == "Farbzwang: Eichel ist ausgespielt und du hast Eichel"
    deal.act(1, "play E7")
    assert play.trick == [rules.pack.parse("EA"), rules.pack.parse("E7")]


@pytest.mark.parametrize("seed", range(6))
def test_records_replay_to_the_same_outcome(game: GameInfo, seed: int) -> None:
    rules = get_rules(NAME)
    deal, leaks = play_random(rules, random.Random(seed), check_views=True)
    assert leaks == [] and check_finished(deal) == []
    text = json.dumps(dump_record(deal, stake_cents=10))
    again = load_record(parse_record_text(text))
    assert again.actions() == deal.actions() and again.outcome() == deal.outcome()
    outcome = deal.outcome()
    assert outcome is not None and again.outcome() == outcome
    assert rules.summarize(json.loads(text)["outcome"])["contract"] == outcome["contract"]
    steps = replay_steps(json.loads(text))["steps"]
    assert len(steps) == len(deal.history) + 1
    assert steps[-1]["public"]["phase"] == "finished"
    assert len(steps[0]["hands"]) == 3 and len(steps[0]["talon"]) == 2


@pytest.mark.parametrize("seed", [1, 2])
def test_matches_through_the_protocol(game: GameInfo, seed: int) -> None:
    """Whole matches of three and of four (the dealer sits out): every row sums to zero,
    the ledger's money too, and replaying the records rebuilds the same sheet."""
    config = {"first_dealer": 0, "stake_cents": 10, "options": {}, "rounds": 2}
    run_to_the_end(NAME, ["A", "B", "C"], config, seed)
    run_to_the_end(NAME, ["A", "B", "C", "D"], config, seed)
    match = new_match(NAME, ["A", "B", "C", "D"], config)
    assert match.next_setup().sitting_out == "A"
    assert match.to_json()["deals"] == 8  # two rounds of four deals


# --------------------------------------------------------------------------- catalogues


def test_the_catalogues_name_what_the_game_shows(game: GameInfo, catalogs: Catalogs) -> None:
    """Every key the description, the contracts, the buttons, the phases and the results
    need, in both languages."""
    info = describe(NAME)
    rules = get_rules(NAME)
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(1)))
    buttons = {deal.move_text(m) for m in range(len(deal.codec)) if m >= len(rules.pack)}
    contracts = importlib.import_module(f"{PACKAGE}.contracts").CONTRACTS
    keys = [info["summary"], f"pack.{info['pack']}", *info["seat_labels"]]
    keys += [*info["action_groups"].values(), f"rounds.unit.{info['rounds']['unit']}"]
    keys += [rule["key"] for rule in info["rules"]]
    keys += [f"contract.{NAME}.{code}" for code in contracts]
    keys += [f"result.{NAME}.{code}" for code in ("won", "lost", "thrown_in")]
    for lang in LANGUAGES:
        missing = [key for key in keys if key not in catalogs.messages[lang]]
        missing += [text for text in buttons if catalogs.action_key(lang, NAME, text) is None]
        assert missing == [], lang
        phases = [catalogs.game_key(lang, "archive.phase", NAME, p) for p in info["phases"]]
        assert None not in phases, lang
    assert catalogs.messages["de"][info["summary"]] == game.summary_de
    assert catalogs.messages["en"][info["summary"]] == game.summary_en


# --------------------------------------------------------------------------- the room form


@pytest.mark.live_server
def test_the_room_form_offers_it(game: GameInfo, catalogs: Catalogs, migrated_db_url: str) -> None:
    """The running app (served from this process, where the game is registered) lists and
    describes the game, the new-room page offers it, a room of it is created and its
    page states the example's rules from its catalogue."""
    app = create_app(Settings(database_url=migrated_db_url))
    app.state.runtime = replace(app.state.runtime, catalogs=catalogs)
    with uvicorn_thread(app) as url, httpx.Client(base_url=url, timeout=15) as client:
        assert client.post("/api/guest", json={"display_name": "Gast"}).status_code == 201
        described = client.get(f"/api/games/{NAME}")
        assert described.status_code == 200, described.text
        body = described.json()
        assert body["phases"] == ["auction", "play", "finished"] and body["options"] == []
        assert body["summary_de"] == game.summary_de
        assert NAME in [g["name"] for g in client.get("/api/games").json()]
        form = client.get("/rooms/new", params={"game": NAME, "lang": "en"})
        assert form.status_code == 200
        assert f'<option value="{NAME}" selected>{game.title}</option>' in form.text
        data = re.search(r'id="games-data">(.*?)</script>', form.text)
        assert data is not None
        assert NAME in [g["name"] for g in json.loads(data.group(1))]
        created = client.post("/api/rooms", json={"name": "Beispielrunde", "game": NAME})
        assert created.status_code == 201, created.text
        room = created.json()
        page = client.get(f"/rooms/{room['id']}", params={"lang": "en"})
        assert page.status_code == 200
        assert catalogs.messages["en"][f"rule.{NAME}.contracts"] in page.text
