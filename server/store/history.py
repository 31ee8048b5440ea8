"""The archive's reads: the matches a user may see, a match with its deals and pots, the full
record of a deal, and everything the statistics of a user's circle are computed from.

A user sees a match only if they are a member (player or spectator) of its room; every
function here takes the reader's user id and answers ``None`` (or leaves the match out)
otherwise, so that the caller cannot tell a foreign match from a missing one.

Each function issues a fixed number of queries however many matches and deals there are:
one per kind of row (matches, score sums, deal counts, deals, actions, pots, users), never
one per match or per deal.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.engine.fair import FairMatch
from server.store.log import STANDIN_ACTION, StoredDeal
from server.store.models import (
    ActionRow,
    DealRow,
    Match,
    PotMovement,
    Room,
    RoomMember,
    User,
)


@dataclass
class MatchSummary:
    """A match as the archive lists it, with the ledger's figures: after its last finished
    deal, each person's sheet total (``totals``; empty before the first deal) and money
    (``money_cents``); the final ``settlement`` once it is over (it closes the pots of a
    match stopped early)."""

    id: int
    room_id: int
    room_name: str
    game: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    players: list[str]
    player_ids: list[int]
    config: dict[str, Any]
    deals_finished: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    money_cents: dict[str, int] = field(default_factory=dict)
    settlement: dict[str, Any] | None = None


@dataclass
class StoredPot:
    """One pot movement of a match: the pot, the player, the amount in ``unit`` (``cents``
    or ``points``), the reason code with its parameters, the deal that moved it."""

    pot: str
    player: str
    cents: int
    reason: str
    deal_number: int | None
    unit: str = "cents"
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{pot, player, cents|points, reason, params, deal_number}``."""
        return {
            "pot": self.pot,
            "player": self.player,
            self.unit: self.cents,
            "reason": self.reason,
            "params": dict(self.params),
            "deal_number": self.deal_number,
        }


#: A reason stored as text before reasons became codes ("2. Platz").
_OLD_PLACING = re.compile(r"^(\d+)\. Platz$")


def reason_code(reason: str, params: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """A stored reason as a code with parameters: old texts ("2. Platz") become
    ``("placing", {"placing": 2})``; a text no code matches stays readable as
    ``("stored", {"text": ...})``; codes pass unchanged.

    >>> reason_code("3. Platz", None), reason_code("placing", {"placing": 1})
    (('placing', {'placing': 3}), ('placing', {'placing': 1}))
    """
    old = _OLD_PLACING.match(reason)
    if old:
        return "placing", {"placing": int(old.group(1))}
    if params is None and not re.fullmatch(r"[a-z0-9_]+", reason):
        return "stored", {"text": reason}
    return reason, dict(params or {})


@dataclass
class StandIn:
    """The moves a stand-in made for the person at one seat of a deal: the seat (index into
    the deal's ``seats``), the stand-in's level (of its first move there) and how many
    moves it made."""

    seat: int
    level: str
    actions: int = 0
    #: The indexes of those moves in the deal's actions.
    indexes: list[int] = field(default_factory=list)


def standin_level(client_id: str) -> str:
    """The level in a stand-in's client id (``standin:<level>:<seed>``).

    >>> standin_level("standin:stark:17")
    'stark'
    """
    return client_id[len(STANDIN_ACTION) :].split(":", 1)[0]


@dataclass
class DealWithMatch:
    """A stored deal (with its actions) and the match it belongs to."""

    match: MatchSummary
    deal: StoredDeal


def _member_rooms(user_id: int) -> Select[Any]:
    return select(RoomMember.room_id).where(RoomMember.user_id == user_id)


def _summary(match: Match, room_name: str) -> MatchSummary:
    return MatchSummary(
        id=match.id,
        room_id=match.room_id,
        room_name=room_name,
        game=match.game,
        status=match.status,
        started_at=match.started_at,
        finished_at=match.finished_at,
        players=list(match.players),
        player_ids=list(match.player_ids),
        config=dict(match.config),
        settlement=match.settlement,
    )


async def _add_scores(session: AsyncSession, matches: Sequence[MatchSummary]) -> None:
    """Fill in the ledger's totals and money after the last finished deal of ``matches``,
    and their number of finished deals (two queries in all)."""
    by_id = {m.id: m for m in matches}
    if not by_id:
        return
    counts = (
        select(
            DealRow.match_id,
            func.count(DealRow.id).label("n"),
            func.max(DealRow.number).label("last"),
        )
        .where(DealRow.match_id.in_(by_id), DealRow.finished_at.is_not(None))
        .group_by(DealRow.match_id)
        .subquery()
    )
    rows = await session.execute(
        select(counts.c.match_id, counts.c.n, DealRow.ledger).join(
            DealRow,
            (DealRow.match_id == counts.c.match_id) & (DealRow.number == counts.c.last),
        )
    )
    for match_id, count, ledger in rows.all():
        summary = by_id[match_id]
        summary.deals_finished = int(count)
        for entry in (ledger or {}).get("entries", []):
            summary.totals[entry["player"]] = int(entry["total_points"])
            summary.money_cents[entry["player"]] = int(entry["total_cents"])
    for summary in matches:
        if summary.settlement is not None:  # the pots closed, a Depot paid
            summary.totals = dict(summary.settlement["totals"])
            summary.money_cents = dict(summary.settlement["money_cents"])


async def visible_matches(
    session: AsyncSession, user_id: int, *, game: str | None = None, with_user: int | None = None
) -> list[MatchSummary]:
    """The matches in rooms ``user_id`` is a member of, newest first, with their points;
    only those of ``game`` and those ``with_user`` played in, when given."""
    query = (
        select(Match, Room.name)
        .join(Room, Room.id == Match.room_id)
        .where(Match.room_id.in_(_member_rooms(user_id)))
        .order_by(Match.started_at.desc(), Match.id.desc())
    )
    if game is not None:
        query = query.where(Match.game == game)
    rows = (await session.execute(query)).all()
    matches = [_summary(match, name) for match, name in rows]
    if with_user is not None:
        matches = [m for m in matches if with_user in m.player_ids]
    await _add_scores(session, matches)
    return matches


async def user_names(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, str]:
    """The current display name of each of ``user_ids`` (one query)."""
    ids = set(user_ids)
    if not ids:
        return {}
    rows = await session.execute(select(User.id, User.display_name).where(User.id.in_(ids)))
    return {uid: name for uid, name in rows.all()}


async def match_for_member(
    session: AsyncSession, user_id: int, match_id: int
) -> MatchSummary | None:
    """The match ``match_id`` with its points, or ``None`` when it does not exist or
    ``user_id`` is not a member of its room."""
    row = (
        await session.execute(
            select(Match, Room.name)
            .join(Room, Room.id == Match.room_id)
            .where(Match.id == match_id, Match.room_id.in_(_member_rooms(user_id)))
        )
    ).first()
    if row is None:
        return None
    summary = _summary(row[0], row[1])
    await _add_scores(session, [summary])
    return summary


async def _actions_of(
    session: AsyncSession, deal_ids: Sequence[int]
) -> dict[int, list[tuple[int, str]]]:
    """The action log of each of ``deal_ids`` in sequence order (one query)."""
    actions: dict[int, list[tuple[int, str]]] = defaultdict(list)
    if not deal_ids:
        return actions
    rows = await session.execute(
        select(ActionRow.deal_id, ActionRow.seat, ActionRow.text)
        .where(ActionRow.deal_id.in_(deal_ids))
        .order_by(ActionRow.deal_id, ActionRow.seq)
    )
    for deal_id, seat, text in rows.all():
        actions[deal_id].append((seat, text))
    return actions


async def deals_of_matches(
    session: AsyncSession,
    match_ids: Sequence[int],
    *,
    finished_only: bool = False,
    with_actions: bool = True,
) -> dict[int, list[StoredDeal]]:
    """The deals of each of ``match_ids`` in order, with their action logs (two queries)."""
    result: dict[int, list[StoredDeal]] = {m: [] for m in match_ids}
    if not match_ids:
        return result
    query = (
        select(
            DealRow.id,
            DealRow.match_id,
            DealRow.number,
            DealRow.record,
            DealRow.outcome,
            DealRow.finished_at,
            DealRow.ledger,
        )
        .where(DealRow.match_id.in_(match_ids))
        .order_by(DealRow.match_id, DealRow.number)
    )
    if finished_only:
        query = query.where(DealRow.finished_at.is_not(None))
    rows = (await session.execute(query)).all()
    actions = await _actions_of(session, [r.id for r in rows]) if with_actions else {}
    for deal_id, match_id, number, record, outcome, finished_at, ledger in rows:
        stored = StoredDeal(deal_id, number, record, outcome if finished_at else None)
        stored.ledger = ledger if finished_at else None
        stored.actions = list(actions.get(deal_id, []))
        result[match_id].append(stored)
    return result


async def standins_of_matches(
    session: AsyncSession, match_ids: Sequence[int]
) -> dict[int, list[StandIn]]:
    """Per deal id of ``match_ids``: the seats a stand-in moved for (its stored client id
    starts with ``standin:``), by seat; deals without such a move are left out (one query)."""
    found: dict[int, dict[int, StandIn]] = defaultdict(dict)
    if not match_ids:
        return {}
    rows = await session.execute(
        select(ActionRow.deal_id, ActionRow.seat, ActionRow.client_id, ActionRow.seq)
        .join(DealRow, DealRow.id == ActionRow.deal_id)
        .where(
            DealRow.match_id.in_(match_ids),
            ActionRow.client_id.startswith(STANDIN_ACTION, autoescape=True),
        )
        .order_by(ActionRow.deal_id, ActionRow.seq)
    )
    for deal_id, seat, client_id, seq in rows.all():
        seats = found[deal_id]
        if seat not in seats:
            seats[seat] = StandIn(seat, standin_level(client_id or ""))
        seats[seat].actions += 1
        seats[seat].indexes.append(seq)
    return {deal: sorted(seats.values(), key=lambda s: s.seat) for deal, seats in found.items()}


async def pots_of_match(session: AsyncSession, match_id: int) -> list[StoredPot]:
    """The pot movements of a match, with the number of the deal they belong to."""
    rows = await session.execute(
        select(
            PotMovement.pot,
            PotMovement.player,
            PotMovement.cents,
            PotMovement.reason,
            DealRow.number,
            PotMovement.unit,
            PotMovement.params,
        )
        .outerjoin(DealRow, DealRow.id == PotMovement.deal_id)
        .where(PotMovement.match_id == match_id)
        .order_by(PotMovement.id)
    )
    found = []
    for pot, player, cents, reason, number, unit, params in rows.all():
        code, values = reason_code(reason, params)
        found.append(StoredPot(pot, player, cents, code, number, unit or "cents", values))
    return found


async def deal_for_member(
    session: AsyncSession, user_id: int, deal_id: int
) -> DealWithMatch | None:
    """The deal ``deal_id`` with its actions and its match, or ``None`` when it does not
    exist or ``user_id`` is not a member of the match's room."""
    row = (
        await session.execute(
            select(DealRow, Match, Room.name)
            .join(Match, Match.id == DealRow.match_id)
            .join(Room, Room.id == Match.room_id)
            .where(DealRow.id == deal_id, Match.room_id.in_(_member_rooms(user_id)))
        )
    ).first()
    if row is None:
        return None
    deal, match, room_name = row
    actions = await _actions_of(session, [deal.id])
    finished = deal.finished_at is not None
    stored = StoredDeal(
        deal.id,
        deal.number,
        deal.record,
        deal.outcome if finished else None,
        list(actions.get(deal.id, [])),
        ledger=deal.ledger if finished else None,
    )
    return DealWithMatch(_summary(match, room_name), stored)


async def fair_of_match(session: AsyncSession, match_id: int) -> FairMatch | None:
    """The fair shuffling fixed with a match (with its secret: the caller reveals only
    the seeds of finished deals), or None for a match dealt before it."""
    stored = await session.scalar(select(Match.fair).where(Match.id == match_id))
    return None if stored is None else FairMatch.from_stored(stored)
