# syntax=docker/dockerfile:1
# Souvenir's container image. Docker is not needed to run or test Souvenir; see README "Deployment".
#
# Two stages: `build` installs Souvenir and its dependencies into a virtualenv (with a compiler at hand for
# any dependency without a wheel); `runtime` copies only that virtualenv onto a clean slim image, so no
# compiler, header or pip cache reaches the image that runs.

ARG PYTHON_IMAGE=python:3.12-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/souvenir
WORKDIR /src
# Dependencies first, so editing the code does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p bot adapters memory jobs && touch bot/__init__.py adapters/__init__.py memory/__init__.py jobs/__init__.py \
 && /opt/souvenir/bin/pip install . \
 && /opt/souvenir/bin/pip uninstall -y souvenir
COPY bot ./bot
COPY adapters ./adapters
COPY memory ./memory
COPY jobs ./jobs
RUN /opt/souvenir/bin/pip install --no-deps . \
 && /opt/souvenir/bin/souvenir --version

FROM ${PYTHON_IMAGE} AS runtime
# A fixed uid/gid, so a bind-mounted /data can be chowned to it (chown 10001:10001 ./data).
RUN groupadd --system --gid 10001 souvenir \
 && useradd --system --uid 10001 --gid souvenir --home-dir /home/souvenir --create-home --shell /usr/sbin/nologin souvenir \
 && mkdir -p /data /keys && chown souvenir:souvenir /data /keys && chmod 700 /keys
COPY --from=build /opt/souvenir /opt/souvenir
ENV PATH="/opt/souvenir/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    SOUVENIR_DATA_DIR=/data \
    SOUVENIR_KEY_DIR=/keys \
    SOUVENIR_HTTP_PORT=8080
# Embedded valkey and Qdrant data (when no server is configured), and the admin socket of `souvenir memories`;
# /keys: the per-person data keys with encryption on, apart from the data so erasure reaches its backups.
VOLUME ["/data", "/keys"]
WORKDIR /home/souvenir
USER souvenir:souvenir
# /healthz and /metrics (SOUVENIR_HTTP_PORT); Telegram webhook mode listens on SOUVENIR_TELEGRAM_WEBHOOK_PORT.
EXPOSE 8080
# /healthz answers 200 once Redis, Qdrant and every configured platform are up. The slim image has no curl:
# Python's own urllib asks (it exits non-zero on a connection error or any status but 2xx).
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('SOUVENIR_HTTP_PORT', '8080')}/healthz\", timeout=4)"]
CMD ["souvenir", "run"]
