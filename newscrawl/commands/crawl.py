"""``scrapy crawl`` that refuses a start it cannot finish cleanly, and says how a crawl went.

Before Scrapy starts: setting values are checked (newscrawl.config.config_check), then the
spider's ``check_arguments(spargs, settings) -> list[str]`` if it has one, and the
directory of ``LOG_FILE`` is created when missing; any problem is one line each and
exit code 2, so no request is ever made. Then the crawl's lock is taken
(newscrawl.store.lock): a run that finds it held by another run exits with code 75 and a
message saying so. Holding it, the SQLite state must be whole
(newscrawl.store.state.state_problems), every local output must open
(newscrawl.store.output_check) and every article sink must open (newscrawl.store.sinks.fanout:
the SQLite store, PostgreSQL reachable and its schema current), else exit 2, one line each.

A crawl stopped by a fault it must not go on with (newscrawl.run.stops) says that fault
and exits with the code of its close reason (EXIT_CODES). Refusals and such stops
are printed on stderr and also written as ERROR lines to ``LOG_FILE`` when the run
has one: under scrapyd that is the job's own log, where its owner looks (scrapyd
lists the job as finished either way; its exit status is only in scrapyd's log).

At the end, a short report (newscrawl.report.run_report) is the last thing printed on
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

from ..config.config_check import setting_problems
from ..store.lock import EXIT_LOCKED, CrawlLocked, acquire, lock_path_for
from ..store.output_check import output_problems
from ..report.run_report import RunReport
from ..store.sinks.fanout import sink_problems
from ..store.state import state_problems
from ..run.stops import OUTPUT_ERROR, QUEUE_ERROR, SHARED_STATE_LOST, stopped

EXIT_RAN = 0
EXIT_BAD_CONFIG = 2  # bad settings or sites file, unusable output or corrupt state: refused to start
# sysexits EX_DATAERR: the Redis the crawlers share lost its data during the run (restarted without
# persistence, or rolled back to an older snapshot): the shared queue is gone, the run is incomplete
EXIT_SHARED_STATE_LOST = 65
# sysexits EX_UNAVAILABLE: no site could be reached (every request went unanswered)
EXIT_UNAVAILABLE = 69
# sysexits EX_IOERR: a file of the crawl could not be written: the output, or the request queue on disk
# (JOBDIR or the temporary one): disk full, read-only, I/O error; or an article sink (the SQLite store,
# PostgreSQL) failed to commit a batch
EXIT_OUTPUT_ERROR = 74
EXIT_CODES = {OUTPUT_ERROR: EXIT_OUTPUT_ERROR, QUEUE_ERROR: EXIT_OUTPUT_ERROR,
              SHARED_STATE_LOST: EXIT_SHARED_STATE_LOST}  # close reason of newscrawl.run.stops -> exit code
EXIT_MEANINGS = {
    EXIT_RAN: "the crawl ran",
    1: "the crawl could not start (see the log)",
    EXIT_BAD_CONFIG: "bad configuration; nothing was crawled",
    EXIT_SHARED_STATE_LOST: "the shared state in Redis lost its data; the run is incomplete",
    EXIT_UNAVAILABLE: "no site could be reached",
    EXIT_OUTPUT_ERROR: "a file of the crawl could not be written",
    EXIT_LOCKED: "another run of this crawl holds the lock",
}

logger = logging.getLogger(__name__)


class Command(ScrapyCrawlCommand):
    _crawler = None

    def process_options(self, args, opts) -> None:
        super().process_options(args, opts)
        problems = setting_problems(self.settings)  # newscrawl.config.config_check: bad -s values
        if len(args) == 1:
            problems += self._argument_problems(args[0], opts.spargs)
        problems += _log_directory_problems(self.settings.get("LOG_FILE"))
        self._refuse_on(problems, EXIT_BAD_CONFIG)
        path = lock_path_for(self.settings)
        if path is not None:
            try:
                acquire(path)  # held until the process ends (the crawl's ledger takes it over)
            except CrawlLocked as exc:
                self._refuse_on([f"newscrawl: {exc}"], EXIT_LOCKED)
        self._refuse_on(state_problems(self.settings) + output_problems(self._crawl_settings(args))
                        + sink_problems(self.settings), EXIT_BAD_CONFIG)

    def run(self, args, opts) -> None:
        super().run(args, opts)
        stop = stopped(self._crawler) if self._crawler is not None else None
        if stop is not None:
            self._report([f"newscrawl: {stop.message}; the crawl stopped"])
            self.exitcode = EXIT_CODES.get(stop.reason, 1)
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

    def _refuse_on(self, problems: list[str], code: int) -> None:
        """Say the problems (see _report) and exit with ``code``; nothing when there are none."""
        if problems:
            self._report(problems)
            raise SystemExit(code)

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
