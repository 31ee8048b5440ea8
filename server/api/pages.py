"""Server-rendered HTML pages (Jinja2, autoescaped). German first, English second."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from server import __version__
from server.api.runtime import Runtime, get_runtime
from server.engine.registry import GameInfo, list_games

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


@router.get("/", response_class=HTMLResponse)
async def start_page(
    request: Request, runtime: Annotated[Runtime, Depends(get_runtime)]
) -> HTMLResponse:
    """The start page: which games this server knows, and which are playable yet."""
    games = [GameCard.from_info(info) for info in list_games()]
    response: HTMLResponse = runtime.templates.TemplateResponse(
        request,
        "index.html",
        {
            "games": games,
            "playable": [g for g in games if g.implemented],
            "coming": [g for g in games if not g.implemented],
            "version": __version__,
        },
    )
    return response
