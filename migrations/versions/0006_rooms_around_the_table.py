"""Rooms around the table: the evening's rules, the pause between deals, Revanche, ending.

``rooms`` gains ``match_options`` (the game's match options the room chose, e.g.
Doppelkopf's Pflichtsolo and solo replay switches; NULL: the defaults),
``next_deal_pause_seconds`` (0–120; 0 waits for everybody's "Weiter"), ``rematch`` (the
open Revanche offer: who offered it and who accepted; NULL: none) and ``end_votes`` (the
players who agreed to end the running match early; NULL: nobody).

Revision ID: 0006_rooms
Revises: 0004_pot_movements_per_deal
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_rooms"
down_revision: str | None = "0004_pot_movements_per_deal"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("match_options", sa.JSON(), nullable=True))
        batch_op.add_column(
            sa.Column("next_deal_pause_seconds", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("rematch", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("end_votes", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("end_votes")
        batch_op.drop_column("rematch")
        batch_op.drop_column("next_deal_pause_seconds")
        batch_op.drop_column("match_options")
