"""A person's choices per game, kept with the account: how the hand is sorted.

``game_preferences`` has one row per account and game that the person changed
(``sort_trumps``, ``sort_order``, ``sort_suits``); without a row the table uses the
defaults. Deleting a user deletes their rows. Downgrading drops the table (everybody
sees the default order again).

Revision ID: 0010_game_preferences
Revises: 0009_pause
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_game_preferences"
down_revision: str | None = "0009_pause"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "game_preferences",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("sort_trumps", sa.String(length=8), nullable=False),
        sa.Column("sort_order", sa.String(length=8), nullable=False),
        sa.Column("sort_suits", sa.String(length=12), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_game_preferences_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "game", name=op.f("pk_game_preferences")),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("game_preferences")
