"""Refuse to start a crawl whose output cannot be opened (read-only directory, a directory as the file).

The crawl command checks every local feed of the crawler's settings (``-o``, ``-O``, ``FEEDS`` or the
spider's default path) before the crawl starts: the file is opened for appending, as the output
writer will, and a file the check itself created is removed again. A feed that fails gives one line
naming the path and the error, and the command exits 2 before any request. Remote feeds (``s3://``,
``ftp://``...) and standard output are not checked here.
"""
from __future__ import annotations

import os
from pathlib import Path

from .jsonl import local_path

PLACEHOLDER = "%("  # a feed URI parameter such as %(time)s: only the directory before it is known


def output_problems(settings) -> list[str]:
    """One line for each local feed of ``settings`` that cannot be opened for writing."""
    problems = []
    for uri in settings.getdict("FEEDS"):
        uri = str(uri)
        problem = _template_problem(uri) if PLACEHOLDER in uri else _file_problem(local_path(uri))
        if problem:
            problems.append(problem)
    return problems


def _file_problem(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644))
    except OSError as exc:
        return _line(path, exc)
    if not existed:
        path.unlink(missing_ok=True)
    return None


def _template_problem(uri: str) -> str | None:
    """A feed path with parameters: the directory before the first one must take a new file."""
    sample = local_path(uri.split(PLACEHOLDER, 1)[0] + "x")
    if sample is None:
        return None
    folder = sample.parent
    probe = folder / f".newscrawl-write-check-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except OSError as exc:
        return _line(folder, exc)
    probe.unlink(missing_ok=True)
    return None


def _line(path: Path, exc: OSError) -> str:
    return f"newscrawl: cannot open the output {path}: {exc.strerror or exc}; not starting"
