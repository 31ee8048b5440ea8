"""The accounts repository (users, guests, passwords, sessions) on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store import accounts
from server.store.errors import (
    ConflictError,
    CredentialsError,
    ForbiddenError,
    InvalidError,
)
from server.store.models import UserSession
from tests.support import TestDatabase, run_with_sessions
from tests.support import store_refused as refused

Sessions = async_sessionmaker[AsyncSession]


def test_register_normalizes_and_hashes(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            user = await accounts.register(db, "Hans.Wurst_1", "geheim123", "  Hans Wurst  ")
            await db.commit()
        assert user.id > 0
        assert user.login == "hans.wurst_1"
        assert user.display_name == "Hans Wurst"
        assert user.is_guest is False
        assert user.password_hash is not None
        assert user.password_hash.startswith("$argon2id$")
        assert "geheim123" not in user.password_hash
        async with sessions() as db:
            again = await accounts.get_user(db, user.id)
            assert again is not None and again.login == "hans.wurst_1"

    run_with_sessions(store_db, scenario)


def test_login_is_unique_regardless_of_case(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            await accounts.register(db, "sepp", "geheim123", "Sepp")
            await db.commit()
        async with sessions() as db:
            with refused(ConflictError, "login_taken"):
                await accounts.register(db, "SEPP", "anderes123", "Der andere Sepp")

    run_with_sessions(store_db, scenario)


@pytest.mark.parametrize("login", ["ab", "x" * 41, "hans wurst", "jürgen", "a/b", ""])
def test_bad_login_names(migrated_db_url: str, login: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            with refused(InvalidError, "bad_login"):
                await accounts.register(db, login, "geheim123", "Name")

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "Hans\nWurst", "Tab\there"])
def test_bad_display_names(migrated_db_url: str, name: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            with refused(InvalidError, "bad_name"):
                await accounts.register(db, "valid_login", "geheim123", name)
            with refused(InvalidError, "bad_name"):
                await accounts.create_guest(db, name)

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_password_rules(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            with refused(InvalidError, "weak_password"):
                await accounts.register(db, "kurz", "1234567", "Kurz")
            with refused(InvalidError, "password_too_long"):
                await accounts.register(db, "lang", "x" * 1025, "Lang")
            user = await accounts.register(db, "genau", "12345678", "Genau acht")
            assert user.id > 0

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_verify_login(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            user = await accounts.register(db, "Resi", "geheim123", "Resi")
            await db.commit()
        async with sessions() as db:
            assert (await accounts.verify_login(db, "resi", "geheim123")).id == user.id
            assert (await accounts.verify_login(db, "RESI", "geheim123")).id == user.id
            with pytest.raises(CredentialsError) as wrong:
                await accounts.verify_login(db, "resi", "geheim124")
            with pytest.raises(CredentialsError) as unknown:
                await accounts.verify_login(db, "niemand", "geheim123")
            with pytest.raises(CredentialsError) as invalid:
                await accounts.verify_login(db, "x", "geheim123")
        assert wrong.value.to_json() == unknown.value.to_json() == invalid.value.to_json()
        assert wrong.value.code == "bad_credentials"

    run_with_sessions(store_db, scenario)


def test_old_hash_is_replaced_on_login(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        weak = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        async with sessions() as db:
            user = await accounts.register(db, "alt", "geheim123", "Alt")
            user.password_hash = weak.hash("geheim123")
            await db.commit()
        async with sessions() as db:
            again = await accounts.verify_login(db, "alt", "geheim123")
            await db.commit()
            assert again.password_hash is not None
            assert not PasswordHasher().check_needs_rehash(again.password_hash)
        async with sessions() as db:
            assert (await accounts.verify_login(db, "alt", "geheim123")).id == user.id

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_guest_and_claim_keep_the_user_id(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            await accounts.register(db, "vergeben", "geheim123", "Schon da")
            guest = await accounts.create_guest(db, " Gast ")
            await db.commit()
        assert guest.is_guest is True
        assert guest.login is None and guest.password_hash is None
        assert guest.display_name == "Gast"
        async with sessions() as db:
            guest_again = await accounts.get_user(db, guest.id)
            assert guest_again is not None
            with refused(ConflictError, "login_taken"):
                await accounts.claim_guest(db, guest_again, "Vergeben", "geheim123")
            with refused(InvalidError, "weak_password"):
                await accounts.claim_guest(db, guest_again, "neu", "kurz")
            claimed = await accounts.claim_guest(db, guest_again, "Neu", "geheim123")
            await db.commit()
        assert claimed.id == guest.id
        assert claimed.is_guest is False
        assert claimed.login == "neu"
        async with sessions() as db:
            assert (await accounts.verify_login(db, "neu", "geheim123")).id == guest.id
            with refused(ForbiddenError, "not_a_guest"):
                await accounts.claim_guest(db, claimed, "nochmal", "geheim123")

    run_with_sessions(store_db, scenario)


def test_sessions_store_only_the_hash(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            user = await accounts.register(db, "toni", "geheim123", "Toni")
            token = await accounts.create_session(db, user.id)
            await db.commit()
        assert len(token) >= 43
        async with sessions() as db:
            rows = list(await db.scalars(select(UserSession)))
            assert [r.token_hash for r in rows] == [hashlib.sha256(token.encode()).hexdigest()]
            assert all(token not in r.token_hash for r in rows)
            expires = rows[0].expires_at.replace(tzinfo=UTC)
            expected = datetime.now(UTC) + accounts.SESSION_LIFETIME
            assert abs(expires - expected) < timedelta(minutes=1)

            found = await accounts.user_for_token(db, token)
            assert found is not None and found.id == user.id
            assert await accounts.user_for_token(db, None) is None
            assert await accounts.user_for_token(db, "") is None
            assert await accounts.user_for_token(db, token + "x") is None

            await accounts.delete_session(db, token)
            await db.commit()
            assert await accounts.user_for_token(db, token) is None
            await accounts.delete_session(db, None)  # harmless

    run_with_sessions(store_db, scenario)


def test_expired_sessions_are_refused_and_purged(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            user = await accounts.register(db, "vroni", "geheim123", "Vroni")
            old = await accounts.create_session(db, user.id)
            await db.commit()
        async with sessions() as db:
            row = await db.get(UserSession, accounts.token_hash(old))
            assert row is not None
            row.expires_at = datetime.now(UTC) - timedelta(seconds=1)
            await db.commit()
        async with sessions() as db:
            assert await accounts.user_for_token(db, old) is None
            new = await accounts.create_session(db, user.id)
            await db.commit()
            count = await db.scalar(select(func.count()).select_from(UserSession))
            assert count == 1  # the expired one was removed on the way
            found = await accounts.user_for_token(db, new)
            assert found is not None and found.id == user.id

    run_with_sessions(store_db, scenario)
