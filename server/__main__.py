"""``python -m server``: serve Stammtisch with uvicorn, with the limits it relies on.

    python -m server --host 0.0.0.0 --port 8000 --proxy-headers

runs ``uvicorn server.api.app:app`` with :data:`server.api.limits.UVICORN_OPTIONS` (the
WebSocket message limit, no per-message compression) before the given arguments, which
are uvicorn's own (``--host``, ``--port``, ``--proxy-headers``, ``--log-level`` …).
``make run`` and the Docker image start the server this way.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from server.api.limits import UVICORN_OPTIONS

APP = "server.api.app:app"


def uvicorn_args(args: Sequence[str]) -> list[str]:
    """uvicorn's command line for ``python -m server ARGS``."""
    return [APP, *UVICORN_OPTIONS, *args]


def main(args: Sequence[str] | None = None) -> None:
    """Run uvicorn (its command line, so every uvicorn option works as usual)."""
    from uvicorn.main import main as uvicorn_main

    uvicorn_main.main(
        args=uvicorn_args(sys.argv[1:] if args is None else args), prog_name="python -m server"
    )


if __name__ == "__main__":
    main()
