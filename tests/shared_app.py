"""The server with its shared limits under a Redis key prefix of the test's own, for the
kill test in tests/test_shared_limits.py: uvicorn serves ``tests.shared_app:app`` with
``STAMMTISCH_REDIS_URL`` and ``STAMMTISCH_TEST_REDIS_PREFIX`` set. Its sockets are renewed
every second and stop counting 8 s after their last renewal (instead of every 5 s and
15 s), so that the test need not wait long for the sockets of a killed process.
"""

from __future__ import annotations

import os

from server.api.app import create_app
from server.settings import get_settings
from server.shared_limits import SharedLimits
from server.tables.manager import SOCKETS_PER_USER

settings = get_settings()
app = create_app(settings)
shared = SharedLimits(
    settings.redis_url, os.environ["STAMMTISCH_TEST_REDIS_PREFIX"], socket_limit=SOCKETS_PER_USER
)
shared.sockets.ttl, shared.sockets.heartbeat = 8.0, 1.0
app.state.shared_limits = shared
