"""Doppelkopf's own figures of the statistics of a circle (``GameInfo.figures``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def pflichtsoli(summary: Mapping[str, Any], row: Mapping[str, Any] | None) -> dict[int, int]:
    """A Pflichtsolo: a solo its declarer owed the evening, which the score sheet's row
    marks ``obligatory``; one for the declarer's seat, nothing for any other deal.

    >>> pflichtsoli({"declarer": 2, "solo": True}, {"obligatory": True})
    {2: 1}
    >>> pflichtsoli({"declarer": 2, "solo": True}, {"obligatory": False})
    {}
    >>> pflichtsoli({"declarer": 1, "solo": False}, {"obligatory": True})
    {}
    """
    declarer = summary.get("declarer")
    if row is None or declarer is None or not summary.get("solo") or not row.get("obligatory"):
        return {}
    return {int(declarer): 1}
