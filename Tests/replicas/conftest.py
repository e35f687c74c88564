"""Fixtures: servers (port 0) and private PostgreSQL clusters, all stopped when
the test ends, also when it fails."""

import pytest

from support import BINARY, PostgreSQL, Server


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


@pytest.fixture
def postgres():
    """A fresh PostgreSQL cluster with an empty database `wtv` (its URL is `.url`)."""
    cluster = PostgreSQL()
    yield cluster
    cluster.destroy()
