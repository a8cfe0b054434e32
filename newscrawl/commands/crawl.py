"""``scrapy crawl`` that validates spider arguments before Scrapy starts.

Setting values are checked first (newscrawl.config_check). A spider class may
define ``check_arguments(spargs, settings) -> list[str]``. Any problem is printed to
stderr, one line each, and the command exits with
code 2 before the crawler process exists, so no request is ever made. A run
that finds the crawl's lock held by another run exits with code 75 and a
message saying so.

These refusals, and an output that could not be written (exit code 74), are also
written as ERROR lines to ``LOG_FILE`` when the run has one: under scrapyd that is the job's own log, where its owner looks (scrapyd
lists the job as finished either way; its exit status is only in scrapyd's log).
"""
from __future__ import annotations

import logging
import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.log import configure_logging

from ..config_check import setting_problems
from ..lock import EXIT_LOCKED, CrawlLocked, acquire, lock_path_for

EXIT_BAD_CONFIG = 2
EXIT_OUTPUT_ERROR = 74  # sysexits EX_IOERR: the output could not be written (disk full, read-only)

logger = logging.getLogger(__name__)


class Command(ScrapyCrawlCommand):
    _crawler = None

    def process_options(self, args, opts) -> None:
        super().process_options(args, opts)
        problems = setting_problems(self.settings)  # newscrawl.config_check: bad -s values
        if len(args) == 1:
            problems += self._argument_problems(args[0], opts.spargs)
        if problems:
            self._report(problems)
            raise SystemExit(EXIT_BAD_CONFIG)

    def run(self, args, opts) -> None:
        """Refuse to start while another run of the same crawl holds its lock (newscrawl.lock)."""
        path = lock_path_for(self.settings)
        if path is not None:
            try:
                acquire(path)
            except CrawlLocked as exc:
                self._report([f"newscrawl: {exc}"])
                self.exitcode = EXIT_LOCKED
                return
        super().run(args, opts)
        error = getattr(self._crawler, "newscrawl_output_error", None)
        if error:
            self._report([f"newscrawl: {error}; the crawl stopped"])
            self.exitcode = EXIT_OUTPUT_ERROR

    def _report(self, lines: list[str]) -> None:
        """Why the run stops: on stderr (cron, systemd), and in LOG_FILE when there is one (scrapyd)."""
        for line in lines:
            print(line, file=sys.stderr)
        if not (self.settings.get("LOG_FILE") and self.settings.getbool("LOG_ENABLED")):
            return  # the log is stderr: said once is enough
        if self.crawler_process is None:  # before the crawler process, nothing has set up the log
            configure_logging(self.settings)
        for line in lines:
            logger.error(line)

    def _create_crawler(self, spidercls):
        self._crawler = super()._create_crawler(spidercls)
        return self._crawler

    def _argument_problems(self, name: str, spargs: dict) -> list[str]:
        try:
            spidercls = get_spider_loader(self.settings).load(name)
        except KeyError:
            return []
        check = getattr(spidercls, "check_arguments", None)
        return list(check(spargs, self.settings)) if check else []
