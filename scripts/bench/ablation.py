"""Ablation: each optimisation switched off alone, against the same build with it on.

Every optimisation that costs code exists for one figure a user sees; this step
measures that figure with the optimisation on and off, interleaved (on, off,
off, on, …, so that neither always runs first), and gives the ratio off/on run
by run. An optimisation keeps its place when switching it off costs 5 % or more.

How each is switched off:
- the kept-answer cache: `serve --answer-cache 0`;
- the compiled row plan (stamps beside swift-mustache) and the io_uring ring:
  `serve --ablate row-plan` / `--ablate send-ring`, which the server hands to
  the renderer and to MicroHTTP as their own options (docs/PERFORMANCE.md, Ablation).

Two more were measured once and taken out, as neither bought 5 %: prefetching
the next streams of a fan-out, and MicroHTTP's `-enforce-exclusivity=unchecked`
(docs/perf-history/ablation.md).
"""
from measure import Subscribers, last_event_size
from procs import Server, http, loaded, summary

ROW = "/api/tables/countries/sections/0/rows/0"
PAGE = "/tables/page1k"


def _pairs(tools):
    """(name, figure, measure, the server with it on, with it off): a measure is
    "fan_out" or a function (server, seconds) -> µs; a server is its argv."""
    page = ["--data", tools.data["page"], "--answer-cache", "0"]
    feed = ["--data", tools.data["feed"], "--connection-limit", "20000"]

    def serve(product, *extra):
        return [product, "serve", "--port", "0", "--log-level", "warning", *extra]

    def row(server, seconds):
        return loaded(server, server.base + ROW, seconds, 32)[0]

    def page_row(server, seconds):
        return loaded(server, server.base + PAGE, seconds, 2)[0] / 1000

    return [
        ("kept-answer cache", "JSON row, server CPU µs a request", row,
         serve(tools.product), serve(tools.product, "--answer-cache", "0")),
        ("compiled row plan", "1,000-row page, server CPU µs a row", page_row,
         serve(tools.product, *page), serve(tools.product, *page, "--ablate", "row-plan")),
        ("io_uring send ring", "fan-out to 1,000 subscribers, server CPU µs an event", "fan_out",
         serve(tools.product, *feed), serve(tools.product, *feed, "--ablate", "send-ring")),
    ]


def _fan_out_turns(tools, changes):
    """A measure for each server: CPU µs per delivered event to its 1,000 subscribers,
    who stay connected from the server's first turn to the end of the pair."""
    watching = {}

    def measure(server, round_index):
        subscribers = watching.get(server.name)
        if subscribers is None:
            subscribers = watching[server.name] = Subscribers(tools, server, 1000)

        def change(text):
            status = http(server.port, "PUT", "/api/tables/feed/sections/0/rows/0",
                          body=f'{{"id":"r0","text":"{text}"}}', headers={"Content-Type": "application/json"})[0]
            assert status == 200, status
        return subscribers.per_event_us(change, changes, round_index)
    return measure, watching


def measure(tools, rounds, seconds, changes=100):
    """Each switch: the figure on and off over `rounds` interleaved rounds, and off/on."""
    results = []
    for name, figure, how, on_argv, off_argv in _pairs(tools):
        on = Server("on", on_argv)
        off = Server("off", off_argv)
        watching = {}
        try:
            if how == "fan_out":
                for server in (on, off):
                    http(server.port, "PUT", "/api/tables/feed/sections/0/rows/0", body='{"id":"r0","text":"x"}',
                         headers={"Content-Type": "application/json"})
                assert last_event_size(on.port, "feed") == last_event_size(off.port, "feed")
                turn, watching = _fan_out_turns(tools, changes)
            else:
                def turn(server, _round_index, how=how):
                    return how(server, seconds)
            figures = {"on": [], "off": []}
            for round_index in range(rounds):
                order = [on, off] if round_index % 2 == 0 else [off, on]
                for server in order:
                    figures[server.name].append(turn(server, round_index))
        finally:
            for subscribers in watching.values():
                subscribers.close()
            on.stop()
            off.stop()
        ratios = [b / a for a, b in zip(figures["on"], figures["off"])]
        results.append({"optimisation": name, "figure": figure, "on": summary(figures["on"]),
                        "off": summary(figures["off"]), "off_vs_on": summary(ratios)})
    return results
