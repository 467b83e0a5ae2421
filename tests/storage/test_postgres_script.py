"""PostgreSQL only: queued writes go as one script with literal values; every value comes back as written."""

from __future__ import annotations

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage.postgres import _SERVER_SETTINGS, _literal, _script
from tests.pg import run_sync

texts = st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=60)
values = st.tuples(st.one_of(st.none(), st.integers(min_value=-2**63, max_value=2**63 - 1)),
                   st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=True)),
                   st.one_of(st.none(), texts), st.one_of(st.none(), st.binary(max_size=80)))


@pytest.fixture(scope="module")
def pg_url(pg_cluster):
    return pg_cluster.database_url(run_sync(pg_cluster.create_database(template=pg_cluster.template)))


async def _roundtrip(url: str, rows: list[tuple]) -> list[tuple]:
    conn = await asyncpg.connect(url, server_settings=_SERVER_SETTINGS)
    try:
        await conn.execute("CREATE TEMP TABLE lit (n BIGINT, f DOUBLE PRECISION, t TEXT, b BYTEA, k SERIAL)")
        await conn.execute(";\n".join(_script("INSERT INTO lit (n, f, t, b) VALUES (?,?,?,?)", r) for r in rows))
        return [tuple(r) for r in await conn.fetch("SELECT n, f, t, b FROM lit ORDER BY k")]
    finally:
        await conn.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(values, min_size=1, max_size=5))
def test_values_written_by_script_read_back_unchanged(pg_url, rows):
    assert run_sync(_roundtrip(pg_url, rows)) == rows


def test_quotes_and_backslashes_cannot_escape_the_literal(pg_url):
    nasty = ["'); DROP TABLE lit; --", "\\'", "\\", "it''s", "?", "$1", "'\\x00'"]
    rows = [(None, None, t, t.encode()) for t in nasty]
    assert run_sync(_roundtrip(pg_url, rows)) == rows


def test_what_has_no_literal_is_refused():
    with pytest.raises(ValueError, match="NUL"):
        _literal("a\x00b")
    with pytest.raises(TypeError):
        _literal(object())
    with pytest.raises(ValueError, match="placeholders"):
        _script("INSERT INTO t VALUES (?, ?)", (1,))
