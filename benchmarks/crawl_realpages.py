"""The real crawl on a loopback web of real news pages: coverage, extra items and body F1.

    python benchmarks/crawl_realpages.py [--datasets cx_zh,cx_bbc,cleanportaleval,dragnet]
                                         [--sites 20] [--limit N] [--check] [--keep DIR]

Every raw page of the chosen ``../shared/eval`` datasets is served, byte for byte,
as an article of one of SITES sites, each on its own loopback address
(127.0.0.10, .11, ...) on one port. Pages of one dataset go to the same sites,
grouped by their original host. A page's path is the path (and query) of its
real URL when one is known (the dataset's ``url``, else the page's own
rel=canonical or og:url), so the crawl meets real URL shapes; a page with no
known URL, or whose path is taken or is a site root, is served at
``/<dataset>/<id>.html``. The Content-Type header names the charset with which
``score.py`` decodes the page (GBK pages are served as GBK bytes with
``charset=gbk``). Each site also has, written by this script: a home page linking
list pages (``/list/<n>.html``, 20 stories each) and announcing an RSS feed
(``/feed.xml``, every article), a sitemap (``/sitemap.xml``) named in robots.txt.

The real command then runs in a subprocess, ``python -m scrapy crawl news -a
sites=<generated yaml> -O out.jsonl``, with loopback settings (no AutoThrottle,
no delay, 64 concurrent requests), and its JSONL is scored against the gold.

How pages are counted (the goal is about the articles the crawl should emit):
- *articles*: pages on which ``newscrawl.extract.extract`` alone (score.py's
  decoded string, the served URL) finds an article (``reason is None``);
  *coverage* = articles emitted / articles (goal >= 98%).
- *non-articles*: pages on which ``extract`` alone gives a reason (too short, a
  link page, no body). They are reported on their own line, with how many the
  crawl emitted anyway; they count neither as misses nor as extra items.
- pages sharing their canonical URL (rel=canonical) with another dataset page
  are one article to the crawl, which keeps one copy: a page not emitted whose
  canonical URL an emitted dataset page has counts as emitted, with that text.
- *extra items* = JSONL lines whose URL is none of the dataset pages (home, list
  pages, 404s...) plus second and later lines for the same page, over all
  lines (goal <= 2%).
- *token F1*: score.py's ``tp_fp_fn`` and ``token_metrics`` over the article
  pages, the crawl's ``text`` (empty when the page was not emitted) against
  the gold, next to ``extract`` alone on the same pages (goal: within 0.01).
Misses are listed with the crawl's own drop reason (read from its log) or
"not emitted" when the page never reached the pipeline.

``--check`` exits 1 when a goal fails. Without ../shared this exits 0 with a message.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

import common
from loopback_web import free_port, serving

common.use_repo_package()

from scrapy.logformatter import LogFormatter  # noqa: E402

from newscrawl.demo.run import crawl, write_sites_file  # noqa: E402
from newscrawl.extract import extract  # noqa: E402
from newscrawl.crawl.pipelines import canonical_url_of  # noqa: E402
from newscrawl.crawl.urls import canonicalize  # noqa: E402

DATASETS = ("cx_zh", "cx_bbc", "cleanportaleval", "dragnet")
GOAL_COVERAGE = 0.98
GOAL_EXTRA = 0.02
GOAL_F1_GAP = 0.01
LIST_SIZE = 20  # stories per list page
RESERVED_PATHS = ("/", "/robots.txt", "/feed.xml", "/sitemap.xml")
CRAWL_SETTINGS = {
    "CONCURRENT_REQUESTS": "64",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
    "DOWNLOAD_TIMEOUT": "20",
    "RETRY_TIMES": "0",
    "LOG_LEVEL": "INFO",
    "LOG_FORMATTER": "crawl_realpages.DropReasonLogFormatter",
    "NEWSCRAWL_PROGRESS_INTERVAL": "30",
}
_LINK_URL_RE = re.compile(rb"<link\b[^>]*\brel\s*=\s*[\"']?canonical\b[^>]*>", re.I)
_META_URL_RE = re.compile(rb"<meta\b[^>]*\bproperty\s*=\s*[\"']?og:url\b[^>]*>", re.I)
_ATTR_URL_RE = re.compile(rb"\b(?:href|content)\s*=\s*[\"']?(https?://[^\"'\s>]+)", re.I)
_DROPPED_RE = re.compile(r"Dropped: (\w+): (\S+)")


class DropReasonLogFormatter(LogFormatter):
    """Log a dropped item as ``Dropped: <reason>: <url>`` only (the page body stays out of the log)."""

    def dropped(self, item, exception, response, spider=None):
        return {"level": logging.INFO, "msg": "Dropped: %(exception)s", "args": {"exception": exception}}


@dataclass
class RealPage:
    dataset: str
    id: str
    gold: str
    raw: bytes
    html: str  # as score.py decodes it
    charset: str  # the codec that gives ``html`` from ``raw``
    origin: str | None  # the page's real URL, when known
    site: int = -1
    path: str = ""
    url: str = ""  # where the loopback web serves it
    baseline: str = ""  # extract() text
    canonical: str = ""  # the canonical URL the crawl dedups on (rel=canonical or the served URL)
    is_article: bool = False
    reason: str | None = None


@dataclass
class Tally:
    pages: list = field(default_factory=list)

    def articles(self) -> list:
        return [p for p in self.pages if p.is_article]


def real_url_of(page: dict) -> str | None:
    """The dataset's URL, else the page's rel=canonical or og:url (absolute http URLs only)."""
    if page.get("url"):
        return page["url"]
    head = page["raw"][:200_000]
    for tag_re in (_LINK_URL_RE, _META_URL_RE):
        for tag in tag_re.finditer(head):
            found = _ATTR_URL_RE.search(tag.group(0))
            if found:
                return found.group(1).decode("latin-1")
    return None


def charset_of(raw: bytes, html: str, score) -> str:
    """The codec with which score.py's decode_html turned ``raw`` into ``html`` (gbk named as such)."""
    declared = score._META_RE.search(raw[:4096]) or score._XML_RE.search(raw[:4096])
    label = score._norm_enc(declared.group(1).decode("ascii", "ignore")) if declared else None
    for codec in filter(None, (label, "utf-8", "gbk", "gb18030", "cp1252")):
        try:
            if raw.decode(codec, "replace").lstrip("\ufeff") == html:
                return codec
        except LookupError:
            continue
    return "utf-8"


def load_pages(score, eval_dir: Path, datasets: list[str], limit: int | None) -> list[RealPage]:
    pages = []
    for name in datasets:
        for row in score.load_dataset(str(eval_dir / name), limit):
            pages.append(RealPage(name, row["id"], row["text"], row["raw"], row["html"],
                                  charset_of(row["raw"], row["html"], score), real_url_of(row)))
    return pages


def assign_sites(pages: list[RealPage], sites: int) -> None:
    """Sites per dataset in proportion to its size (at least one); pages sorted by real URL, dealt in runs."""
    by_dataset = defaultdict(list)
    for page in pages:
        by_dataset[page.dataset].append(page)
    shares = {name: max(1, round(sites * len(group) / len(pages))) for name, group in by_dataset.items()}
    while sum(shares.values()) > sites:
        shares[max(shares, key=shares.get)] -= 1
    while sum(shares.values()) < sites:
        shares[max(by_dataset, key=lambda n: len(by_dataset[n]) / shares[n])] += 1
    first = 0
    for name, group in by_dataset.items():
        group.sort(key=lambda p: (urlsplit(p.origin).hostname or "" if p.origin else "~", p.id))
        per_site = -(-len(group) // shares[name])
        for index, page in enumerate(group):
            page.site = first + index // per_site
        first += shares[name]


def _served(host: str, port: int, path: str) -> tuple[str, str]:
    """(canonical URL, path+query as requested) of ``path`` on a loopback site."""
    url = canonicalize(f"http://{host}:{port}{path}")
    parts = urlsplit(url)
    return url, parts.path + (f"?{parts.query}" if parts.query else "")


def place_pages(pages: list[RealPage], hosts: list[str], port: int) -> None:
    """Give each page its path on its site (its real path when free) and its served URL."""
    taken = defaultdict(set)
    for page in pages:
        host = hosts[page.site]
        url, path = _served(host, port, urlsplit(canonicalize(page.origin))._replace(scheme="", netloc="").geturl()
                            if page.origin else "/")
        if path in RESERVED_PATHS or path.startswith("/list/") or path in taken[host]:
            url, path = _served(host, port, f"/{page.dataset}/{page.id}.html")
        taken[host].add(path)
        page.url, page.path = url, path


def _html_page(title: str, body: str, head: str = "") -> bytes:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(title)}</title>{head}</head>'
            f"<body><h1>{escape(title)}</h1>{body}</body></html>").encode("utf-8")


def site_routes(name: str, host: str, port: int, pages: list[RealPage]) -> dict[str, tuple[str, bytes]]:
    """Home, list pages, RSS feed, sitemap, robots.txt and the articles of one site."""
    base = f"http://{host}:{port}"
    routes = {p.path: (f"text/html; charset={p.charset}", p.raw) for p in pages}
    chunks = [pages[i:i + LIST_SIZE] for i in range(0, len(pages), LIST_SIZE)]
    for number, chunk in enumerate(chunks, 1):
        links = "".join(f'<li><a href="{escape(p.url)}">Story {p.dataset} {p.id}</a></li>' for p in chunk)
        more = f'<a href="/list/{number + 1}.html">Older stories</a>' if number < len(chunks) else ""
        routes[f"/list/{number}.html"] = ("text/html; charset=utf-8",
                                          _html_page(f"{name}: stories, page {number}", f"<ul>{links}</ul>{more}"))
    pages_nav = "".join(f'<li><a href="/list/{n}.html">Stories, page {n}</a></li>' for n in range(1, len(chunks) + 1))
    feed_link = '<link rel="alternate" type="application/rss+xml" title="Latest" href="/feed.xml">'
    routes["/"] = ("text/html; charset=utf-8", _html_page(f"{name}: home", f"<ul>{pages_nav}</ul>", feed_link))
    items = "".join(f"<item><title>Story {p.id}</title><link>{escape(p.url)}</link></item>" for p in pages)
    routes["/feed.xml"] = ("application/rss+xml; charset=utf-8", (
        f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>{name}</title>'
        f"<link>{base}/</link><description>{name}</description>{items}</channel></rss>").encode("utf-8"))
    locs = "".join(f"<url><loc>{escape(p.url)}</loc></url>" for p in pages)
    routes["/sitemap.xml"] = ("application/xml; charset=utf-8", (
        '<?xml version="1.0" encoding="utf-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{locs}</urlset>").encode("utf-8"))
    routes["/robots.txt"] = ("text/plain", f"User-agent: *\nAllow: /\nSitemap: {base}/sitemap.xml\n".encode())
    return routes


def run_baseline(pages: list[RealPage]) -> float:
    """extract() alone on every page; returns CPU seconds."""
    started = time.process_time()
    for page in pages:
        result = extract(page.html, page.url)
        page.baseline, page.is_article, page.reason = result.text, result.is_article, result.reason
        page.canonical = canonical_url_of(page, result)
    return time.process_time() - started


def run_crawl(sites_file: Path, workdir: Path) -> tuple[list[dict], dict[str, str], float]:
    """(JSONL items, {url: drop reason}, seconds) of the real crawl."""
    output, log, state = workdir / "out.jsonl", workdir / "crawl.log", workdir / "state.sqlite"
    for stale in (state, log):  # a first crawl: no article known from an earlier run, a fresh log
        stale.unlink(missing_ok=True)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                               os.environ.get("PYTHONPATH")]))
    started = time.monotonic()
    result = crawl(sites_file, output, settings={**CRAWL_SETTINGS, "LOG_FILE": str(log), "STATE_PATH": str(state)}, cwd=workdir, timeout=3600)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-3000:] + log.read_text(encoding="utf-8", errors="replace")[-3000:])
        raise SystemExit(f"crawl failed with code {result.returncode}")
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").split("\n") if line.strip()]
    drops = {m.group(2): m.group(1) for m in _DROPPED_RE.finditer(log.read_text(encoding="utf-8", errors="replace"))}
    return items, drops, elapsed


def _covered_by_copies(pages: list[RealPage], texts: dict[str, str]) -> dict[str, str]:
    """{url: text} of unemitted pages whose canonical URL an emitted dataset page has (dataset duplicates)."""
    emitted = {}
    for page in pages:
        if page.url in texts:
            emitted.setdefault(page.canonical, texts[page.url])
    return {p.url: emitted[p.canonical] for p in pages if p.url not in texts and p.canonical in emitted}


def _f1(score, pairs: list[tuple[str, str]]) -> float:
    return score.token_metrics([score.tp_fp_fn(gold, text) for gold, text in pairs])[2]


def report(score, pages: list[RealPage], items: list[dict], drops: dict[str, str]) -> dict:
    by_url = {p.url: p for p in pages}
    texts, counts, extra = {}, Counter(), 0
    for item in items:
        page = by_url.get(canonicalize(item["url"]))
        if page is None or counts[page.url]:
            extra += 1
        if page is not None:
            counts[page.url] += 1
            texts.setdefault(page.url, item.get("text") or "")
    copies = _covered_by_copies(pages, texts)
    texts.update(copies)
    groups = defaultdict(list)
    for page in pages:
        groups[page.dataset].append(page)
    print(f"{'dataset':16} {'pages':>5} {'articles':>8} {'emitted':>7} {'share':>7} {'F1 crawl':>8} "
          f"{'F1 extract':>10} {'gap':>7} {'non-art':>7} {'(emitted)':>9}")
    rows = {}
    for name, group in [*groups.items(), ("all", pages)]:
        articles = [p for p in group if p.is_article]
        others = [p for p in group if not p.is_article]
        emitted = sum(1 for p in articles if p.url in texts)
        crawl_f1 = _f1(score, [(p.gold, texts.get(p.url, "")) for p in articles])
        alone_f1 = _f1(score, [(p.gold, p.baseline) for p in articles])
        share = emitted / len(articles) if articles else 1.0
        rows[name] = {"pages": len(group), "articles": len(articles), "emitted": emitted, "share": share,
                      "f1_crawl": crawl_f1, "f1_extract": alone_f1}
        print(f"{name:16} {len(group):5d} {len(articles):8d} {emitted:7d} {share:7.1%} {crawl_f1:8.3f} "
              f"{alone_f1:10.3f} {crawl_f1 - alone_f1:+7.3f} {len(others):7d} "
              f"{sum(1 for p in others if p.url in texts):9d}")
    extra_share = extra / len(items) if items else 0.0
    print(f"items: {len(items)}, extra: {extra} ({extra_share:.1%}; not a dataset page, or a repeat)")
    if copies:
        print(f"{len(copies)} dataset page(s) share their canonical URL with an emitted dataset page: counted as "
              "emitted (the crawl keeps one copy), with that copy's text")
    missed = [p for p in pages if p.is_article and p.url not in texts]
    reasons = Counter(drops.get(p.url, "not emitted") for p in missed)
    if missed:
        print("missed articles by crawl reason: " + ", ".join(f"{r} {n}" for r, n in reasons.most_common()))
        for page in missed[:15]:
            print(f"  {drops.get(page.url, 'not emitted'):14} {page.dataset}/{page.id}  {page.path[:90]}")
    rows["all"]["extra"] = extra_share
    return rows


def failed_goals(total: dict) -> list[str]:
    problems = []
    if total["share"] < GOAL_COVERAGE:
        problems.append(f"coverage {total['share']:.1%} < {GOAL_COVERAGE:.0%}")
    if total["extra"] > GOAL_EXTRA:
        problems.append(f"extra items {total['extra']:.1%} > {GOAL_EXTRA:.0%}")
    if abs(total["f1_crawl"] - total["f1_extract"]) > GOAL_F1_GAP:
        problems.append(f"F1 gap {total['f1_crawl'] - total['f1_extract']:+.3f} beyond {GOAL_F1_GAP}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default=",".join(DATASETS), help="comma list of ../shared/eval datasets")
    parser.add_argument("--sites", type=int, default=20)
    parser.add_argument("--limit", type=int, help="first N pages of each dataset")
    parser.add_argument("--shared", help="shared data folder (default ../shared)")
    parser.add_argument("--keep", help="keep the sites file, JSONL, summary and log in this folder")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal fails")
    options = parser.parse_args(argv)
    shared = common.shared_dir(options.shared)
    common.skip_without_shared(shared)
    score = common.load_score_module(shared)
    names = [d.name for d in common.datasets_in(shared / "eval", options.datasets.split(","))]
    pages = load_pages(score, shared / "eval", names, options.limit)
    hosts = [f"127.0.0.{10 + i}" for i in range(options.sites)]
    port = free_port(hosts)
    assign_sites(pages, len(hosts))
    place_pages(pages, hosts, port)
    cpu = run_baseline(pages)
    print(f"{len(pages)} pages from {', '.join(names)} on {len(hosts)} sites; extract alone {cpu:.1f} s CPU")
    web, configs = {}, []
    for index, host in enumerate(hosts):
        name = f"real-{index:02d}"
        web[host] = site_routes(name, host, port, [p for p in pages if p.site == index])
        configs.append({"name": name, "start_urls": [f"http://{host}:{port}/"]})
    with tempfile.TemporaryDirectory() as tmp, serving(web, port):
        workdir = Path(options.keep or tmp)
        sites_file = write_sites_file(configs, workdir / "sites.yaml")
        items, drops, elapsed = run_crawl(sites_file, workdir)
    print(f"crawl: {elapsed:.0f} s wall (python -m scrapy crawl news -a sites=<generated yaml> -O out.jsonl)")
    rows = report(score, pages, items, drops)
    problems = failed_goals(rows["all"])
    print("goals: " + ("met" if not problems else "NOT met: " + "; ".join(problems)))
    return 1 if options.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
