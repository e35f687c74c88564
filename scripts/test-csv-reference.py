#!/usr/bin/env python3
"""The CSV reader against an independent reference: Python's `csv` module.

Generates files of every shape a CSV file takes (quoted fields with delimiters,
quotes and line breaks inside, empty cells, quoted empty records, blank lines, a
byte order mark, CRLF, LF or CR line breaks, comma, semicolon or tab, ragged
records), reads each with Python's `csv` and with `webtableview import`, and
requires the same records, cell for cell — or, for a ragged file, the same
problem lines. docs/FORMAT.md, "From a CSV file", states the rules both follow.

Usage: scripts/test-csv-reference.py BINARY [FILES] [SEED]
Prints "N passed, M failed"; exits 1 on any failure, printing the file.
"""
import csv
import io
import json
import os
import random
import subprocess
import sys
import tempfile

PIECES = ["a", "Zü", "日本", "👩‍👩‍👧", " ", ",", ";", "\t", '"', "\n", "\r\n", "\r", "x y", "1", "1.50", "-0", "007", "é"]


def cell(rng, delimiter):
    """A cell: often plain, sometimes awkward, sometimes empty."""
    roll = rng.random()
    if roll < 0.15:
        return ""
    if roll < 0.55:
        return rng.choice(["alpha", "beta", "12", "3.5", "1e3", "007", "x-y", "São Paulo"])
    text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 5)))
    # A leading apostrophe before a formula's first character is the export's
    # guard, which import takes off by design (docs/FORMAT.md, "formulas").
    return text.lstrip("'")


def generate(rng):
    """One file: its bytes, the dialect's delimiter, and whether it is ragged."""
    delimiter = rng.choice([",", ";", "\t"])
    line_break = rng.choice(["\r\n", "\n", "\r"])
    columns = rng.randint(1, 6)
    header = [f"c{index}" for index in range(columns)]
    ragged = rng.random() < 0.2
    records = []
    for _ in range(rng.randint(1, 40)):
        width = columns
        if ragged and rng.random() < 0.1:
            width = max(1, columns + rng.choice([-1, 1]))
        records.append([cell(rng, delimiter) for _ in range(width)])
    out = io.StringIO()
    writer = csv.writer(
        out, delimiter=delimiter, lineterminator=line_break,
        quoting=rng.choice([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))
    writer.writerow(header)
    for record in records:
        if rng.random() < 0.05:
            out.write(line_break)  # a blank line: no record
        if record == [""] * len(record) and len(record) == 1:
            out.write('""' + line_break)  # a quoted empty record is one
        else:
            writer.writerow(record)
    text = out.getvalue()
    data = text.encode("utf-8")
    if rng.random() < 0.2:
        data = b"\xef\xbb\xbf" + data
    return data, delimiter, ragged


def reference(data, delimiter):
    """Python's reading: records (blank lines dropped) with the line each begins on."""
    text = data.decode("utf-8-sig")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    records = []
    previous = 0
    for row in reader:
        start = previous + 1
        previous = reader.line_num
        if row:
            records.append((start, row))
    return records


def ours(binary, path, delimiter):
    """What `webtableview import` makes of the file: (records, problems)."""
    name = {",": ",", ";": ";", "\t": "tab"}[delimiter]
    result = subprocess.run(
        [binary, "import", path, "--text", "1", "--delimiter", name, "--table-id", "t"],
        capture_output=True, check=False)
    if result.returncode != 0:
        problems = [line.split(": ", 1)[1] for line in result.stderr.decode().splitlines() if line]
        return None, problems
    # Numbers keep their literals: read them as text, as the file wrote them.
    table = json.loads(result.stdout, parse_float=str, parse_int=str)
    source = table["source"]
    columns = len(source["columns"])
    text_column = source["columns"].index(source["text"]) if isinstance(source["text"], str) else source["text"] - 1
    fields = {}
    for field, column in source["fields"].items():
        fields[field] = source["columns"].index(column) if isinstance(column, str) else column - 1
    records = []
    for section in table["sections"]:
        for row in section["rows"]:
            cells = [""] * columns
            cells[text_column] = row["text"]
            for field, value in row.get("fields", {}).items():
                cells[fields[field]] = value if isinstance(value, str) else json.dumps(value)
            records.append(cells)
    return records, None


def main():
    binary = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2026
    rng = random.Random(seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for number in range(count):
            data, delimiter, ragged = generate(rng)
            path = os.path.join(folder, f"f{number}.csv")
            with open(path, "wb") as file:
                file.write(data)
            expected = reference(data, delimiter)
            header = expected[0][1]
            wrong = [(line, len(row)) for line, row in expected[1:] if len(row) != len(header)]
            records, problems = ours(binary, path, delimiter)
            if wrong:
                want = [f"line {line}: {width} field{'' if width == 1 else 's'}, but the header has {len(header)}"
                        for line, width in wrong][:20]
                ok = problems is not None and problems[:len(want)] == want
            else:
                ok = records == [row for _, row in expected[1:]]
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"file {number} (seed {seed}, delimiter {delimiter!r}): {data!r}")
                print(f"  python: {expected[1:] if not wrong else wrong}")
                print(f"  ours:   {records if records is not None else problems}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
