"""Store URLs for tests: a SQLite file in tmp_path, and a fresh schema on the real PostgreSQL server.

The project's machines (and CI, whose .ci/run starts one where none runs) have PostgreSQL at
127.0.0.1:5432 with trust authentication and a database ``test``; ``CARDSPEC_TEST_PG`` overrides the
URL. Each test gets its own schema (dropped afterwards), so parallel test workers never meet.
"""
import os
import uuid

import pytest

PG_URL = os.environ.get("CARDSPEC_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_available() -> str | None:
    """None when a PostgreSQL server answers at PG_URL, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'cardspec[postgres]')"
    try:
        psycopg.connect(PG_URL, connect_timeout=3).close()
    except Exception as e:
        return f"no PostgreSQL server at {PG_URL}: {e}"
    return None


@pytest.fixture
def pg_url():
    """A PostgreSQL URL whose search_path is a new, empty schema (dropped after the test)."""
    why = pg_available()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"CI must not skip the PostgreSQL tests: {why}")
        pytest.skip(why)
    import psycopg
    schema = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG_URL, autocommit=True) as c:
        c.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in PG_URL else "?"
    yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    with psycopg.connect(PG_URL, autocommit=True) as c:
        c.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """Each test that takes it runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.db"
    return request.getfixturevalue("pg_url")
