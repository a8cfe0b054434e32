#!/usr/bin/env python3
"""CPU per page of two hot paths of the crawl, old code against new in one run, outputs compared.

    python benchmarks/hot_paths.py                       # every page of ../shared/eval, old code from main
    python benchmarks/hot_paths.py --baseline HEAD~3 --limit 100 --rounds 3
    python benchmarks/hot_paths.py --crawl-pool 1500      # the pages crawl_speed.py serves
    NEWSCRAWL_PURE_PYTHON=1 python benchmarks/hot_paths.py   # the new code without the compiled walks

- **Noise stripping** (the crawl process): ``StripNoiseMiddleware.process_response`` on each page's
  raw bytes (served with no charset in the header), and apart from it ``NoiseCutter.cut``, the most
  of it, on the page's decoded text. Every stripped body and header (and every cut text, removal
  count and unclosed element) must be the same with both versions.
- **Text fingerprint** (the extraction worker): ``fingerprint_text`` on the text ``extract`` finds in
  each page once it is stripped (the job the crawl's worker runs), for the pages found articles.
  Every fingerprint (signature bytes and band keys) must be the same; the numpy recipe the
  fingerprint falls back on without the compiled walks (``fingerprint_with_numpy``) is timed and
  compared too.

The old code is ``newscrawl/crawl/middlewares.py``, ``noise_cut.py``, ``fingerprint.py`` and
``newscrawl/extract/serialized.py`` as of the git revision ``--baseline`` (default main; after a
merge, the commit before it), loaded beside the current package (their other imports are the
current ones). Each round times every version over all pages in turn (CPU time of this process);
a version's figure is its fastest round, and the ratios old/new are what to compare across runs
(the machine is shared: absolute times move). Exit 1 when an output differs, 0 otherwise; without
../shared it prints why and exits 0.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import time
import types
from datetime import datetime, timezone

import common
from compiled_parity import FETCHED_AT, pages_of

common.use_repo_package()

from scrapy import Request  # noqa: E402  (after the repo package is on the path)
from scrapy.http import HtmlResponse  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

from newscrawl.crawl import fingerprint  # noqa: E402
from newscrawl.crawl.extract_jobs import run_extract  # noqa: E402
from newscrawl.crawl.middlewares import StripNoiseMiddleware  # noqa: E402
from newscrawl.extract import fastwalk  # noqa: E402
from newscrawl.extract.dom import decode_html, without_control_chars  # noqa: E402


def baseline_module(revision: str, path: str, replaced: dict[str, types.ModuleType] | None = None) -> types.ModuleType:
    """The module at ``path`` as of git ``revision``, loaded apart. Its relative imports are the current
    package's, except the modules ``replaced`` names (dotted name -> module), seen in their place."""
    source = subprocess.run(["git", "-C", str(common.REPO_ROOT), "show", f"{revision}:{path}"], check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType(f"baseline_{path.replace('/', '_').removesuffix('.py')}")
    module.__package__ = path.rsplit("/", 1)[0].replace("/", ".")
    module.__file__ = f"{revision}:{path}"
    sys.modules[module.__name__] = module  # dataclasses look their module up
    current = {name: sys.modules[name] for name in replaced or {}}
    sys.modules.update(replaced or {})
    try:
        exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 - our own file at a revision
    finally:
        sys.modules.update(current)
    return module


def served_pages(shared, limit: int | None, crawl_pool: int | None) -> list[tuple[str, bytes, str, str]]:
    """(name, body, URL, Content-Type) of each page: every page of ../shared/eval served with no charset
    in the header, or the first ``crawl_pool`` pages crawl_speed.py serves (hourly_cycle.load_pool:
    articles of 20-80 KB, with their charset in the header)."""
    if crawl_pool:
        from hourly_cycle import load_pool

        return [(f"pool/{number}", page.raw, f"http://127.0.0.1/news/story-{number}.html", page.content_type)
                for number, page in enumerate(load_pool(shared, crawl_pool))]
    served = []
    for name, path, url in pages_of(shared / "eval", limit):
        data = path.read_bytes()
        body = gzip.decompress(data) if path.name.endswith(".gz") else data
        served.append((name, body, url or "http://example.test/", "text/html"))
    return served


def _declared_charset(content_type: str) -> str | None:
    return content_type.partition("charset=")[2] or None


def stripped_outcome(response) -> tuple:
    return response.body, response.headers.get(b"Content-Type")


def cut_outcome(page) -> tuple:
    return page.text, dict(page.removed), page.unclosed


def fingerprint_outcome(found) -> tuple | None:
    return None if found is None else (bytes(found.signature), tuple(found.bands))


def timed_rounds(versions: dict, inputs: list, rounds: int) -> dict[str, float]:
    """The fastest of ``rounds`` runs of each version over all inputs, CPU ms per input; the
    versions take turns within each round."""
    best = {name: float("inf") for name in versions}
    for _ in range(rounds):
        for name, function in versions.items():
            started = time.process_time()
            for value in inputs:
                function(value)
            best[name] = min(best[name], (time.process_time() - started) * 1000 / len(inputs))
    return best


def compared(what: str, versions: dict, outcome, inputs: list, names: list[str], show: int) -> int:
    """Pages whose outcome differs between the first version and any other; prints up to ``show``."""
    differing = 0
    (first_name, first), *others = versions.items()
    for name, value in zip(names, inputs):
        expected = outcome(first(value))
        for other_name, other in others:
            if outcome(other(value)) != expected:
                differing += 1
                if differing <= show:
                    print(f"DIFFERENT {what} on {name}: {first_name} and {other_name}")
                break
    return differing


def report(what: str, best: dict[str, float], count: int, differing: int) -> None:
    new = best["new"]
    figures = ", ".join(f"{name} {ms:.4f}" + ("" if name == "new" else f" ({ms / new:.2f}x new)")
                        for name, ms in best.items())
    print(f"{what}: {count} inputs, {count - differing} alike, {differing} different; CPU ms each: {figures}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="the shared data folder (default ../shared beside the repo)")
    parser.add_argument("--baseline", default="main", help="git revision of the old code (default main)")
    parser.add_argument("--limit", type=int, help="first N pages per dataset (quick look)")
    parser.add_argument("--crawl-pool", type=int, metavar="N",
                        help="instead, the first N pages crawl_speed.py serves (20-80 KB articles; it uses up to 1500)")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds (each version once per round)")
    parser.add_argument("--show", type=int, default=10, help="differing pages named")
    args = parser.parse_args(argv)
    shared = common.shared_dir(args.shared)
    common.skip_without_shared(shared)
    old_cut = baseline_module(args.baseline, "newscrawl/crawl/noise_cut.py")
    old_serialized = baseline_module(args.baseline, "newscrawl/extract/serialized.py")
    old_middlewares = baseline_module(args.baseline, "newscrawl/crawl/middlewares.py", {
        "newscrawl.crawl.noise_cut": old_cut, "newscrawl.extract.serialized": old_serialized})
    old_fingerprint = baseline_module(args.baseline, "newscrawl/crawl/fingerprint.py")
    revision = subprocess.run(["git", "-C", str(common.REPO_ROOT), "rev-parse", "--short", args.baseline],
                              capture_output=True, text=True).stdout.strip()
    print(f"old code: {args.baseline} ({revision}); new: the working tree; compiled walks: {fastwalk.report.kind}")

    crawler = get_crawler(settings_dict={})
    middleware = StripNoiseMiddleware.from_crawler(crawler)
    old_middleware = old_middlewares.StripNoiseMiddleware.from_crawler(crawler)
    names, responses, texts, articles, article_names = [], [], [], [], []
    for name, body, url, content_type in served_pages(shared, args.limit, args.crawl_pool):
        text = without_control_chars(decode_html(body, _declared_charset(content_type)))  # the cut's input
        if not text or text.isspace():
            continue
        names.append(name)
        texts.append(text)
        response = HtmlResponse(url, body=body, headers={"Content-Type": content_type})
        responses.append((Request(url), response))
        stripped = middleware.process_response(Request(url), response).body
        result = run_extract(stripped, url, "utf-8", FETCHED_AT, None)
        if result.is_article:
            articles.append(result.text)
            article_names.append(name)

    strips = {"new": lambda pair: middleware.process_response(*pair),
              "old": lambda pair: old_middleware.process_response(*pair)}
    strip_differing = compared("noise stripping", strips, stripped_outcome, responses, names, args.show)
    cuts = {"new": middleware.cutter.cut, "old": old_middleware.cutter.cut}
    cut_differing = compared("noise cut", cuts, cut_outcome, texts, names, args.show)
    prints = {"new": fingerprint.fingerprint_text, "old": old_fingerprint.fingerprint_text}
    if hasattr(fingerprint, "fingerprint_with_numpy"):
        prints["numpy"] = fingerprint.fingerprint_with_numpy
    for version in prints.values():  # tables built once per process, before timing
        version("warm up " * 30)
    print_differing = compared("fingerprint", prints, fingerprint_outcome, articles, article_names, args.show)

    strip_best = timed_rounds(strips, responses, args.rounds)
    cut_best = timed_rounds(cuts, texts, args.rounds)
    print_best = timed_rounds(prints, articles, args.rounds)
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, fastest of {args.rounds} rounds")
    print(f"  pages: {len(texts)} ({statistics.mean(map(len, texts)) / 1000:.1f} K characters each on average); "
          f"article texts: {len(articles)} ({statistics.mean(map(len, articles)) / 1000:.1f} K characters)")
    report("noise stripping (the middleware)", strip_best, len(texts), strip_differing)
    report("noise cut alone (NoiseCutter.cut)", cut_best, len(texts), cut_differing)
    report("fingerprint", print_best, len(articles), print_differing)
    return 1 if strip_differing or cut_differing or print_differing else 0


if __name__ == "__main__":
    sys.exit(main())
