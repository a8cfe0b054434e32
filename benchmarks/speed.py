#!/usr/bin/env python3
"""CPU time and memory per page: our extractor against trafilatura, readability-lxml and a bare parse.

    python benchmarks/speed.py                      # every dataset in ../shared/eval
    python benchmarks/speed.py --data cx_zh --data dragnet --limit 200 --check

All pages are read and decoded once (by ../shared/eval/score.py's loader, the same
strings the accuracy scorer uses), then every extractor runs over the same in-memory
strings in this one process. Time is ``time.process_time`` around each call (CPU of
this process), reported as mean CPU ms per page. Each extractor gets one untimed
warm-up call first. The extractors take turns in blocks of ``BLOCK_PAGES`` pages (each
runs over a block, the order rotating from block to block), so that a change in the
machine's load during the run (other jobs on the shared cores slow every call down)
weighs on all of them alike instead of on whichever ran at that time.

Memory is measured in a separate pass, each extractor in a fresh Python process of its
own (``--memory-worker``) over the same sample of the pages: before every call the kernel's peak-RSS mark is reset
(``/proc/self/clear_refs`` = 5) after freed heap pages are handed back to the kernel
(``gc.collect()`` + glibc ``malloc_trim(0)``), and the page's figure is VmHWM after the
call minus VmRSS before it: the resident memory the call added at its peak, C
allocations (libxml2 trees) included. Pages the allocator keeps despite the trim can
be reused without showing, so read it as a close lower bound. Where /proc cannot be
written, tracemalloc's peak per call is reported instead (Python objects only).

Goals: ours at most 1/4 of trafilatura's time and at most 3.5x the bare
parse. ``--check`` exits 1 when one is missed. Peers come from
benchmarks/requirements.txt; a peer that is not installed is reported and skipped
(and ``--check`` then fails, since its ratio cannot be checked).
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from typing import Callable

import common

GOAL_VS_TRAFILATURA = 0.25   # ours / trafilatura CPU time, at most (the speed goal)
GOAL_VS_BARE_PARSE = 3.5     # ours / lxml.html.fromstring CPU time, at most (the speed goal)
MEMORY_SAMPLE_PAGES = 300    # pages per extractor in the memory pass (evenly spread)
# Pages each extractor runs over before the next takes its turn. One after the other over all
# 2,892 pages, a run on 2026-11-22 while other jobs came and went gave ours/trafilatura 0.292 and
# ours/bare parse 6.6, where the quiet run before gave 0.263 and 5.3: the extractors had met
# different loads. Blocks keep each extractor's caches warm over many pages, as in a crawl.
BLOCK_PAGES = 50
MB = 1024 * 1024
try:
    _LIBC = ctypes.CDLL("libc.so.6")
except OSError:
    _LIBC = None

Extractor = Callable[[str, "str | None"], object]


@dataclass
class Timing:
    name: str
    version: str
    pages: int = 0
    cpu_seconds: float = 0.0
    crashes: int = 0
    memory_median_mb: float | None = None
    memory_max_mb: float | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def ms_per_page(self) -> float:
        return 1000 * self.cpu_seconds / self.pages if self.pages else 0.0


# --- the contestants -----------------------------------------------------------------------------

def make_ours() -> Extractor:
    common.use_repo_package()
    from newscrawl.extract import extract
    return lambda html, url: extract(html, url)


def make_trafilatura() -> Extractor:
    import trafilatura
    return lambda html, url: trafilatura.extract(html, url=url)


def make_readability() -> Extractor:
    from readability import Document
    return lambda html, url: Document(html).summary()


def make_bare_parse() -> Extractor:
    import lxml.html
    utf8 = lxml.html.HTMLParser(encoding="utf-8")

    def parse(html, url):
        try:
            return lxml.html.fromstring(html)
        except ValueError:  # str with an XML encoding declaration: lxml wants bytes then
            return lxml.html.fromstring(html.encode("utf-8"), parser=utf8)
    return parse


CONTESTANTS = {  # name -> (factory, distribution for the version column)
    "ours": (make_ours, None),
    "trafilatura": (make_trafilatura, "trafilatura"),
    "readability": (make_readability, "readability-lxml"),
    "lxml parse": (make_bare_parse, "lxml"),
}


def version_of(distribution: str | None) -> str:
    if distribution is None:
        return "this tree"
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


# --- measuring -----------------------------------------------------------------------------------

def time_pages(timing: Timing, fn: Extractor, pages: list[tuple[str, str | None]]) -> None:
    """Run ``fn`` over ``pages``, adding its CPU time, pages and crashes to ``timing``."""
    for html, url in pages:
        started = time.process_time()
        try:
            fn(html, url)
        except Exception as error:  # noqa: BLE001 - a crash is counted, not fatal
            timing.crashes += 1
            if len(timing.errors) < 3:
                timing.errors.append(f"{type(error).__name__}: {error}"[:160])
        timing.cpu_seconds += time.process_time() - started
        timing.pages += 1


def warm_up(fn: Extractor, page: tuple[str, str | None]) -> None:
    try:
        fn(*page)
    except Exception:  # noqa: BLE001 - the warm-up only loads lazy imports
        pass


def time_in_turns(contestants: dict[str, Extractor], pages: list[tuple[str, str | None]],
                  versions: dict[str, str], block: int = BLOCK_PAGES) -> dict[str, Timing]:
    """Time every contestant over all pages, taking turns block by block (see the module docstring)."""
    timings = {name: Timing(name, versions[name]) for name in contestants}
    for fn in contestants.values():
        warm_up(fn, pages[0])
    names = list(contestants)
    for number, start in enumerate(range(0, len(pages), block)):
        chunk = pages[start:start + block]
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            time_pages(timings[name], contestants[name], chunk)
    return timings


def _proc_kib(field_name: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    raise OSError(f"{field_name} not in /proc/self/status")


def _release_free_memory() -> None:
    """Give freed heap pages back to the kernel (glibc), so the next call's growth shows in RSS."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")


def rss_method_works() -> bool:
    try:
        _reset_peak_rss()
        _proc_kib("VmHWM")
        return True
    except OSError:
        return False


def peaks_per_page(fn: Extractor, pages: list[tuple[str, str | None]], use_rss: bool) -> list[float]:
    """Peak memory added by each call, in MB (RSS high-water mark, or tracemalloc peak)."""
    peaks = []
    for html, url in pages:
        if use_rss:
            gc.collect()
            _release_free_memory()
            _reset_peak_rss()
            before = _proc_kib("VmRSS")
        else:
            tracemalloc.start()
        try:
            fn(html, url)
        except Exception:  # noqa: BLE001 - crashes are counted in the timing pass
            pass
        if use_rss:
            peaks.append(max(0, _proc_kib("VmHWM") - before) / 1024)
        else:
            peaks.append(tracemalloc.get_traced_memory()[1] / MB)
            tracemalloc.stop()
    return peaks


def measure_memory_in_worker(name: str, pages: list[tuple[str, str | None]], use_rss: bool) -> list[float]:
    """Run ``peaks_per_page`` for one extractor in a fresh Python process (``--memory-worker``).

    A fresh process, not a fork: a forked child would inherit this process's heap, full of
    free chunks left by loading and decoding, and could fill them without its RSS showing it.
    """
    with tempfile.TemporaryDirectory() as tmp:
        pages_file = os.path.join(tmp, "pages.json")
        with open(pages_file, "w", encoding="utf-8") as out:
            json.dump(pages, out)
        command = [sys.executable, os.path.abspath(__file__), "--memory-worker", name,
                   "--pages-file", pages_file] + ([] if use_rss else ["--tracemalloc"])
        done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{name}: memory pass failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return []
    return json.loads(done.stdout.strip().splitlines()[-1])


def memory_worker(name: str, pages_file: str, use_rss: bool) -> int:
    """The ``--memory-worker`` process: print the per-page peaks of one extractor as JSON."""
    logging.disable(logging.CRITICAL)
    with open(pages_file, encoding="utf-8") as source:
        pages = [tuple(page) for page in json.load(source)]
    fn = CONTESTANTS[name][0]()
    try:
        fn(*pages[0])
    except Exception:  # noqa: BLE001 - the warm-up only loads lazy imports
        pass
    print(json.dumps(peaks_per_page(fn, pages, use_rss)))
    return 0


def sample(pages: list, count: int) -> list:
    if count <= 0:
        return []  # --memory-pages 0: no memory pass
    if len(pages) <= count:
        return pages
    step = len(pages) / count
    return [pages[int(i * step)] for i in range(count)]


# --- report --------------------------------------------------------------------------------------

def ratio(a: Timing | None, b: Timing | None) -> float | None:
    if a is None or b is None or not b.ms_per_page:
        return None
    return a.ms_per_page / b.ms_per_page


def report(timings: dict[str, Timing], memory_label: str) -> list[str]:
    """Print the table and the goals; return the goals that failed."""
    ours = timings.get("ours")
    print(f"\n{'extractor':<13}{'version':<11}{'CPU ms/page':>12}{'ours/this':>11}{'crashes':>9}"
          f"{'mem MB/page median':>20}{'max':>8}")
    for t in timings.values():
        rel = ratio(ours, t)
        med = f"{t.memory_median_mb:.1f}" if t.memory_median_mb is not None else "-"
        top = f"{t.memory_max_mb:.1f}" if t.memory_max_mb is not None else "-"
        print(f"{t.name:<13}{t.version[:10]:<11}{t.ms_per_page:12.2f}{(f'{rel:.2f}' if rel else '-'):>11}"
              f"{t.crashes:>9}{med:>20}{top:>8}")
        for error in t.errors:
            print(f"    {t.name} crash: {error}")
    print(f"memory: {memory_label}")
    failures = []
    goals = [("ours/trafilatura", ratio(ours, timings.get("trafilatura")), GOAL_VS_TRAFILATURA),
             ("ours/readability", ratio(ours, timings.get("readability")), None),
             ("ours/bare parse", ratio(ours, timings.get("lxml parse")), GOAL_VS_BARE_PARSE)]
    print()
    for label, value, goal in goals:
        shown = f"{value:.3f}" if value is not None else "not measured"
        if goal is None:
            print(f"{label:<18}{shown:>14}")
            continue
        ok = value is not None and value <= goal
        print(f"{label:<18}{shown:>14}   goal <= {goal:<5} {'OK' if ok else 'MISSED'}")
        if not ok:
            failures.append(f"{label} = {shown}, goal <= {goal}")
    return failures


def load_pages(shared, names: list[str] | None, limit: int | None) -> tuple[list[tuple[str, str | None]], str]:
    score = common.load_score_module(shared)
    pages, parts, size = [], [], 0
    for folder in common.datasets_in(shared / "eval", names):
        loaded = score.load_dataset(str(folder), limit)
        pages.extend((p["html"], p.get("url")) for p in loaded)
        size += sum(len(p["raw"]) for p in loaded)
        parts.append(f"{folder.name} {len(loaded)}")
    return pages, f"{len(pages)} pages ({', '.join(parts)}; {size / 1e6:.1f} MB of HTML)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append", help="dataset name in ../shared/eval (repeatable; default all)")
    parser.add_argument("--limit", type=int, help="only the first N pages of each dataset")
    parser.add_argument("--shared", help="the shared data folder (default ../shared beside the repo)")
    parser.add_argument("--memory-pages", type=int, default=MEMORY_SAMPLE_PAGES,
                        help="pages per extractor in the memory pass (0 = skip it)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a speed goal is missed")
    parser.add_argument("--json-out", help="also write the figures to this JSON file")
    parser.add_argument("--memory-worker", help=argparse.SUPPRESS)
    parser.add_argument("--pages-file", help=argparse.SUPPRESS)
    parser.add_argument("--tracemalloc", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_worker:
        return memory_worker(args.memory_worker, args.pages_file, not args.tracemalloc)
    logging.disable(logging.CRITICAL)  # peers log tracebacks of pages they fail on; crashes are counted

    shared = common.shared_dir(args.shared)
    common.skip_without_shared(shared)
    pages, described = load_pages(shared, args.data, args.limit)
    if not pages:
        print("no pages to measure", file=sys.stderr)
        return 2
    print(f"speed: {described}; CPU time per call (time.process_time), one process, {sys.version.split()[0]}")

    use_rss = rss_method_works()
    memory_label = ("peak RSS added per call (VmHWM after - VmRSS before), fresh process per extractor"
                    if use_rss else "tracemalloc peak per call (Python allocations only)")
    memory_pages = sample(pages, args.memory_pages)
    peaks_by_name = {name: measure_memory_in_worker(name, memory_pages, use_rss)
                     for name in CONTESTANTS if memory_pages}
    contestants: dict[str, Extractor] = {}
    versions: dict[str, str] = {}
    for name, (factory, distribution) in CONTESTANTS.items():
        try:
            contestants[name] = factory()
        except ImportError as error:
            print(f"{name}: not installed ({error}); pip install -r benchmarks/requirements.txt", file=sys.stderr)
            continue
        versions[name] = version_of(distribution)
    timings = time_in_turns(contestants, pages, versions)
    for name, timing in timings.items():
        peaks = peaks_by_name.get(name)
        if peaks:
            timing.memory_median_mb = statistics.median(peaks)
            timing.memory_max_mb = max(peaks)
        print(f"  {name}: {timing.ms_per_page:.2f} CPU ms/page", flush=True)
    memory_label += f", {len(memory_pages)} pages"
    failures = report(timings, memory_label)
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump({"pages": described, "memory": memory_label,
                       "results": [{**vars(t), "ms_per_page": t.ms_per_page} for t in timings.values()]},
                      out, indent=1)
    if args.check and failures:
        print("speed goals missed: " + "; ".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
