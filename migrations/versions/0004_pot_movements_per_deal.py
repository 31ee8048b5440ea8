"""Pot movements per deal: their unit and the parameters of their reason code.

Matches now report what each deal moves into or out of a pot (the runtime stores it with
that deal), in cents or in points, and the reason is a code with parameters that the
catalogues translate (``pot.reason.<code>``). Rows written before stored a German text as
the reason; the only one ever written, the Depot's ``"N. Platz"``, becomes the code
``placing`` with ``{"placing": N}``; a reader still maps any other text to ``stored``.

Revision ID: 0004_pot_movements_per_deal
Revises: 0003_chat_and_message_ids
Create Date: 2026-11-23
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_pot_movements_per_deal"
down_revision: str | None = "0003_chat_and_message_ids"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POTS = sa.table(
    "pot_movements",
    sa.column("id", sa.Integer()),
    sa.column("reason", sa.String()),
    sa.column("params", sa.JSON()),
)
OLD_PLACING = re.compile(r"^(\d+)\. Platz$")


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("pot_movements", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("unit", sa.String(length=8), server_default="cents", nullable=False)
        )
        batch_op.add_column(sa.Column("params", sa.JSON(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(POTS.c.id, POTS.c.reason)).all()
    for row_id, reason in rows:
        old = OLD_PLACING.match(reason or "")
        if old:
            connection.execute(
                POTS.update()
                .where(POTS.c.id == row_id)
                .values(reason="placing", params={"placing": int(old.group(1))})
            )


def downgrade() -> None:
    """Revert this revision (placings become their German text again)."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(POTS.c.id, POTS.c.params).where(POTS.c.reason == "placing")
    ).all()
    for row_id, params in rows:
        placing = (params or {}).get("placing")
        connection.execute(
            POTS.update().where(POTS.c.id == row_id).values(reason=f"{placing}. Platz")
        )
    with op.batch_alter_table("pot_movements", schema=None) as batch_op:
        batch_op.drop_column("params")
        batch_op.drop_column("unit")
