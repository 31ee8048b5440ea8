"""Several server processes: which one owns a running match's table.

``matches`` gets ``owner_epoch`` (integer, default 0): raised by one each time a process
takes the table over (holding the PostgreSQL advisory lock on the match), and checked by
every write of the owner in the write's own transaction, so that a former owner (cut off
or frozen) can never write again; and ``owner_node`` (the name of the process that took it
last, for operators; nullable). One process alone never changes them.

Revision ID: 0014_table_owner
Revises: 0013_standin_asked
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_table_owner"
down_revision: str | None = "0013_standin_asked"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("owner_epoch", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("owner_node", sa.String(length=128), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("owner_node")
        batch_op.drop_column("owner_epoch")
