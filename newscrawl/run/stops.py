"""Stop a crawl at once for a fault it must not go on with; the crawl command turns it into an exit code.

A component that finds the crawl cannot go on without losing articles (the output or the job
directory's queue takes no more writes, the shared Redis lost its queue) calls :func:`stop_crawl` with a
close reason and one line saying what happened. The spider closes with that reason (Scrapy's
``finish_reason``), and ``scrapy crawl`` (``newscrawl/commands/crawl.py``) prints the line and
exits with the code it gives that reason. The first stop wins; later ones are only logged.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy.utils.defer import deferred_from_coro

logger = logging.getLogger(__name__)

OUTPUT_ERROR = "output_error"  # the JSONL output (or another feed) could not be opened or written
QUEUE_ERROR = "queue_error"  # the request queue on disk (JOBDIR, or the temporary one) could not be written
SHARED_STATE_LOST = "redis_data_lost"  # the Redis the crawl shares lost its data mid-run


@dataclass(frozen=True)
class CrawlStop:
    reason: str  # the spider's close reason
    message: str  # one line for the operator


def stop_crawl(crawler, reason: str, message: str, close: bool = True) -> None:
    """Record why the crawl stops (``crawler.newscrawl_stop``), log it and close the spider with
    ``reason`` (``close`` false: the spider is closing already, the fault only decides the exit code)."""
    if stopped(crawler) is not None:
        logger.error("%s (the crawl is already stopping)", message)
        return
    crawler.newscrawl_stop = CrawlStop(reason, message)
    crawler.stats.set_value(f"newscrawl/stop/{reason}", message)
    logger.error("%s; stopping the crawl", message)
    engine = crawler.engine
    if close and engine is not None and engine.spider is not None:
        deferred_from_coro(engine.close_spider_async(reason=reason))


def stopped(crawler) -> CrawlStop | None:
    """Why the crawl was stopped by :func:`stop_crawl`, if it was."""
    return getattr(crawler, "newscrawl_stop", None)
