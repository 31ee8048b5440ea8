"""The game archive over HTTP: past and running matches, score sheets, deal replays, records
out and in, and the statistics of a user's circle (see "History and records" in
``docs/api.md``).

Every route needs a logged-in user. A match, its deals and their records are shown only to
members (players and spectators) of the match's room; everybody else gets the same 404 as
for an id that does not exist (``match_not_found``, ``deal_not_found``) and no data. A deal
that is still running has no replay and no record (409 ``deal_running``): they show every
hand.

The score sheet and the running totals are the engine's: the stored deals are replayed
into the match object (:func:`server.tables.matches.rebuild`), never scored here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from server.api.deps import MAX_ID, CurrentUser, Db, parse_id
from server.api.errors import ApiError
from server.api.limits import Limit
from server.engine.base import JSON
from server.engine.errors import EngineError
from server.engine.gameinfo import FigureInfo
from server.engine.record import FORMAT, KEYS, VERSION, parse_record_text
from server.engine.registry import GAMES, get_rules, new_match
from server.engine.replay import replay_steps
from server.store import history, log
from server.store.history import MatchSummary, StandIn
from server.store.log import StoredDeal
from server.tables.matches import rebuild

router = APIRouter(tags=["history"])

#: The largest record ``POST /api/records/replay`` reads (its own body limit, see
#: :mod:`server.api.limits`; :func:`_read_limited` checks it again while it reads).
MAX_RECORD_BYTES = 256 * 1024
RECORD_UPLOAD = "/api/records/replay"
RECORD_LIMIT = Limit(
    MAX_RECORD_BYTES,
    "record_too_large",
    f"A record may have at most {MAX_RECORD_BYTES // 1024} KiB.",
    f"Ein Datensatz darf höchstens {MAX_RECORD_BYTES // 1024} KiB groß sein.",
)
MATCH_FORMAT = "stammtisch-match"
MATCH_VERSION = 1


# --------------------------------------------------------------------------- errors


def _match_not_found() -> ApiError:
    return ApiError(
        404, "match_not_found", "There is no such match.", "Diese Partie gibt es nicht."
    )


def _deal_not_found() -> ApiError:
    return ApiError(404, "deal_not_found", "There is no such deal.", "Dieses Spiel gibt es nicht.")


def _deal_running() -> ApiError:
    return ApiError(
        409,
        "deal_running",
        "This deal is still being played; its replay shows every hand, so it opens once "
        "the deal is over.",
        "Dieses Spiel läuft noch; die Wiederholung zeigt alle Blätter und öffnet sich erst, "
        "wenn es vorbei ist.",
    )


def _bad_record(message: str, message_de: str) -> ApiError:
    return ApiError(422, "bad_record", message, message_de)


# --------------------------------------------------------------------------- JSON pieces


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite keeps UTC without an offset
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def _game_title(game: str) -> str:
    info = GAMES.get(game)
    return info.title if info is not None else game


def _empty_sheet(match: MatchSummary) -> JSON:
    """The engine's sheet of ``match`` before its first deal (start values, no rows)."""
    return new_match(match.game, match.players, match.config).to_json()


def _totals(match: MatchSummary) -> dict[str, int]:
    """The sheet's totals as the ledger has them after the last finished deal (the start
    values before the first)."""
    if match.totals:
        return dict(match.totals)
    return dict(_empty_sheet(match)["start"])


def computer_levels(match: MatchSummary) -> dict[int, str | None]:
    """The match's computer players: player id (negative, no account) -> level from the
    match config's ``computers`` (``None`` where the config does not name one)."""
    levels = match.config.get("computers") or []
    return {
        uid: (levels[i] if i < len(levels) else None)
        for i, uid in enumerate(match.player_ids)
        if uid < 0
    }


def _computer_mark(level: str | None) -> JSON:
    """The ``computer`` field of a computer player (a person has ``null``)."""
    return {"level": level}


def _match_json(match: MatchSummary) -> JSON:
    computers = computer_levels(match)
    return {
        "id": match.id,
        "room_id": match.room_id,
        "room_name": match.room_name,
        "game": match.game,
        "game_title": _game_title(match.game),
        "status": match.status,
        "started_at": _iso(match.started_at),
        "finished_at": _iso(match.finished_at),
        "players": [
            {
                "user_id": uid,
                "name": name,
                "computer": _computer_mark(computers[uid]) if uid in computers else None,
            }
            for uid, name in zip(match.player_ids, match.players, strict=True)
        ],
        "totals": _totals(match),
        "money_cents": {name: match.money_cents.get(name, 0) for name in match.players},
        "placings": None if match.settlement is None else match.settlement["placings"],
        "deals_finished": match.deals_finished,
    }


def _full_record(deal: StoredDeal, standins: Sequence[StandIn] = ()) -> JSON:
    """The deal record (format ``stammtisch-deal``) with its actions and outcome, and the
    moves a stand-in made (``stood_in``, from ``standins``; left out when there were none)."""
    stored = {**deal.record, "actions": [[seat, text] for seat, text in deal.actions]}
    if deal.outcome is not None:
        stored["outcome"] = deal.outcome
    indexes = sorted(index for standin in standins for index in standin.indexes)
    if indexes:
        stored["stood_in"] = indexes
    order = ("format", "version", "game", "options", "seats", "dealer", "stake_cents",
             "hands", "talon", "actions", "stood_in", "outcome")  # fmt: skip
    return {key: stored[key] for key in order if key in stored and key in KEYS}


def _download(body: JSON, filename: str) -> JSONResponse:
    return JSONResponse(body, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _sheet(match: MatchSummary, deals: Sequence[StoredDeal]) -> JSON:
    """The engine's sheet after the finished ``deals`` (replayed, every action checked);
    a match stopped early carries the settlement stored when it stopped, as the table
    showed it."""
    finished = [d for d in deals if d.outcome is not None]
    live = rebuild(
        match.id,
        match.game,
        match.players,
        match.player_ids,
        match.config,
        [(d.id, d.number, d.record, d.actions) for d in finished],
    )
    sheet = live.engine.to_json()
    if sheet["settlement"] is None and match.settlement is not None:
        sheet["settlement"] = match.settlement
    return sheet


def _series(sheet: JSON) -> JSON:
    """The running totals for the chart: the start value, then the total after each deal."""
    players = sheet["players"]
    series = {name: [sheet["start"][name]] for name in players}
    for row in sheet["rows"]:
        for name in players:
            series[name].append(row["totals"][name])
    return {"labels": [str(i) for i in range(len(sheet["rows"]) + 1)], "players": series}


def _stood_in(match: MatchSummary, deal: StoredDeal, standins: Sequence[StandIn]) -> list[JSON]:
    """Whom a stand-in moved for in ``deal``: ``[{seat, user_id, name, level, actions}]``
    (the person at the seat, the stand-in's level, how many of his moves it made)."""
    ids = dict(zip(match.players, match.player_ids, strict=True))
    seats = deal.record["seats"]
    return [
        {
            "seat": s.seat,
            "user_id": ids.get(seats[s.seat]),
            "name": seats[s.seat],
            "level": s.level,
            "actions": s.actions,
        }
        for s in standins
        if 0 <= s.seat < len(seats)
    ]


# --------------------------------------------------------------------------- matches


@router.get("/api/history/matches")
async def list_matches(
    db: Db,
    user: CurrentUser,
    game: Annotated[str | None, Query(max_length=40)] = None,
    with_user: Annotated[int | None, Query(alias="with", ge=-MAX_ID, le=MAX_ID)] = None,
) -> JSON:
    """My past and running matches, newest first; ``game`` and ``with`` (a fellow player's
    user id, a computer player's negative id) filter them. ``fellows`` lists everyone who
    shared a match with me: the persons by their current names, then the computer players
    by the names they had in the match (with their level and room)."""
    matches = await history.visible_matches(db, user.id)
    people = {uid for m in matches for uid in m.player_ids if uid != user.id and uid > 0}
    names = await history.user_names(db, people)
    fellows: list[JSON] = [
        {"user_id": uid, "name": names.get(uid, "?"), "computer": None} for uid in people
    ]
    computers: dict[int, JSON] = {}
    for m in matches:  # newest first: a computer player's latest name
        levels = computer_levels(m)
        for uid, name in zip(m.player_ids, m.players, strict=True):
            if uid in levels and uid not in computers:
                mark = {**_computer_mark(levels[uid]), "room_id": m.room_id,
                        "room_name": m.room_name}  # fmt: skip
                computers[uid] = {"user_id": uid, "name": name, "computer": mark}
    fellows.sort(key=lambda f: (str(f["name"]).casefold(), f["user_id"]))
    fellows += sorted(
        computers.values(),
        key=lambda f: (str(f["computer"]["room_name"]).casefold(), str(f["name"]).casefold(),
                       f["user_id"]),
    )  # fmt: skip
    shown = [
        m
        for m in matches
        if (game is None or m.game == game) and (with_user is None or with_user in m.player_ids)
    ]
    return {"matches": [_match_json(m) for m in shown], "fellows": fellows}


async def _member_match(db: Db, user_id: int, match_id: str) -> MatchSummary:
    number = parse_id(match_id)
    match = await history.match_for_member(db, user_id, number) if number else None
    if match is None:
        raise _match_not_found()
    return match


@router.get("/api/history/matches/{match_id}")
async def match_detail(match_id: str, db: Db, user: CurrentUser) -> JSON:
    """One match: the engine's score sheet, the running totals for the chart, the pots, the
    deals (contract, declarer, points; whether the replay is open) and the table's chat."""
    match = await _member_match(db, user.id, match_id)
    deals = (await history.deals_of_matches(db, [match.id]))[match.id]
    standins = await history.standins_of_matches(db, [match.id])
    pots = await history.pots_of_match(db, match.id)
    chat = (await log.chat_of(db, [match.id]))[match.id]
    sheet = _sheet(match, deals)
    finished = [d for d in deals if d.outcome is not None]
    rows = dict(zip((d.id for d in finished), sheet["rows"], strict=True))
    listed = []
    for deal in deals:
        row = rows.get(deal.id)
        ledger = deal.ledger if row is not None else None
        listed.append(
            {
                "id": deal.id,
                "number": deal.number,
                "status": "finished" if row is not None else "running",
                "contract": row["contract"] if row else None,
                "declarer": row["declarer"] if row else None,
                # the stored ledger's points per person (as the sheet's row)
                "settlement": None
                if ledger is None
                else {e["player"]: e["points"] for e in ledger["entries"]},
                "ledger": ledger,
                "replay_available": row is not None,
                "stood_in": _stood_in(match, deal, standins.get(deal.id, [])),
            }
        )
    return {
        "match": _match_json(match),
        "settlement": match.settlement,
        "sheet": sheet,
        "series": _series(sheet),
        "pots": [p.to_json() for p in pots],
        "deals": listed,
        "chat": [line.to_json() for line in chat],
    }


@router.get("/api/history/matches/{match_id}/record")
async def match_record(match_id: str, db: Db, user: CurrentUser) -> JSONResponse:
    """The match record (format ``stammtisch-match``): players, config and the records of
    the finished deals, as a download."""
    match = await _member_match(db, user.id, match_id)
    deals = (await history.deals_of_matches(db, [match.id], finished_only=True))[match.id]
    standins = await history.standins_of_matches(db, [match.id])
    body = {
        "format": MATCH_FORMAT,
        "version": MATCH_VERSION,
        "game": match.game,
        "players": list(match.players),
        "config": match.config,
        "deals": [_full_record(d, standins.get(d.id, [])) for d in deals],
        # what the match's ledger wrote for each deal, and the final settlement
        "ledger": [d.ledger for d in deals],
        "settlement": match.settlement,
    }
    fair = await history.fair_of_match(db, match.id)
    if fair is not None:  # the seeds of the finished deals only (numbered 1, 2, …)
        finished = next((i for i, d in enumerate(deals) if d.number != i + 1), len(deals))
        body["fair"] = fair.record(finished)
    return _download(body, f"stammtisch-{match.game}-match-{match.id}.json")


# --------------------------------------------------------------------------- deals


async def _finished_deal(db: Db, user_id: int, deal_id: str) -> history.DealWithMatch:
    number = parse_id(deal_id)
    found = await history.deal_for_member(db, user_id, number) if number else None
    if found is None:
        raise _deal_not_found()
    if found.deal.outcome is None:
        raise _deal_running()
    return found


@router.get("/api/history/deals/{deal_id}/replay")
async def deal_replay(deal_id: str, db: Db, user: CurrentUser) -> JSON:
    """Every position of a finished deal with all hands open (the REPLAY object)."""
    found = await _finished_deal(db, user.id, deal_id)
    replay = replay_steps(_full_record(found.deal, await _deal_standins(db, found)))
    pots = await history.pots_of_match(db, found.match.id)
    replay["source"] = {
        "deal_id": found.deal.id,
        "match_id": found.match.id,
        "number": found.deal.number,
        # what the deal moved into or out of the match's pots (the Haferl, the Kasse…)
        "pots": [p.to_json() for p in pots if p.deal_number == found.deal.number],
        # the deal's points and money per person, as the match's ledger wrote them
        "ledger": found.deal.ledger,
    }
    return replay


@router.get("/api/history/deals/{deal_id}/record")
async def deal_record(deal_id: str, db: Db, user: CurrentUser) -> JSONResponse:
    """The record of a finished deal (format ``stammtisch-deal``), as a download."""
    found = await _finished_deal(db, user.id, deal_id)
    game = found.match.game
    record = _full_record(found.deal, await _deal_standins(db, found))
    return _download(record, f"stammtisch-{game}-deal-{found.deal.id}.json")


async def _deal_standins(db: Db, found: history.DealWithMatch) -> list[StandIn]:
    """The seats a stand-in moved for in the deal, with its moves."""
    return (await history.standins_of_matches(db, [found.match.id])).get(found.deal.id, [])


async def _read_limited(request: Request) -> bytes:
    """The request body, refused with 413 once it is larger than :data:`MAX_RECORD_BYTES`."""
    too_large = ApiError(413, RECORD_LIMIT.code, *RECORD_LIMIT.texts())
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_RECORD_BYTES:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_RECORD_BYTES:
            raise too_large
    return bytes(body)


_RECORD_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"type": "object", "title": "DealRecord"}}},
    }
}


@router.post(RECORD_UPLOAD, openapi_extra=_RECORD_BODY)
async def replay_upload(request: Request, user: CurrentUser) -> JSON:
    """The REPLAY object of an uploaded deal record (JSON body, at most 256 KiB); nothing is
    stored. The record is loaded as strictly as a stored one: 422 ``bad_record`` names the
    place in the record and the rule it breaks.

    The body is read raw rather than through a pydantic model: the size limit applies
    before anything is parsed, and the record loader is the one strict validator of the
    format (a second schema would only drift from it and blur its positioned errors).
    """
    del user  # logged-in users only
    raw = await _read_limited(request)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad_record(
            "The record is not UTF-8 text.", "Der Datensatz ist kein UTF-8-Text."
        ) from None
    try:
        record = parse_record_text(text)
        replay = replay_steps(record)
    except EngineError as exc:
        raise _bad_record(exc.message, exc.message_de) from None
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
        raise _bad_record(
            f"The record cannot be read as a '{FORMAT}' version {VERSION} record.",
            f"Der Datensatz lässt sich nicht als '{FORMAT}' Version {VERSION} lesen.",
        ) from None
    replay["source"] = None
    return replay


# --------------------------------------------------------------------------- statistics


class _PlayerStats:
    """Running sums of one player's statistics."""

    def __init__(self) -> None:
        self.deals = 0
        self.declarer: dict[str, dict[str, int]] = defaultdict(lambda: {"played": 0, "won": 0})
        self.card_points: list[float] = []
        self.solos = 0
        self.extra: dict[str, int] = defaultdict(int)
        self.points = 0
        self.money_cents = 0
        self.matches = 0
        self.standin_deals = 0

    def to_json(self, user_id: int, name: str, figures: Sequence[str] = ()) -> JSON:
        """The player's statistics; ``extra`` holds each of ``figures`` (the keys of the
        games' own figures, :class:`FigureInfo`), 0 where he has none."""
        average = sum(self.card_points) / len(self.card_points) if self.card_points else None
        return {
            "user_id": user_id,
            "name": name,
            "matches": self.matches,
            "deals": self.deals,
            "declarer_games": {c: dict(v) for c, v in sorted(self.declarer.items())},
            "average_card_points": None if average is None else round(average, 2),
            "solos": self.solos,
            "extra": {key: self.extra.get(key, 0) for key in figures},
            "points": self.points,
            "points_per_deal": round(self.points / self.deals, 2) if self.deals else 0.0,
            "money_cents": self.money_cents,
            "standin_deals": self.standin_deals,
        }


def _count_deal(
    players: dict[int, _PlayerStats],
    ids: dict[str, int],
    summary: JSON,
    seats: Sequence[str],
    left_out: Collection[int] = (),
) -> None:
    """Add one finished deal's seats to the statistics (``summary``: the game's
    :meth:`Rules.summarize` of its outcome), but for the players ``left_out`` (by id)."""
    card_points = summary.get("card_points")  # None: thrown in, or no card points
    for seat, name in enumerate(seats):
        if ids[name] in left_out:
            continue
        entry = players[ids[name]]
        entry.deals += 1
        if card_points is not None and card_points[seat] is not None:
            entry.card_points.append(card_points[seat])
        if summary["declarer"] == seat:
            counted = entry.declarer[summary["contract"]]
            counted["played"] += 1
            counted["won"] += bool(summary["declarer_won"])
            entry.solos += bool(summary["solo"])


def count_figures(
    figures: Sequence[FigureInfo], summary: JSON, row: JSON | None, seats: Sequence[str]
) -> dict[str, dict[str, int]]:
    """What one finished deal counts for its game's own ``figures`` (its
    :class:`FigureInfo`: from the deal's ``summary`` and, for a figure that reads the
    sheet, the deal's ``row`` of the rebuilt score sheet), per player of its ``seats``
    and figure key; players and figures it adds nothing to are left out."""
    counted: dict[str, dict[str, int]] = {}
    for figure in figures:
        for seat, amount in figure.count(summary, row if figure.sheet else None).items():
            if amount:
                mine = counted.setdefault(seats[seat], {})
                mine[figure.key] = mine.get(figure.key, 0) + int(amount)
    return counted


def figures_of(games: Sequence[str]) -> list[FigureInfo]:
    """The figures of ``games`` that they count besides the common ones, in the order of
    the games, each key once (two games counting the same key add to one figure)."""
    found: dict[str, FigureInfo] = {}
    for game in games:
        for figure in GAMES[game].figures:
            found.setdefault(figure.key, figure)
    return list(found.values())


@router.get("/api/history/stats")
async def stats(
    db: Db,
    user: CurrentUser,
    game: Annotated[str | None, Query(max_length=40)] = None,
    with_standins: bool = False,
) -> JSON:
    """Statistics of my circle over the finished deals of the matches in my rooms (of
    ``game`` when given): per player and head-to-head (see docs/api.md). Points and money
    are the ledger's: each person's points are the sum of the sheet's entries for him,
    his money what the ledger has after the match's last deal (the final settlement once
    it is over); the head-to-head compares the placings of the final settlements. The
    figures a game counts besides (its ``GameInfo.figures``) are each player's ``extra``,
    named in ``figures`` with their catalogue keys.

    Computer players are no persons: they have no entry and no head-to-head. A person's
    deal figures (deals, points, declarer games, card points, solos, ``extra``) leave out
    the deals in which a stand-in moved for him, unless ``with_standins``; each player's
    ``standin_deals`` says how many such deals there were."""
    matches = await history.visible_matches(db, user.id, game=game)
    # A figure that reads the sheet (an owed solo is told from a voluntary one by its row)
    # needs it rebuilt from the actions; the other matches read their outcomes only.
    with_sheet = [m.id for m in matches if any(f.sheet for f in GAMES[m.game].figures)]
    plain = [m.id for m in matches if m.id not in with_sheet]
    deals = await history.deals_of_matches(db, plain, finished_only=True, with_actions=False)
    deals.update(await history.deals_of_matches(db, with_sheet, finished_only=True))
    standins = await history.standins_of_matches(db, [m.id for m in matches])
    figures = figures_of(sorted({m.game for m in matches}, key=list(GAMES).index))
    players: dict[int, _PlayerStats] = defaultdict(_PlayerStats)
    _ = players[user.id]  # I am in my own circle even without a deal
    pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for match in matches:
        ids = dict(zip(match.players, match.player_ids, strict=True))
        rules = get_rules(match.game)
        rows: dict[int, JSON] = {}
        if match.id in with_sheet:
            rows = {row["number"]: row for row in _sheet(match, deals[match.id])["rows"]}
        computers = {uid for uid in match.player_ids if uid < 0}  # no persons
        for deal in deals[match.id]:
            assert deal.outcome is not None
            seats = deal.record["seats"]
            # the persons a stand-in moved for in this deal
            stood_in = {ids[seats[s.seat]] for s in standins.get(deal.id, [])
                        if 0 <= s.seat < len(seats)} - computers  # fmt: skip
            for uid in stood_in:
                players[uid].standin_deals += 1
            left_out = computers if with_standins else computers | stood_in
            for entry in (deal.ledger or {}).get("entries", []):  # the sitting-out fourth too
                if ids[entry["player"]] not in left_out:
                    players[ids[entry["player"]]].points += int(entry["points"])
            summary = rules.summarize(deal.outcome)
            _count_deal(players, ids, summary, seats, left_out)
            figured = count_figures(GAMES[match.game].figures, summary,
                                    rows.get(deal.number), seats)  # fmt: skip
            for name, added in figured.items():
                if ids[name] in left_out:
                    continue
                for key, amount in added.items():
                    players[ids[name]].extra[key] += amount
        for name, uid in ids.items():  # every person who played is in the circle
            if uid in computers:
                continue
            players[uid].matches += 1
            players[uid].money_cents += match.money_cents.get(name, 0)
        placings = None if match.settlement is None else match.settlement["placings"]
        if placings is not None:
            name_of = {uid: n for n, uid in ids.items()}
            people = [uid for uid in match.player_ids if uid not in computers]
            for i, a in enumerate(people):
                for b in people[i + 1 :]:
                    low, high = sorted((a, b))
                    diff = placings[name_of[high]] - placings[name_of[low]]
                    counts = pairs[(low, high)]
                    counts[0] += 1
                    counts[1] += diff > 0
                    counts[2] += diff < 0
    names = await history.user_names(db, players)
    ordered = sorted(players, key=lambda uid: (uid != user.id, names.get(uid, "").casefold(), uid))
    keys = [figure.key for figure in figures]
    return {
        "players": [players[uid].to_json(uid, names.get(uid, "?"), keys) for uid in ordered],
        "figures": [{"key": figure.key, "label": figure.label} for figure in figures],
        "head_to_head": [
            {"a": a, "b": b, "matches": n, "a_ahead": a_ahead, "b_ahead": b_ahead}
            for (a, b), (n, a_ahead, b_ahead) in sorted(pairs.items())
        ],
    }
