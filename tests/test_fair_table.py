"""Fair shuffling at a real table: the room shows the commitment before anybody gives a
seed, the players' seeds are fixed with the match, every deal is dealt from the chain, no
message reveals a deal's seed before its end, and the downloaded match record checks
(``stammtisch verify``)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.pool import NullPool

from server.engine.fair import FairMatch, check_reveal
from server.engine.fair_check import verify_match
from server.engine.registry import get_rules
from server.store import log
from server.store.db import make_engine
from server.store.models import Match, Room
from server.tables.matches import rebuild
from tests.support import api_error
from tests.table_client import Client, make_room, start
from tests.test_tables import connect_all, join_as_spectator, play_to_end, stored_deals


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def stored_fair(db_url: str) -> tuple[list[FairMatch], list[str | None]]:
    """Every match's stored fair shuffling and every room's secret, from the database."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            fairs = (await db.execute(select(Match.fair).order_by(Match.id))).scalars().all()
            secrets = (await db.execute(select(Room.fair_secret))).scalars().all()
        return [FairMatch.from_stored(f) for f in fairs], list(secrets)
    finally:
        await engine.dispose()


async def recovered_next_deal(db_url: str) -> tuple[FairMatch | None, dict[str, Any]]:
    """What a restart would do: the running match loaded from the database as recovery
    loads it, and the record of the deal it would deal next."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with async_sessionmaker(engine)() as session:
            [running] = await log.load_unfinished(session)
        live = rebuild(running.id, running.game, running.players, running.player_ids,
                       running.config, [(d.id, d.number, d.record, d.actions)
                                        for d in running.deals], fair=running.fair)  # fmt: skip
        _deal, record = live.next_deal(random.Random(0))
        return running.fair, record
    finally:
        await engine.dispose()


async def seed_of(client: Client, room: int, commitment: str, seed: str) -> Any:
    return await client.http.put(
        f"/api/rooms/{room}/fair-seed", json={"commitment": commitment, "seed": seed}
    )


def test_a_fair_match_from_the_commitment_to_verify(play_server: tuple[str, str]) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        players, room, token = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"])
        anna, bernd, catrin = players
        sepp = await join_as_spectator(base, token)
        shown = (await anna.http.get(f"/api/rooms/{room}")).json()["fair"]
        assert shown["version"] == 1 and shown["length"] == 1000 and shown["seeded"] == []
        commitment = shown["commitment"]
        (_, [secret]) = await stored_fair(db_url)
        assert secret is not None and secret not in json.dumps(shown)

        # the seeds: only for the commitment shown, only 64 lowercase hex digits, players only
        anna_seed, bernd_seed = "a1" * 32, "b2" * 32
        assert (await seed_of(anna, room, commitment, anna_seed)).status_code == 204
        api_error(await seed_of(bernd, room, "00" * 32, bernd_seed), 409,
                  "fair_commitment_changed")  # fmt: skip
        for bad in ("B2" * 32, "b2" * 31 + "g0", "b2"):
            response = await seed_of(bernd, room, commitment, bad)
            assert response.status_code == 422, (bad, response.text)
        api_error(await seed_of(sepp, room, commitment, "c3" * 32), 403, "not_a_player")
        assert (await seed_of(bernd, room, commitment, bernd_seed)).status_code == 204
        shown = (await catrin.http.get(f"/api/rooms/{room}")).json()["fair"]
        assert shown["seeded"] == sorted([anna.user_id, bernd.user_id])

        await start(anna, room)
        clients = [*players, sepp]
        await connect_all(clients, room)
        fair = anna.snapshot["match"]["fair"]  # type: ignore[index]
        assert fair["commitment"] == commitment and fair["revealed"] is None
        assert fair["player_seeds"] == [anna_seed, bernd_seed, ""]
        game = (await anna.http.get("/api/games/dreierles")).json()
        assert game["shuffle"]["pack"][0] == "T1" and game["shuffle"]["dealing"][0] == [-1, 6]
        # the room has a new commitment for its next match, and nobody's seed for it yet
        after = (await anna.http.get(f"/api/rooms/{room}")).json()["fair"]
        assert after["commitment"] != commitment and after["seeded"] == []
        api_error(await seed_of(anna, room, commitment, anna_seed), 409,
                  "fair_commitment_changed")  # fmt: skip

        # a restart goes on with the same chain: recovery deals deal 2 from its seed
        recovered, second = await recovered_next_deal(db_url)
        assert recovered is not None and recovered.public()["commitment"] == commitment

        await play_to_end(clients, seed=3)
        assert anna.snapshot["match"]["finished"]  # type: ignore[index]
        [stored], _ = await stored_fair(db_url)
        assert stored.public() == {k: fair[k] for k in stored.public()}
        deals = await stored_deals(db_url)
        assert len(deals) == 3
        assert {k: deals[1]["record"][k] for k in ("hands", "talon")} == {
            k: second[k] for k in ("hands", "talon")
        }
        rules = get_rules("dreierles")
        for deal in deals:  # every deal was dealt from the chain and the players' seeds
            seed = stored.seed(deal["number"])
            assert seed is not None
            dealt = rules.fair_deal(seed, stored.player_seeds)
            assert deal["record"]["hands"] == [rules.pack.codes(h) for h in dealt.hands]
            assert deal["record"]["talon"] == [rules.pack.code(c) for c in dealt.talon]

        # no message revealed a deal's seed before the deal's end, nor the secret ever
        for client in clients:
            for number in (1, 2, 3):
                seed_hex = stored.chain.seed(number).hex()
                first = next(i for i, frame in enumerate(client.frames) if seed_hex in frame)
                message = json.loads(client.frames[first])
                assert message["type"] == "snapshot"
                assert message["match"]["fair"]["revealed"] == {"deal": number, "seed": seed_hex}
                assert message["match"]["deal_number"] == number
                assert message["view"]["phase"] == "finished"
                assert check_reveal(bytes.fromhex(seed_hex), number, bytes.fromhex(commitment))
                # before it: this deal's last event had been received
                earlier = [json.loads(f) for f in client.frames[:first]]
                assert any(m["type"] == "event" and m.get("changed", m.get("view", {}))
                           .get("phase") == "finished" for m in earlier)  # fmt: skip
            for later in range(4, 10):
                assert stored.chain.seed(later).hex() not in "".join(client.frames)
            assert stored.chain.secret.hex() not in "".join(client.frames)

        match_id = anna.snapshot["match"]["id"]  # type: ignore[index]
        record = (await anna.http.get(f"/api/history/matches/{match_id}/record")).json()
        assert record["fair"]["seeds"] == [stored.chain.seed(n).hex() for n in (1, 2, 3)]
        assert "secret" not in record["fair"]
        report = verify_match(record)
        assert (report.checked, report.players_with_seeds) == (3, 2)
        for client in clients:
            await client.aclose()

    run(scenario())
