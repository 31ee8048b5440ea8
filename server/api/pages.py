"""Server-rendered HTML pages (Jinja2, autoescaped). German first, English second."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from server import __version__
from server.api.i18n import LANG_COOKIE, LANGUAGES, pick_language
from server.api.runtime import get_runtime
from server.engine.registry import GameInfo, list_games
from server.store.models import User

router = APIRouter(tags=["pages"])

_PACKS_DE = {
    "tarock": "Tarockkarten (54 Blatt)",
    "doppelkopf": "Doppelkopfkarten (48 Blatt)",
    "german": "Deutsches Blatt (36 Blatt)",
}


@dataclass(frozen=True, slots=True)
class GameCard:
    """One game as the start page shows it."""

    name: str
    title: str
    players_de: str
    pack_de: str
    implemented: bool
    summary_de: str
    summary_en: str

    @classmethod
    def from_info(cls, info: GameInfo) -> GameCard:
        """Build the display form of a registry entry."""
        counts = [str(n) for n in info.players]
        players = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " oder " + counts[-1]
        return cls(
            name=info.name,
            title=info.title,
            players_de=f"{players} Spieler",
            pack_de=_PACKS_DE.get(info.pack, info.pack),
            implemented=info.implemented,
            summary_de=info.summary_de,
            summary_en=info.summary_en,
        )


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
    ``user`` and ``version``. A valid ``?lang=`` is remembered in a cookie for a year.
    """
    runtime = get_runtime(request)
    lang = pick_language(request, user.language if user is not None else None)
    catalogs = runtime.catalogs
    page_context: dict[str, Any] = {
        "lang": lang,
        "languages": LANGUAGES,
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


@router.get("/", response_class=HTMLResponse)
async def start_page(request: Request) -> HTMLResponse:
    """The start page: which games this server knows, and which are playable yet."""
    games = [GameCard.from_info(info) for info in list_games()]
    return render(
        request,
        "index.html",
        {
            "games": games,
            "playable": [g for g in games if g.implemented],
            "coming": [g for g in games if not g.implemented],
        },
    )
