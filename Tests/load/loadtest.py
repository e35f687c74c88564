#!/usr/bin/env python3
"""Load and fault tests of `webtableview serve`, over loopback only.

Each scenario starts its own server (port 0, the URL read from its first line
of output), drives it with asyncio clients on raw sockets, checks what it
promises and stops the server again, whatever happens. Standard library only.

    loadtest.py BINARY readers   1,000 readers and 20 writers on one table, twice: no
                                 error, no stall, no lost write, RSS steady
    loadtest.py BINARY slow      200 slowloris clients while others are served;
                                 idle and stalled connections closed on time
    loadtest.py BINARY sse       2,000 subscribers get every change in order; readers
                                 that stop reading are dropped, memory stays bounded
    loadtest.py BINARY all       the three, in that order

Every scenario prints `load: <scenario>: ...` figures and ends with `PASS` or
`FAIL: reasons`; the process exits 1 when any failed. Each is bounded in time.
"""
import asyncio
import os
import signal
import sys
import time
import traceback

from readers import scenario_readers
from slow import scenario_slow
from sse import scenario_sse
from support import grow_fd_limit, kill_running, log



SCENARIOS = {"readers": scenario_readers, "slow": scenario_slow, "sse": scenario_sse}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in (*SCENARIOS, "all"):
        print(__doc__)
        return 2
    binary, chosen = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGTERM, lambda *_: (kill_running(), os._exit(143)))
    signal.signal(signal.SIGINT, lambda *_: (kill_running(), os._exit(130)))
    grow_fd_limit()
    names = list(SCENARIOS) if chosen == "all" else [chosen]
    results = []
    for name in names:
        began = time.monotonic()
        try:
            passed = asyncio.run(asyncio.wait_for(SCENARIOS[name](binary), 200))
        except Exception as error:
            log(f"load: {name}: FAIL: {error!r}\n{traceback.format_exc()}")
            passed = False
        log(f"load: {name}: {time.monotonic() - began:.0f} s")
        results.append(passed)
    passed = sum(results)
    print(f"load: {passed} passed, {len(results) - passed} failed", flush=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
