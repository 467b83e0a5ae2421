"""PostgreSQL only: queued writes go as one script of EXECUTEs with literal values; every value comes back as
written."""

from __future__ import annotations

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage.postgres import _SERVER_SETTINGS, _executes, _literal, _Prepared
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
        # one row at a time (a prepared single-row INSERT) and all at once (a multi-row one)
        insert = "INSERT INTO lit (n, f, t, b) VALUES (?,?,?,?)"
        session = _Prepared()
        await conn.execute(";\n".join(s for r in rows for s in _executes(session, [(insert, [r])])))
        await conn.execute(";\n".join(_executes(session, [(insert, rows)])))
        return [tuple(r) for r in await conn.fetch("SELECT n, f, t, b FROM lit ORDER BY k")]
    finally:
        await conn.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(values, min_size=1, max_size=5))
def test_values_written_by_script_read_back_unchanged(pg_url, rows):
    assert run_sync(_roundtrip(pg_url, rows)) == rows + rows


def test_quotes_and_backslashes_cannot_escape_the_literal(pg_url):
    nasty = ["'); DROP TABLE lit; --", "\\'", "\\", "it''s", "?", "$1", "'\\x00'"]
    rows = [(None, None, t, t.encode()) for t in nasty]
    assert run_sync(_roundtrip(pg_url, rows)) == rows + rows


def test_what_has_no_literal_is_refused():
    with pytest.raises(ValueError, match="NUL"):
        _literal("a\x00b")
    with pytest.raises(TypeError):
        _literal(object())


# ---------------------------------------------------------------- queued writes as prepared statements

def test_writes_to_different_tables_go_as_one_prepared_statement():
    session = _Prepared()
    queued = [("UPDATE games SET version=? WHERE id=?", [(2, 1)]),
              ("INSERT INTO game_events (game_id, seq) VALUES (?,?)", [(1, 5), (1, 6)]),
              ("INSERT INTO outbox (game_id, payload) VALUES (?,?)", [(1, "{}")])]
    first = _executes(session, queued)
    assert len(first) == 2 and first[0].startswith("PREPARE viceroy_w0 AS WITH w0 AS (UPDATE games")
    assert "INSERT INTO game_events (game_id, seq) VALUES ($3,$4), ($5,$6)" in first[0]
    assert first[1] == "EXECUTE viceroy_w0(2, 1, 1, 5, 1, 6, 1, '{}')"
    # the session has it now: the next commit of the same shape only executes it
    assert _executes(session, queued) == ["EXECUTE viceroy_w0(2, 1, 1, 5, 1, 6, 1, '{}')"]


def test_writes_naming_a_common_table_stay_statements_of_their_own_in_order():
    session = _Prepared()
    queued = [("UPDATE timers SET fired=1 WHERE id=?", [(1,), (2,)]),
              ("INSERT INTO game_events (game_id, seq) SELECT ?, MAX(seq) + 1 FROM game_events WHERE game_id=?",
               [(1, 1)]),
              ("DELETE FROM game_events WHERE game_id=?", [(1,)]),
              ("SELECT pg_notify('viceroy_timers', '')", [()])]
    script = _executes(session, queued)
    # timer 1; timer 2 with the event insert (no table in common); the delete names game_events again, so
    # it follows on its own; the notify is not a write and goes as it is
    assert [s for s in script if not s.startswith("PREPARE")] == [
        "EXECUTE viceroy_w0(1)", "EXECUTE viceroy_w1(2, 1, 1)", "EXECUTE viceroy_w2(1)",
        "SELECT pg_notify('viceroy_timers', '')"]
    assert script[2] == ("PREPARE viceroy_w1 AS WITH w0 AS (UPDATE timers SET fired=1 WHERE id=$1),"
                         " w1 AS (INSERT INTO game_events (game_id, seq) SELECT $2, MAX(seq) + 1 FROM game_events"
                         " WHERE game_id=$3) SELECT 1")


async def _failed_script_then_reuse(url: str) -> list[tuple]:
    from bot.storage import Storage

    storage = await Storage.open(url, min_size=1, max_size=1)  # one session: every transaction shares it
    try:
        async with storage.transaction() as tx:
            await tx._write("INSERT INTO user_prefs (user_id, key, value) VALUES (?,?,?)", (1, "a", "x"))
        # The duplicate fails, and the script stops before it prepares the UPDATE that follows it
        with pytest.raises(asyncpg.UniqueViolationError):
            async with storage.transaction() as tx:
                await tx._write("INSERT INTO user_prefs (user_id, key, value) VALUES (?,?,?)", (1, "a", "y"))
                await tx._write("UPDATE user_prefs SET value=? WHERE user_id=?", ("z", 1))
        # ... so the session does not take it for prepared
        async with storage.transaction() as tx:
            await tx._write("UPDATE user_prefs SET value=? WHERE user_id=?", ("w", 1))
        async with storage.reading() as tx:
            return [tuple(r) for r in await tx._all("SELECT user_id, key, value FROM user_prefs")]
    finally:
        await storage.close()


def test_a_failed_commit_does_not_leave_the_session_expecting_statements_it_never_prepared(pg_url):
    assert run_sync(_failed_script_then_reuse(pg_url)) == [(1, "a", "w")]


async def _foreign_keys(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT table_name FROM information_schema.table_constraints"
                                " WHERE constraint_type='FOREIGN KEY'")
        return {r[0] for r in rows}
    finally:
        await conn.close()


def test_postgres_checks_no_foreign_key_on_the_tables_a_submission_writes(pg_url):
    keys = run_sync(_foreign_keys(pg_url))
    assert not keys & {"actions", "snapshots", "timers", "game_events", "outbox"}
    assert {"seats", "drafts", "prompt_messages"} <= keys  # the rest keep theirs


async def _many_shapes(url: str) -> tuple[list[str], list[tuple]]:
    from bot.storage import Storage

    storage = await Storage.open(url, min_size=1, max_size=1)
    try:
        for n in [1, 2, 3, 4, 5, 1, 6]:  # a multi-row INSERT of n rows is a shape of its own
            async with storage.transaction() as tx:
                await tx._write_many("INSERT INTO user_prefs (user_id, key, value) VALUES (?,?,?)",
                                     [(100 + n, f"k{i}", f"v{n}") for i in range(n)])
                await tx._write("DELETE FROM user_prefs WHERE user_id=? AND key='k0'", (100 + n,))
        async with storage.reading() as tx:
            rows = [tuple(r) for r in await tx._all("SELECT user_id, key FROM user_prefs WHERE user_id>100"
                                                       " ORDER BY user_id, key")]
        async with storage._pool.acquire() as conn:
            names = [r[0] for r in await conn.fetch(
                r"SELECT name FROM pg_prepared_statements WHERE name LIKE 'viceroy\_w%' ORDER BY name")]
        return names, rows
    finally:
        await storage.close()


def test_a_session_keeps_a_bounded_number_of_prepared_writes(pg_url, monkeypatch):
    from bot.storage import postgres

    monkeypatch.setattr(postgres, "PREPARED_PER_SESSION", 3)
    names, rows = run_sync(_many_shapes(pg_url))
    assert len(names) <= 3
    # every commit wrote, the evicted shape of n=1 included (prepared again when it came back)
    assert rows == [(100 + n, f"k{i}") for n in (2, 3, 4, 5, 6) for i in range(1, n)]


async def _plans_after_submissions(url: str) -> tuple[int, int]:
    from bot.service import GameService
    from bot.storage import Storage
    from tests.service import toygame
    from tests.service.conftest import started_game

    storage = await Storage.open(url, min_size=1, max_size=1)
    try:
        service = GameService(storage)
        gid, _ = await started_game(service, channel=77, rounds=10)
        for n in range(8):  # past the five custom plans the server would make before trusting a generic one
            pending = await service.pending(gid)
            seat = next(s for s, p in pending.items() if p.waiting)
            action = toygame.default_action(await service.full_state(gid), seat)
            await service.submit(gid, pending[seat].user_id, action, idempotency_key=f"plans{n}")
        async with storage._pool.acquire() as conn:
            row = await conn.fetchrow("SELECT SUM(custom_plans), SUM(generic_plans) FROM pg_prepared_statements")
        return int(row[0]), int(row[1])
    finally:
        await storage.close()


def test_each_statement_runs_on_one_generic_plan_never_planned_again_per_execution(pg_url):
    custom, generic = run_sync(_plans_after_submissions(pg_url))
    assert custom == 0
    assert generic > 0
