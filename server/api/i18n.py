"""UI text in German (default) and English: gettext catalogues read with Babel.

Every text the pages and the browser client show lives in ``web/locale/<lang>/*.po``
(one file per area: ``pages.po``, ``table.po``…). Message ids are symbolic keys
(``"table.your_turn"``) so that both languages are full translations and a test can check
that they hold the same keys. Placeholders use Python's named format, ``%(name)s``, which
Babel marks as ``python-format``; the JavaScript side (``web/static/js/i18n.js``) fills
them the same way. Game terms (Sküs, Pagat, Re, Kontra…) stay German in both languages.

The language of a request: ``?lang=`` (when valid) → the ``stammtisch_lang`` cookie →
the logged-in user's stored language → German.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection

logger = logging.getLogger(__name__)

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"
LANG_COOKIE = "stammtisch_lang"


@dataclass(frozen=True, slots=True)
class Catalogs:
    """The merged messages of every language: ``messages[lang][key] -> text``."""

    messages: Mapping[str, Mapping[str, str]]

    def gettext(self, lang: str, key: str, /, **params: object) -> str:
        """The text of ``key`` in ``lang`` with ``params`` filled in; the key itself (and a
        logged warning) when it is missing, so a gap shows instead of breaking the page."""
        text = self.messages.get(lang, {}).get(key)
        if text is None:
            logger.warning("missing UI text %r for language %r", key, lang)
            text = self.messages[DEFAULT_LANGUAGE].get(key, key)
        return text % params if params else text

    def game_key(self, lang: str, area: str, game: str | None, rest: str) -> str | None:
        """The key of a text a game may word its own way: ``<area>.<game>.<rest>`` where
        ``lang`` has it (the game's own catalogue), else the shared ``<area>.<rest>``; None
        when neither exists. A phase is named so (``archive.phase.<game>.<phase>`` before
        ``archive.phase.<phase>``), as ``gameKey`` in ``web/static/js/i18n.js`` does.

        >>> table = Catalogs({"de": {"p.x": "X", "p.g.x": "Gx"}})
        >>> table.game_key("de", "p", "g", "x"), table.game_key("de", "p", "h", "x")
        ('p.g.x', 'p.x')
        >>> table.game_key("de", "p", "g", "y") is None
        True
        """
        known = self.messages.get(lang, {})
        own = f"{area}.{game}.{rest}"
        if game and own in known:
            return own
        shared = f"{area}.{rest}"
        return shared if shared in known else None

    def action_key(self, lang: str, game: str | None, action: str) -> str | None:
        """The key of an action's button label: the game's own ``action.<game>.<text>``,
        else the shared ``action.<text>`` (the text with ``_`` for its spaces), as
        ``actionLabel`` in ``web/static/js/game-info.js`` looks it up; None when neither
        exists. So two games can word the same move differently.

        >>> table = Catalogs({"de": {"action.bid_solo": "Solo", "action.g.bid_solo": "Gsolo"}})
        >>> table.action_key("de", "g", "bid solo"), table.action_key("de", "h", "bid solo")
        ('action.g.bid_solo', 'action.bid_solo')
        >>> table.action_key("de", "g", "pass") is None
        True
        """
        return self.game_key(lang, "action", game, "_".join(action.split()))

    def table(self, lang: str) -> dict[str, str]:
        """Every message of ``lang`` (for the browser client)."""
        return dict(self.messages.get(lang, {}))


def load_catalogs(locale_dir: Path) -> Catalogs:
    """Read every ``<lang>/*.po`` under ``locale_dir``; a key defined twice is an error."""
    messages: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        merged: dict[str, str] = {}
        for path in sorted((locale_dir / lang).glob("*.po")):
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang)
            for message in catalog:
                if not message.id or not isinstance(message.id, str):
                    continue
                if message.id in merged:
                    raise ValueError(f"{path}: message {message.id!r} is defined twice")
                if not isinstance(message.string, str) or not message.string:
                    raise ValueError(f"{path}: message {message.id!r} has no text")
                merged[message.id] = message.string
        messages[lang] = merged
    return Catalogs(messages)


def pick_language(connection: HTTPConnection, user_language: str | None = None) -> str:
    """The language of a request (see the module docstring)."""
    for candidate in (
        connection.query_params.get("lang"),
        connection.cookies.get(LANG_COOKIE),
        user_language,
    ):
        if candidate in LANGUAGES:
            return candidate
    return DEFAULT_LANGUAGE
