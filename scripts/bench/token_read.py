"""The cost of a bearer token on a read (docs/ACCESS.md, "Cost"; issue 48's target: a
read with a valid JWT costs at most ×1.15 of the same read without one).

One server with a policy (anonymous requests may read, and so may the role `reader`) and
an HS256 secret serves the reads bench's 100,000-row table. The same row again and again,
then uniformly random rows (`reads.lua`), are read without a credential and with a valid
JWT, taking turns round by round; the token is verified at its first request and looked
up after. A server without any policy reads the same rows for comparison. Figures are
server CPU per request (procs.loaded)."""
import base64
import hashlib
import hmac
import json
import os
import time

import tables
from procs import Server, http, loaded, summary

SECRET = "the bench's HS256 secret, 32 bytes or more"
AUDIENCE = "webtableview"
POLICY = {"anonymous": "read", "rules": [{"tables": ["*"], "role": "reader", "right": "read"}]}
TURNS = ("no policy", "policy, no credential", "policy, bearer JWT")


def token():
    """An HS256 JWT (RFC 7519) of the role `reader`, valid for a day."""
    def encode(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    header = encode(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"sub": "bench", "roles": ["reader"], "aud": AUDIENCE, "exp": int(time.time()) + 86_400}
    payload = encode(json.dumps(claims).encode())
    signature = hmac.new(SECRET.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{encode(signature)}"


PATTERNS = ("same", "uniform")


def measure(tools, rounds, seconds):
    policy, secret = os.path.join(tools.work, "bench-policy.json"), os.path.join(tools.work, "bench-secret")
    with open(policy, "w") as file:
        json.dump(POLICY, file)
    with open(secret, "w") as file:
        file.write(SECRET)
    authorization = {"Authorization": f"Bearer {token()}"}
    plain = Server(TURNS[0], tools.serve("--data", tools.data["reads"]))
    guarded = None
    try:
        guarded = Server(TURNS[1], tools.serve("--data", tools.data["reads"], "--access-policy", policy,
                                               "--jwt-secret-file", secret, "--jwt-audience", AUDIENCE))
        path = "/api/tables/reads/sections/4/rows/1234"
        bodies = {http(plain.port, "GET", path)[2], http(guarded.port, "GET", path)[2],
                  http(guarded.port, "GET", path, headers=authorization)[2]}
        assert len(bodies) == 1, "the three reads answer other bytes"
        os.environ.update(BENCH_TABLE="reads", BENCH_SECTIONS=str(tables.READ_SECTIONS),
                          BENCH_ROWS=str(tables.READ_ROWS))
        script = os.path.join(tools.scripts, "reads.lua")
        turns = [(plain, None), (guarded, None), (guarded, authorization)]
        results = {}
        for pattern in PATTERNS:
            os.environ["BENCH_READS"] = pattern
            for server, headers in turns:
                loaded(server, server.base + "/", seconds, 32, script, headers=headers)
            cpu = {name: [] for name in TURNS}
            for round_index in range(rounds):
                order = turns[round_index % 3:] + turns[:round_index % 3]
                for server, headers in order:
                    name = TURNS[2] if headers else server.name
                    cpu[name].append(loaded(server, server.base + "/", seconds, 32, script, headers=headers)[0])
            bearer, anonymous, unguarded = cpu[TURNS[2]], cpu[TURNS[1]], cpu[TURNS[0]]
            results[pattern] = {
                "cpu": {name: summary(values) for name, values in cpu.items()},
                "bearer_vs_anonymous": summary([a / b for a, b in zip(bearer, anonymous)]),
                "bearer_vs_no_policy": summary([a / b for a, b in zip(bearer, unguarded)])}
    finally:
        for server in (plain, guarded):
            if server:
                server.stop()
    return results


def rows(v):
    """The target row (report.py's table: what, measured, ratio, target, verdict)."""
    if not v:
        return []
    worst = max(v[p]["bearer_vs_anonymous"]["median"] for p in PATTERNS)
    measured = "; ".join(f"{p}: {v[p]['cpu'][TURNS[2]]['median']:.2f} vs {v[p]['cpu'][TURNS[1]]['median']:.2f} µs CPU"
                         for p in PATTERNS)
    return [("read of a row with a valid bearer JWT, against the same read without one (the same row, random rows)",
             measured, "/".join(f"×{v[p]['bearer_vs_anonymous']['median']:.2f}" for p in PATTERNS), "≤ ×1.15",
             "**met**" if worst <= 1.15 else "**not met**")]


def section(v):
    """The raw figures, in Markdown lines."""
    if not v:
        return []
    def spread(s):
        return f"{s['median']:.2f} ({s['min']:.2f}–{s['max']:.2f}, n={s['n']})"
    lines = ["### Reads with a bearer token (the 100,000-row table of the reads above)", "",
             "One server with a policy (anonymous requests and the role `reader` may read) and an HS256 "
             "secret; the same reads without a credential and with a valid JWT take turns with those of a "
             "server without a policy (scripts/bench/token_read.py). Server CPU µs a request.", "",
             "| rows read | " + " | ".join(TURNS) + " | JWT vs no credential | JWT vs no policy |",
             "|---|---|---|---|---|---|"]
    for p in PATTERNS:
        lines.append(f"| {p} | " + " | ".join(spread(v[p]["cpu"][name]) for name in TURNS)
                     + f" | {spread(v[p]['bearer_vs_anonymous'])} | {spread(v[p]['bearer_vs_no_policy'])} |")
    return lines + [""]
