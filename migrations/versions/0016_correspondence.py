"""Correspondence play (Fernpartie) and notifications.

``rooms`` gets ``tempo_seconds`` (null: live, as before; else the time per move of a
correspondence match: 12 h, 1, 2, 3 or 7 days) and ``holiday_days`` (the holiday days a
person may take per calendar year in the room's matches).
``turns`` holds, per running match, whose move it is since when and until when (one row
per match; the table keeps it, the start page's "Du bist dran", the deadlines and the
reminders read it). ``holidays`` holds the holidays people took in a room.
``push_subscriptions`` holds the browsers (devices) that asked for Web Push.
``users`` gets ``email``, ``email_verified_at``, ``email_digest`` (wants the daily digest)
and ``digest_sent_at``; ``email_tokens`` holds the open address verifications.
The server's VAPID keys live in ``app_meta`` (made on the first start).

Revision ID: 0016_correspondence
Revises: 0015_fair_shuffle
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_correspondence"
down_revision: str | None = "0015_fair_shuffle"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tempo_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("holiday_days", sa.Integer(), nullable=False, server_default="14")
        )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch_op.add_column(
            sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True)
        )
        batch_op.add_column(
            sa.Column("email_digest", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("digest_sent_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "turns",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reminded", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("notified", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_turns_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_turns_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_turns_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_turns")),
    )
    op.create_index(op.f("ix_turns_user_id"), "turns", ["user_id"])
    op.create_index(op.f("ix_turns_deadline"), "turns", ["deadline"])
    op.create_table(
        "holidays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_holidays_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_holidays_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_holidays")),
    )
    op.create_index(op.f("ix_holidays_user_id"), "holidays", ["user_id"])
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("label", sa.String(length=120), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("last_sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_push_subscriptions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    op.create_index(op.f("ix_push_subscriptions_user_id"), "push_subscriptions", ["user_id"])
    op.create_table(
        "email_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_email_tokens_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_email_tokens")),
    )
    op.create_index(op.f("ix_email_tokens_user_id"), "email_tokens", ["user_id"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index(op.f("ix_email_tokens_user_id"), table_name="email_tokens")
    op.drop_table("email_tokens")
    op.drop_index(op.f("ix_push_subscriptions_user_id"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_index(op.f("ix_holidays_user_id"), table_name="holidays")
    op.drop_table("holidays")
    op.drop_index(op.f("ix_turns_deadline"), table_name="turns")
    op.drop_index(op.f("ix_turns_user_id"), table_name="turns")
    op.drop_table("turns")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("digest_sent_at")
        batch_op.drop_column("email_digest")
        batch_op.drop_column("email_verified_at")
        batch_op.drop_column("email")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("holiday_days")
        batch_op.drop_column("tempo_seconds")
