"""The table's chat, kept with the match; the client's message id of each action.

Chat lines were only held in memory and lost on a restart; now each one is stored before
anyone sees it and the archive shows them with the match. An action row remembers the id
the client gave its message, so that an action resent after a reconnect (the client could
not tell whether it arrived) is recognised and applied at most once, across restarts too.

Revision ID: 0003_chat_and_message_ids
Revises: 0002_play
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_chat_and_message_ids"
down_revision: str | None = "0002_play"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_chat_messages_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chat_messages_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_messages_match_id"), ["match_id"], unique=False)
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("client_id", sa.String(length=80), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("client_id")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_messages_match_id"))
    op.drop_table("chat_messages")
