"""A table paused by agreement stays paused across a restart.

``matches`` gains ``paused_at``: since when the players of a running match have paused its
table (``NULL``: it is not paused). Downgrading drops the column (a paused table then
resumes after the next restart).

Revision ID: 0009_pause
Revises: 0008_ledger
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_pause"
down_revision: str | None = "0008_ledger"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("paused_at")
