"""``scrapy crawl`` that validates spider arguments before Scrapy starts, and reports how it went.

Setting values are checked first (newscrawl.config_check). A spider class may
define ``check_arguments(spargs, settings) -> list[str]``. Any problem is printed to
stderr, one line each, and the command exits with
code 2 before the crawler process exists, so no request is ever made. A run
that finds the crawl's lock held by another run exits with code 75 and a
message saying so. The directory of ``LOG_FILE`` is created when missing.

These refusals, and an output that could not be written (exit code 74), are also
written as ERROR lines to ``LOG_FILE`` when the run has one: under scrapyd that is
the job's own log, where its owner looks (scrapyd lists the job as finished either
way; its exit status is only in scrapyd's log).

At the end, a short report (newscrawl.run_report) is the last thing printed on
stderr, and also the last record of the log when the log goes to ``LOG_FILE``.
Exit statuses: see EXIT_MEANINGS.
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.log import configure_logging

from ..config_check import setting_problems
from ..lock import EXIT_LOCKED, CrawlLocked, acquire, lock_path_for
from ..run_report import RunReport

EXIT_RAN = 0
EXIT_BAD_CONFIG = 2
EXIT_UNAVAILABLE = 69  # sysexits EX_UNAVAILABLE: no site could be reached (every request went unanswered)
EXIT_OUTPUT_ERROR = 74  # sysexits EX_IOERR: the output could not be written (disk full, read-only)
EXIT_MEANINGS = {
    EXIT_RAN: "the crawl ran",
    1: "the crawl could not start (see the log)",
    EXIT_BAD_CONFIG: "bad configuration; nothing was crawled",
    EXIT_UNAVAILABLE: "no site could be reached",
    EXIT_OUTPUT_ERROR: "the output could not be written",
    EXIT_LOCKED: "another run of this crawl holds the lock",
}

logger = logging.getLogger(__name__)


class Command(ScrapyCrawlCommand):
    _crawler = None

    def process_options(self, args, opts) -> None:
        super().process_options(args, opts)
        problems = setting_problems(self.settings)  # newscrawl.config_check: bad -s values
        if len(args) == 1:
            problems += self._argument_problems(args[0], opts.spargs)
        problems += _log_directory_problems(self.settings.get("LOG_FILE"))
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
        report = RunReport.from_crawler(self._crawler) if self._crawler is not None else None
        if report is None:
            return
        if self.exitcode == EXIT_RAN and report.reached_no_site:
            self.exitcode = EXIT_UNAVAILABLE
        self._show(report.lines(self.exitcode, EXIT_MEANINGS.get(self.exitcode, "see the log")))

    def _show(self, lines: list[str]) -> None:
        """The report on stderr, and as the last record of the log when the log is a file."""
        text = "\n".join(lines)
        if self.settings.get("LOG_FILE"):
            logger.info("%s", text)
        print(text, file=sys.stderr, flush=True)

    def _report(self, lines: list[str]) -> None:
        """Why the run stops: on stderr (cron, systemd), and in LOG_FILE when there is one (scrapyd)."""
        for line in lines:
            print(line, file=sys.stderr)
        if not (self.settings.get("LOG_FILE") and self.settings.getbool("LOG_ENABLED")):
            return  # the log is stderr: said once is enough
        if self.crawler_process is None:  # before the crawler process, nothing has set up the log
            try:
                configure_logging(self.settings)
            except OSError:
                return  # LOG_FILE cannot be opened: its problem is among the lines on stderr
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


def _log_directory_problems(log_file: str | None) -> list[str]:
    """Create the directory of LOG_FILE (cron and systemd examples log to logs/...); a problem if it cannot be."""
    if not log_file:
        return []
    directory = Path(log_file).parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return [f"setting LOG_FILE: cannot create the directory {directory}: {exc.strerror or exc}"]
    return []
