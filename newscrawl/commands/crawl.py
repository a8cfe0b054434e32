"""``scrapy crawl`` that validates spider arguments before Scrapy starts.

Setting values are checked first (newscrawl.config_check). A spider class may
define ``check_arguments(spargs) -> list[str]``. Any problem is printed to
stderr, one line each, and the command exits with
code 2 before the crawler process exists, so no request is ever made. A run
that finds the crawl's lock held by another run exits with code 75 and a
message saying so.
"""
from __future__ import annotations

import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.spiderloader import get_spider_loader

from ..config_check import setting_problems
from ..lock import EXIT_LOCKED, CrawlLocked, acquire, lock_path_for

EXIT_BAD_CONFIG = 2
EXIT_OUTPUT_ERROR = 74  # sysexits EX_IOERR: the output could not be written (disk full, read-only)


class Command(ScrapyCrawlCommand):
    _crawler = None

    def process_options(self, args, opts) -> None:
        super().process_options(args, opts)
        problems = setting_problems(self.settings)  # newscrawl.config_check: bad -s values
        if len(args) == 1:
            problems += self._argument_problems(args[0], opts.spargs)
        if problems:
            for line in problems:
                print(line, file=sys.stderr)
            raise SystemExit(EXIT_BAD_CONFIG)

    def run(self, args, opts) -> None:
        """Refuse to start while another run of the same crawl holds its lock (newscrawl.lock)."""
        path = lock_path_for(self.settings)
        if path is not None:
            try:
                acquire(path)
            except CrawlLocked as exc:
                print(f"newscrawl: {exc}", file=sys.stderr)
                self.exitcode = EXIT_LOCKED
                return
        super().run(args, opts)
        error = getattr(self._crawler, "newscrawl_output_error", None)
        if error:
            print(f"newscrawl: {error}; the crawl stopped", file=sys.stderr)
            self.exitcode = EXIT_OUTPUT_ERROR

    def _create_crawler(self, spidercls):
        self._crawler = super()._create_crawler(spidercls)
        return self._crawler

    def _argument_problems(self, name: str, spargs: dict) -> list[str]:
        try:
            spidercls = get_spider_loader(self.settings).load(name)
        except KeyError:
            return []
        check = getattr(spidercls, "check_arguments", None)
        return list(check(spargs)) if check else []
