"""The server's VAPID key pair (RFC 8292): made on the first start, kept in ``app_meta``.

Push services accept a message for a subscription only when it is signed with the key
whose public half the browser was given when it subscribed (``GET /api/push/key``), so
the key must outlive restarts and be the same for every server process. The first
process that finds no key makes one (an EC P-256 key) and inserts it *if still absent*
(``INSERT … ON CONFLICT DO NOTHING``); then every process reads what the table holds, so
two processes starting at once end up with the one key that was inserted first.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store.models import AppMeta

#: The ``app_meta`` key of the private key (PEM, PKCS#8).
PRIVATE_KEY = "vapid_private_key"


def b64url(data: bytes) -> str:
    """``data`` in unpadded base64url, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True, slots=True)
class VapidKeys:
    """The VAPID key pair: the private key as PEM and the public key for the browsers."""

    private_pem: str

    @property
    def private_key(self) -> ec.EllipticCurvePrivateKey:
        """The private key."""
        key = serialization.load_pem_private_key(self.private_pem.encode("ascii"), None)
        assert isinstance(key, ec.EllipticCurvePrivateKey)
        return key

    @property
    def public_key(self) -> str:
        """The public key as the browser's ``applicationServerKey``: the uncompressed
        point (65 bytes), unpadded base64url."""
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)


def new_private_pem() -> str:
    """A new EC P-256 private key as PEM (PKCS#8)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


async def load_or_create(sessions: async_sessionmaker[AsyncSession]) -> VapidKeys:
    """The installation's VAPID keys; made and stored if there are none yet (race-safe
    between processes: the first insert wins, everyone reads it back)."""
    async with sessions() as session:
        found = await session.scalar(select(AppMeta.value).where(AppMeta.key == PRIVATE_KEY))
        if found is not None:
            return VapidKeys(found)
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        statement = (
            insert(AppMeta)
            .values(key=PRIVATE_KEY, value=new_private_pem())
            .on_conflict_do_nothing(index_elements=["key"])
        )
        await session.execute(statement)
        await session.commit()
        stored = await session.scalar(select(AppMeta.value).where(AppMeta.key == PRIVATE_KEY))
        assert stored is not None
        return VapidKeys(stored)
