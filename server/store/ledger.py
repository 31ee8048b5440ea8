"""Rebuilding the stored ledger of every match from its deal records.

The ledger of a deal (``deals.ledger``, the ``score_entries`` and ``pot_movements`` it
makes) and a match's final settlement (``matches.settlement``) are written by the table
when a deal ends. Matches stored before the ledger existed, or by a version that counted
differently, are brought in line by :func:`rebuild_ledgers`: every match's finished deals
are replayed through the engine (each action checked again), and what the ledger says
replaces what was stored. Migration ``0008_ledger`` runs it.

It works on a synchronous connection with its own table definitions (the columns it
reads and writes), so that the migration keeps working whatever the models become.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from server.engine.errors import EngineError
from server.engine.ledger import DealLedger, PotMove
from server.engine.match import Match
from server.engine.record import load_record
from server.engine.registry import new_match
from server.store.log import write_entries

logger = logging.getLogger(__name__)

MATCHES = sa.table(
    "matches",
    sa.column("id", sa.Integer()),
    sa.column("game", sa.String()),
    sa.column("players", sa.JSON()),
    sa.column("config", sa.JSON()),
    sa.column("status", sa.String()),
    sa.column("settlement", sa.JSON()),
)
DEALS = sa.table(
    "deals",
    sa.column("id", sa.Integer()),
    sa.column("match_id", sa.Integer()),
    sa.column("number", sa.Integer()),
    sa.column("record", sa.JSON()),
    sa.column("outcome", sa.JSON()),
    sa.column("ledger", sa.JSON()),
)
ACTIONS = sa.table(
    "actions",
    sa.column("deal_id", sa.Integer()),
    sa.column("seq", sa.Integer()),
    sa.column("seat", sa.Integer()),
    sa.column("text", sa.String()),
)
SCORES = sa.table(
    "score_entries",
    sa.column("id", sa.Integer()),
    sa.column("match_id", sa.Integer()),
    sa.column("deal_id", sa.Integer()),
    sa.column("player", sa.String()),
    sa.column("points", sa.Integer()),
    sa.column("cents", sa.Integer()),
)
POTS = sa.table(
    "pot_movements",
    sa.column("id", sa.Integer()),
    sa.column("match_id", sa.Integer()),
    sa.column("deal_id", sa.Integer()),
    sa.column("pot", sa.String()),
    sa.column("player", sa.String()),
    sa.column("cents", sa.Integer()),
    sa.column("reason", sa.String()),
    sa.column("unit", sa.String()),
    sa.column("params", sa.JSON()),
)


@dataclass
class RebuildReport:
    """What :func:`rebuild_ledgers` did: matches looked at, matches whose stored points,
    money or pots changed, and matches it could not replay (left as they were)."""

    matches: int = 0
    changed: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{len(self.changed)} of {self.matches} matches changed" + (
            f", {len(self.failed)} could not be replayed" if self.failed else ""
        )


def _scores(ledger: DealLedger) -> set[tuple[str, int, int]]:
    return {(e.player, e.points, e.cents) for e in ledger.entries}


def _pots(moves: list[PotMove]) -> list[tuple[str, str, int, str]]:
    return [(m.pot, m.player, m.amount, m.reason) for m in moves]


def _replay(connection: Connection, match: Any) -> tuple[Match[Any], list[tuple[int, DealLedger]]]:
    """The match's engine after its finished deals, and each deal's ledger."""
    engine = new_match(match.game, list(match.players), dict(match.config))
    deals = connection.execute(
        sa.select(DEALS.c.id, DEALS.c.record, DEALS.c.outcome)
        .where(DEALS.c.match_id == match.id)
        .order_by(DEALS.c.number)
    ).all()
    finished = [d for d in deals if d.outcome is not None]
    actions: dict[int, list[list[Any]]] = {d.id: [] for d in finished}
    if finished:
        rows = connection.execute(
            sa.select(ACTIONS.c.deal_id, ACTIONS.c.seat, ACTIONS.c.text)
            .where(ACTIONS.c.deal_id.in_(list(actions)))
            .order_by(ACTIONS.c.deal_id, ACTIONS.c.seq)
        )
        for deal_id, seat, text in rows:
            actions[deal_id].append([seat, text])
    ledgers = []
    for deal in finished:
        engine.record(load_record({**deal.record, "actions": actions[deal.id]}))
        ledgers.append((deal.id, engine.last_ledger()))
    return engine, ledgers


def _rewrite(
    connection: Connection, match: Any, engine: Match[Any], ledgers: list[tuple[int, DealLedger]]
) -> bool:
    """Store the ledgers and the settlement of one match; return whether any stored
    score entry or pot movement changed."""
    stored_scores: dict[int | None, set[tuple[str, int, int]]] = {}
    for row in connection.execute(
        sa.select(SCORES.c.deal_id, SCORES.c.player, SCORES.c.points, SCORES.c.cents).where(
            SCORES.c.match_id == match.id
        )
    ):
        stored_scores.setdefault(row.deal_id, set()).add((row.player, row.points, row.cents))
    stored_pots: dict[int | None, list[tuple[str, str, int, str]]] = {}
    for move in connection.execute(
        sa.select(POTS.c.deal_id, POTS.c.pot, POTS.c.player, POTS.c.cents, POTS.c.reason)
        .where(POTS.c.match_id == match.id)
        .order_by(POTS.c.id)
    ):
        stored_pots.setdefault(move.deal_id, []).append(
            (move.pot, move.player, move.cents, move.reason)
        )
    ended_early = match.status == "ended" and not engine.finished
    closing = engine.closing_now() if ended_early else []
    changed = _pots(closing) != stored_pots.get(None, [])
    for deal_id, ledger in ledgers:
        nonzero = {s for s in _scores(ledger) if s[1] or s[2]}
        old = {s for s in stored_scores.get(deal_id, set()) if s[1] or s[2]}
        changed |= nonzero != old or _pots(ledger.moves()) != stored_pots.get(deal_id, [])
    connection.execute(SCORES.delete().where(SCORES.c.match_id == match.id))
    connection.execute(POTS.delete().where(POTS.c.match_id == match.id))
    for deal_id, ledger in ledgers:
        connection.execute(
            DEALS.update().where(DEALS.c.id == deal_id).values(ledger=ledger.to_json())
        )
        write_entries(connection, match.id, deal_id, ledger)
    write_entries(connection, match.id, None, None, closing)
    settlement = None
    if match.status in ("finished", "ended"):
        settlement = engine.final_settlement(ended_early=match.status == "ended")
    connection.execute(
        MATCHES.update().where(MATCHES.c.id == match.id).values(settlement=settlement)
    )
    return changed


def rebuild_ledgers(connection: Connection) -> RebuildReport:
    """Replay every stored match and store its ledger (see the module text); a match that
    cannot be replayed is left as it was and reported."""
    report = RebuildReport()
    matches = connection.execute(
        sa.select(
            MATCHES.c.id, MATCHES.c.game, MATCHES.c.players, MATCHES.c.config, MATCHES.c.status
        ).order_by(MATCHES.c.id)
    ).all()
    for match in matches:
        report.matches += 1
        try:
            engine, ledgers = _replay(connection, match)
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            logger.warning("match %s cannot be replayed: %s", match.id, exc)
            report.failed.append(match.id)
            continue
        if _rewrite(connection, match, engine, ledgers):
            report.changed.append(match.id)
    return report
