"""The stand-ins people asked for ("Vertretung für 5 Minuten") outlive a restart.

``matches`` gets ``standin_asked`` (JSON, nullable): for each person of the running match
who asked for a stand-in, when it ends (``{"<user id>": "<ISO time>"}``; null or ``{}``:
nobody asked). A restarted server reads it back and the stand-in plays on for the time
that is left.

Revision ID: 0013_standin_asked
Revises: 0012_standin
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_standin_asked"
down_revision: str | None = "0012_standin"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("standin_asked", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("standin_asked")
