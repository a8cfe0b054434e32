"""Let the event loop run between slices of a long loop in a spider callback.

A listing of 750,000 links or a feed of 900,000 entries used to be walked in one go: every other
site waited (79-130 s without a request). Callbacks that walk listings are async generators
that call :meth:`TimeSlice.pause_if_due` per entry, and give the loop a turn every
``SLICE_SECONDS`` of work.
"""
from __future__ import annotations

import asyncio
import time

# Longest stretch (seconds) a callback keeps the event loop before other sites' requests and
# responses get a turn; well under the 1 s the crawl promises, and a turn costs microseconds.
SLICE_SECONDS = 0.05


class TimeSlice:
    def __init__(self, seconds: float = SLICE_SECONDS):
        self.seconds = seconds
        self.started = time.monotonic()

    async def pause_if_due(self) -> None:
        if time.monotonic() - self.started >= self.seconds:
            await asyncio.sleep(0)
            self.started = time.monotonic()
