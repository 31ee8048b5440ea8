"""The rooms repository (rooms, options, members, seats) on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.engine.registry import GAMES, extra_game, get_rules
from server.store import accounts, rooms
from server.store.errors import (
    ConflictError,
    ForbiddenError,
    InvalidError,
    NotFoundError,
    StoreError,
)
from server.store.models import Room, User
from tests.support import TestDatabase, run_with_sessions
from tests.support import store_refused as refused

Sessions = async_sessionmaker[AsyncSession]


async def guests(db: AsyncSession, *names: str) -> list[User]:
    return [await accounts.create_guest(db, name) for name in names]


async def new_room(db: AsyncSession, host: User, game: str = "doppelkopf", **kw: Any) -> Room:
    return await rooms.create_room(db, host, name=f"{game} am Mittwoch", game=game, **kw)


def seat_names(seated: list[tuple[User | None, Any]]) -> list[str]:
    return [rooms.member_name(user, member) for user, member in seated]


# --------------------------------------------------------------------------- creation


def test_create_room_with_defaults(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            dk = await new_room(db, host, "doppelkopf")
            dl = await new_room(db, host, "dreierles")
            await db.commit()
        async with sessions() as db:
            dk_again = await rooms.get_room(db, dk.id)
            assert dk_again is not None
            assert dk_again.options["dulle"] == "second"
            assert set(dk_again.options) == {
                o.name for o in get_rules("doppelkopf").options if o.per_room
            }
            assert "pflichtsolo" not in dk_again.options
            assert (dk_again.stake_cents, dk_again.rounds, dk_again.status) == (10, 0, "open")
            assert dk_again.allow_spectators is False and dk_again.timer_seconds is None
            dl_again = await rooms.room_by_invite(db, dl.invite_token)
            assert dl_again is not None and dl_again.id == dl.id
            assert dl_again.options["counting"] == "whole"
            assert "final_round" not in dl_again.options
            assert dl_again.rounds == 4
            assert len(dl.invite_token) >= 32 and dl.invite_token != dk.invite_token
            seated = await rooms.players_in_order(db, dk.id)
            assert [(u and u.id, m.role, m.seat_order) for u, m in seated] == [
                (host.id, "player", 0)
            ]
            assert [r.id for r in await rooms.rooms_of_user(db, host.id)] == [dl.id, dk.id]
            assert await rooms.room_by_invite(db, "nope") is None

    run_with_sessions(store_db, scenario)


def test_create_room_with_options(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            room = await new_room(
                db,
                host,
                "doppelkopf",
                options={"dulle": "first", "doppelkopf_augen": 40},
                stake_cents=0,
                rounds=200,
                allow_spectators=True,
                timer_seconds=600,
            )
            assert room.options["dulle"] == "first"
            assert room.options["doppelkopf_augen"] == 40
            assert room.options["schmeissen"] == "neunen_oder_koenige"
            assert (room.stake_cents, room.rounds, room.timer_seconds) == (0, 200, 600)

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


@pytest.mark.parametrize(
    ("kw", "kind", "code"),
    [
        ({"game": "skat"}, InvalidError, "unknown_game"),
        ({"options": {"counting": "halves"}}, InvalidError, "bad_option"),
        ({"options": {"counting": 1}}, InvalidError, "bad_option"),
        ({"options": {"trumpf": "herz"}}, InvalidError, "unknown_option"),
        ({"options": {"final_round": True}}, InvalidError, "option_not_per_room"),
        ({"stake_cents": -1}, InvalidError, "bad_stake"),
        ({"stake_cents": 10001}, InvalidError, "bad_stake"),
        ({"stake_cents": True}, InvalidError, "bad_stake"),
        ({"rounds": 0}, InvalidError, "bad_rounds"),
        ({"rounds": 51}, InvalidError, "bad_rounds"),
        ({"timer_seconds": 9}, InvalidError, "bad_timer"),
        ({"timer_seconds": 601}, InvalidError, "bad_timer"),
        ({"name": "  "}, InvalidError, "bad_room_name"),
        ({"name": "x" * 81}, InvalidError, "bad_room_name"),
        ({"next_deal_pause_seconds": -1}, InvalidError, "bad_pause"),
        ({"next_deal_pause_seconds": 121}, InvalidError, "bad_pause"),
        ({"next_deal_pause_seconds": True}, InvalidError, "bad_pause"),
        ({"match_options": {"counting": "whole"}}, InvalidError, "not_a_match_option"),
        ({"match_options": {"final_round_special": 1}}, InvalidError, "bad_option"),
        ({"match_options": {"solo_replay": False}}, InvalidError, "not_a_match_option"),
        ({"standin_level": "meister"}, InvalidError, "unknown_level"),
        ({"standin_level": 1}, InvalidError, "unknown_level"),
        ({"standin_delay_seconds": 0}, InvalidError, "bad_standin_delay"),
        ({"standin_delay_seconds": 601}, InvalidError, "bad_standin_delay"),
        ({"standin_delay_seconds": True}, InvalidError, "bad_standin_delay"),
        ({"tempo_seconds": 3600}, InvalidError, "bad_tempo"),
        ({"tempo_seconds": 86401}, InvalidError, "bad_tempo"),
        ({"tempo_seconds": 0}, InvalidError, "bad_tempo"),
        ({"tempo_seconds": "86400"}, InvalidError, "bad_tempo"),
        ({"tempo_seconds": 86400, "holiday_days": 61}, InvalidError, "bad_holiday_days"),
        ({"holiday_days": -1}, InvalidError, "bad_holiday_days"),
        ({"holiday_days": True}, InvalidError, "bad_holiday_days"),
    ],
)
def test_create_room_refusals(
    migrated_db_url: str, kw: dict[str, Any], kind: type[StoreError], code: str
) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            args: dict[str, Any] = {"name": "Stammtisch", "game": "dreierles", **kw}
            with refused(kind, code):
                await rooms.create_room(db, host, **args)

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_the_standin_goes_into_the_match_config(migrated_db_url: str) -> None:
    """A room's stand-in (on by default: einsteiger after 60 s) is copied into the match
    config; a room without it has ``standin`` None there."""

    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            plain = await new_room(db, host)
            assert (plain.standin, plain.standin_level, plain.standin_delay_seconds) == (
                True, "einsteiger", 60
            )  # fmt: skip
            strong = await new_room(db, host, standin_level="stark", standin_delay_seconds=5)
            off = await new_room(db, host, standin=False)
            assert rooms.match_config(strong)["standin"] == {"level": "stark", "delay_seconds": 5}
            assert rooms.match_config(off)["standin"] is None

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_a_game_whose_rules_are_not_written_yet_is_refused(migrated_db_url: str) -> None:
    """Every game of the registry is playable now; a new one is listed before its rules
    are written (no ``load``) and a room of it is refused."""
    coming = replace(GAMES["doppen"], name="coming-game", title="Kommt noch", load=None)

    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            with refused(InvalidError, "game_not_playable"):
                await rooms.create_room(db, host, name="Stammtisch", game=coming.name)

    with extra_game(coming):
        run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_bad_option_names_the_option(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            with pytest.raises(InvalidError) as raised:
                await new_room(db, host, "doppelkopf", options={"dulle": "third"})
            assert "dulle" in raised.value.message and "dulle" in raised.value.message_de

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_doppelkopf_rounds_range(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            assert (await new_room(db, host, "doppelkopf", rounds=0)).rounds == 0
            with refused(InvalidError, "bad_rounds"):
                await new_room(db, host, "doppelkopf", rounds=201)
            with refused(InvalidError, "bad_rounds"):
                await new_room(db, host, "doppelkopf", rounds=-1)
            assert (await new_room(db, host, "dreierles", rounds=50)).rounds == 50

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_rounds_rule_is_the_game_description(game: str) -> None:
    rounds = GAMES[game].rounds
    rule = rooms.rounds_rule(game)
    assert (rule.minimum, rule.maximum, rule.default) == (rounds.min, rounds.max, rounds.default)
    assert (rule.minimum == 0) == rounds.open_allowed  # 0 is allowed only as "open"
    assert rooms.seat_limit(game) == max(GAMES[game].players)


# --------------------------------------------------------------------------- joining


def test_join_seats_and_limits(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c, d, e = await guests(db, "A", "B", "C", "D", "E")
            room = await new_room(db, host, "doppelkopf")
            for user in (b, c, d):
                member = await rooms.join_room(db, room, user, "player")
                assert member.role == "player"
            await db.commit()
        async with sessions() as db:
            assert seat_names(await rooms.players_in_order(db, room.id)) == ["A", "B", "C", "D"]
            seated = await rooms.players_in_order(db, room.id)
            assert [m.seat_order for _u, m in seated] == [0, 1, 2, 3]
            again = await rooms.join_room(db, room, b, "player")  # joining twice is harmless
            assert again.seat_order == 1
            with refused(ConflictError, "room_full"):
                await rooms.join_room(db, room, e, "player")
            with refused(ForbiddenError, "spectators_not_allowed"):
                await rooms.join_room(db, room, e, "spectator")
            with refused(InvalidError, "bad_role"):
                await rooms.join_room(db, room, e, "kiebitz")
            assert await rooms.membership(db, room.id, e.id) is None
            c_member = await rooms.membership(db, room.id, c.id)
            assert c_member is not None and (c_member.role, c_member.seat_order) == ("player", 2)
            assert await rooms.seats_free(db, room) == 0

    run_with_sessions(store_db, scenario)


def test_three_player_games_seat_four(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c, d, e = await guests(db, "A", "B", "C", "D", "E")
            room = await new_room(db, host, "dreierles", allow_spectators=True)
            for user in (b, c, d):
                await rooms.join_room(db, room, user, "player")
            with refused(ConflictError, "room_full"):
                await rooms.join_room(db, room, e, "player")
            spectator = await rooms.join_room(db, room, e, "spectator")
            assert (spectator.role, spectator.seat_order) == ("spectator", None)
            everyone = await rooms.members(db, room.id)
            assert [(rooms.member_name(u, m), m.role) for u, m in everyone] == [
                ("A", "player"),
                ("B", "player"),
                ("C", "player"),
                ("D", "player"),
                ("E", "spectator"),
            ]
            assert rooms.seat_limit("dreierles") == 4
            assert rooms.players_to_start("dreierles") == (3, 4)
            assert rooms.players_to_start("doppelkopf") == (4,)

    run_with_sessions(store_db, scenario)


def test_roles_can_switch_while_open(migrated_db_url: str) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c = await guests(db, "A", "B", "C")
            room = await new_room(db, host, "dreierles", allow_spectators=True)
            await rooms.join_room(db, room, b, "player")
            await rooms.join_room(db, room, c, "player")
            await rooms.join_room(db, room, b, "spectator")
            assert seat_names(await rooms.players_in_order(db, room.id)) == ["A", "C"]
            assert [m.seat_order for _u, m in await rooms.players_in_order(db, room.id)] == [0, 1]
            await rooms.join_room(db, room, b, "player")
            assert seat_names(await rooms.players_in_order(db, room.id)) == ["A", "C", "B"]
            with refused(ConflictError, "host_must_play"):
                await rooms.join_room(db, room, host, "spectator")

    run_with_sessions(TestDatabase(migrated_db_url), scenario)


def test_players_join_only_while_open(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c = await guests(db, "A", "B", "C")
            room = await new_room(db, host, "dreierles", allow_spectators=True)
            await rooms.join_room(db, room, b, "player")
            room.status = "playing"
            await db.commit()
        async with sessions() as db:
            room_again = await rooms.get_room(db, room.id)
            assert room_again is not None
            with refused(ConflictError, "room_not_open"):
                await rooms.join_room(db, room_again, c, "player")
            with refused(ConflictError, "room_not_open"):
                await rooms.join_room(db, room_again, b, "spectator")
            watcher = await rooms.join_room(db, room_again, c, "spectator")
            assert watcher.role == "spectator"
            assert await rooms.seats_free(db, room_again) == 0

    run_with_sessions(store_db, scenario)


def test_concurrent_joins_never_overfill(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c, d, e = await guests(db, "A", "B", "C", "D", "E")
            room = await new_room(db, host, "doppelkopf")
            await rooms.join_room(db, room, b, "player")
            await rooms.join_room(db, room, c, "player")
            await db.commit()

        async def join(user: User) -> str:
            async with sessions() as db:
                target = await rooms.get_room(db, room.id)
                assert target is not None
                try:
                    await rooms.join_room(db, target, user, "player")
                    await asyncio.sleep(0.2)  # hold the lock while the other one tries
                    await db.commit()
                except ConflictError as exc:
                    return exc.code
                return "joined"

        results = await asyncio.gather(join(d), join(e))
        assert sorted(results) == ["joined", "room_full"]
        async with sessions() as db:
            assert len(await rooms.players_in_order(db, room.id)) == 4

    run_with_sessions(store_db, scenario)


# --------------------------------------------------------------------------- seats


def test_reorder_seats(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c, outsider = await guests(db, "A", "B", "C", "X")
            room = await new_room(db, host, "dreierles", allow_spectators=True)
            await rooms.join_room(db, room, b, "player")
            await rooms.join_room(db, room, c, "player")
            await rooms.join_room(db, room, outsider, "spectator")
            await db.commit()
        async with sessions() as db:
            seated = await rooms.reorder_seats(db, room.id, host.id, [c.id, host.id, b.id])
            assert seat_names(seated) == ["C", "A", "B"]
            await db.commit()
        async with sessions() as db:
            assert seat_names(await rooms.players_in_order(db, room.id)) == ["C", "A", "B"]
            for order in ([c.id, host.id], [c.id, host.id, b.id, outsider.id], [b.id, b.id, c.id]):
                with refused(InvalidError, "bad_seat_order"):
                    await rooms.reorder_seats(db, room.id, host.id, order)
            with refused(ForbiddenError, "not_host"):
                await rooms.reorder_seats(db, room.id, b.id, [host.id, b.id, c.id])
            with refused(NotFoundError, "room_not_found"):
                await rooms.reorder_seats(db, room.id + 100, host.id, [host.id])

    run_with_sessions(store_db, scenario)


def test_remove_member(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c, d, stranger = await guests(db, "A", "B", "C", "D", "S")
            room = await new_room(db, host, "dreierles")
            for user in (b, c, d):
                await rooms.join_room(db, room, user, "player")
            await db.commit()
        async with sessions() as db:
            with refused(ForbiddenError, "not_host"):
                await rooms.remove_member(db, room.id, b.id, c.id)
            with refused(ConflictError, "cannot_remove_host"):
                await rooms.remove_member(db, room.id, host.id, host.id)
            with refused(NotFoundError, "member_not_found"):
                await rooms.remove_member(db, room.id, host.id, stranger.id)
            with refused(NotFoundError, "room_not_found"):
                await rooms.remove_member(db, room.id, stranger.id, b.id)
            await rooms.remove_member(db, room.id, host.id, b.id)
            await db.commit()
        async with sessions() as db:
            seated = await rooms.players_in_order(db, room.id)
            assert seat_names(seated) == ["A", "C", "D"]
            assert [m.seat_order for _u, m in seated] == [0, 1, 2]
            assert await rooms.membership(db, room.id, b.id) is None
            assert [r.id for r in await rooms.rooms_of_user(db, b.id)] == []
            target = await rooms.get_room(db, room.id)
            assert target is not None
            target.status = "playing"
            await db.commit()
        async with sessions() as db:
            with refused(ConflictError, "room_not_open"):
                await rooms.remove_member(db, room.id, host.id, c.id)

    run_with_sessions(store_db, scenario)


def test_check_can_start(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            host, b, c, d, stranger = await guests(db, "A", "B", "C", "D", "S")
            dk = await new_room(db, host, "doppelkopf")
            dl = await new_room(db, host, "dreierles")
            for user in (b, c):
                await rooms.join_room(db, dk, user, "player")
                await rooms.join_room(db, dl, user, "player")
            await db.commit()
        async with sessions() as db:
            with refused(ConflictError, "not_enough_players"):
                await rooms.check_can_start(db, dk.id, host.id)
            with refused(ForbiddenError, "not_host"):
                await rooms.check_can_start(db, dl.id, b.id)
            with refused(NotFoundError, "room_not_found"):
                await rooms.check_can_start(db, dl.id, stranger.id)
            assert seat_names(await rooms.check_can_start(db, dl.id, host.id)) == ["A", "B", "C"]
            await rooms.join_room(db, dk, d, "player")
            await rooms.join_room(db, dl, d, "player")
            assert len(await rooms.check_can_start(db, dk.id, host.id)) == 4
            assert len(await rooms.check_can_start(db, dl.id, host.id)) == 4
            dk_here = await rooms.get_room(db, dk.id)
            assert dk_here is not None
            dk_here.status = "playing"
            with refused(ConflictError, "room_not_open"):
                await rooms.check_can_start(db, dk.id, host.id)

    run_with_sessions(store_db, scenario)


# --------------------------------------------------------------------------- around the table


def test_match_options_and_pause_are_stored_and_go_into_the_match_config(
    store_db: TestDatabase,
) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            plain = await new_room(db, host, "doppelkopf")
            chosen = await new_room(
                db,
                host,
                "doppelkopf",
                match_options={"pflichtsolo_rule": False, "solo_replay": False},
                next_deal_pause_seconds=120,
            )
            await db.commit()
        async with sessions() as db:
            again = await rooms.get_room(db, chosen.id)
            assert again is not None and again.next_deal_pause_seconds == 120
            assert again.match_options == {
                "start_points": 30,
                "kurzer_limit": 7,
                "depot_cents": 50,
                "vorfuehrung_below": 6,
                "max_solo_replays": 0,
                "pflichtsolo_rule": False,
                "solo_replay": False,
            }
            config = rooms.match_config(again)
            assert config["next_deal_pause_seconds"] == 120
            assert (config["pflichtsolo_rule"], config["solo_replay"]) == (False, False)
            default = await rooms.get_room(db, plain.id)
            assert default is not None
            assert rooms.match_config(default) == {
                **{o.name: o.default for o in rooms.match_options("doppelkopf")},
                "next_deal_pause_seconds": 0,
                "computer_pause_ms": [800, 1500],
                "standin": {"level": "einsteiger", "delay_seconds": 60},
                "tempo_seconds": None,
                "holiday_days": 14,
            }
            assert default.match_options is not None
            assert default.match_options["pflichtsolo_rule"] is True

    run_with_sessions(store_db, scenario)


async def _finished_room(db: AsyncSession, *names: str) -> tuple[Room, list[User]]:
    """A finished room of the players ``names[:-1]``, watched by ``names[-1]``."""
    people = await guests(db, *names)
    room = await new_room(db, people[0], "dreierles", allow_spectators=True)
    for person in people[1:-1]:
        await rooms.join_room(db, room, person, rooms.PLAYER)
    await rooms.join_room(db, room, people[-1], rooms.SPECTATOR)
    room.status = "finished"
    await db.flush()
    return room, people


def offer_of(room: Room) -> object:
    """The room's Revanche offer (read afresh, past the type checker's narrowing)."""
    return room.rematch


def test_rematch_vote(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            room, (anna, bernd, carl, kiebitz) = await _finished_room(
                db, "Anna", "Bernd", "Carl", "Kiebitz"
            )
            with refused(ForbiddenError, "not_a_player"):
                await rooms.rematch_vote(db, room.id, kiebitz.id)
            assert await rooms.rematch_vote(db, room.id, bernd.id) is False
            assert room.rematch == {"by": bernd.id, "accepted": [bernd.id]}
            assert await rooms.rematch_vote(db, room.id, bernd.id) is False
            assert await rooms.rematch_vote(db, room.id, anna.id) is False
            assert room.rematch == {"by": bernd.id, "accepted": [bernd.id, anna.id]}
            assert room.status == "finished"
            assert await rooms.rematch_vote(db, room.id, carl.id) is True
            assert (room.status, offer_of(room)) == ("open", None)
            with refused(ConflictError, "room_not_finished"):
                await rooms.rematch_vote(db, room.id, carl.id)

    run_with_sessions(store_db, scenario)


def test_end_vote_and_end_early(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            room, (anna, bernd, kiebitz) = await _finished_room(db, "Anna", "Bernd", "Kiebitz")
            with refused(ConflictError, "room_not_open"):
                await rooms.end_vote(db, room.id, anna.id, True)
            room.status = "playing"
            await db.flush()
            with refused(ForbiddenError, "not_a_player"):
                await rooms.end_vote(db, room.id, kiebitz.id, True)
            assert await rooms.end_vote(db, room.id, anna.id, True) is False
            assert await rooms.end_vote(db, room.id, anna.id, True) is False
            assert room.end_votes == [anna.id]
            assert await rooms.end_vote(db, room.id, anna.id, False) is False
            assert room.end_votes is None
            assert await rooms.end_vote(db, room.id, bernd.id, True) is False
            assert await rooms.end_vote(db, room.id, anna.id, True) is True
            assert await rooms.end_early(db, room.id) is None  # no match row here
            assert (room.status, room.end_votes) == ("finished", None)

    run_with_sessions(store_db, scenario)


def test_leave_room(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            anna, bernd, carl, kiebitz = await guests(db, "Anna", "Bernd", "Carl", "Kiebitz")
            room = await new_room(db, anna, "dreierles", allow_spectators=True)
            for person in (bernd, carl):
                await rooms.join_room(db, room, person, rooms.PLAYER)
            await rooms.join_room(db, room, kiebitz, rooms.SPECTATOR)
            await rooms.leave_room(db, room.id, bernd.id)
            assert seat_names(await rooms.players_in_order(db, room.id)) == ["Anna", "Carl"]
            assert [m.seat_order for _u, m in await rooms.players_in_order(db, room.id)] == [0, 1]
            await rooms.leave_room(db, room.id, anna.id)
            assert room.host_id == carl.id
            with refused(NotFoundError, "room_not_found"):
                await rooms.leave_room(db, room.id, anna.id)
            room.status = "playing"
            await db.flush()
            with refused(ConflictError, "end_by_agreement"):
                await rooms.leave_room(db, room.id, carl.id)
            await rooms.leave_room(db, room.id, kiebitz.id)  # a spectator always may
            assert seat_names(await rooms.members(db, room.id)) == ["Carl"]
            room.status = "finished"
            room.rematch = {"by": carl.id, "accepted": [carl.id]}
            await db.flush()
            await rooms.leave_room(db, room.id, carl.id)
            assert room.rematch is None and await rooms.members(db, room.id) == []

    run_with_sessions(store_db, scenario)


def test_computer_players_have_seats_but_no_account(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            anna, bernd = await guests(db, "Anna", "Bernd")
            room = await new_room(db, anna, "doppelkopf")
            strong = await rooms.add_computer(db, room.id, anna.id, "stark")
            assert (strong.user_id, strong.kind, strong.level, strong.name) == (
                None, rooms.COMPUTER, "stark", "Computer 1"
            )  # fmt: skip
            await rooms.join_room(db, room, bernd, rooms.PLAYER)
            await rooms.add_computer(db, room.id, anna.id, "einsteiger")
            with refused(ConflictError, "name_taken"):  # a computer player's name is taken
                await rooms.check_name_free_in_rooms(db, bernd.id, "computer 1")
            await rooms.check_name_free_in_rooms(db, bernd.id, "Bernd")  # his own is free
            seated = await rooms.players_in_order(db, room.id)
            assert seat_names(seated) == ["Anna", "Computer 1", "Bernd", "Computer 2"]
            keys = [rooms.member_key(u, m) for u, m in seated]
            assert keys[1] == -strong.id and keys[0] == anna.id
            with refused(ConflictError, "room_full"):
                await rooms.add_computer(db, room.id, anna.id, "stark")
            with refused(ForbiddenError, "not_host"):
                await rooms.add_computer(db, room.id, bernd.id, "stark")
            with refused(InvalidError, "unknown_level"):
                await rooms.add_computer(db, room.id, anna.id, "random")
            await rooms.reorder_seats(db, room.id, anna.id, keys[::-1])
            assert seat_names(await rooms.players_in_order(db, room.id)) == [
                "Computer 2", "Bernd", "Computer 1", "Anna"
            ]  # fmt: skip
            await rooms.remove_computer(db, room.id, anna.id, strong.id)
            with refused(NotFoundError, "computer_not_found"):
                await rooms.remove_computer(db, room.id, anna.id, strong.id)
            seated = await rooms.players_in_order(db, room.id)
            assert [(rooms.member_name(u, m), m.seat_order) for u, m in seated] == [
                ("Computer 2", 0), ("Bernd", 1), ("Anna", 2)
            ]  # fmt: skip
            # computer players neither offer a Revanche nor vote: only people are asked
            assert await rooms._player_ids(db, room.id) == [bernd.id, anna.id]
            # the host's role passes to a person; the last person takes the computers along
            await rooms.leave_room(db, room.id, anna.id)
            assert room.host_id == bernd.id
            await rooms.leave_room(db, room.id, bernd.id)
            assert await rooms.members(db, room.id) == []
            await db.commit()

    run_with_sessions(store_db, scenario)


def test_a_correspondence_room_has_no_turn_timer_and_its_tempo_goes_into_the_config(
    migrated_db_url: str,
) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            (host,) = await guests(db, "Wirt")
            fern = await new_room(db, host, "dreierles", tempo_seconds=172800, holiday_days=60,
                                  timer_seconds=30)  # fmt: skip
            await db.commit()
        async with sessions() as db:
            again = await rooms.get_room(db, fern.id)
            assert again is not None
            assert (again.tempo_seconds, again.holiday_days, again.timer_seconds) == (
                172800, 60, None
            )  # fmt: skip
            config = rooms.match_config(again)
            assert (config["tempo_seconds"], config["holiday_days"]) == (172800, 60)

    run_with_sessions(TestDatabase(migrated_db_url), scenario)
