"""Persistence: SQLAlchemy 2 (async) models, engine set-up and the schema status check.

The schema itself is owned by Alembic (``migrations/`` at the repository root); this
package never creates tables on its own.
"""
