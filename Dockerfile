# Stammtisch production image: `docker compose up -d` builds it (see docs/deploy.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

RUN groupadd --system --gid 10001 stammtisch \
    && useradd --system --uid 10001 --gid stammtisch --home-dir /app --shell /usr/sbin/nologin stammtisch

# Dependencies and the package first, so that a change to templates or migrations
# does not reinstall everything: the server's packages exactly as locked (pinned, each
# checked against the lock's hashes; README.md, "Locked dependencies"), then the project
# itself without dependencies, built by the locked setuptools.
COPY requirements/runtime.lock ./requirements/
RUN pip install --require-hashes -r requirements/runtime.lock
COPY pyproject.toml README.md LICENSE ./
COPY server ./server
RUN pip install --no-deps --no-build-isolation --check-build-dependencies . && pip check

# What the server reads from its working directory at run time.
COPY alembic.ini ./
COPY migrations ./migrations
COPY web ./web

USER stammtisch
EXPOSE 8000

# The migrate service overrides this with `alembic upgrade head`. `python -m server` is
# uvicorn with the server's limits (WebSocket message size, no compression; see
# server/api/limits.py); the other flags are uvicorn's. uvicorn trusts X-Forwarded-*
# headers from the addresses in $FORWARDED_ALLOW_IPS (compose sets it).
CMD ["python", "-m", "server", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
