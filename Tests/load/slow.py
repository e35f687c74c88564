"""200 slowloris clients; idle and stalled connections closed on time."""

import asyncio
import time

from support import Connection, Server, Verdict, ms, one_request, percentile, table


async def scenario_slow(binary):
    verdict = Verdict("slow")
    timeout = 3
    slow_count, trickle_seconds = 200, 8
    with Server(binary, [table("load", 50)], "--connection-timeout", timeout) as server:
        port = server.port
        request_text = b"GET /api/tables/load HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 64

        # 200 slowloris clients: the request headers one byte a second.
        slow = []
        for _ in range(slow_count):
            slow.append(await Connection.open(port))

        async def trickle(connection):
            for index in range(trickle_seconds):
                if index:
                    await asyncio.sleep(1)
                connection.writer.write(request_text[index:index + 1])
                await connection.writer.drain()
            return time.monotonic()   # the last byte is sent: idle from now on

        trickling = [asyncio.create_task(trickle(c)) for c in slow]

        # Meanwhile: ordinary clients, on new connections and on one kept alive.
        await asyncio.sleep(1.5)
        latencies = []
        errors = []
        kept = await Connection.open(port)
        deadline = time.monotonic() + trickle_seconds - 3
        while time.monotonic() < deadline:
            for use_new in (True, False):
                began = time.monotonic()
                try:
                    if use_new:
                        status, _, _ = await asyncio.wait_for(one_request(port, "GET", "/api/tables/load"), 5)
                    else:
                        status, _, _ = await asyncio.wait_for(kept.request("GET", "/api/tables/load"), 5)
                except Exception as error:
                    errors.append(repr(error))
                    continue
                latencies.append(time.monotonic() - began)
                if status != 200:
                    errors.append(f"status {status}")
            await asyncio.sleep(0.02)
        held = server.established()
        kept.close()
        verdict.figure(
            f"{slow_count} slowloris clients held ({held} server connections), {len(latencies)} ordinary "
            f"requests meanwhile: p50 {ms(percentile(latencies, 0.5))}, max {ms(max(latencies, default=0))}")
        verdict.check(not errors, f"ordinary requests failed while slow clients were connected: {errors[:3]}")
        verdict.check(len(latencies) >= 100, f"only {len(latencies)} ordinary requests were answered")
        verdict.check(max(latencies, default=9) < 0.5,
                      f"an ordinary request took {max(latencies, default=0):.3f} s while slow clients were connected")
        verdict.check(held >= slow_count, f"only {held} connections held for {slow_count} slow clients")

        # They stop sending mid-header: each must be closed after the timeout.
        last_byte = await asyncio.gather(*trickling)

        async def closed_after(connection, since):
            try:
                data = await asyncio.wait_for(connection.reader.read(65536), timeout + 5)
            except asyncio.TimeoutError:
                return None
            except ConnectionError:
                data = b""
            # A 408 or nothing, then the end.
            while data:
                try:
                    data = await asyncio.wait_for(connection.reader.read(65536), timeout + 5)
                except (asyncio.TimeoutError, ConnectionError):
                    break
            return time.monotonic() - since

        # Connections that never send a byte, and kept-alive ones left idle after one answer.
        silent = [await Connection.open(port) for _ in range(50)]
        silent_since = time.monotonic()
        idle = []
        for _ in range(50):
            connection = await Connection.open(port)
            status, _, _ = await connection.request("GET", "/healthz")
            verdict.check(status == 200, f"/healthz answered {status}")
            idle.append(connection)
        idle_since = time.monotonic()

        # An event stream idle for longer than the timeout stays open (it is suspended).
        stream = await Connection.open(port)
        stream.send("GET", "/api/tables/load/events")
        status, headers = await stream.read_head()
        verdict.check(status == 200 and headers.get("content-type", "").startswith("text/event-stream"),
                      f"events answered {status} {headers.get('content-type')}")

        results = await asyncio.gather(
            *(closed_after(c, since) for c, since in zip(slow, last_byte)),
            *(closed_after(c, silent_since) for c in silent),
            *(closed_after(c, idle_since) for c in idle))
        slow_times, silent_times, idle_times = (
            results[:slow_count], results[slow_count:slow_count + 50], results[slow_count + 50:])
        for name, times in (("stalled mid-header", slow_times), ("silent", silent_times), ("idle kept-alive", idle_times)):
            open_still = sum(1 for t in times if t is None)
            closed = [t for t in times if t is not None]
            verdict.figure(f"{name}: {len(closed)}/{len(times)} closed by the server after "
                           f"{min(closed, default=0):.1f}–{max(closed, default=0):.1f} s (timeout {timeout} s)")
            verdict.check(open_still == 0, f"{open_still} {name} connections were still open {timeout + 5} s later")
            verdict.check(all(timeout - 1.01 <= t <= timeout + 2.5 for t in closed),
                          f"{name} connections closed after {min(closed, default=0):.1f}–{max(closed, default=0):.1f} s, "
                          f"not about {timeout} s")

        status, _, content = await one_request(port, "PUT", "/api/tables/load/sections/0/rows/0", {"text": "after idle"})
        verdict.check(status == 200, f"edit answered {status}")
        try:
            # The stream began with its ": connected" comment and retry (docs/API.md).
            data = b""
            async with asyncio.timeout(5):
                while b"event: " not in data:
                    data += await stream.reader.readuntil(b"\n\n")
            verdict.check(b"event: update" in data, f"the idle stream received {data[:80]!r}")
            verdict.figure(f"an event stream idle for {timeout + 5}+ s (over the timeout) still received the next change")
        except Exception as error:
            verdict.check(False, f"an event stream idle over the connection timeout was cut: {error!r}")
        stream.close()
        for connection in slow + silent + idle:
            connection.close()
        verdict.check(server.alive(), "the server died")
        code = server.stop()
        verdict.check(code == 0, f"the server exited with {code} on SIGTERM")
    return verdict.finish()
