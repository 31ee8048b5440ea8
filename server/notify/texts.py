"""The words of the notifications, in the person's language (``web/locale/*/notify.po``).

The functions take the catalogues' lookup (``Catalogs.gettext``: language, key,
parameters) so that this package needs no web layer. Times are written in UTC, which
every reader can place; the push messages also say how much time is left.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from server.notify.mail import Mail


class Translate(Protocol):
    """``Catalogs.gettext``: the text of ``key`` in ``lang`` with ``params`` filled in."""

    def __call__(self, lang: str, key: str, /, **params: object) -> str:
        """The text."""
        ...


@dataclass(frozen=True, slots=True)
class Waiting:
    """A correspondence table waiting for a person's move."""

    match_id: int
    room_id: int
    room: str
    game: str
    deadline: datetime


def when(moment: datetime) -> str:
    """``moment`` as ``2026-11-28 14:05 UTC``."""
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def left(gettext: Translate, lang: str, seconds: float) -> str:
    """The time left, in whole hours (from 2 h on) or minutes."""
    if seconds >= 2 * 3600:
        return gettext(lang, "notify.hours", n=int(seconds // 3600))
    return gettext(lang, "notify.minutes", n=max(0, int(seconds // 60)))


def table_path(room_id: int) -> str:
    """The path of a room's table page."""
    return f"/rooms/{room_id}/table"


def push_message(
    gettext: Translate, lang: str, table: Waiting, level: int, now: datetime
) -> dict[str, Any]:
    """The push payload ``{"title", "body", "url", "tag"}``: "your move" (``level`` 0) or
    the reminder at ``level`` per cent. The tag is the match's, so that a newer message
    replaces the older one on the device."""
    values = {"room": table.room, "game": table.game, "deadline": when(table.deadline)}
    if level:
        title = gettext(lang, "notify.push.reminder.title")
        seconds = (table.deadline - now).total_seconds()
        body = gettext(
            lang, "notify.push.reminder.body", left=left(gettext, lang, seconds), **values
        )
    else:
        title = gettext(lang, "notify.push.turn.title")
        body = gettext(lang, "notify.push.turn.body", **values)
    return {
        "title": title,
        "body": body,
        "url": table_path(table.room_id),
        "tag": f"match-{table.match_id}",
    }


def verification_mail(gettext: Translate, lang: str, to: str, name: str, link: str) -> Mail:
    """The mail with the link that confirms an address."""
    greeting = gettext(lang, "notify.verify.greeting", name=name)
    text = gettext(lang, "notify.verify.text")
    ignore = gettext(lang, "notify.verify.ignore")
    label = gettext(lang, "notify.verify.link")
    e = html.escape
    return Mail(
        to=to,
        subject=gettext(lang, "notify.verify.subject"),
        text=f"{greeting}\n\n{text}\n{link}\n\n{ignore}\n",
        html=(
            f"<p>{e(greeting)}</p><p>{e(text)}</p>"
            f'<p><a href="{e(link)}">{e(label)}</a></p><p>{e(ignore)}</p>'
        ),
    )


def digest_mail(
    gettext: Translate,
    lang: str,
    to: str,
    name: str,
    tables: Sequence[Waiting],
    origin: str,
) -> Mail:
    """The daily digest: every table waiting for the person, with links."""
    if len(tables) == 1:
        subject = gettext(lang, "notify.digest.subject.one")
    else:
        subject = gettext(lang, "notify.digest.subject", n=len(tables))
    greeting = gettext(lang, "notify.verify.greeting", name=name)
    intro = gettext(lang, "notify.digest.intro")
    footer = gettext(lang, "notify.digest.footer")
    account = f"{origin}/account"
    lines, items = [], []
    e = html.escape
    for table in tables:
        line = gettext(
            lang,
            "notify.digest.line",
            room=table.room,
            game=table.game,
            deadline=when(table.deadline),
        )
        link = origin + table_path(table.room_id)
        lines.append(f"- {line}\n  {link}")
        items.append(f'<li><a href="{e(link)}">{e(line)}</a></li>')
    return Mail(
        to=to,
        subject=subject,
        text=f"{greeting} {intro}\n\n" + "\n".join(lines) + f"\n\n{footer} {account}\n",
        html=(
            f"<p>{e(greeting)} {e(intro)}</p><ul>{''.join(items)}</ul>"
            f'<p>{e(footer)} <a href="{e(account)}">{e(account)}</a></p>'
        ),
    )
