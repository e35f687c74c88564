#!/usr/bin/env python3
"""Runs every curl example of README.md, docs/API.md and docs/ACCESS.md, top to
bottom, each file against a fresh server with the demo tables, and compares
what it shows. A file may name more arguments of its server's `serve` in a
comment `<!-- test-docs serve: ARGUMENTS -->` (paths from the top folder).

    scripts/test-docs.py path/to/webtableview [FILE.md ...]

What counts as an example, in document order:

- In a ```sh block, a line starting `$ curl` (continued while its quotes are
  open or it ends with `\\`), followed by its output: the lines up to the next
  `$ ` or `#` comment (blank lines before those end it too; blank lines inside
  an event stream's output do not). The output must match what the command
  prints, where `…` stands for any text, a line break in the doc for any
  whitespace (long JSON is wrapped), and dates (HTTP dates, ISO times) for any
  date. An example that shows no output must print nothing.
- In a ```sh block without any `$ ` prompt, each line starting `curl`: it must
  answer without an HTTP error (curl runs with --fail-with-body).
- Outside blocks, an inline `curl …` code span: it must answer without an HTTP
  error, or with the status the text gives right after it (`→ 304`).

`H` is set to the server (`localhost:PORT`) and `J` to the JSON content type,
as the docs' first block does; `localhost:8080` in a command is the server too.
A stream (`curl -N`) is read until its output matches, for at most 10 s.

Each failure names the file, the line, the command, and the first difference
(with DOCS_SHOW=1, the whole output too). Exit status 1 when any example fails.
"""
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "support"))
import wtv  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = ["README.md", "docs/API.md", "docs/ACCESS.md"]
SERVE_ARGUMENTS = re.compile(r"<!-- test-docs serve: (.*?) -->")
DATE_PATTERNS = [
    re.compile(r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT"),
    re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"),
]
STREAM_SECONDS = 10
COMMAND_SECONDS = 30


class Example:
    def __init__(self, path, line, command, expected=None, status=None, shows_output=True):
        self.path = path
        self.line = line
        self.command = command
        self.expected = expected          # list of lines, or None when nothing is compared
        self.status = status              # an HTTP status an inline example gives
        self.shows_output = shows_output  # False: only "no HTTP error" is checked

    def where(self):
        first = self.command.splitlines()[0]
        more = " …" if len(first) > 100 or len(self.command.splitlines()) > 1 else ""
        return f"{self.path}:{self.line}: {first[:100]}{more}"


def is_complete(command):
    if command.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(command, comments=False)
    except ValueError:
        return False
    return True


def examples(path):
    """The examples of one Markdown file, in order."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    found = []
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = re.match(r"^\s*```(\w*)", line)
        if fence:
            end = index + 1
            while end < len(lines) and not re.match(r"^\s*```", lines[end]):
                end += 1
            if fence.group(1) in ("sh", "bash", "console", "shell"):
                found.extend(block_examples(path, lines, index + 1, end))
            index = end + 1
            continue
        for match in re.finditer(r"`(curl [^`]+)`(\s*→\s*`?(\d{3}))?", line):
            status = int(match.group(3)) if match.group(3) else None
            found.append(Example(path, index + 1, match.group(1), status=status, shows_output=False))
        index += 1
    return found


def block_examples(path, lines, start, end):
    body = lines[start:end]
    prompted = any(line.startswith("$ ") for line in body)
    found = []
    index = 0
    while index < len(body):
        line = body[index]
        if prompted and line.startswith("$ curl"):
            number = start + index + 1
            command = line[2:]
            index += 1
            while not is_complete(command) and index < len(body):
                command += "\n" + body[index]
                index += 1
            output = []
            while index < len(body) and not body[index].startswith(("$ ", "#")):
                if not body[index].strip():
                    # A blank line ends the output unless more output follows it (an event stream).
                    following = next((line for line in body[index:] if line.strip()), "$ ")
                    if following.startswith(("$ ", "#")):
                        break
                output.append(body[index])
                index += 1
            found.append(Example(path, number, command, expected=output))
            continue
        if not prompted and line.startswith("curl "):
            number = start + index + 1
            command = line
            index += 1
            while not is_complete(command) and index < len(body):
                command += "\n" + body[index]
                index += 1
            found.append(Example(path, number, command, shows_output=False))
            continue
        index += 1
    return found


def normalise(text, port):
    text = text.replace(f"localhost:{port}", "localhost:8080").replace(f"127.0.0.1:{port}", "127.0.0.1:8080")
    for pattern in DATE_PATTERNS:
        text = pattern.sub("<date>", text)
    return text.replace("\r\n", "\n")


def pattern_for(expected):
    """A regex for the shown output: `…` is any text, a line break any whitespace."""
    parts = []
    for line in expected:
        pieces = [re.escape(piece) for piece in line.strip().split("…")]
        parts.append("(?:.*?)".join(pieces))
    return re.compile(r"\s*" + r"\s*".join(parts) + r"\s*\Z", re.DOTALL)


def prefix_pattern(text):
    """A regex for the start of the shown output, as `pattern_for` reads it."""
    steps = {"…": "(?:.*?)", "\n": r"\s*"}
    return re.compile(r"\s*" + "".join(steps.get(piece, re.escape(piece)) for piece in re.split(r"(…|\n)", text)), re.DOTALL)


def first_difference(expected, actual):
    """Where the shown output and the real one part: the longest start of the
    doc's text that the output matches, and what each has after it."""
    text = "\n".join(line.strip() for line in expected)
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if prefix_pattern(text[:middle]).match(actual):
            low = middle
        else:
            high = middle - 1
    offset = prefix_pattern(text[:low]).match(actual).end()
    if low == len(text):
        return f"the doc's output matches, but the command printed more: {actual[offset:offset + 80]!r}"
    return (f"the doc and the output agree for {low} characters; then the doc shows "
            f"{text[low:low + 70]!r}\n    where the command printed {actual[offset:offset + 70]!r}")


def run(example, env, port):
    command = example.command.replace("localhost:8080", f"localhost:{port}").replace("127.0.0.1:8080", f"127.0.0.1:{port}")
    if not example.shows_output:
        if example.status is not None:
            command += " -o /dev/null -w '%{http_code}'"
        else:
            command = "curl() { command curl --fail-with-body \"$@\"; }\n" + command
    stream = re.search(r"(^|\s)-\w*N", command) is not None
    process = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env, start_new_session=True)
    if not stream:
        try:
            out, err = process.communicate(timeout=COMMAND_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            return None, f"did not finish within {COMMAND_SECONDS} s"
        return (process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")), None
    # A stream: read until the output matches (or, with nothing to compare, some arrives), then stop it.
    os.set_blocking(process.stdout.fileno(), False)
    collected = b""
    regex = pattern_for(example.expected) if example.expected else None
    deadline = time.monotonic() + STREAM_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        chunk = process.stdout.read() or b""
        collected += chunk
        text = normalise(collected.decode("utf-8", "replace"), port)
        if (regex and regex.match(text)) or (regex is None and collected):
            break
        time.sleep(0.05)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    rest, err = process.communicate()
    collected += rest or b""
    return (0, collected.decode("utf-8", "replace"), err.decode("utf-8", "replace")), None


def check(example, env, port):
    """None when the example does what its doc says, else why not."""
    result, problem = run(example, env, port)
    if problem:
        return problem
    code, out, err = result
    out = normalise(out, port)
    if not example.shows_output:
        if example.status is not None:
            return None if out.strip() == str(example.status) else f"answered {out.strip() or 'nothing'}, the doc says {example.status}"
        if code != 0:
            return f"failed (curl exit {code}): {(out + err).strip()[:300]}"
        return None
    if code != 0:
        return f"curl exited with {code}: {err.strip()[:300]}"
    if not example.expected:
        return None if not out.strip() else f"the doc shows no output, the command printed {out.strip()[:200]!r}"
    if pattern_for(example.expected).match(out):
        return None
    problem = first_difference(example.expected, out.strip())
    if os.environ.get("DOCS_SHOW"):
        problem += "\n    the whole output:\n" + out.strip()
    return problem


def start_server(binary, arguments=()):
    """A fresh demo server, with more `serve` arguments; answers the process and its port."""
    work = tempfile.mkdtemp(prefix="wtv-docs-")
    with open(os.path.join(work, "err"), "w") as stderr:
        try:
            server, url = wtv.launch(
                [binary, "serve", "--port", "0", "--log-level", "warning", *arguments], stderr, cwd=ROOT)
        except RuntimeError as error:
            sys.exit(str(error))
    return server, int(url.rsplit(":", 1)[1])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    files = sys.argv[2:] or DEFAULT_FILES
    failures = 0
    total = 0
    for path in files:
        found = examples(path)
        named = SERVE_ARGUMENTS.search(Path(path).read_text())
        server, port = start_server(binary, shlex.split(named.group(1)) if named else ())
        env = dict(os.environ, H=f"localhost:{port}", J="Content-Type: application/json")
        try:
            for example in found:
                total += 1
                problem = check(example, env, port)
                if problem:
                    failures += 1
                    print(f"FAIL {example.where()}\n    {problem}")
        finally:
            wtv.stop(server, timeout=15)
        print(f"docs: {path}: {len(found)} examples")
    print(f"docs: {total - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
