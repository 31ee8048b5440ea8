"""Fair shuffling: the hash chain's secret of a room's next match, the players' seeds,
and the fair shuffling fixed with each match.

``rooms`` gets ``fair_secret`` (64 hex digits: the secret ``s_N`` of the room's next
match, whose commitment the room shows); every room there is gets a fresh one here.
``room_members`` gets ``fair_seed`` (the seed a person's browser gave for that match).
``matches`` gets ``fair`` (JSON: version, length, commitment, secret, players' seeds;
null for matches dealt before).

Revision ID: 0015_fair_shuffle
Revises: 0014_table_owner
Create Date: 2026-11-27
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_fair_shuffle"
down_revision: str | None = "0014_table_owner"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fair_secret", sa.String(length=64), nullable=True))
    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fair_seed", sa.String(length=64), nullable=True))
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fair", sa.JSON(), nullable=True))
    connection = op.get_bind()
    rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("fair_secret", sa.String))
    ids = [row[0] for row in connection.execute(sa.select(rooms.c.id))]
    for room_id in ids:  # each room its own secret
        connection.execute(
            rooms.update().where(rooms.c.id == room_id).values(fair_secret=secrets.token_hex(32))
        )


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("fair")
    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.drop_column("fair_seed")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("fair_secret")
