"""Servers under test and the load on them: start, CPU time, memory, wrk, stop."""
import atexit
import re
import signal
import socket
import statistics
import subprocess
import time

# Quiet time after a measured turn, before its CPU is read and the next turn starts.
# A turn leaves work behind it — the clients' last acknowledgements and connection
# teardown, the loopback's deferred processing, a server's paced event deliveries —
# that the kernel charges to whichever process runs then: without the pause the next
# server in the rotation paid for it. Two copies of the C SSE floor measured back to
# back differed by ×0.67–1.61 round by round, with the pause by ×0.83–1.11
# (docs/perf-history/event-streams.md, *Fan-out: the measurement, and what is left*).
SETTLE_S = 0.5
# Every server started, so that none outlives the script, whatever ends it.
STARTED = []


def process_cpu_clock(pid):
    """The clock id of a process's CPU time, as the kernel builds it (`MAKE_PROCESS_CPUCLOCK`
    with `CPUCLOCK_SCHED`, what glibc's clock_getcpuclockid returns); Python has no binding."""
    return ((~pid) << 3) | 2


class Server:
    """A server process that prints `listening on http://HOST:PORT` first."""

    def __init__(self, name, argv, cwd=None, env=None):
        self.name = name
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
        STARTED.append(self)
        line = self.process.stdout.readline()
        match = re.search(r"listening on http://[^:]+:(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"{name} did not start: {line!r}")
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

    def cpu_us(self):
        """The CPU time of the whole process so far (every thread, living or ended), in
        microseconds, to the nanosecond: the kernel's CPU clock of the process, which
        clock_getcpuclockid(3) would name. `/proc/PID/stat` counts in clock ticks of 10 ms,
        too coarse for a turn of a few hundred milliseconds."""
        return time.clock_gettime_ns(process_cpu_clock(self.process.pid)) / 1000

    def memory_kib(self):
        """(VmRSS, VmHWM) in KiB."""
        values = {}
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0])
        return values["VmRSS"], values["VmHWM"]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@atexit.register
def stop_all():
    for server in STARTED:
        server.stop()


def http(port, method, path, body=None, headers=None, timeout=120):
    """One request on a new connection: (status, headers dict lower-cased, body bytes)."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def wrk(url, seconds, connections, script=None, threads=1, headers=None):
    """Runs wrk; answers (requests, requests per second, non-2xx count)."""
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"]
    if script:
        argv += ["-s", script]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    output = subprocess.run(argv + [url], capture_output=True, text=True, timeout=seconds + 60).stdout
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return requests, rate, int(errors.group(1)) if errors else 0


def loaded(server, url, seconds, connections, script=None, headers=None):
    """wrk against `server`: (server CPU µs per request, requests/s). The server's CPU
    is read SETTLE_S after wrk ends, so that what the requests left behind (paced
    event deliveries, connection teardown) counts with them and not with the next turn."""
    before = server.cpu_us()
    requests, rate, errors = wrk(url, seconds, connections, script, headers=headers)
    time.sleep(SETTLE_S)
    used = server.cpu_us() - before
    if errors:
        raise RuntimeError(f"{server.name}: {errors} error answers from {url}")
    return used / max(requests, 1), rate


def summary(values):
    """Median with min and max."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def first_byte_and_total(port, path):
    """Seconds to the first body byte and to the last, and whether the body was chunked."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        start = time.perf_counter()
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        received = b""
        first = None
        while True:
            data = connection.recv(1 << 16)
            if not data:
                break
            received += data
            if first is None and b"\r\n\r\n" in received and len(received) > received.index(b"\r\n\r\n") + 4:
                first = time.perf_counter() - start
        total = time.perf_counter() - start
    head = received.split(b"\r\n\r\n", 1)[0].lower()
    return first, total, b"transfer-encoding: chunked" in head
