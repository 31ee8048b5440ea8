"""Computer players in rooms: a member row is a person's or a computer player's.

``room_members`` gets its own key ``id`` (the rows of computer players have no account,
so ``(room_id, user_id)`` can no longer be the key; it stays unique for people),
``user_id`` may be NULL (a computer player), ``kind`` (``person`` or ``computer``),
``level`` (a computer player's level: ``einsteiger``, ``stark``) and ``name`` (a computer
player's name in the room, e.g. ``Computer 2``). ``rooms`` gets the computer players' pace:
``computer_pause_min_ms`` and ``computer_pause_max_ms`` (default 800–1500 ms), how long a
computer player waits before its move.

Downgrading removes the computer players from every room (the matches keep their names).

Revision ID: 0011_computer_players
Revises: 0010_game_preferences
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_computer_players"
down_revision: str | None = "0010_game_preferences"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    postgres = op.get_bind().dialect.name == "postgresql"
    # SQLite recreates the table (a new INTEGER PRIMARY KEY numbers the copied rows);
    # PostgreSQL alters it in place (an identity column numbers the existing rows).
    with op.batch_alter_table(
        "room_members", schema=None, recreate="auto" if postgres else "always"
    ) as batch_op:
        batch_op.drop_constraint("pk_room_members", type_="primary")
        batch_op.add_column(sa.Column("id", sa.Integer(), sa.Identity(), nullable=False))
        batch_op.create_primary_key("pk_room_members", ["id"])
        batch_op.alter_column("user_id", existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), server_default="person", nullable=False)
        )
        batch_op.add_column(sa.Column("level", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("name", sa.String(length=40), nullable=True))
        batch_op.create_unique_constraint(
            batch_op.f("uq_room_members_room_id"), ["room_id", "user_id"]
        )
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("computer_pause_min_ms", sa.Integer(), server_default="800", nullable=False)
        )
        batch_op.add_column(
            sa.Column("computer_pause_max_ms", sa.Integer(), server_default="1500", nullable=False)
        )


def downgrade() -> None:
    """Revert this revision."""
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("computer_pause_max_ms")
        batch_op.drop_column("computer_pause_min_ms")
    op.execute("DELETE FROM room_members WHERE user_id IS NULL")
    with op.batch_alter_table(
        "room_members", schema=None, recreate="auto" if postgres else "always"
    ) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_room_members_room_id"), type_="unique")
        batch_op.drop_constraint("pk_room_members", type_="primary")
        batch_op.drop_column("name")
        batch_op.drop_column("level")
        batch_op.drop_column("kind")
        batch_op.drop_column("id")
        batch_op.alter_column("user_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_primary_key("pk_room_members", ["room_id", "user_id"])
