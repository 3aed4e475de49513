"""``boulmous-score FILE``: the console scorer of docs/record-format.md (``-`` reads stdin).

It prints the scored game as JSON and exits 0; an invalid record prints one problem
per line on standard error and exits 1; wrong usage exits 2. Like the rest of the
engine it needs no Django, no settings and no environment. ``manage.py score_record``
runs :func:`score_file` too, so that both print the same bytes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from .errors import RecordError
from .record import loads, score

USAGE = "usage: boulmous-score FILE   (FILE is a boulmous/1 record, - for standard input)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the console scorer on ``argv`` (``sys.argv[1:]`` by default); the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    return score_file(args[0])


def score_file(
    path: str,
    *,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Score the record at ``path`` (``-``: ``stdin``), writing as the scorer does."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    try:
        if path == "-":
            text = (sys.stdin.buffer if stdin is None else stdin).read()
        else:
            text = Path(path).read_bytes()
    except OSError as error:
        print(f"{path}: {error.strerror or error}", file=stderr)
        return 1
    except ValueError as error:  # a path with a NUL in it
        print(f"{path}: {error}", file=stderr)
        return 1
    try:
        result = score(loads(text))
    except RecordError as error:
        for problem in error.problems:
            print(problem, file=stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False, indent=2), file=stdout)
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a script, so in another process
    sys.exit(main())
