"""``scrapy crawl`` that validates spider arguments before the engine starts.

A spider class may define ``check_arguments(spargs) -> list[str]``; any
problem is printed to stderr, one line each, and the command exits with
code 2 without making a request.
"""
from __future__ import annotations

import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand

EXIT_BAD_CONFIG = 2


class Command(ScrapyCrawlCommand):
    def run(self, args, opts) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            problems = self._argument_problems(args[0], opts.spargs)
            if problems:
                for line in problems:
                    print(line, file=sys.stderr)
                self.exitcode = EXIT_BAD_CONFIG
                return
        super().run(args, opts)

    def _argument_problems(self, name: str, spargs: dict) -> list[str]:
        try:
            spidercls = self.crawler_process.spider_loader.load(name)
        except KeyError:
            return []
        check = getattr(spidercls, "check_arguments", None)
        return list(check(spargs)) if check else []
