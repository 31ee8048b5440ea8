"""The accounts repository (users, guests, passwords, sessions) on SQLite and PostgreSQL,
and the rules for new passwords and names."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.engine.registry import GAMES
from server.store import accounts
from server.store.common_passwords import COMMON_PASSWORDS
from server.store.errors import (
    ConflictError,
    CredentialsError,
    ForbiddenError,
    InvalidError,
)
from server.store.models import User, UserSession
from server.store.names import clean_person_name, name_key
from server.store.passwords import HASHER, default_pool
from tests.support import TestDatabase, run_with_sessions
from tests.support import store_refused as refused

Sessions = async_sessionmaker[AsyncSession]


async def log_in(db: AsyncSession, login: str, password: str) -> User:
    """The three steps of a login, as the HTTP route takes them."""
    found = await accounts.find_credentials(db, login)
    verified = await accounts.check_credentials(found, password)
    return await accounts.finish_login(db, verified)


async def claim(db: AsyncSession, user: User, login: str, password: str) -> User:
    """Check, hash, then claim, as the HTTP route does."""
    stored_login = accounts.check_claim(user, login, password)
    return await accounts.claim_guest(db, user, stored_login, await default_pool().hash(password))


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


@pytest.mark.parametrize(
    "name",
    [
        "", "   ", "x" * 41, "Hans\nWurst", "Tab\there",
        "\u3164", "Anna\u3164", "\u2800", "\u115f\u1160", "\uffa0",  # invisible fillers
        "\u0410\u043dna",  # Cyrillic "Ан" + Latin "na"
        "An\u200bna", "\u200b", "\u2060Anna", "\ufeffAnna", "An\u00adna",  # zero-width
        "\u202eanna", "Anna\u202e", "\u2066Anna\u2069",  # bidi overrides and isolates
        "An\x00na", "\x1b[31mAnna",  # NUL, escape
        "\u0301\u0301", "\u0301Anna", "Anna \u0301", "A" + "\u0301" * 8,  # combining marks
        "\ue000Anna", "Anna\U000f0000",  # private use
        "Anna\u0378", "Anna\U000e0041",  # unassigned, tag character
        "An\u2028na", "An\u1680na",  # line separator, a space other than the plain one
        "\u034f", "A\u034fnna",  # combining grapheme joiner
    ],
)  # fmt: skip
def test_bad_display_names(migrated_db_url: str, name: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            with refused(InvalidError, "bad_name"):
                await accounts.register(db, "valid_login", "geheim123", name)
            with refused(InvalidError, "bad_name"):
                await accounts.create_guest(db, name)

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("  Hans   Wurst ", "Hans Wurst"),
        ("Hans\u00a0Wurst", "Hans Wurst"),  # no-break space
        ("Hans\u3000Wurst", "Hans Wurst"),  # ideographic space
        ("\uff28\uff41\uff4e\uff53", "Hans"),  # fullwidth letters
        ("\u210d\U0001d552\U0001d55f\U0001d564", "Hans"),  # double-struck letters
        ("Zoe\u0308", "Zo\u00eb"),  # composed
        ("Jos\u00e9-Mar\u00eda O'Brien", "Jos\u00e9-Mar\u00eda O'Brien"),
        ("\u0410\u043d\u043d\u0430", "\u0410\u043d\u043d\u0430"),  # all Cyrillic
        ("\u0391\u03bb\u03ad\u03be\u03b7\u03c2", "\u0391\u03bb\u03ad\u03be\u03b7\u03c2"),  # Greek
        ("\u7530\u4e2d\u3055\u3093", "\u7530\u4e2d\u3055\u3093"),  # Han + Hiragana
        ("\uae40\ubbfc\uc218", "\uae40\ubbfc\uc218"),  # Hangul
        ("Sepp \U0001f37a", "Sepp \U0001f37a"),
        ("\u0905\u0928\u093f\u0932", "\u0905\u0928\u093f\u0932"),  # Devanagari with a vowel sign
        ("Kim \uae40", "Kim \uae40"),  # Latin with Hangul
    ],
)  # fmt: skip
def test_names_are_normalised(name: str, expected: str) -> None:
    assert clean_person_name(name) == expected
    assert accounts.clean_display_name(name) == expected


def test_bad_name_messages_say_why() -> None:
    with refused(InvalidError, "bad_name"):
        clean_person_name("\u0410\u043dna")
    with pytest.raises(InvalidError) as mixed:
        clean_person_name("\u0410\u043dna")
    assert "Cyrillic" in mixed.value.message and "Latin" in mixed.value.message
    assert "kyrillisch" in mixed.value.message_de
    with pytest.raises(InvalidError) as hidden:
        clean_person_name("Anna\u3164")
    assert "U+1160" in hidden.value.message  # U+3164 is U+1160 after NFKC
    with pytest.raises(InvalidError) as long:
        clean_person_name("x" * 41)
    assert "40" in long.value.message


def test_names_alike() -> None:
    alike = ["Anna", "anna", "ANNA", " Anna ", "\uff21nna", "\u0410nna", "\u0391nna", "An\u200bna",
             "Anna\u3164"]  # fmt: skip
    assert {name_key(name) for name in alike} == {"anna"}
    assert name_key("Hans  Wurst") == name_key("hans wurst")
    assert (
        len({name_key(n) for n in ["Anna", "Anne", "Anna (2)", "Ana", "\u0410\u043d\u043d\u0430"]})
        == 5
    )


@pytest.mark.parametrize(
    ("password", "login", "name"),
    [
        ("1234567", "kurz", "Kurz"),
        ("12345678", "zahlen", "Zahlen"),
        ("123456789", "zahlen", "Zahlen"),
        ("password", "pw_user", "Pw"),
        ("PassWort", "pw_user", "Pw"),
        ("Passwort123", "pw_user", "Pw"),
        ("hallo123", "pw_user", "Pw"),
        ("schatz123", "pw_user", "Pw"),
        ("  passwort  ", "pw_user", "Pw"),  # surrounding spaces do not help
        ("qwertzuiop", "pw_user", "Pw"),
        (" " * 8, "leer", "Leer"),
        (" " * 20, "leer", "Leer"),
        ("  abc12  ", "kurz", "Kurz"),  # 5 characters and spaces
        ("aaaaaaaa", "gleich", "Gleich"),
        ("abababababab", "gleich", "Gleich"),
        ("11223344", "gleich", "Gleich"),
        ("hans_wurst", "hans_wurst", "Hans"),  # the login
        ("HANS_WURST", "hans_wurst", "Hans"),
        ("hans_wurst99", "hans_wurst", "Hans"),
        ("xhanswurstx", "hans.wurst", "Hans"),  # the login without its punctuation
        ("Zwetschge", "zw_user", "Zwetschge"),  # the display name
        ("zwetschgen-datschi", "zw_user", "Zwetschge"),
        ("Gr\u00fc\u00dfe Sepp!", "sepp_user", "Sepp"),
        # the site's words and the games' (from the registry) with a number around them
        ("Stammtisch2026", "resi", "Resi"),
        ("kartenspiel", "anna123", "Anna"),
        ("Kartenspiel1!", "anna123", "Anna"),
        ("karten-spiel99", "anna123", "Anna"),
        ("tarock123", "resi", "Resi"),
        ("Tarockrunde2025", "resi", "Resi"),
        ("2024sommer", "resi", "Resi"),
        ("hallo12345!", "resi", "Resi"),
        ("Kreuzdame1", "resi", "Resi"),
        ("1234abcd!", "zahlen", "Zahlen"),  # a listed password with "!" behind it
    ],
)
def test_weak_passwords(password: str, login: str, name: str) -> None:
    with refused(InvalidError, "weak_password"):
        accounts.check_password(password, login=login, display_name=name)
    with refused(InvalidError, "weak_password"):
        accounts.check_registration(login, password, name)


@pytest.mark.parametrize(
    ("password", "login", "name"),
    [
        ("geheim123", "resi", "Resi"),
        ("  Kreuz-Bube sticht  ", "sepp", "Sepp"),
        ("x9!Zaq#m", "sepp", "Sepp"),
        ("Trumpf ist Trumpf", "jo", "Jo"),  # a two-letter name is only compared whole
        ("Stammtisch am Freitag", "anna123", "Anna"),  # a site word among others
        ("kartenspiel-42", "anna123", "Anna"),  # a number after a hyphen is not "around"
    ],
)
def test_good_passwords(password: str, login: str, name: str) -> None:
    accounts.check_password(password, login=login, display_name=name)


def test_the_common_password_list() -> None:
    assert len(COMMON_PASSWORDS) >= 300
    for word in ("passwort", "hallo123", "schatzilein", "12345678", "password", "iloveyou"):
        assert word in COMMON_PASSWORDS
    # only what the other rules let through is worth listing
    assert all(len(word) >= accounts.MIN_PASSWORD for word in COMMON_PASSWORDS)
    assert all(word == word.casefold() for word in COMMON_PASSWORDS)


def test_every_game_of_the_registry_with_a_number_is_weak() -> None:
    """The games' words come from the registry, so a new game is covered without a list."""
    for game in GAMES.values():
        for word in (game.name, game.title):
            for password in (f"{word}2026", f"{word}1", f"{word.upper()}123!"):
                if len(password.strip()) >= accounts.MIN_PASSWORD:
                    with refused(InvalidError, "weak_password"):
                        accounts.check_password(password, login="resi", display_name="Resi")


def test_password_rules(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            with refused(InvalidError, "weak_password"):
                await accounts.register(db, "kurz", "1234567", "Kurz")
            with refused(InvalidError, "weak_password"):
                await accounts.register(db, "zahlen", "12345678", "Zahlen")
            with refused(InvalidError, "password_too_long"):
                await accounts.register(db, "lang", "x" * 1025, "Lang")
            user = await accounts.register(db, "genau", "acht-ok!", "Genau acht")
            assert user.id > 0

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_existing_weak_passwords_still_log_in(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            old = User(login="altbestand", display_name="Alt", is_guest=False,
                       password_hash=HASHER.hash("12345678"))  # fmt: skip
            db.add(old)
            await db.commit()
        async with sessions() as db:
            assert (await log_in(db, "altbestand", "12345678")).id == old.id

    run_with_sessions(store_db, scenario)


def test_verify_login(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            user = await accounts.register(db, "Resi", "geheim123", "Resi")
            await db.commit()
        async with sessions() as db:
            assert (await log_in(db, "resi", "geheim123")).id == user.id
            assert (await log_in(db, "RESI", "geheim123")).id == user.id
            with pytest.raises(CredentialsError) as wrong:
                await log_in(db, "resi", "geheim124")
            with pytest.raises(CredentialsError) as unknown:
                await log_in(db, "niemand", "geheim123")
            with pytest.raises(CredentialsError) as invalid:
                await log_in(db, "x", "geheim123")
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
            again = await log_in(db, "alt", "geheim123")
            await db.commit()
            assert again.password_hash is not None
            assert not PasswordHasher().check_needs_rehash(again.password_hash)
        async with sessions() as db:
            assert (await log_in(db, "alt", "geheim123")).id == user.id

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
                await claim(db, guest_again, "Vergeben", "geheim123")
            with refused(InvalidError, "weak_password"):
                await claim(db, guest_again, "neu", "kurz")
            with refused(InvalidError, "weak_password"):
                await claim(db, guest_again, "neu", "gast-neu-123")  # contains the login
            claimed = await claim(db, guest_again, "Neu", "geheim123")
            await db.commit()
        assert claimed.id == guest.id
        assert claimed.is_guest is False
        assert claimed.login == "neu"
        async with sessions() as db:
            assert (await log_in(db, "neu", "geheim123")).id == guest.id
            with refused(ForbiddenError, "not_a_guest"):
                await claim(db, claimed, "nochmal", "geheim123")
            # a claim whose check passed before the account was claimed elsewhere
            with refused(ForbiddenError, "not_a_guest"):
                await accounts.claim_guest(db, claimed, "nochmal", HASHER.hash("geheim123"))

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
