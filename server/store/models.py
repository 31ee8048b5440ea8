"""SQLAlchemy 2 typed models.

Every table here has an Alembic revision in ``migrations/versions/`` that creates it;
``tests/test_migrations.py`` checks that the two agree. Later issues add users,
sessions, rooms, matches, deals, the action log and score entries.
"""

from __future__ import annotations

from sqlalchemy import MetaData, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Deterministic constraint names, so that Alembic revisions (and SQLite batch
# migrations, which recreate tables) can refer to constraints by name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The declarative base of every Stammtisch table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class AppMeta(Base):
    """Small key/value facts about the installation itself (created by ``0001_initial``)."""

    __tablename__ = "app_meta"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[str] = mapped_column(Text)
