"""Table documents the benchmarks load with `webtableview serve --data`."""
import json


READ_SECTIONS, READ_ROWS = 10, 10_000


def short_rows(count, prefix="r"):
    return [{"id": f"{prefix}{i}", "text": f"Row {i}"} for i in range(count)]


def page_rows(count, first):
    """Rows as a real page draws them: text, detail, an accessory."""
    return [{"id": f"r{i}", "style": "subtitle", "text": f"Row {i}", "detail": f"Detail {i}",
             "accessory": "disclosureIndicator"} for i in range(first, first + count)]


def write(path, tables):
    with open(path, "w") as file:
        json.dump(tables, file, separators=(",", ":"))


def make(folder, large_rows=1_000_000):
    """Writes the data files; answers their paths by name. `large_rows`: the rows of the
    large table the compression step sends as JSON (fewer for `--quick`)."""
    files = {
        # 10,000 rows in 10 sections of 1,000: the page draws every row (at most 1,000 a section).
        # And the 1,000-row page of the compression step, measured against the C floor.
        "page": [{"id": "page10k", "title": "10,000 rows", "sections": [
            {"id": f"s{s}", "header": f"Section {s}", "rows": page_rows(1000, s * 1000)} for s in range(10)]},
            {"id": "page1k", "title": "1,000 rows", "sections": [{"id": "s", "rows": page_rows(1000, 0)}]}],
        "edits": [
            {"id": "rows1k", "sections": [{"id": "s", "rows": short_rows(1_000)}]},
            {"id": "rows1m", "sections": [{"id": "s", "rows": short_rows(1_000_000)}]},
        ],
        # The moves of the writes step, each table alone in its server.
        "writes": [{"id": "rows1k", "sections": [{"id": "s", "rows": short_rows(1_000)}]}],
        "feed": [{"id": "feed", "sections": [{"id": "s", "rows": short_rows(10)}]}],
        # Reads as users make them: 10 sections of 10,000 rows (measure.reads).
        "reads": [{"id": "reads", "sections": [
            {"id": f"s{s}", "rows": short_rows(READ_ROWS, f"s{s}r")} for s in range(READ_SECTIONS)]}],
        # The 1,000-row page, and the large table's JSON, with and without compression.
        "compression": [
            {"id": "page1k", "title": "1,000 rows", "sections": [{"id": "s", "rows": page_rows(1000, 0)}]},
            {"id": "large", "sections": [{"id": "s", "rows": short_rows(large_rows)}]},
        ],
    }
    paths = {}
    for name, tables in files.items():
        paths[name] = f"{folder}/{name}.json"
        write(paths[name], tables)
    return paths
