"""Engine errors: every one carries a stable code and a message in English and German.

As in python-chess, malformed input and illegal input are different errors:

* :class:`MalformedError`: the text cannot be read at all (an unknown card, an unknown
  action word, a broken record).
* :class:`IllegalActionError`: the text is understood, but the rules forbid it now
  (out of turn, Farbzwang, a bid too low …). The message names the rule.
* :class:`RecordError`: a deal record cannot be loaded; ``where`` names the position in
  the record (``"hands[1][4]"``, ``"actions[17]"``) and the cause is kept.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: a stable machine-readable ``code`` plus an English and a German text."""

    def __init__(self, code: str, message: str, message_de: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_de = message_de if message_de is not None else message

    def to_json(self) -> dict[str, str]:
        """Return the error as a JSON-ready mapping (code, English and German message)."""
        return {"code": self.code, "message": self.message, "message_de": self.message_de}


class MalformedError(EngineError):
    """The input could not be parsed."""


class IllegalActionError(EngineError):
    """The input is well-formed but the rules do not allow it in this position."""


class RecordError(EngineError):
    """A deal record is invalid; ``where`` points at the offending part of the record."""

    def __init__(self, where: str, cause: EngineError) -> None:
        super().__init__(
            cause.code,
            f"{where}: {cause.message}",
            f"{where}: {cause.message_de}",
        )
        self.where = where
        self.cause = cause
