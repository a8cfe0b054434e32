"""``scrapy crawl`` that refuses a start it cannot finish cleanly, and says why a crawl stopped.

Before Scrapy logs anything: setting values are checked (newscrawl.config_check),
then the spider's ``check_arguments(spargs) -> list[str]`` if it has one; any
problem is printed to stderr, one line each, and the command exits with code 2,
so no request is ever made. Then the crawl's lock is taken (newscrawl.lock): a
run that finds it held by another run exits with code 75 and a message saying
so. Holding it, the SQLite state must be whole (newscrawl.state.state_problems)
and every local output must open (newscrawl.output_check), else exit 2, one
line each. A crawl stopped by a fault it must not go on with (newscrawl.stops)
prints that fault's line and exits with the code of its close reason
(EXIT_CODES).
"""
from __future__ import annotations

import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.spiderloader import get_spider_loader

from ..config_check import setting_problems
from ..lock import EXIT_LOCKED, CrawlLocked, acquire, lock_path_for
from ..output_check import output_problems
from ..state import state_problems
from ..stops import QUEUE_ERROR, OUTPUT_ERROR, SHARED_STATE_LOST, stopped

EXIT_BAD_CONFIG = 2  # bad settings or sites file, unusable output or corrupt state: refused to start
# sysexits EX_IOERR: a file of the crawl could not be written: the output, or the request queue on disk
# (JOBDIR or the temporary one): disk full, read-only, I/O error
EXIT_OUTPUT_ERROR = 74
# sysexits EX_UNAVAILABLE: the Redis the crawlers share lost its data during the run (restarted without
# persistence, or rolled back to an older snapshot): the shared queue is gone, the run is incomplete
EXIT_SHARED_STATE_LOST = 69
EXIT_CODES = {OUTPUT_ERROR: EXIT_OUTPUT_ERROR, QUEUE_ERROR: EXIT_OUTPUT_ERROR,
              SHARED_STATE_LOST: EXIT_SHARED_STATE_LOST}  # close reason of newscrawl.stops -> exit code


class Command(ScrapyCrawlCommand):
    _crawler = None

    def process_options(self, args, opts) -> None:
        """Everything that refuses the start, before Scrapy logs a line: settings and arguments, the
        lock (exit 75), then, holding it, the state file and every local output."""
        super().process_options(args, opts)
        problems = setting_problems(self.settings)  # newscrawl.config_check: bad -s values
        if len(args) == 1:
            problems += self._argument_problems(args[0], opts.spargs)
        _refuse_on(problems, EXIT_BAD_CONFIG)
        path = lock_path_for(self.settings)
        if path is not None:
            try:
                acquire(path)  # held until the process ends (the crawl's ledger takes it over)
            except CrawlLocked as exc:
                _refuse_on([f"newscrawl: {exc}"], EXIT_LOCKED)
        _refuse_on(state_problems(self.settings) + output_problems(self._crawl_settings(args)), EXIT_BAD_CONFIG)

    def run(self, args, opts) -> None:
        super().run(args, opts)
        stop = stopped(self._crawler) if self._crawler is not None else None
        if stop is not None:
            print(f"newscrawl: {stop.message}; the crawl stopped", file=sys.stderr)
            self.exitcode = EXIT_CODES.get(stop.reason, 1)

    def _create_crawler(self, spidercls):
        self._crawler = super()._create_crawler(spidercls)
        return self._crawler

    def _crawl_settings(self, args):
        """The settings as the crawler will have them: the spider's own (its default output) applied."""
        settings = self.settings.copy()
        spidercls = self._spider_class(args[0]) if len(args) == 1 else None
        if spidercls is not None:
            spidercls.update_settings(settings)
        return settings

    def _spider_class(self, name: str):
        try:
            return get_spider_loader(self.settings).load(name)
        except KeyError:
            return None

    def _argument_problems(self, name: str, spargs: dict) -> list[str]:
        check = getattr(self._spider_class(name), "check_arguments", None)
        return list(check(spargs)) if check else []


def _refuse_on(problems: list[str], code: int) -> None:
    """Print the problems, one line each, and exit with ``code`` (nothing when there are none)."""
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        raise SystemExit(code)
