#!/usr/bin/env python3
"""Stripping noise by cutting text gives the extraction that stripping a parsed tree gave, faster.

    python benchmarks/strip_parity.py                    # every page of ../shared/eval
    python benchmarks/strip_parity.py --limit 50 --show 5

``StripNoiseMiddleware`` cuts script, style, iframe, noscript and comments out of a page's text
(``newscrawl.crawl.noise_cut``). Before, it parsed the page with lxml, removed those elements from the
tree and serialized it again; that way is kept here as the reference (``tree_strip``). Every page
(its raw bytes, as a server sends them, with no charset in the header) goes through both; each
result is extracted as the crawl's worker extracts it (UTF-8 body, the page's URL, one fixed fetch
time), and title, publish time, text and the article verdict are compared. Prints the pages that
differ (up to --show, with the first differing stretch of text), the counts, and the CPU
milliseconds per page of each stripping (bytes in, response out; median of --repeat runs). Exit 1 when a page
differs, 0 when none does; without ../shared it prints why and exits 0.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from datetime import datetime

import lxml.etree
import lxml.html

import common
from compiled_parity import FETCHED_AT, pages_of

common.use_repo_package()

from scrapy import Request  # noqa: E402  (after the repo package is on the path)
from scrapy.http import HtmlResponse  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

from newscrawl.extract import extract  # noqa: E402
from newscrawl.extract.dom import decode_html, parse_html  # noqa: E402
from newscrawl.extract.serialized import may_carry_article  # noqa: E402
from newscrawl.crawl.middlewares import KEPT_SCRIPT_TYPES, STRIPPED_TAGS, StripNoiseMiddleware  # noqa: E402

COMPARED = ("is_article", "reason", "title", "published", "text")


def tree_strip(body: bytes) -> bytes | None:
    """The reference: the page parsed, noise elements and comments removed from the tree, the tree
    serialized as UTF-8 (what the middleware did before it cut text). None: nothing to parse."""
    root = parse_html(decode_html(body))
    if root is None:
        return None
    for script in [s for s in root.iter("script") if (s.get("type") or "").strip().lower() not in KEPT_SCRIPT_TYPES
                   and not may_carry_article(s.text or "")]:
        script.drop_tree()
    lxml.etree.strip_elements(root, *STRIPPED_TAGS, lxml.etree.Comment, with_tail=False)
    for meta in root.iter("meta"):
        if meta.get("charset") is not None:
            meta.set("charset", "utf-8")
        elif (meta.get("http-equiv") or "").lower() == "content-type":
            meta.set("content", "text/html; charset=utf-8")
    return lxml.html.tostring(root, encoding="utf-8", doctype="<!DOCTYPE html>")


def text_cut(middleware: StripNoiseMiddleware, url: str, body: bytes) -> bytes:
    response = HtmlResponse(url, body=body, headers={"Content-Type": "text/html"})
    return middleware.process_response(Request(url), response).body


def extracted(body: bytes, url: str | None) -> dict:
    result = extract(body, url, encoding="utf-8", fetched_at=datetime.fromisoformat(FETCHED_AT))
    return {"is_article": result.is_article, "reason": result.reason, "title": result.title,
            "published": result.published, "text": result.text}


def first_difference(left: str, right: str, context: int = 60) -> str:
    at = next((i for i, (a, b) in enumerate(zip(left, right)) if a != b), min(len(left), len(right)))
    start = max(0, at - context)
    return f"at {at}: tree {left[start:at + context]!r} | cut {right[start:at + context]!r}"


def timed(strip, bodies: list[bytes], repeat: int) -> float:
    """Median over ``repeat`` runs of the CPU milliseconds per page ``strip`` takes over all ``bodies``
    (CPU time: the figure holds on a machine other jobs load)."""
    runs = []
    for _ in range(repeat):
        started = time.process_time()
        for body in bodies:
            strip(body)
        runs.append((time.process_time() - started) * 1000 / len(bodies))
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="the shared data folder (default ../shared beside the repo)")
    parser.add_argument("--limit", type=int, help="first N pages per dataset (quick look)")
    parser.add_argument("--show", type=int, default=20, help="differing pages shown in full")
    parser.add_argument("--repeat", type=int, default=3, help="timing runs of each stripping")
    args = parser.parse_args(argv)
    shared = common.shared_dir(args.shared)
    common.skip_without_shared(shared)
    middleware = StripNoiseMiddleware.from_crawler(get_crawler(settings_dict={}))
    pages = []
    for name, path, url in pages_of(shared / "eval", args.limit):
        data = path.read_bytes()
        pages.append((name, gzip.decompress(data) if path.name.endswith(".gz") else data, url or "http://example.test/"))
    differing = 0
    for name, body, url in pages:
        tree, cut = tree_strip(body), text_cut(middleware, url, body)
        old = extracted(tree if tree is not None else body, url)
        new = extracted(cut, url)
        fields = [field for field in COMPARED if old[field] != new[field]]
        if fields:
            differing += 1
            if differing <= args.show:
                detail = first_difference(old["text"], new["text"]) if "text" in fields else \
                    "; ".join(f"{f}: tree {old[f]!r} | cut {new[f]!r}" for f in fields)
                print(f"DIFFERENT {name}: {', '.join(fields)}: {detail}")
    bodies = [body for _, body, _ in pages]
    tree_ms = timed(tree_strip, bodies, args.repeat)
    cut_ms = timed(lambda body: text_cut(middleware, "http://example.test/", body), bodies, args.repeat)
    print(f"{len(pages)} pages of {shared / 'eval'}: {len(pages) - differing} extracted alike, {differing} differently")
    print(f"stripping, CPU ms per page (median of {args.repeat}): tree {tree_ms:.2f}, text cut {cut_ms:.2f} "
          f"({tree_ms / cut_ms:.1f}x)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
