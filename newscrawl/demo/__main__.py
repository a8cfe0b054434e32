"""``python -m newscrawl.demo``: serve the sample sites on 127.0.0.x and crawl them end to end.

Everything the demo writes stays under ``--out`` (default ``output/demo/``): the sites file, the
JSONL, its summary, the demo's own incremental state and article store (``articles.sqlite``,
searched with ``python -m newscrawl.store.search QUERY --db output/demo/articles.sqlite``), both emptied
before each crawl so every run emits the same articles (a real crawl's state, ``STATE_PATH``, is never touched).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..store.lock import EXIT_LOCKED, CrawlLocked
from ..store.sinks.sqlite_store import ARTICLES_DB_NAME
from ..store.state_admin import remove_state_files, reset_state
from .run import crawl, write_sites_file
from .server import DemoServer, loopback_works

STATE_NAME = "state.sqlite"  # the demo's incremental state, in the output directory
REPORT_HEADER = "--- newscrawl: end of the crawl"  # first line of the crawl's report (newscrawl.report.run_report)


def _setting(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def crawl_report(stderr: str) -> str:
    """The crawl's closing report: stderr from the report's first line on (all of it if there is none)."""
    start = stderr.rfind(REPORT_HEADER)
    return stderr[start:] if start >= 0 else stderr[-3000:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.demo", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("output/demo"),
                        help="where to write sites.yaml, JSONL and state")
    parser.add_argument("--serve", action="store_true", help="only serve the sites until Ctrl-C")
    parser.add_argument("-s", dest="settings", type=_setting, action="append", default=[], metavar="NAME=VALUE",
                        help="a Scrapy setting for the crawl, as with scrapy crawl (e.g. -s LOG_LEVEL=DEBUG)")
    options = parser.parse_args(argv)
    if not loopback_works():
        print("this machine cannot bind 127.0.0.2; the demo needs the 127.0.0.0/8 loopback range", file=sys.stderr)
        return 1
    out = options.out.resolve()
    state = out / STATE_NAME
    web = DemoServer().start()
    sites = write_sites_file([s.config for s in web.sites], out / "sites.yaml")
    for site in web.sites:
        print(f"serving {site.name} at {site.base}/")
    try:
        if options.serve:
            print(f"sites file: {sites}\nrun: scrapy crawl news -a sites={sites} -s STATE_PATH={state}\nCtrl-C to stop")
            while True:
                time.sleep(3600)
        try:
            reset_state(state)
            remove_state_files(out / ARTICLES_DB_NAME)  # the store beside the state: the same articles again
        except CrawlLocked as exc:
            print(f"newscrawl: {exc}", file=sys.stderr)
            return EXIT_LOCKED
        output = out / "articles.jsonl"
        print("crawling ...", flush=True)
        result = crawl(sites, output, settings={"STATE_PATH": str(state), **dict(options.settings)}, cwd=out)
        lines = output.read_text(encoding="utf-8").splitlines() if output.exists() else []
        for line in lines:
            item = json.loads(line)
            print(f"  {item['site']:18} {item['published'] or '-':26} {item['title']}")
        sys.stdout.flush()
        sys.stderr.write(crawl_report(result.stderr))
        if (out / ARTICLES_DB_NAME).exists():
            print(f"search them: python -m newscrawl.store.search QUERY --db {out / ARTICLES_DB_NAME}")
        return result.returncode
    except KeyboardInterrupt:
        return 0
    finally:
        web.stop()


if __name__ == "__main__":
    sys.exit(main())
