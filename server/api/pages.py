"""Server-rendered HTML pages (Jinja2, autoescaped). German first, English second.

The pages other than the card table: the start page (log in, register, play as a guest;
then "Meine Räume"), creating a room, the invite page behind ``/r/{token}``, the room page
(seats, members, start) and the account page. They are thin: the data comes from the same
functions that answer the JSON API (:mod:`server.api.rooms`), the forms and the live parts
are plain JavaScript modules under ``web/static/js/`` that call that API.

Logged-out visitors of a page that needs a login are sent to ``/?next=<path>``; a room or
invite they may not see is a 404 page that says nothing about the room. ``next`` is only
ever followed to a path on this server (:func:`server.api.security.resolve_next`): the
start page redirects a logged-in visitor there, and ``start.js`` goes there after login.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from server import __version__
from server.api import rooms as rooms_api
from server.api.deps import Db, OptionalUser, parse_id
from server.api.i18n import LANG_COOKIE, LANGUAGES, Catalogs, pick_language
from server.api.runtime import get_runtime
from server.api.security import resolve_next
from server.engine.base import OptionValue
from server.engine.registry import GAMES, GameInfo, describe, list_games
from server.store import removals, rooms
from server.store.errors import NotFoundError
from server.store.models import User

router = APIRouter(tags=["pages"])

Gettext = Callable[..., str]


# --------------------------------------------------------------------------- rendering


def page_language(request: Request, user: User | None) -> str:
    """The language a page for ``request`` is shown in (see :func:`pick_language`)."""
    return pick_language(request, user.language if user is not None else None)


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside ``<script type="application/json">``: the
    characters ``<``, ``>`` and ``&`` are written as ``\\u`` escapes, so no user text
    (a name like ``</script><script>…``) can end the element or look like markup."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def game_info_json(game: str) -> str:
    """The description of ``game`` (:func:`server.engine.registry.describe`) for the
    ``<script type="application/json" id="game-info">`` element of the pages that show
    a game; the client reads the game's pack, direction, seats and sheet from there."""
    return script_json(describe(game))


def _lang_links(request: Request) -> dict[str, str]:
    """For each language, the current URL with ``?lang=`` set (other parameters kept)."""
    return {
        code: str(request.url.include_query_params(lang=code)).removeprefix(
            f"{request.url.scheme}://{request.url.netloc}"
        )
        for code in LANGUAGES
    }


def render(
    request: Request,
    template: str,
    context: Mapping[str, Any] | None = None,
    *,
    user: User | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """Render ``template`` in the request's language.

    Every page gets ``lang``, ``_`` (the message lookup: ``_("key", name=...)``),
    ``i18n_json`` (the language's whole catalogue, embedded for the JavaScript modules),
    ``lang_links`` (this page in each language), ``user`` and ``version``. A valid
    ``?lang=`` is remembered in a cookie for a year.
    """
    runtime = get_runtime(request)
    lang = page_language(request, user)
    catalogs = runtime.catalogs
    page_context: dict[str, Any] = {
        "lang": lang,
        "languages": LANGUAGES,
        "lang_links": _lang_links(request),
        "_": partial(catalogs.gettext, lang),
        "i18n_json": json.dumps(catalogs.table(lang), ensure_ascii=False).replace("</", "<\\/"),
        "user": user,
        "version": __version__,
        **(context or {}),
    }
    response: HTMLResponse = runtime.templates.TemplateResponse(
        request, template, page_context, status_code=status_code
    )
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, path="/", samesite="lax")
    return response


def not_found(request: Request, user: User | None) -> HTMLResponse:
    """The friendly 404 page (it names nothing of what was asked for)."""
    return render(request, "not_found.html", user=user, status_code=404)


async def not_a_member(db: Db, request: Request, user: User, room_id: int) -> HTMLResponse:
    """The page for a room ``user`` is not a member of: who removed them, for a friend the
    host removed (:mod:`server.store.removals`); else the friendly 404 page."""
    host_name = await removals.removed_by(db, room_id, user.id)
    if host_name is None:
        return not_found(request, user)
    return render(request, "removed.html", {"host_name": host_name}, user=user, status_code=404)


def login_first(request: Request) -> RedirectResponse:
    """Send a logged-out visitor to the start page, which comes back here after login."""
    return RedirectResponse("/?" + urlencode({"next": request.url.path}), status_code=303)


# --------------------------------------------------------------------------- display helpers


def format_money(cents: int, lang: str) -> str:
    """Cents in the page's language: ``0,10 €`` (German) or ``€0.10`` (English)."""
    euros, rest = divmod(cents, 100)
    if lang == "de":
        return f"{euros:,}".replace(",", ".") + f",{rest:02d} €"
    return f"€{euros:,}.{rest:02d}"


def format_amount(cents: int, lang: str) -> str:
    """Cents as a plain amount in euros for a form field: ``0,10`` (German), ``0.10``."""
    euros, rest = divmod(cents, 100)
    return f"{euros}{',' if lang == 'de' else '.'}{rest:02d}"


def _text_or(catalogs: Catalogs, lang: str, key: str, fallback: str) -> str:
    """The catalogue text of ``key`` if there is one, else ``fallback`` (no warning)."""
    return catalogs.messages.get(lang, {}).get(key, fallback)


@dataclass(frozen=True, slots=True)
class OptionRow:
    """A room's house rule as the pages show it: label, value and one-line explanation."""

    name: str
    label: str
    value: str
    help: str


def _described_options(game: str) -> dict[str, dict[str, Any]]:
    """The options of ``game`` as its description gives them (per room and of the match):
    name → ``{"label", "help", "help_de", "help_en", …}``, ``label`` and ``help`` being
    catalogue keys."""
    info = describe(game)
    return {o["name"]: o for o in [*info.get("options", []), *info.get("match_options", [])]}


def _option_label(catalogs: Catalogs, lang: str, game: str, name: str, option: Any) -> str:
    """An option's name in ``lang``: its catalogue label, an older ``opt.<game>.<name>``
    text, or the bare name."""
    fallback = _text_or(catalogs, lang, f"opt.{game}.{name}", name)
    key = option.get("label") if option else None
    return _text_or(catalogs, lang, key, fallback) if key else fallback


def _option_value(
    catalogs: Catalogs, lang: str, game: str, name: str, option: Any, value: OptionValue
) -> str:
    """An option's value in ``lang``: yes or no, or the value's catalogue text
    (``<label>.<value>``, else ``opt.<game>.<name>.<value>``), else the value itself."""
    if isinstance(value, bool):
        return catalogs.gettext(lang, "opt.yes" if value else "opt.no")
    fallback = _text_or(catalogs, lang, f"opt.{game}.{name}.{value}", str(value))
    key = option.get("label") if option else None
    return _text_or(catalogs, lang, f"{key}.{value}", fallback) if key else fallback


def _value_token(value: OptionValue) -> str:
    """How a value ends a catalogue key: ``true``, ``false``, or the value as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def ruled_options(game: str) -> set[str]:
    """The options that a rule of ``game``'s evening names: the rule list shows them with
    their value, so the list of house rules leaves them out."""
    return {rule.option for rule in GAMES[game].rules if rule.option is not None}


def option_rows(
    catalogs: Catalogs,
    lang: str,
    game: str,
    values: Mapping[str, OptionValue],
    leave_out: set[str] | frozenset[str] = frozenset(),
) -> list[OptionRow]:
    """The rows of a room's options in ``lang`` (but those in ``leave_out``): labels, value
    names and explanations come from the catalogue keys the game's description gives
    (``label``, ``<label>.<value>``, ``help``) where the catalogue has them, else from the
    older ``opt.<game>.<name>`` texts and the registry's explanations."""
    described = _described_options(game)
    rows = []
    for name, value in values.items():
        if name in leave_out:
            continue
        option = described.get(name)
        help_text = ""
        if option is not None:
            fallback = option.get("help_de" if lang == "de" else "help_en") or ""
            key = option.get("help")
            help_text = _text_or(catalogs, lang, key, fallback) if key else fallback
        rows.append(
            OptionRow(
                name,
                _option_label(catalogs, lang, game, name, option),
                _option_value(catalogs, lang, game, name, option, value),
                help_text,
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class RuleRow:
    """One rule of the evening as the room page lists it: its text and, where an option
    sets it, that option's label and the room's value (else both empty)."""

    key: str
    text: str
    option: str
    label: str
    value: str


def rule_rows(
    catalogs: Catalogs, lang: str, game: str, values: Mapping[str, OptionValue]
) -> list[RuleRow]:
    """Every rule of ``game``'s evening (its registry entry's ``rules``) in ``lang`` with
    the value ``values`` (the room's options and match options together) gives it. Where
    the catalogue words the rule for that value (``<rule key>.<value>``: ``….false`` for
    a rule switched off) that text stands instead of the rule's own, so that a rule the
    room does without is not stated as if it applied."""
    described = _described_options(game)
    rows = []
    for rule in GAMES[game].rules:
        label = value = ""
        text = catalogs.gettext(lang, rule.key)
        if rule.option is not None and rule.option in values:
            raw = values[rule.option]
            option = described.get(rule.option)
            label = _option_label(catalogs, lang, game, rule.option, option)
            value = _option_value(catalogs, lang, game, rule.option, option, raw)
            text = _text_or(catalogs, lang, f"{rule.key}.{_value_token(raw)}", text)
        rows.append(RuleRow(rule.key, text, rule.option or "", label, value))
    return rows


def _pause_text(_: Gettext, seconds: int, tempo: int | None = None) -> str:
    """The pause between two deals as the room page shows it; a correspondence table
    (``tempo``) waits for nobody's "Weiter" (docs/correspondence.md)."""
    if seconds:
        return _("rooms.pause_seconds", seconds=seconds)
    return _("rooms.pause_none") if tempo else _("rooms.pause_wait")


def standin_text(gettext: Gettext, room: Any) -> str:
    """The room's stand-in as the room page shows it: "Einsteiger, nach 60 s offline",
    or "aus"; at a correspondence table it plays only at a deadline or when asked."""
    if not room.standin:
        return gettext("room.standin_off")
    level = gettext(f"computer.level.{room.standin_level}")
    if getattr(room, "tempo_seconds", None):
        return gettext("room.standin_on_fern", level=level)
    return gettext("room.standin_on", level=level, seconds=room.standin_delay_seconds)


def computer_pace_text(lang: str, pause_ms: list[int]) -> str:
    """The computer players' pace in seconds, as the room page shows it: "0,8–1,5 s"
    (the decimal comma in German)."""

    def seconds(ms: int) -> str:
        text = f"{ms / 1000:g}"
        return text.replace(".", ",") if lang == "de" else text

    least, most = pause_ms
    return f"{seconds(least)} s" if least == most else f"{seconds(least)}–{seconds(most)} s"


@dataclass(frozen=True, slots=True)
class GameCard:
    """One game as the start page shows it, in the page's language."""

    name: str
    title: str
    players: str
    pack: str
    implemented: bool
    summary: str

    @classmethod
    def from_info(cls, info: GameInfo, _: Gettext, lang: str) -> GameCard:
        """Build the display form of a registry entry."""
        counts = [str(n) for n in info.players]
        if len(counts) > 1:
            counts = [", ".join(counts[:-1]) + " " + _("game.or") + " " + counts[-1]]
        return cls(
            name=info.name,
            title=info.title,
            players=_("game.players", counts=counts[0]),
            pack=_(f"pack.{info.pack}"),
            implemented=info.implemented,
            summary=info.summary_de if lang == "de" else info.summary_en,
        )


def title_list(_: Gettext, titles: list[str]) -> str:
    """Titles as a sentence names them: "A", "A und B", "A, B und C"."""
    if len(titles) < 2:
        return "".join(titles)
    return ", ".join(titles[:-1]) + " " + _("game.and") + " " + titles[-1]


def _timer_text(_: Gettext, seconds: int | None) -> str:
    return _("room.timer_none") if seconds is None else _("room.timer_seconds", seconds=seconds)


def _rounds_text(_: Gettext, rounds: int) -> str:
    return _("room.rounds_until_zero") if rounds == 0 else str(rounds)


def _stake_text(_: Gettext, lang: str, game: str, stake: int) -> str:
    """The stake as a room view says it: per point, "ohne Geld" for none, and for a game
    whose evening is paid otherwise (its description's ``sheet.stake`` false: a Depot, say)
    that the stake per point does not apply."""
    if not GAMES[game].sheet.stake:
        return _("room.stake_not_applied")
    if stake == 0:
        return _("room.stake_none")
    return _("room.stake_per_point", stake=format_money(stake, lang))


def _room_facts(
    request: Request, user: User | None, game: str, stake: int, rounds_: int, timer: int | None
) -> dict[str, str]:
    """The settings every room view shows, formatted in the page's language; the length
    in the game's own unit (its description's ``rounds.unit``: "Spiele" or "Runden")."""
    lang = page_language(request, user)
    _ = partial(get_runtime(request).catalogs.gettext, lang)
    return {
        "stake_text": _stake_text(_, lang, game, stake),
        "rounds_label": _("room.deals" if GAMES[game].rounds.unit == "deals" else "room.rounds"),
        "rounds_text": _rounds_text(_, rounds_),
        "timer_text": _timer_text(_, timer),
    }


# --------------------------------------------------------------------------- pages


def next_target(request: Request) -> str | None:
    """The page ``?next=`` asks for, as a path on this server, or None (missing, or not
    plainly a local path: ``//evil``, ``/%09/evil``, ``https://evil`` …)."""
    origin = f"{request.url.scheme}://{request.url.netloc}"
    return resolve_next(request.query_params.get("next"), origin)


@router.get("/", response_class=HTMLResponse)
async def start_page(request: Request, db: Db, user: OptionalUser) -> Response:
    """The start page: the ways in when logged out; "Meine Räume" and the games after.

    A logged-in visitor with a local ``?next=`` goes there (303) instead.
    """
    target = next_target(request)
    if user is not None and target is not None and urlsplit(target).path != "/":
        return RedirectResponse(target, status_code=303)
    lang = page_language(request, user)
    _ = partial(get_runtime(request).catalogs.gettext, lang)
    games = [GameCard.from_info(info, _, lang) for info in list_games()]
    my_rooms = (await rooms_api.my_rooms(request, db, user)).rooms if user is not None else []
    return render(
        request,
        "index.html",
        {
            "games": games,
            "playable": [g for g in games if g.implemented],
            "coming": [g for g in games if not g.implemented],
            "playable_titles": title_list(_, [g.title for g in games if g.implemented]),
            "rooms": my_rooms,
        },
        user=user,
    )


@router.get("/rooms/new", response_class=HTMLResponse)
async def new_room_page(request: Request, user: OptionalUser) -> Response:
    """The form that creates a room (the games and their options come from the registry)."""
    if user is None:
        return login_first(request)
    games = [g.model_dump() for g in await rooms_api.games() if g.implemented]
    chosen = request.query_params.get("game")
    lang = page_language(request, user)
    return render(
        request,
        "room_new.html",
        {
            "games": games,
            "chosen": chosen if any(g["name"] == chosen for g in games) else None,
            "games_json": script_json(games),
            "timer_choices": (10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600),
            "pause_choices": (5, 10, 15, 20, 30, 45, 60, 90, 120),
            "stake_default": format_amount(rooms.DEFAULT_STAKE_CENTS, lang),
            "stake_default_money": format_money(rooms.DEFAULT_STAKE_CENTS, lang),
        },
        user=user,
    )


@router.get("/r/{token}", response_class=HTMLResponse)
async def invite_page(token: str, request: Request, db: Db, user: OptionalUser) -> Response:
    """The invite link: a preview of the room and the one form or button that joins it."""
    room = await rooms.room_by_invite(db, token)
    if room is None:
        return not_found(request, user)
    preview = await rooms_api.invite_preview(token, db, user)
    lang = page_language(request, user)
    catalogs = get_runtime(request).catalogs
    values = {o.name: o.value for o in preview.options}
    return render(
        request,
        "invite.html",
        {
            "token": token,
            "room_id": room.id,
            "preview": preview,
            "options": option_rows(
                catalogs, lang, preview.game, values, ruled_options(preview.game)
            ),
            "rules": rule_rows(catalogs, lang, preview.game, {**values, **preview.match_options}),
            "pause_text": _pause_text(
                partial(catalogs.gettext, lang),
                preview.next_deal_pause_seconds,
                preview.tempo_seconds,
            ),
            "invite_json": script_json(
                {
                    "token": token,
                    "room_id": room.id,
                    "seats_free": preview.seats_free,
                    "allow_spectators": preview.allow_spectators,
                    "status": preview.status,
                }
            ),
            **_room_facts(
                request,
                user,
                preview.game,
                preview.stake_cents,
                preview.rounds,
                preview.timer_seconds,
            ),
        },
        user=user,
    )


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(room_id: str, request: Request, db: Db, user: OptionalUser) -> Response:
    """A room for its members: invite link, seats, members, settings; the host's controls."""
    if user is None:
        return login_first(request)
    number = parse_id(room_id)
    if number is None:
        return not_found(request, user)
    try:
        room = await rooms_api.get_room(number, request, db, user)
    except NotFoundError:
        return await not_a_member(db, request, user, number)
    lang = page_language(request, user)
    catalogs = get_runtime(request).catalogs
    base = str(request.base_url).rstrip("/")
    return render(
        request,
        "room.html",
        {
            "room": room,
            "invite_link": base + room.invite_url,
            "options": option_rows(
                catalogs, lang, room.game, room.options, ruled_options(room.game)
            ),
            "rules": rule_rows(catalogs, lang, room.game, {**room.options, **room.match_options}),
            "pause_text": _pause_text(
                partial(catalogs.gettext, lang), room.next_deal_pause_seconds, room.tempo_seconds
            ),
            # only where computer players sit: their pace
            "computer_pace_text": computer_pace_text(lang, room.computer_pause_ms)
            if any(m.kind == rooms.COMPUTER for m in room.members)
            else None,
            "standin_text": standin_text(partial(catalogs.gettext, lang), room),
            "players": [m for m in room.members if m.role == rooms.PLAYER],
            "spectators": [m for m in room.members if m.role != rooms.PLAYER],
            "room_json": script_json(
                {
                    "room": room.model_dump(),
                    "me": user.id,
                    "start_with": list(rooms.players_to_start(room.game)),
                }
            ),
            "game_info_json": game_info_json(room.game),
            **_room_facts(
                request, user, room.game, room.stake_cents, room.rounds, room.timer_seconds
            ),
        },
        user=user,
    )


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, user: OptionalUser) -> Response:
    """The account: display name, language, claiming a guest account, logging out."""
    if user is None:
        return login_first(request)
    return render(request, "account.html", {}, user=user)
