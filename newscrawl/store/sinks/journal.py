"""Keeping only the sinks (``-s NEWSCRAWL_ONLY_SINKS=1``): the JSONL output becomes a run's journal.

With no ``-o``/``-O``, such a run writes its lines to ``sinks.journal.jsonl`` in the state's
directory, truncated at the start of each run, and deletes it at a clean end, once every line is in
every sink and recorded. Everything else is the durable JSONL path unchanged: the sinks commit
after each fsync, and after a crash the next start gives the journal's unrecorded lines to the
sinks before it truncates it. So no JSONL file is kept, with the same guarantees.
"""
from __future__ import annotations

from pathlib import Path

from .base import state_directory

JOURNAL_NAME = "sinks.journal.jsonl"


def only_sinks(settings) -> bool:
    return settings.getbool("NEWSCRAWL_ONLY_SINKS", False)


def journal_path(settings) -> Path:
    """The journal of a run that keeps only the sinks: in the directory of STATE_PATH."""
    return state_directory(settings) / JOURNAL_NAME


def is_journal(settings, path: Path) -> bool:
    """Whether ``path`` is the journal of this run (kept only the sinks, no -o/-O given)."""
    return only_sinks(settings) and Path(path).absolute() == journal_path(settings).absolute()
