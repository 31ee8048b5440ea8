"""One ledger: every deal's ledger stored whole, the final settlement of every match.

``deals`` gains ``ledger`` (the deal's ledger: one entry per person with the sheet's points,
the money, the pot movements and the running totals, with the reasons as codes) and
``matches`` gains ``settlement`` (the final settlement once the match is over). Every
stored match is replayed through the engine and its ledger written
(:func:`server.store.ledger.rebuild_ledgers`): the score entries and pot movements are
replaced by the ledger's, so that old archives show the same numbers as the sheet. The
migration says how many matches changed. Downgrading drops the two columns (the score
entries and pot movements stay as the ledger wrote them).

Revision ID: 0008_ledger
Revises: 0007_deal_points
Create Date: 2026-11-26
"""

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from server.store.ledger import rebuild_ledgers

revision: str = "0008_ledger"
down_revision: str | None = "0007_deal_points"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

logger = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ledger", sa.JSON(), nullable=True))
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("settlement", sa.JSON(), nullable=True))
    report = rebuild_ledgers(op.get_bind())
    logger.info("0008_ledger: the ledger rebuilt, %s", report)


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("settlement")
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.drop_column("ledger")
