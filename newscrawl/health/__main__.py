"""Command line: ``python -m newscrawl.health [PATH ...] [-o site-health.html]``.

Each PATH is a run's summary file (``<output name>.summary.json``), a directory holding such files
(searched below it too), or the incremental state (``.newscrawl/state.sqlite``: when each site's
newest article was first seen). Without PATH: ``output/`` and the default state, under
``$NEWSCRAWL_HOME`` when it is set, as for the crawl. The newest ``--runs`` summaries are read.

Exit codes: 0 the page was written; 2 no run summary could be read, or a bad option; 74 the page
could not be written. A file that cannot be read is named on stderr and in the page, and skipped.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

from ..config.paths import resolve
from ..store.state import DEFAULT_STATE_PATH
from . import HealthOptions, build_report, read_inputs, render_report
from .judge import sites_by_kind

EXIT_WRITTEN = 0
EXIT_NO_RUNS = 2  # nothing to report on (or a bad option): as the crawl's refusal to start
EXIT_CANNOT_WRITE = 74  # as the crawl's "output could not be written"
DEFAULT_OUTPUT = "site-health.html"
DEFAULT_SUMMARY_DIR = "output"  # where runs write their summaries by default (NEWSCRAWL_OUTPUT_DIR)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.health", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path, help="summary files or directories, and the state")
    parser.add_argument("-o", "--output", type=Path, default=Path(DEFAULT_OUTPUT), help="the HTML page to write")
    for option in dataclasses.fields(HealthOptions):
        parser.add_argument(f"--{option.name.replace('_', '-')}", type=int if option.type in ("int", int) else float,
                            default=option.default, help=f"default {option.default}")
    return parser


def _options(parsed) -> HealthOptions:
    values = {option.name: getattr(parsed, option.name) for option in dataclasses.fields(HealthOptions)}
    for name, value in values.items():
        if value <= 0:
            raise ValueError(f"--{name.replace('_', '-')} must be above 0 (got {value:g})")
    if values["score_fall"] > 1:
        raise ValueError(f"--score-fall is a difference of scores in 0..1 (got {values['score_fall']:g})")
    return HealthOptions(**values)


def default_paths() -> list[Path]:
    paths = [resolve({}, DEFAULT_SUMMARY_DIR)]
    state = resolve({}, DEFAULT_STATE_PATH)
    return paths + [state] if state.exists() else paths


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it: a reader never sees half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private; a page is for reading
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    parsed = _parser().parse_args(argv)
    try:
        options = _options(parsed)
    except ValueError as exc:
        print(f"newscrawl.health: {exc}", file=sys.stderr)
        return EXIT_NO_RUNS
    inputs = read_inputs(parsed.paths or default_paths(), options.max_runs)
    for line in inputs.unreadable:
        print(f"newscrawl.health: skipped {line}", file=sys.stderr)
    if not inputs.runs:
        where = ", ".join(str(p) for p in parsed.paths or default_paths())
        print(f"newscrawl.health: no run summary (*.summary.json) could be read in {where}", file=sys.stderr)
        return EXIT_NO_RUNS
    report = build_report(inputs, options)
    try:
        write_atomically(parsed.output, render_report(report))
    except OSError as exc:
        print(f"newscrawl.health: cannot write {parsed.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_CANNOT_WRITE
    detail = ", ".join(f"{n} {kind}" for kind, n in sites_by_kind(report.attention).items())
    print(f"{parsed.output}: {len(report.attention)} of {len(report.sites)} sites need a look"
          + (f" ({detail})" if detail else "") + f", over {len(inputs.runs)} run{'s' if len(inputs.runs) != 1 else ''}")
    return EXIT_WRITTEN


if __name__ == "__main__":
    sys.exit(main())
