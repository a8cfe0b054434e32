"""CPU of the crawl's link walk (``newscrawl.crawl.discovery.page_links``) on real pages.

    python benchmarks/link_walk.py [--shared DIR] [--pages 60] [--repeat 3]

Takes up to PAGES pages of each ../shared/eval dataset that fit one parse chunk
(PARSE_CHUNK_BYTES) and prints CPU milliseconds per page of: the walk page_links
uses for them (the page parsed whole, lxml handing out its link elements), the
chunked walk of larger pages (a pull parser, every element visited in Python),
and the bare parse of the page, which both walks include. Both walks must find
the same links: the script exits 1 when they differ. With ``--check`` it also exits 1
when the whole-page walk does not cost less than the chunked one (what it is for:
6.6 against 9.0 ms of CPU a page on 2026-11-27; a timed unit test of it failed on a
loaded machine, so the figure is checked here).
"""
from __future__ import annotations

import argparse
import sys
import time

import common

common.use_repo_package()

import lxml.etree  # noqa: E402
from newscrawl.crawl import discovery  # noqa: E402  (after the repo package is on the path)

DATASETS = ("cx_bbc", "dragnet", "cleanportaleval", "fundus-dev", "cleaneval", "cx_zh")
BASE_URL = "http://news.example/section/"


def cpu_ms_per_page(pages: list[bytes], walk, repeat: int) -> tuple[float, list]:
    found = []
    started = time.process_time()
    for _ in range(repeat):
        found = [list(walk(body)) for body in pages]
    return (time.process_time() - started) * 1000 / (repeat * len(pages)), found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="shared data folder (default ../shared)")
    parser.add_argument("--pages", type=int, default=60, help="pages per dataset")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 unless the whole-page walk costs less")
    options = parser.parse_args(argv)
    shared = common.shared_dir(options.shared)
    common.skip_without_shared(shared)
    pages = []
    for folder in common.datasets_in(shared / "eval", [n for n in DATASETS if (shared / "eval" / n).is_dir()]):
        chosen = [p.read_bytes() for p in sorted((folder / "pages").glob("*.htm*"))]
        pages += [body for body in chosen if len(body) <= discovery.PARSE_CHUNK_BYTES][:options.pages]
    print(f"{len(pages)} pages of ../shared/eval, {sum(map(len, pages)) / len(pages) / 1000:.1f} KB on average")
    whole, whole_links = cpu_ms_per_page(
        pages, lambda body: discovery._whole_page_links(body, "utf-8", BASE_URL, 2048), options.repeat)
    chunked, chunked_links = cpu_ms_per_page(
        pages, lambda body: discovery._chunked_page_links(body, "utf-8", BASE_URL, 2048), options.repeat)
    html = lxml.etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True)
    parse, _ = cpu_ms_per_page(pages, lambda body: (lxml.etree.fromstring(body, html),), options.repeat)
    print(f"CPU ms per page: whole-page walk {whole:.2f}, chunked walk {chunked:.2f}, bare parse {parse:.2f}; "
          f"{sum(map(len, whole_links))} links")
    if whole_links != chunked_links:
        print("the two walks found different links", file=sys.stderr)
        return 1
    if options.check and whole >= chunked:
        print("the whole-page walk costs no less than the chunked walk", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
