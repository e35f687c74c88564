"""Fixtures: servers (port 0) and private PostgreSQL clusters, all stopped when
the test ends, also when it fails."""

import pytest

from support import BINARY, Database, PostgreSQL, Server


@pytest.fixture
def serve(tmp_path):
    """`serve(*args, name=..., env=..., preexec=...)` starts `webtableview serve` and answers it."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    servers = []

    def start(*args, **options):
        server = Server(tmp_path, *args, **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def cluster():
    """One private PostgreSQL cluster for the whole run, stopped at its end."""
    cluster = PostgreSQL()
    yield cluster
    cluster.destroy()


@pytest.fixture
def postgres(cluster):
    """A fresh, empty database (its URL is `.url`) on a running cluster."""
    if not cluster.running:
        cluster.start()
    yield Database(cluster)
    if not cluster.running:
        cluster.start()
