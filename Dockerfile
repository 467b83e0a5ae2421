# Viceroy GM in a container. Build: docker build -t viceroy-gm .
# Run:  docker run -d --name viceroy-gm --restart unless-stopped --env-file .env -v viceroy-data:/data viceroy-gm
# The database (and its lock file) live in the /data volume; keep that volume, not the container.

FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY data ./data
COPY engine ./engine
COPY rendering ./rendering
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.12-slim
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    VICEROY_DB=/data/viceroy.db \
    VICEROY_DEMO_DIR=/data/demo-output
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin viceroy \
    && mkdir /data && chown viceroy:viceroy /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER viceroy
WORKDIR /data
VOLUME ["/data"]
# python -m bot closes the gateway, finishes announcements and closes the database on SIGTERM.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
