"""Alembic environment for Stammtisch (async-capable).

The database URL comes from, in order: the ``sqlalchemy.url`` option of the Config
object (tests and :func:`server.store.db.alembic_config` set it), else ``DATABASE_URL``
through :class:`server.settings.Settings`. A caller may also hand over an open
synchronous connection as ``config.attributes["connection"]``.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from server.settings import get_settings
from server.store.db import ensure_sqlite_directory, make_engine
from server.store.models import Base

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    """Return the URL to migrate: the Config's ``sqlalchemy.url`` or DATABASE_URL."""
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


def run_migrations_offline() -> None:
    """Emit the migration SQL to stdout without a database (``alembic upgrade --sql``)."""
    url = database_url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    """Run the migrations on an open synchronous connection."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things; batch mode recreates the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    """Open an async engine on the configured URL and run the migrations through it."""
    url = database_url()
    ensure_sqlite_directory(url)
    engine = make_engine(url, pool_pre_ping=False)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    """Run the migrations against a live database (a shared connection or the URL)."""
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
    else:
        asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
