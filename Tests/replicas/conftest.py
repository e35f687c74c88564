"""Fixtures: servers (port 0) and private PostgreSQL clusters, all stopped when
the test ends, also when it fails."""

import pytest

from support import BINARY, Database, PostgreSQL, Server


LOG_LINES = 80


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report ends with the last lines each server it started
    wrote to its log, and PostgreSQL's: what the replicas were doing."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    logs = [server.log for server in getattr(item, "servers", [])]
    cluster = getattr(item, "cluster", None)
    if cluster is not None:
        logs.append(cluster.folder / "pg.log")
    for log in logs:
        if log.exists():
            lines = log.read_text(errors="replace").splitlines()[-LOG_LINES:]
            report.sections.append((f"last {len(lines)} lines of {log.name}", "\n".join(lines)))


@pytest.fixture
def serve(tmp_path, request):
    """`serve(*args, name=..., env=..., preexec=...)` starts `webtableview serve` and answers it."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    servers = []
    request.node.servers = servers

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
def postgres(cluster, request):
    """A fresh, empty database (its URL is `.url`) on a running cluster."""
    request.node.cluster = cluster
    if not cluster.running:
        cluster.start()
    yield Database(cluster)
    if not cluster.running:
        cluster.start()
