"""The stand-in ("Vertretung") of a room: a computer player who plays for an absent person.

``rooms`` gets ``standin`` (on or off, default on), ``standin_level`` (the stand-in's
level: ``einsteiger``, ``stark``; default ``einsteiger``) and ``standin_delay_seconds``
(how long a person's connections are all offline before the stand-in plays for him;
default 60). Existing rooms get the defaults.

Revision ID: 0012_standin
Revises: 0011_computer_players
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_standin"
down_revision: str | None = "0011_computer_players"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("standin", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
        batch_op.add_column(
            sa.Column(
                "standin_level", sa.String(length=16), server_default="einsteiger", nullable=False
            )
        )
        batch_op.add_column(
            sa.Column("standin_delay_seconds", sa.Integer(), server_default="60", nullable=False)
        )


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("standin_delay_seconds")
        batch_op.drop_column("standin_level")
        batch_op.drop_column("standin")
