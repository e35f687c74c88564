"""Fixtures: a real server per test (port 0, a --data file the test writes) and
headless Chromium windows, all stopped when the test ends."""

import os
import tempfile

import pytest

from support import BINARY, Server, chromium, script_errors

# Chromium keeps its profile under TMPDIR; give it a folder of its own.
os.environ["TMPDIR"] = tempfile.mkdtemp(prefix="webtableview-browser-")


@pytest.fixture
def serve(tmp_path):
    """`serve(tables, *flags, port=0)` starts the server with those tables and answers it
    (on `port`, e.g. a stopped server's, to start it again)."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    servers = []

    def start(tables, *flags, port=0):
        server = Server(tables, tmp_path, *flags, port=port)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def browser():
    """`browser(**options)` opens a headless Chromium window (see support.chromium);
    the test fails when a page's script threw or logged an error."""
    drivers = []

    def open_window(**options):
        driver = chromium(**options)
        drivers.append(driver)
        return driver

    yield open_window
    errors = []
    for driver in drivers:
        errors += script_errors(driver)
        driver.quit()
    assert errors == [], "the page's scripts failed"
