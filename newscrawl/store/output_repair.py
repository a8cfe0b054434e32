"""Making a JSONL output whole again after a crash.

A torn last line (or anything unreadable after the offset the state recorded) is cut off, and the
complete lines after that offset are returned so the state can record them (they were emitted; they
must not be emitted again). Used by the ledger when it recovers (incremental.py) and by the durable
writer before it appends to a file (jsonl.py).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

_TAIL_CHUNK = 1 << 16  # bytes read at a time when looking for the last newline


@dataclass
class Repair:
    """What repairing an output found: complete lines after the recorded offset, bytes cut off."""

    items: list[dict] = field(default_factory=list)
    cut_bytes: int = 0
    size: int = 0


def _last_newline_end(fd: int, size: int) -> int:
    """Offset just after the last b"\\n" of the file (0 when there is none)."""
    end = size
    while end > 0:
        start = max(0, end - _TAIL_CHUNK)
        chunk = os.pread(fd, end - start, start)
        found = chunk.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        end = start
    return 0


def repair_output(path: Path, committed: int = 0) -> Repair | None:
    """Cut a torn or unreadable tail after ``committed``; the complete lines after it. None: no file."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return None
    try:
        size = os.fstat(fd).st_size
        if size < committed:  # rotated or truncated by someone else: nothing of ours to recover
            return Repair(size=size)
        good_end = max(committed, _last_newline_end(fd, size))
        repair = Repair()
        position = committed
        for line in os.pread(fd, good_end - committed, committed).splitlines(keepends=True):
            try:
                repair.items.append(json.loads(line))
            except ValueError:
                good_end = position  # garbage (e.g. zeros after a power loss): cut from here
                break
            position += len(line)
        if good_end < size:
            os.ftruncate(fd, good_end)
            os.fsync(fd)
            repair.cut_bytes = size - good_end
        repair.size = good_end
        return repair
    finally:
        os.close(fd)
