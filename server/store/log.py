"""Persistence of play: matches, deals, the append-only action log, scores.

The table runtime is the only writer. Actions are only ever inserted (primary key deal +
sequence number, so an action cannot be stored twice); a deal row gets its outcome once.
:func:`load_unfinished` gives recovery everything it needs to replay running matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.errors import ConflictError
from server.store.models import ActionRow, DealRow, Match, PotMovement, Room, ScoreEntry


async def create_match(
    session: AsyncSession,
    room_id: int,
    game: str,
    players: Sequence[str],
    player_ids: Sequence[int],
    config: dict[str, Any],
) -> int:
    """Insert a running match and mark its open room as playing; return the match id.

    Raises :class:`ConflictError` ``room_not_open`` if the room is no longer open (two of
    the host's tabs pressing "start" at once: only one match is created).
    """
    claimed = await session.execute(
        update(Room).where(Room.id == room_id, Room.status == "open").values(status="playing")
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise ConflictError(
            "room_not_open",
            "the match of this room has already started",
            "die Partie dieses Raums hat schon begonnen",
        )
    match = Match(
        room_id=room_id,
        game=game,
        players=list(players),
        player_ids=list(player_ids),
        config=config,
        status="running",
    )
    session.add(match)
    await session.flush()
    return match.id


async def create_deal(
    session: AsyncSession, match_id: int, number: int, record: dict[str, Any]
) -> int:
    """Insert a deal with the chance part of its record; return the deal id."""
    deal = DealRow(match_id=match_id, number=number, record=record)
    session.add(deal)
    await session.flush()
    return deal.id


async def finish_deal(
    session: AsyncSession,
    match_id: int,
    deal_id: int,
    outcome: dict[str, Any],
    points: dict[str, int],
    stake_cents: int,
    pots: Sequence[tuple[str, str, int, str]] = (),
) -> None:
    """Store a deal's outcome and its score entries (and pot movements: pot, player, cents,
    reason)."""
    await session.execute(
        update(DealRow)
        .where(DealRow.id == deal_id, DealRow.outcome.is_(None))
        .values(outcome=outcome, finished_at=datetime.now(UTC))
    )
    session.add_all(
        ScoreEntry(
            match_id=match_id,
            deal_id=deal_id,
            player=name,
            points=pts,
            cents=pts * stake_cents,
        )
        for name, pts in points.items()
    )
    session.add_all(
        PotMovement(match_id=match_id, deal_id=deal_id, pot=pot, player=p, cents=c, reason=r)
        for pot, p, c, r in pots
    )


async def finish_match(session: AsyncSession, match_id: int, room_id: int) -> None:
    """Mark a match and its room as finished."""
    now = datetime.now(UTC)
    await session.execute(
        update(Match).where(Match.id == match_id).values(status="finished", finished_at=now)
    )
    await session.execute(update(Room).where(Room.id == room_id).values(status="finished"))


@dataclass
class StoredDeal:
    """A deal as stored: its record, outcome (if finished) and action log."""

    id: int
    number: int
    record: dict[str, Any]
    outcome: dict[str, Any] | None
    actions: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class StoredMatch:
    """A running match with all its deals in order, as recovery needs it."""

    id: int
    room_id: int
    game: str
    players: list[str]
    player_ids: list[int]
    config: dict[str, Any]
    deals: list[StoredDeal]


async def load_unfinished(session: AsyncSession) -> list[StoredMatch]:
    """Every running match with its deals and their actions (in sequence order)."""
    matches = (await session.scalars(select(Match).where(Match.status == "running"))).all()
    result = []
    for match in matches:
        deals = (
            await session.scalars(
                select(DealRow).where(DealRow.match_id == match.id).order_by(DealRow.number)
            )
        ).all()
        stored = []
        for deal in deals:
            rows = (
                await session.scalars(
                    select(ActionRow).where(ActionRow.deal_id == deal.id).order_by(ActionRow.seq)
                )
            ).all()
            stored.append(
                StoredDeal(
                    deal.id,
                    deal.number,
                    deal.record,
                    deal.outcome,
                    [(r.seat, r.text) for r in rows],
                )
            )
        result.append(
            StoredMatch(
                match.id,
                match.room_id,
                match.game,
                list(match.players),
                list(match.player_ids),
                dict(match.config),
                stored,
            )
        )
    return result
