"""Score entries as each game counts a deal: a sitting-out dealer may pay or receive.

A deal's score entries (``score_entries``: points and cents per player of the match) used to
be each seat's ``settlement`` from the deal's outcome, and nothing for whoever sat out. The
games now say how a finished deal counts for everybody at the table
(``Match.deal_points``): in some, a dealer who sits out pays or receives like an opponent.
The entries of every finished deal are worked out again from its stored outcome and record
(rows that already agree are left alone), so that the archive's totals, head-to-head counts
and statistics agree with the sheet. Downgrading writes the seats' settlements back.

Revision ID: 0007_deal_points
Revises: 0006_rooms
Create Date: 2026-11-24
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from server.engine.errors import EngineError

revision: str = "0007_deal_points"
down_revision: str | None = "0006_rooms"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MATCHES = sa.table(
    "matches",
    sa.column("id", sa.Integer()),
    sa.column("game", sa.String()),
    sa.column("players", sa.JSON()),
    sa.column("config", sa.JSON()),
)
DEALS = sa.table(
    "deals",
    sa.column("id", sa.Integer()),
    sa.column("match_id", sa.Integer()),
    sa.column("record", sa.JSON()),
    sa.column("outcome", sa.JSON()),
)
SCORES = sa.table(
    "score_entries",
    sa.column("id", sa.Integer()),
    sa.column("match_id", sa.Integer()),
    sa.column("deal_id", sa.Integer()),
    sa.column("player", sa.String()),
    sa.column("points", sa.Integer()),
    sa.column("cents", sa.Integer()),
)

#: How a deal counts: (game, outcome, seats, dealer) → points per person it names.
Count = Callable[[str, Mapping[str, Any], Sequence[str], str], Mapping[str, int]]


def _by_seat(
    _game: str, outcome: Mapping[str, Any], seats: Sequence[str], _dealer: str
) -> Mapping[str, int]:
    return dict(zip(seats, outcome["settlement"], strict=True))


def _rewrite(count: Count) -> None:
    """Write every finished deal's score entries as ``count`` says."""
    connection = op.get_bind()
    matches = {
        row.id: row
        for row in connection.execute(
            sa.select(MATCHES.c.id, MATCHES.c.game, MATCHES.c.players, MATCHES.c.config)
        )
    }
    stored: dict[tuple[int, str], tuple[int, int]] = {
        (row.deal_id, row.player): (row.id, row.points)
        for row in connection.execute(
            sa.select(SCORES.c.id, SCORES.c.deal_id, SCORES.c.player, SCORES.c.points)
        )
    }
    deals = connection.execute(
        sa.select(DEALS.c.id, DEALS.c.match_id, DEALS.c.record, DEALS.c.outcome)
    ).all()
    for deal in deals:
        match = matches.get(deal.match_id)
        if match is None or not deal.outcome or not deal.record:
            continue  # running deals have no entries yet
        try:
            named = count(match.game, deal.outcome, deal.record["seats"], deal.record["dealer"])
        except (EngineError, KeyError, TypeError, ValueError):
            continue  # a game this server no longer knows, or a damaged row: left as it is
        stake = int((match.config or {}).get("stake_cents", 0))
        for player in match.players:
            points = int(named.get(player, 0))
            values = {"points": points, "cents": points * stake}
            known = stored.get((deal.id, player))
            if known is None:
                connection.execute(
                    SCORES.insert().values(
                        match_id=deal.match_id, deal_id=deal.id, player=player, **values
                    )
                )
            elif known[1] != points:
                connection.execute(SCORES.update().where(SCORES.c.id == known[0]).values(**values))


def upgrade() -> None:
    """Apply this revision: nothing any more. The per-game count it applied
    (``Match.deal_points``) gave way to the match's ledger, and ``0008_ledger``, which
    follows, rewrites every deal's entries from the ledger."""


def downgrade() -> None:
    """Revert this revision (the seats' settlements again)."""
    _rewrite(_by_seat)
