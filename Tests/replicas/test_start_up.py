"""Start-up against a PostgreSQL that is not there, or refuses (docs/SCALING.md,
"When PostgreSQL is away"): SIGTERM ends the wait at once; only what can mend
is retried, the rest exits 2 with PostgreSQL's own words; readiness comes
back soon after PostgreSQL does."""

import signal
import subprocess
import time

from support import BINARY, free_port, wait_until
from test_replicas import start_replicas


def serve_against(url: str, log) -> subprocess.Popen:
    return subprocess.Popen([str(BINARY), "serve", "--port", "0", "--database", url],
                            stdout=subprocess.DEVNULL, stderr=log)


def test_sigterm_ends_the_wait_for_an_unreachable_database(tmp_path):
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = serve_against(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere", log)
        try:
            wait_until(lambda: "trying again" in log_path.read_text(), "start-up waits for PostgreSQL")
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=5) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def rejected(url: str, tmp_path) -> str:
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = serve_against(url, log)
        try:
            assert process.wait(timeout=30) == 2
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    return log_path.read_text()


def test_a_malformed_url_exits_2_at_once_with_libpqs_reason(postgres, tmp_path):
    assert 'invalid sslmode value: "bogus"' in rejected(postgres.url + "?sslmode=bogus", tmp_path)


def test_a_refused_login_exits_2_at_once_with_postgresqls_reason(postgres, tmp_path):
    url = postgres.url.replace("postgres@", "nobody@")
    assert 'role "nobody" does not exist' in rejected(url, tmp_path)


def test_ready_again_soon_after_postgresql_returns(serve, postgres, tmp_path):
    (replica,) = start_replicas(serve, postgres, tmp_path, 1)
    postgres.stop()
    wait_until(lambda: replica.request("GET", "/readyz")[0] == 503, "the replica says not ready")
    # The outage's length is the scenario: long enough for the reconnection's
    # back-off to reach its longest, which no answer of the replica shows to
    # poll for; what is asserted is how soon it is ready once PostgreSQL is back.
    time.sleep(4)
    postgres.start()  # returns once PostgreSQL accepts connections
    back = time.monotonic()
    wait_until(lambda: replica.request("GET", "/readyz")[0] == 200, "the replica is ready again")
    assert time.monotonic() - back <= 2.5
